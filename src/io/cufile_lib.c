/* cufile_lib.c - the libraries behind the cufile engine: libcufile and the
 * CUDA runtime (or, failing that, the driver API), loaded with dlopen on
 * first use and kept process-wide; the GPU operations on either (struct
 * gpu_ops); the text of cuFile's error codes. See cufile_lib.h. */
#include "io/cufile_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

void cufile_describe_code(int code, char *out, size_t size)
{
	for (size_t i = 0; i < sizeof(cufile_codes) / sizeof(cufile_codes[0]); i++)
		if (cufile_codes[i].code == code) {
			snprintf(out, size, "%s (%s)", cufile_codes[i].name,
				 cufile_codes[i].text);
			return;
		}
	snprintf(out, size, "cuFile error %d", code);
}

void cufile_describe_error(cufile_error e, char *out, size_t size)
{
	char code[160];

	cufile_describe_code(e.err, code, sizeof(code));
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

/* ---- the process-wide handles ------------------------------------------- */

int cufile_driver_acquire(struct cufile_api *api, char *why, size_t why_size)
{
	int rc = 0;

	pthread_mutex_lock(&lib.lock);
	if (load_cufile(why, why_size)) {
		rc = -1;
	} else if (lib.driver_users == 0) {
		cufile_error e = lib.cufile.driver_open();

		if (e.err) {
			char text[200];

			cufile_describe_error(e, text, sizeof(text));
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

void cufile_driver_release(void)
{
	pthread_mutex_lock(&lib.lock);
	if (lib.driver_users && --lib.driver_users == 0)
		lib.driver_api.driver_close();
	pthread_mutex_unlock(&lib.lock);
}

int cufile_gpu_acquire(struct gpu *gpu, char *why, size_t why_size)
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
