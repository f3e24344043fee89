/* cufile.c - the `cufile` engine (GPU Direct Storage in gdsio's transfer
 * types) and gds_probe. libcufile and the CUDA runtime (or, failing that,
 * the driver API) are loaded with dlopen on first use, so nothing here needs
 * CUDA at build time; the few types and signatures used are declared below
 * from NVIDIA's cufile.h / CUDA runtime and driver API reference. One synchronous I/O per thread, as gdsio issues them. */
#include "io/cufile.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "io/engine.h"
#include "util/error.h"

/* ---- the ABI we use (cufile.h, cuda_runtime_api.h) --------------------- */

#define CUFILE_ERROR_BASE 5000
#define CUFILE_CUDA_DRIVER_ERROR 5011
#define CUFILE_HANDLE_TYPE_OPAQUE_FD 1
#define CUDA_MEMCPY_HOST_TO_DEVICE 1
#define CUDA_MEMCPY_DEVICE_TO_HOST 2

typedef struct {
	int err;      /* CUfileOpError */
	int cu_err;   /* CUresult, when err is CU_FILE_CUDA_DRIVER_ERROR */
} cufile_error;

typedef void *cufile_handle;
typedef void *cuda_stream;

struct cufile_descr {
	int type;
	union {
		int fd;
		void *handle;
	} handle;
	const void *fs_ops;
};

/* CUfileDrvProps_t; padded because later releases may append fields. */
union cufile_props {
	struct {
		struct {
			unsigned major_version, minor_version;
			size_t poll_thresh_size, max_direct_io_size;
			unsigned dstatusflags, dcontrolflags;
		} nvfs;
		unsigned fflags;
	} props;
	char room[4096];
};

struct cufile_api {
	cufile_error (*driver_open)(void);
	cufile_error (*driver_close)(void);
	cufile_error (*get_properties)(union cufile_props *);
	cufile_error (*handle_register)(cufile_handle *, struct cufile_descr *);
	void (*handle_deregister)(cufile_handle);
	cufile_error (*buf_register)(const void *, size_t, int);
	cufile_error (*buf_deregister)(const void *);
	ssize_t (*read)(cufile_handle, void *, size_t, off_t, off_t);
	ssize_t (*write)(cufile_handle, const void *, size_t, off_t, off_t);
	/* stream API (CUDA 12.2+), NULL when absent */
	cufile_error (*read_async)(cufile_handle, void *, size_t *, off_t *,
				   off_t *, ssize_t *, cuda_stream);
	cufile_error (*write_async)(cufile_handle, void *, size_t *, off_t *,
				    off_t *, ssize_t *, cuda_stream);
	cufile_error (*stream_register)(cuda_stream, unsigned);    /* optional */
	cufile_error (*stream_deregister)(cuda_stream);            /* optional */
};

struct cuda_api {
	int (*get_device_count)(int *);
	int (*set_device)(int);
	int (*malloc)(void **, size_t);
	int (*free)(void *);
	int (*memcpy)(void *, const void *, size_t, int);
	int (*get_device_properties)(void *, int);    /* optional: name first */
	const char *(*get_error_string)(int);         /* optional */
	int (*stream_create)(cuda_stream *);          /* optional (type 5) */
	int (*stream_synchronize)(cuda_stream);
	int (*stream_destroy)(cuda_stream);
};

/* The CUDA driver API (cuda.h), the fallback when no runtime loads. */
typedef int cu_device;
typedef void *cu_context;
typedef unsigned long long cu_deviceptr;

struct cuda_driver_api {
	int (*init)(unsigned);
	int (*device_get_count)(int *);
	int (*device_get)(cu_device *, int);
	int (*device_get_name)(char *, int, cu_device);
	int (*primary_ctx_retain)(cu_context *, cu_device);
	int (*primary_ctx_release)(cu_device);        /* optional */
	int (*ctx_set_current)(cu_context);
	int (*mem_alloc)(cu_deviceptr *, size_t);
	int (*mem_free)(cu_deviceptr);
	int (*memcpy_htod)(cu_deviceptr, const void *, size_t);
	int (*memcpy_dtoh)(void *, cu_deviceptr, size_t);
	int (*get_error_string)(int, const char **);  /* optional */
	int (*stream_create)(cuda_stream *, unsigned); /* optional (type 5) */
	int (*stream_synchronize)(cuda_stream);
	int (*stream_destroy)(cuda_stream);
};

/* What the engine needs from CUDA, filled from the runtime or the driver
 * (gpu_ops below), so the engine calls one interface. Each op returns 0 or
 * the library's error code and names the call it made in gpu->call. */
struct gpu;

struct gpu_ops {
	const char *library;          /* "CUDA runtime" / "CUDA driver" */
	int (*device_count)(struct gpu *, int *count);
	int (*device_name)(struct gpu *, int device, char *name, size_t size);
	/* makes device current for the calling thread */
	int (*use_device)(struct gpu *, int device);
	void (*unuse_device)(struct gpu *);
	int (*alloc)(struct gpu *, void **ptr, size_t size);
	int (*free)(struct gpu *, void *ptr);
	int (*copy_to_gpu)(struct gpu *, void *gpu_dst, const void *src, size_t);
	int (*copy_from_gpu)(struct gpu *, void *dst, const void *gpu_src, size_t);
	bool (*has_streams)(const struct gpu *);
	int (*stream_create)(struct gpu *, cuda_stream *);
	int (*stream_synchronize)(struct gpu *, cuda_stream);
	int (*stream_destroy)(struct gpu *, cuda_stream);
	void (*describe)(const struct gpu *, int code, char *out, size_t size);
};

