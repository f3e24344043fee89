/* cufile_lib.h - private to src/io/cufile*.c: the part of NVIDIA's ABI
 * the cufile engine uses (cufile.h, the CUDA runtime and driver APIs),
 * declared here from their reference so that nothing needs CUDA at build
 * time, and the process-wide libraries behind it (cufile_lib.c): libcufile
 * and the CUDA runtime or, failing that, the driver API, loaded with dlopen
 * on first use, and the GPU operations the engine calls on either. */
#ifndef DRIVEBENCH_IO_CUFILE_LIB_H
#define DRIVEBENCH_IO_CUFILE_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
 * (runtime_ops and driver_ops in cufile_lib.c), so the engine calls one
 * interface. Each op returns 0 or the library's error code and names the
 * call it made in gpu->call. */
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

static inline void describe_gpu(const struct gpu *g, int code, char *out, size_t size)
{
	g->ops->describe(g, code, out, size);
}

/* Takes a reference on the open cuFile driver (loading libcufile and
 * opening the driver first) and copies the library's functions to api.
 * 0, or -1 with why. */
int cufile_driver_acquire(struct cufile_api *api, char *why, size_t why_size);
/* Drops the reference; the last user closes the driver. */
void cufile_driver_release(void);
/* Fills gpu from the CUDA runtime, or, when no runtime loads, the driver
 * API; why names both when neither does. 0 or -1. */
int cufile_gpu_acquire(struct gpu *gpu, char *why, size_t why_size);
/* A cuFile error code (above 5000) as its name and meaning. */
void cufile_describe_code(int code, char *out, size_t size);
/* A cuFile call's error, with the CUDA error under it if any. */
void cufile_describe_error(cufile_error e, char *out, size_t size);

#endif