struct gpu {
	const struct gpu_ops *ops;
	const char *call;             /* the last call made, for messages */
	struct cuda_api runtime;
	struct cuda_driver_api driver;
	cu_device device;             /* driver: the device whose context we hold */
	cu_context context;
	bool holds_context;
};

/* ---- loading ------------------------------------------------------------ */

/* Process-wide: the libraries stay loaded once found (the CUDA runtime is
 * not safe to unload while its exit handlers are registered); the cuFile
 * driver is opened by the first user and closed by the last. When the
 * override path changes (tests) and nothing uses the driver, the library at
 * the new path is loaded instead. */
static struct {
	pthread_mutex_t lock;
	char cuda_path[4096];
	bool cuda_loaded;
	struct cuda_api cuda;
	char driver_path[4096];
	bool driver_loaded;
	struct cuda_driver_api driver;
	char cufile_path[4096];
	bool cufile_loaded;
	struct cufile_api cufile;
	unsigned driver_users;
	struct cufile_api driver_api;   /* the library whose driver is open */
} lib = { .lock = PTHREAD_MUTEX_INITIALIZER };

static const char *const cudart_names[] = {
	"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so",
};
static const char *const driver_names[] = { "libcuda.so.1" };
static const char *const cufile_names[] = { "libcufile.so.0", "libcufile.so" };

/* dlopens the override or the first of names that loads; the path tried is
 * copied to path. NULL with why on failure. */
static void *open_library(const char *override, const char *const *names,
			  size_t nr_names, char *path, size_t path_size,
			  char *why, size_t why_size, const char *what)
{
	void *handle;
	const char *error;

	if (override && *override) {
		snprintf(path, path_size, "%s", override);
		handle = dlopen(override, RTLD_NOW | RTLD_LOCAL);
		if (!handle) {
			error = dlerror();
			snprintf(why, why_size, "%s not found: %s", what,
				 error ? error : override);
		}
		return handle;
	}
	for (size_t i = 0; i < nr_names; i++) {
		handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
		if (handle) {
			snprintf(path, path_size, "%s", names[i]);
			return handle;
		}
	}
	snprintf(path, path_size, "%s", names[0]);
	snprintf(why, why_size, "%s not found (%s)", what, names[0]);
	return NULL;
}

/* Where load_* bind symbols from: the first required one missing makes ok
 * false and is named in why. */
struct binder {
	void *handle;
	const char *path;
	char *why;
	size_t why_size;
	bool ok;
};

static void *symbol(struct binder *b, const char *name, bool required)
{
	void *p = dlsym(b->handle, name);

	if (!p && required && b->ok) {
		snprintf(b->why, b->why_size, "%.200s has no %s", b->path, name);
		b->ok = false;
	}
	return p;
}

/* Casting dlsym's void * to a function pointer is what POSIX requires of
 * dlsym; memcpy keeps -Wpedantic quiet about it. */
#define BIND(b, dst, name, required)                                          \
	do {                                                                  \
		void *p_ = symbol(b, name, required);                         \
		memcpy(&(dst), &p_, sizeof(p_));                              \
	} while (0)

static bool same_path(const char *loaded, const char *override)
{
	return !override || !*override || !strcmp(loaded, override);
}

/* Under lib.lock. */
static int load_cuda(char *why, size_t why_size)
{
	const char *override = getenv("DRIVEBENCH_CUDART_LIB");
	struct cuda_api api = { 0 };
	char path[4096];
	struct binder b = { .path = path, .why = why, .why_size = why_size,
			    .ok = true };

	if (lib.cuda_loaded && (same_path(lib.cuda_path, override) || lib.driver_users))
		return 0;
	b.handle = open_library(override, cudart_names,
				sizeof(cudart_names) / sizeof(cudart_names[0]),
				path, sizeof(path), why, why_size,
				"CUDA runtime");
	if (!b.handle)
		return -1;
	BIND(&b, api.get_device_count, "cudaGetDeviceCount", true);
	BIND(&b, api.set_device, "cudaSetDevice", true);
	BIND(&b, api.malloc, "cudaMalloc", true);
	BIND(&b, api.free, "cudaFree", true);
	BIND(&b, api.memcpy, "cudaMemcpy", true);
	/* CUDA 12 headers map cudaGetDeviceProperties to the _v2 symbol. */
	BIND(&b, api.get_device_properties, "cudaGetDeviceProperties_v2", false);
	if (!api.get_device_properties)
		BIND(&b, api.get_device_properties, "cudaGetDeviceProperties", false);
	BIND(&b, api.get_error_string, "cudaGetErrorString", false);
	BIND(&b, api.stream_create, "cudaStreamCreate", false);
	BIND(&b, api.stream_synchronize, "cudaStreamSynchronize", false);
	BIND(&b, api.stream_destroy, "cudaStreamDestroy", false);
	if (!b.ok)
		return -1;
	lib.cuda = api;
	snprintf(lib.cuda_path, sizeof(lib.cuda_path), "%s", path);
	lib.cuda_loaded = true;
	return 0;
}

/* Under lib.lock. The driver API needs cuInit before anything else; a
 * failing cuInit (no driver, no device) makes the library unusable. */
static int load_driver(char *why, size_t why_size)
{
	const char *override = getenv("DRIVEBENCH_CUDA_LIB");
	struct cuda_driver_api api = { 0 };
	char path[4096];
	struct binder b = { .path = path, .why = why, .why_size = why_size,
			    .ok = true };
	int rc;

	if (lib.driver_loaded && (same_path(lib.driver_path, override) || lib.driver_users))
		return 0;
	b.handle = open_library(override, driver_names,
				sizeof(driver_names) / sizeof(driver_names[0]),
				path, sizeof(path), why, why_size,
				"CUDA driver");
	if (!b.handle)
		return -1;
	BIND(&b, api.init, "cuInit", true);
	BIND(&b, api.device_get_count, "cuDeviceGetCount", true);
	BIND(&b, api.device_get, "cuDeviceGet", true);
	BIND(&b, api.device_get_name, "cuDeviceGetName", true);
	BIND(&b, api.primary_ctx_retain, "cuDevicePrimaryCtxRetain", true);
	BIND(&b, api.ctx_set_current, "cuCtxSetCurrent", true);
	BIND(&b, api.mem_alloc, "cuMemAlloc_v2", true);
	BIND(&b, api.mem_free, "cuMemFree_v2", true);
	BIND(&b, api.memcpy_htod, "cuMemcpyHtoD_v2", true);
	BIND(&b, api.memcpy_dtoh, "cuMemcpyDtoH_v2", true);
	/* cuda.h maps these to their _v2 symbols since CUDA 11 / 4.0 */
	BIND(&b, api.primary_ctx_release, "cuDevicePrimaryCtxRelease_v2", false);
	if (!api.primary_ctx_release)
		BIND(&b, api.primary_ctx_release, "cuDevicePrimaryCtxRelease", false);
	BIND(&b, api.get_error_string, "cuGetErrorString", false);
	BIND(&b, api.stream_create, "cuStreamCreate", false);
	BIND(&b, api.stream_synchronize, "cuStreamSynchronize", false);
	BIND(&b, api.stream_destroy, "cuStreamDestroy_v2", false);
	if (!api.stream_destroy)
		BIND(&b, api.stream_destroy, "cuStreamDestroy", false);
	if (!b.ok)
		return -1;
	rc = api.init(0);
	if (rc) {
		const char *text = NULL;

		if (!api.get_error_string || api.get_error_string(rc, &text))
			text = NULL;
		snprintf(why, why_size, "cuInit: CUDA driver error %d (%s)", rc,
			 text ? text : "unknown");
		return -1;
	}
	lib.driver = api;
	snprintf(lib.driver_path, sizeof(lib.driver_path), "%s", path);
	lib.driver_loaded = true;
	return 0;
}

/* Under lib.lock. */
static int load_cufile(char *why, size_t why_size)
{
	const char *override = getenv("DRIVEBENCH_CUFILE_LIB");
	struct cufile_api api = { 0 };
	char path[4096];
	struct binder b = { .path = path, .why = why, .why_size = why_size,
			    .ok = true };

	if (lib.cufile_loaded && (same_path(lib.cufile_path, override) || lib.driver_users))
		return 0;
	b.handle = open_library(override, cufile_names,
				sizeof(cufile_names) / sizeof(cufile_names[0]),
				path, sizeof(path), why, why_size,
				"libcufile");
	if (!b.handle)
		return -1;
	BIND(&b, api.driver_open, "cuFileDriverOpen", true);
	BIND(&b, api.driver_close, "cuFileDriverClose", true);
	BIND(&b, api.get_properties, "cuFileDriverGetProperties", true);
	BIND(&b, api.handle_register, "cuFileHandleRegister", true);
	BIND(&b, api.handle_deregister, "cuFileHandleDeregister", true);
	BIND(&b, api.buf_register, "cuFileBufRegister", true);
	BIND(&b, api.buf_deregister, "cuFileBufDeregister", true);
	BIND(&b, api.read, "cuFileRead", true);
	BIND(&b, api.write, "cuFileWrite", true);
	BIND(&b, api.read_async, "cuFileReadAsync", false);
	BIND(&b, api.write_async, "cuFileWriteAsync", false);
	BIND(&b, api.stream_register, "cuFileStreamRegister", false);
	BIND(&b, api.stream_deregister, "cuFileStreamDeregister", false);
	if (!b.ok)
		return -1;
	lib.cufile = api;
	snprintf(lib.cufile_path, sizeof(lib.cufile_path), "%s", path);
	lib.cufile_loaded = true;
	return 0;
}

/* ---- error text --------------------------------------------------------- */

static const struct {
	int code;
	const char *name, *text;
} cufile_codes[] = {
	{ 5001, "CU_FILE_DRIVER_NOT_INITIALIZED", "nvidia-fs driver is not loaded" },
	{ 5002, "CU_FILE_DRIVER_INVALID_PROPS", "invalid property" },
	{ 5003, "CU_FILE_DRIVER_UNSUPPORTED_LIMIT", "property range error" },
	{ 5004, "CU_FILE_DRIVER_VERSION_MISMATCH", "nvidia-fs driver version mismatch" },
	{ 5005, "CU_FILE_DRIVER_VERSION_READ_ERROR", "nvidia-fs driver version read error" },
	{ 5006, "CU_FILE_DRIVER_CLOSING", "driver shutdown in progress" },
	{ 5007, "CU_FILE_PLATFORM_NOT_SUPPORTED", "GPUDirect Storage not supported on this platform" },
	{ 5008, "CU_FILE_IO_NOT_SUPPORTED", "GPUDirect Storage not supported on this file" },
	{ 5009, "CU_FILE_DEVICE_NOT_SUPPORTED", "GPUDirect Storage not supported on this GPU" },
	{ 5010, "CU_FILE_NVFS_DRIVER_ERROR", "nvidia-fs driver ioctl error" },
	{ 5011, "CU_FILE_CUDA_DRIVER_ERROR", "CUDA driver API error" },
	{ 5012, "CU_FILE_CUDA_POINTER_INVALID", "invalid device pointer" },
	{ 5013, "CU_FILE_CUDA_MEMORY_TYPE_INVALID", "invalid pointer memory type" },
	{ 5014, "CU_FILE_CUDA_POINTER_RANGE_ERROR", "pointer range exceeds allocated address range" },
	{ 5015, "CU_FILE_CUDA_CONTEXT_MISMATCH", "CUDA context mismatch" },
	{ 5016, "CU_FILE_INVALID_MAPPING_SIZE", "access beyond maximum pinned size" },
	{ 5017, "CU_FILE_INVALID_MAPPING_RANGE", "access beyond mapped size" },
	{ 5018, "CU_FILE_INVALID_FILE_TYPE", "unsupported file type" },
	{ 5019, "CU_FILE_INVALID_FILE_OPEN_FLAG", "unsupported file open flags" },
	{ 5020, "CU_FILE_DIO_NOT_SET", "file not opened with O_DIRECT" },
	{ 5022, "CU_FILE_INVALID_VALUE", "invalid arguments" },
	{ 5023, "CU_FILE_MEMORY_ALREADY_REGISTERED", "device pointer already registered" },
	{ 5024, "CU_FILE_MEMORY_NOT_REGISTERED", "device pointer lookup failure" },
	{ 5025, "CU_FILE_PERMISSION_DENIED", "driver or file access error" },
	{ 5026, "CU_FILE_DRIVER_ALREADY_OPEN", "driver is already open" },
	{ 5027, "CU_FILE_HANDLE_NOT_REGISTERED", "file descriptor is not registered" },
	{ 5028, "CU_FILE_HANDLE_ALREADY_REGISTERED", "file descriptor is already registered" },
	{ 5029, "CU_FILE_DEVICE_NOT_FOUND", "GPU device not found" },
	{ 5030, "CU_FILE_INTERNAL_ERROR", "internal error" },
	{ 5031, "CU_FILE_GETNEWFD_FAILED", "failed to obtain new file descriptor" },
	{ 5033, "CU_FILE_NVFS_SETUP_ERROR", "nvidia-fs driver initialization error" },
	{ 5034, "CU_FILE_IO_DISABLED", "GPUDirect Storage disabled by configuration for this file" },
};

static void describe_cufile_code(int code, char *out, size_t size)
{
	for (size_t i = 0; i < sizeof(cufile_codes) / sizeof(cufile_codes[0]); i++)
		if (cufile_codes[i].code == code) {
			snprintf(out, size, "%s (%s)", cufile_codes[i].name,
				 cufile_codes[i].text);
			return;
		}
	snprintf(out, size, "cuFile error %d", code);
}

static void describe_cufile_error(cufile_error e, char *out, size_t size)
{
	char code[160];

	describe_cufile_code(e.err, code, sizeof(code));
	if (e.cu_err)
		snprintf(out, size, "%s, CUDA error %d", code, e.cu_err);
	else
		snprintf(out, size, "%s", code);
}

/* ---- gpu ops: the CUDA runtime ----------------------------------------- */

static int runtime_device_count(struct gpu *g, int *count)
{
	g->call = "cudaGetDeviceCount";
	return g->runtime.get_device_count(count);
}

static int runtime_device_name(struct gpu *g, int device, char *name, size_t size)
{
	/* cudaDeviceProp starts with char name[256]; its size varies between
	 * releases, so give it plenty of room. */
	char *props;
	int rc;

	g->call = "cudaGetDeviceProperties";
	if (!g->runtime.get_device_properties)
		return -1;
	props = calloc(1, 64 * 1024);
	if (!props)
		return -1;
	rc = g->runtime.get_device_properties(props, device);
	if (rc == 0)
		snprintf(name, size, "%.*s", (int)size - 1, props);
	free(props);
	return rc;
}

static int runtime_use_device(struct gpu *g, int device)
{
	g->call = "cudaSetDevice";
	return g->runtime.set_device(device);
}

static void runtime_unuse_device(struct gpu *g)
{
	(void)g;
}

static int runtime_alloc(struct gpu *g, void **ptr, size_t size)
{
	g->call = "cudaMalloc";
	return g->runtime.malloc(ptr, size);
}

static int runtime_free(struct gpu *g, void *ptr)
{
	g->call = "cudaFree";
	return g->runtime.free(ptr);
}

static int runtime_copy_to_gpu(struct gpu *g, void *dst, const void *src, size_t len)
{
	g->call = "cudaMemcpy";
	return g->runtime.memcpy(dst, src, len, CUDA_MEMCPY_HOST_TO_DEVICE);
}

static int runtime_copy_from_gpu(struct gpu *g, void *dst, const void *src, size_t len)
{
	g->call = "cudaMemcpy";
	return g->runtime.memcpy(dst, src, len, CUDA_MEMCPY_DEVICE_TO_HOST);
}

static bool runtime_has_streams(const struct gpu *g)
{
	return g->runtime.stream_create && g->runtime.stream_synchronize &&
	       g->runtime.stream_destroy;
}

static int runtime_stream_create(struct gpu *g, cuda_stream *stream)
{
	g->call = "cudaStreamCreate";
	return g->runtime.stream_create(stream);
}

static int runtime_stream_synchronize(struct gpu *g, cuda_stream stream)
{
	g->call = "cudaStreamSynchronize";
	return g->runtime.stream_synchronize(stream);
}

static int runtime_stream_destroy(struct gpu *g, cuda_stream stream)
{
	g->call = "cudaStreamDestroy";
	return g->runtime.stream_destroy(stream);
}

static void runtime_describe(const struct gpu *g, int code, char *out, size_t size)
{
	const char *text = g->runtime.get_error_string ?
			   g->runtime.get_error_string(code) : NULL;

	if (text && *text)
		snprintf(out, size, "CUDA error %d (%s)", code, text);
	else
		snprintf(out, size, "CUDA error %d", code);
}

static const struct gpu_ops runtime_ops = {
	.library = "CUDA runtime",
	.device_count = runtime_device_count,
	.device_name = runtime_device_name,
	.use_device = runtime_use_device,
	.unuse_device = runtime_unuse_device,
	.alloc = runtime_alloc,
	.free = runtime_free,
	.copy_to_gpu = runtime_copy_to_gpu,
	.copy_from_gpu = runtime_copy_from_gpu,
	.has_streams = runtime_has_streams,
	.stream_create = runtime_stream_create,
	.stream_synchronize = runtime_stream_synchronize,
	.stream_destroy = runtime_stream_destroy,
	.describe = runtime_describe,
};

/* ---- gpu ops: the CUDA driver API -------------------------------------- */

/* Device pointers are integers in the driver API; the engine and cuFile
 * take them as void *. */
static cu_deviceptr to_deviceptr(const void *p)
{
	return (cu_deviceptr)(uintptr_t)p;
}

static int driver_device_count(struct gpu *g, int *count)
{
	g->call = "cuDeviceGetCount";
	return g->driver.device_get_count(count);
}

static int driver_device_name(struct gpu *g, int device, char *name, size_t size)
{
	cu_device dev;
	int rc;

	g->call = "cuDeviceGet";
	rc = g->driver.device_get(&dev, device);
	if (rc)
		return rc;
	g->call = "cuDeviceGetName";
	rc = g->driver.device_get_name(name, (int)size, dev);
	if (rc == 0 && size)
		name[size - 1] = '\0';
	return rc;
}

/* The driver has no current device per thread, only a current context:
 * retain the device's primary context (the one the runtime would use) and
 * make it current. */
static int driver_use_device(struct gpu *g, int device)
{
	int rc;

	if (!g->holds_context) {
		g->call = "cuDeviceGet";
		rc = g->driver.device_get(&g->device, device);
		if (rc)
			return rc;
		g->call = "cuDevicePrimaryCtxRetain";
		rc = g->driver.primary_ctx_retain(&g->context, g->device);
		if (rc)
			return rc;
		g->holds_context = true;
	}
	g->call = "cuCtxSetCurrent";
	return g->driver.ctx_set_current(g->context);
}

static void driver_unuse_device(struct gpu *g)
{
	if (!g->holds_context)
		return;
	g->driver.ctx_set_current(NULL);
	if (g->driver.primary_ctx_release)
		g->driver.primary_ctx_release(g->device);
	g->holds_context = false;
}

static int driver_alloc(struct gpu *g, void **ptr, size_t size)
{
	cu_deviceptr p = 0;
	int rc;

	g->call = "cuMemAlloc";
	rc = g->driver.mem_alloc(&p, size);
	*ptr = rc ? NULL : (void *)(uintptr_t)p;
	return rc;
}

static int driver_free(struct gpu *g, void *ptr)
{
	g->call = "cuMemFree";
	return g->driver.mem_free(to_deviceptr(ptr));
}

static int driver_copy_to_gpu(struct gpu *g, void *dst, const void *src, size_t len)
{
	g->call = "cuMemcpyHtoD";
	return g->driver.memcpy_htod(to_deviceptr(dst), src, len);
}

static int driver_copy_from_gpu(struct gpu *g, void *dst, const void *src, size_t len)
{
	g->call = "cuMemcpyDtoH";
	return g->driver.memcpy_dtoh(dst, to_deviceptr(src), len);
}

static bool driver_has_streams(const struct gpu *g)
{
	return g->driver.stream_create && g->driver.stream_synchronize &&
	       g->driver.stream_destroy;
}

static int driver_stream_create(struct gpu *g, cuda_stream *stream)
{
	g->call = "cuStreamCreate";
	return g->driver.stream_create(stream, 0);
}

static int driver_stream_synchronize(struct gpu *g, cuda_stream stream)
{
	g->call = "cuStreamSynchronize";
	return g->driver.stream_synchronize(stream);
}

static int driver_stream_destroy(struct gpu *g, cuda_stream stream)
{
	g->call = "cuStreamDestroy";
	return g->driver.stream_destroy(stream);
}

static void driver_describe(const struct gpu *g, int code, char *out, size_t size)
{
	const char *text = NULL;

	if (g->driver.get_error_string && g->driver.get_error_string(code, &text))
		text = NULL;
	if (text && *text)
		snprintf(out, size, "CUDA driver error %d (%s)", code, text);
	else
		snprintf(out, size, "CUDA driver error %d", code);
}

static const struct gpu_ops driver_ops = {
	.library = "CUDA driver",
	.device_count = driver_device_count,
	.device_name = driver_device_name,
	.use_device = driver_use_device,
	.unuse_device = driver_unuse_device,
	.alloc = driver_alloc,
	.free = driver_free,
	.copy_to_gpu = driver_copy_to_gpu,
	.copy_from_gpu = driver_copy_from_gpu,
	.has_streams = driver_has_streams,
	.stream_create = driver_stream_create,
	.stream_synchronize = driver_stream_synchronize,
	.stream_destroy = driver_stream_destroy,
	.describe = driver_describe,
};

static void describe_gpu(const struct gpu *g, int code, char *out, size_t size)
{
	g->ops->describe(g, code, out, size);
}

/* ---- probe -------------------------------------------------------------- */

/* Takes a reference on the open cuFile driver (opening it first). */
static int driver_acquire(struct cufile_api *api, char *why, size_t why_size)
{
	int rc = 0;

	pthread_mutex_lock(&lib.lock);
	if (load_cufile(why, why_size)) {
		rc = -1;
	} else if (lib.driver_users == 0) {
		cufile_error e = lib.cufile.driver_open();

		if (e.err) {
			char text[200];

			describe_cufile_error(e, text, sizeof(text));
			snprintf(why, why_size, "cuFileDriverOpen: %s", text);
			rc = -1;
		} else {
			lib.driver_api = lib.cufile;
		}
	}
	if (rc == 0) {
		lib.driver_users++;
		*api = lib.driver_api;
	}
	pthread_mutex_unlock(&lib.lock);
	return rc;
}

static void driver_release(void)
{
	pthread_mutex_lock(&lib.lock);
	if (lib.driver_users && --lib.driver_users == 0)
		lib.driver_api.driver_close();
	pthread_mutex_unlock(&lib.lock);
}

/* Fills gpu from the CUDA runtime, or, when no runtime loads, the driver
 * API; why names both when neither does. */
static int gpu_acquire(struct gpu *gpu, char *why, size_t why_size)
{
	char runtime_why[256] = "", driver_why[256] = "";
	int rc = 0;

	memset(gpu, 0, sizeof(*gpu));
	pthread_mutex_lock(&lib.lock);
	if (load_cuda(runtime_why, sizeof(runtime_why)) == 0) {
		gpu->ops = &runtime_ops;
		gpu->runtime = lib.cuda;
	} else if (load_driver(driver_why, sizeof(driver_why)) == 0) {
		gpu->ops = &driver_ops;
		gpu->driver = lib.driver;
	} else {
		snprintf(why, why_size, "%s; %s", runtime_why, driver_why);
		rc = -1;
	}
	pthread_mutex_unlock(&lib.lock);
	return rc;
}

static void probe_cuda(struct gds_env *env)
{
	struct gpu gpu;
	int count = 0, rc;

	if (gpu_acquire(&gpu, env->why, sizeof(env->why)))
		return;
	rc = gpu.ops->device_count(&gpu, &count);
	if (rc) {
		char text[160];

		describe_gpu(&gpu, rc, text, sizeof(text));
		snprintf(env->why, sizeof(env->why), "%s: %s", gpu.call, text);
		return;
	}
	if (count <= 0) {
		snprintf(env->why, sizeof(env->why), "no CUDA device");
		return;
	}
	env->devices = count;
	env->have_cuda = true;
	if (gpu.ops->device_name(&gpu, 0, env->gpu_model, sizeof(env->gpu_model)))
		env->gpu_model[0] = '\0';
}

static void probe_cufile(struct gds_env *env)
{
	struct cufile_api api;
	union cufile_props props;
	cufile_error e;
	char why[sizeof(env->why)] = "";

	if (driver_acquire(&api, why, sizeof(why))) {
		if (!env->why[0])
			snprintf(env->why, sizeof(env->why), "%s", why);
		return;
	}
	env->have_cufile = true;
	env->have_async = api.read_async && api.write_async;
	memset(&props, 0, sizeof(props));
	e = api.get_properties(&props);
	/* Without nvidia-fs, cuFile runs its POSIX compatibility mode and
	 * reports the nvfs driver version as 0.0; no proof of nvidia-fs
	 * (properties unreadable) counts as compatibility mode too. */
	env->compat_mode = e.err != 0 ||
		(props.props.nvfs.major_version == 0 &&
		 props.props.nvfs.minor_version == 0);
	driver_release();
}

void gds_probe(struct gds_env *env)
{
	memset(env, 0, sizeof(*env));
	probe_cuda(env);
	probe_cufile(env);
}

const char *gds_xfer_label(enum gds_xfer x)
{
	switch (x) {
	case GDS_XFER_GPUD: return "GPUD";
	case GDS_XFER_CPUONLY: return "CPUONLY";
	case GDS_XFER_CPU_GPU: return "CPU_GPU";
	case GDS_XFER_GPUD_ASYNC: return "GPUD_ASYNC";
	}
	return "UNKNOWN";
}

/* ---- the engine --------------------------------------------------------- */

struct cufile_state {
	enum gds_xfer xfer;
	int device;
	struct io *queued;            /* prepared, not yet submitted */
	struct io *done;              /* submitted, not yet reaped */
	bool uses_gpu, uses_cufile;
	struct gpu gpu;
	struct cufile_api cufile;
	bool holds_driver;
	cufile_handle handle;
	bool handle_registered;
	cuda_stream stream;
	bool stream_created, stream_registered;
	void **gpu_bufs;              /* one per I/O slot */
	bool *buf_registered;
	unsigned nr_bufs;
	size_t buf_size;
	/* the stream API reads these when the stream runs them */
	size_t async_size;
	off_t async_file_offset, async_buf_offset;
	ssize_t async_bytes;
};

static void cufile_cleanup(struct engine *e)
{
	struct cufile_state *st = e->priv;

	if (!st)
		return;
	if (st->uses_gpu)
		st->gpu.ops->use_device(&st->gpu, st->device);
	for (unsigned i = 0; i < st->nr_bufs; i++) {
		if (st->buf_registered && st->buf_registered[i])
			st->cufile.buf_deregister(st->gpu_bufs[i]);
		if (st->gpu_bufs[i])
			st->gpu.ops->free(&st->gpu, st->gpu_bufs[i]);
	}
	if (st->stream_registered && st->cufile.stream_deregister)
		st->cufile.stream_deregister(st->stream);
	if (st->stream_created)
		st->gpu.ops->stream_destroy(&st->gpu, st->stream);
	if (st->handle_registered)
		st->cufile.handle_deregister(st->handle);
	if (st->holds_driver)
		driver_release();
	if (st->uses_gpu)
		st->gpu.ops->unuse_device(&st->gpu);
	free(st->gpu_bufs);
	free(st->buf_registered);
	free(st);
	e->priv = NULL;
}

static int init_fail(struct engine *e)
{
	cufile_cleanup(e);
	return -1;
}

/* A gpu op failed with rc; st->gpu.call names the call. */
static int gpu_fail(struct cufile_state *st, int rc)
{
	char text[160];

	describe_gpu(&st->gpu, rc, text, sizeof(text));
	return err_set("cufile: %s: %s", st->gpu.call, text);
}

static int cufile_fail(const char *call, cufile_error e)
{
	char text[200];

	describe_cufile_error(e, text, sizeof(text));
	return err_set("cufile: %s: %s", call, text);
}

/* Checks that this machine can run the GPU type asked for. */
static int check_gpu_available(const struct job_spec *spec, enum gds_xfer xfer)
{
	struct gds_env env;

	gds_probe(&env);
	if (!env.have_cuda || (xfer != GDS_XFER_CPU_GPU && !env.have_cufile))
		return err_set("cufile: gds_transfer=%d (%s) needs a GPU path: %s",
			       (int)xfer, gds_xfer_label(xfer), env.why);
	if (spec->gpu_device >= (unsigned)env.devices)
		return err_set("cufile: gpu_dev_id=%u, but there %s %d CUDA device%s",
			       spec->gpu_device, env.devices == 1 ? "is" : "are",
			       env.devices, env.devices == 1 ? "" : "s");
	if (xfer == GDS_XFER_GPUD_ASYNC && !env.have_async)
		return err_set("cufile: gds_transfer=5 (GPUD_ASYNC): this libcufile "
			       "has no stream API (cuFileReadAsync, CUDA 12.2+)");
	return 0;
}

/* GPU buffers, one per slot, filled from the runner's host buffers so that
 * writes carry the same incompressible data as the other engines. */
static int setup_gpu_buffers(struct engine *e, struct cufile_state *st)
{
	int rc;

	st->gpu_bufs = calloc(e->nr_ios, sizeof(*st->gpu_bufs));
	st->buf_registered = calloc(e->nr_ios, sizeof(*st->buf_registered));
	if (!st->gpu_bufs || !st->buf_registered)
		return err_set("cufile: out of memory");
	st->nr_bufs = e->nr_ios;
	st->buf_size = e->buf_size;
	for (unsigned i = 0; i < e->nr_ios; i++) {
		rc = st->gpu.ops->alloc(&st->gpu, &st->gpu_bufs[i], st->buf_size);
		if (rc) {
			st->gpu_bufs[i] = NULL;
			return gpu_fail(st, rc);
		}
		rc = st->gpu.ops->copy_to_gpu(&st->gpu, st->gpu_bufs[i],
					      e->ios[i].buf, st->buf_size);
		if (rc)
			return gpu_fail(st, rc);
		if (st->uses_cufile) {
			cufile_error ce = st->cufile.buf_register(st->gpu_bufs[i],
								  st->buf_size, 0);

			if (ce.err)
				return cufile_fail("cuFileBufRegister", ce);
			st->buf_registered[i] = true;
		}
	}
	return 0;
}

static int setup_cufile(struct engine *e, struct cufile_state *st)
{
	struct cufile_descr descr;
	char why[256] = "";
	cufile_error ce;

	if (driver_acquire(&st->cufile, why, sizeof(why)))
		return err_set("cufile: %s", why);
	st->holds_driver = true;
	memset(&descr, 0, sizeof(descr));
	descr.type = CUFILE_HANDLE_TYPE_OPAQUE_FD;
	descr.handle.fd = e->fd;
	ce = st->cufile.handle_register(&st->handle, &descr);
	if (ce.err)
		return cufile_fail("cuFileHandleRegister", ce);
	st->handle_registered = true;
	if (st->xfer == GDS_XFER_GPUD_ASYNC) {
		int rc;

		if (!st->gpu.ops->has_streams(&st->gpu))
			return err_set("cufile: the %s has no stream API",
				       st->gpu.ops->library);
		rc = st->gpu.ops->stream_create(&st->gpu, &st->stream);
		if (rc)
			return gpu_fail(st, rc);
		st->stream_created = true;
		if (st->cufile.stream_register) {
			ce = st->cufile.stream_register(st->stream, 0);
			if (ce.err)
				return cufile_fail("cuFileStreamRegister", ce);
			st->stream_registered = true;
		}
	}
	return 0;
}

static int cufile_init(struct engine *e, const struct job_spec *spec)
{
	struct cufile_state *st;
	char why[256] = "";
	int rc;

	if (job_spec_trims(spec))
		return err_set("cufile: trims are not supported (cuFile has no "
			       "discard); use ioengine=io_uring, libaio or psync");
	if (!gds_xfer_valid(spec->gds_transfer))
		return err_set("cufile: gds_transfer=%d is not a gdsio transfer "
			       "type (0 GPUD, 1 CPUONLY, 2 CPU_GPU, 5 GPUD_ASYNC)",
			       spec->gds_transfer);
	if (e->depth != 1)
		return err_set("cufile: iodepth must be 1 (gds issues one synchronous "
			       "I/O per thread, as gdsio; use numjobs for more)");
	if (!spec->direct)
		return err_set("cufile: needs direct=1 (O_DIRECT), as gdsio");
	if (e->fd < 0)
		return err_set("cufile: no file descriptor");
	if (e->nr_ios == 0 || !e->ios || e->buf_size == 0)
		return err_set("cufile: no I/O buffers");
	st = calloc(1, sizeof(*st));
	if (!st)
		return err_set("cufile: out of memory");
	e->priv = st;
	st->xfer = (enum gds_xfer)spec->gds_transfer;
	st->device = (int)spec->gpu_device;
	if (st->xfer == GDS_XFER_CPUONLY)
		return 0;
	if (check_gpu_available(spec, st->xfer))
		return init_fail(e);
	if (gpu_acquire(&st->gpu, why, sizeof(why))) {
		err_set("cufile: %s", why);
		return init_fail(e);
	}
	st->uses_gpu = true;
	rc = st->gpu.ops->use_device(&st->gpu, st->device);
	if (rc) {
		gpu_fail(st, rc);
		return init_fail(e);
	}
	st->uses_cufile = st->xfer == GDS_XFER_GPUD || st->xfer == GDS_XFER_GPUD_ASYNC;
	if (st->uses_cufile && setup_cufile(e, st))
		return init_fail(e);
	if (setup_gpu_buffers(e, st))
		return init_fail(e);
	return 0;
}

static int cufile_prep(struct engine *e, struct io *io)
{
	struct cufile_state *st = e->priv;

	if (st->queued || st->done)
		return err_set("cufile: queue full (1 I/O)");
	if (io->len > st->buf_size && st->xfer != GDS_XFER_CPUONLY)
		return err_set("cufile: I/O of %u bytes exceeds the %zu-byte GPU buffer",
			       io->len, st->buf_size);
	st->queued = io;
	return 0;
}

/* cuFileRead/Write's return: bytes, -1 with errno, -errno, or -code for a
 * cuFile error (above 5000), which ends the job with its name. */
static int cufile_result(struct io *io, ssize_t ret, int saved_errno,
			 const char *call)
{
	char text[200];

	if (ret >= 0) {
		io->result = (int32_t)ret;
		return 0;
	}
	if (ret == -1) {
		io->result = saved_errno ? -saved_errno : -EIO;
		return 0;
	}
	if (-ret < CUFILE_ERROR_BASE) {
		io->result = (int32_t)ret;
		return 0;
	}
	describe_cufile_code((int)-ret, text, sizeof(text));
	return err_set("cufile: %s at offset %llu: %s", call,
		       (unsigned long long)io->offset, text);
}

static int submit_gpud(struct cufile_state *st, struct io *io)
{
	void *gpu = st->gpu_bufs[io->buf_index];
	ssize_t ret;

	errno = 0;
	if (io->dir == DIR_READ)
		ret = st->cufile.read(st->handle, gpu, io->len, (off_t)io->offset, 0);
	else
		ret = st->cufile.write(st->handle, gpu, io->len, (off_t)io->offset, 0);
	return cufile_result(io, ret, errno, io->dir == DIR_READ ? "cuFileRead" : "cuFileWrite");
}

static int submit_async(struct cufile_state *st, struct io *io)
{
	void *gpu = st->gpu_bufs[io->buf_index];
	const char *call = io->dir == DIR_READ ? "cuFileReadAsync" : "cuFileWriteAsync";
	cufile_error ce;
	int rc;

	st->async_size = io->len;
	st->async_file_offset = (off_t)io->offset;
	st->async_buf_offset = 0;
	st->async_bytes = 0;
	if (io->dir == DIR_READ)
		ce = st->cufile.read_async(st->handle, gpu, &st->async_size,
					   &st->async_file_offset,
					   &st->async_buf_offset,
					   &st->async_bytes, st->stream);
	else
		ce = st->cufile.write_async(st->handle, gpu, &st->async_size,
					    &st->async_file_offset,
					    &st->async_buf_offset,
					    &st->async_bytes, st->stream);
	if (ce.err)
		return cufile_fail(call, ce);
	rc = st->gpu.ops->stream_synchronize(&st->gpu, st->stream);
	if (rc)
		return gpu_fail(st, rc);
	return cufile_result(io, st->async_bytes, 0, call);
}

static int submit_cpu_gpu(struct engine *e, struct cufile_state *st, struct io *io)
{
	void *gpu = st->gpu_bufs[io->buf_index];
	int rc;

	if (io->dir == DIR_WRITE) {
		rc = st->gpu.ops->copy_from_gpu(&st->gpu, io->buf, gpu, io->len);
		if (rc)
			return gpu_fail(st, rc);
		io->result = engine_posix_io(e->fd, io);
		return 0;
	}
	io->result = engine_posix_io(e->fd, io);
	if (io->result > 0) {
		rc = st->gpu.ops->copy_to_gpu(&st->gpu, gpu, io->buf,
					      (size_t)io->result);
		if (rc)
			return gpu_fail(st, rc);
	}
	return 0;
}

static int cufile_submit(struct engine *e)
{
	struct cufile_state *st = e->priv;
	struct io *io = st->queued;
	int rc = 0;

	if (!io)
		return 0;
	st->queued = NULL;
	switch (st->xfer) {
	case GDS_XFER_CPUONLY:
		io->result = engine_posix_io(e->fd, io);
		break;
	case GDS_XFER_CPU_GPU:
		rc = submit_cpu_gpu(e, st, io);
		break;
	case GDS_XFER_GPUD:
		rc = submit_gpud(st, io);
		break;
	case GDS_XFER_GPUD_ASYNC:
		rc = submit_async(st, io);
		break;
	}
	if (rc)
		return -1;
	st->done = io;
	return 1;
}

static int cufile_reap(struct engine *e, struct io **out, unsigned min,
		       unsigned max)
{
	struct cufile_state *st = e->priv;

	(void)min; /* a submitted I/O is already complete */
	if (!st->done || max == 0)
		return 0;
	out[0] = st->done;
	st->done = NULL;
	return 1;
}

const struct engine_ops engine_cufile = {
	.name = "cufile",
	.flags = ENGINE_SYNC   /* GPU buffers, not io->buf: no verify (docs/verify.md) */,
	.init = cufile_init,
	.prep = cufile_prep,
	.submit = cufile_submit,
	.reap = cufile_reap,
	.cleanup = cufile_cleanup,
};
