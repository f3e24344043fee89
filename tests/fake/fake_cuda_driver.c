/* fake_cuda_driver.c - a stand-in for the CUDA driver API (libcuda.so.1) for
 * the cufile engine's tests, used when no runtime loads: "device memory" is
 * aligned host memory behind integer CUdeviceptrs, copies are memcpy,
 * contexts and streams are counted tokens. Steered by environment variables:
 * FAKE_CUDA_DEVICES=N (default 1), FAKE_CUDA_FAIL=init|count|ctx|malloc|
 * memcpy|stream|sync. Built as a shared library for tests only. */
#include <stdint.h>
#include <string.h>

#include "fake_cuda.h"

enum {
	CUDA_ERROR_OUT_OF_MEMORY = 2,
	CUDA_ERROR_NOT_INITIALIZED = 3,
	CUDA_ERROR_NO_DEVICE = 100,
	CUDA_ERROR_INVALID_CONTEXT = 201,
};

/* atomic: engine threads retain and release at the same time */
static _Atomic int initialised, contexts_retained;
static int primary_context;   /* its address is the context handle */

EXPORT int cuInit(unsigned flags)
{
	if (flags != 0)
		return CUDA_ERROR_INVALID_VALUE;
	if (failing("init"))
		return CUDA_ERROR_NO_DEVICE;
	initialised = 1;
	return CUDA_SUCCESS;
}

EXPORT int cuGetErrorString(int code, const char **text)
{
	switch (code) {
	case CUDA_SUCCESS: *text = "no error"; break;
	case CUDA_ERROR_INVALID_VALUE: *text = "invalid argument"; break;
	case CUDA_ERROR_OUT_OF_MEMORY: *text = "out of memory"; break;
	case CUDA_ERROR_NOT_INITIALIZED: *text = "initialization error"; break;
	case CUDA_ERROR_NO_DEVICE: *text = "no CUDA-capable device is detected"; break;
	case CUDA_ERROR_INVALID_DEVICE: *text = "invalid device ordinal"; break;
	case CUDA_ERROR_INVALID_CONTEXT: *text = "invalid device context"; break;
	case CUDA_ERROR_ILLEGAL_ADDRESS: *text = "an illegal memory access was encountered"; break;
	case CUDA_ERROR_UNKNOWN: *text = "unknown error"; break;
	default: *text = NULL; return CUDA_ERROR_INVALID_VALUE;
	}
	return CUDA_SUCCESS;
}

EXPORT int cuDeviceGetCount(int *count)
{
	if (!initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (failing("count"))
		return CUDA_ERROR_UNKNOWN;
	*count = device_count();
	return CUDA_SUCCESS;
}

EXPORT int cuDeviceGet(int *device, int ordinal)
{
	if (!initialised)
		return CUDA_ERROR_NOT_INITIALIZED;
	if (ordinal < 0 || ordinal >= device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	*device = ordinal;
	return CUDA_SUCCESS;
}

EXPORT int cuDeviceGetName(char *name, int len, int device)
{
	if (device < 0 || device >= device_count() || len <= 0)
		return CUDA_ERROR_INVALID_VALUE;
	strncpy(name, "Fake Driver GPU 141GB", (size_t)len);
	return CUDA_SUCCESS;
}

EXPORT int cuDevicePrimaryCtxRetain(void **ctx, int device)
{
	if (failing("ctx"))
		return CUDA_ERROR_INVALID_CONTEXT;
	if (device < 0 || device >= device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	*ctx = &primary_context;
	contexts_retained++;
	return CUDA_SUCCESS;
}

EXPORT int cuDevicePrimaryCtxRelease_v2(int device)
{
	if (device < 0 || device >= device_count() || contexts_retained == 0)
		return CUDA_ERROR_INVALID_VALUE;
	contexts_retained--;
	return CUDA_SUCCESS;
}

EXPORT int cuCtxSetCurrent(void *ctx)
{
	if (ctx && (ctx != &primary_context || contexts_retained == 0))
		return CUDA_ERROR_INVALID_CONTEXT;
	return CUDA_SUCCESS;
}

EXPORT int cuMemAlloc_v2(unsigned long long *ptr, size_t size)
{
	void *p;

	if (failing("malloc"))
		return CUDA_ERROR_OUT_OF_MEMORY;
	if (contexts_retained == 0)
		return CUDA_ERROR_INVALID_CONTEXT;
	if (!(p = fake_alloc(size)))
		return CUDA_ERROR_OUT_OF_MEMORY;
	*ptr = (unsigned long long)(uintptr_t)p;
	return CUDA_SUCCESS;
}

EXPORT int cuMemFree_v2(unsigned long long ptr)
{
	void *p = (void *)(uintptr_t)ptr;

	return fake_free(p) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

EXPORT int cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t count)
{
	if (failing("memcpy"))
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	memcpy((void *)(uintptr_t)dst, src, count);
	return CUDA_SUCCESS;
}

EXPORT int cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t count)
{
	if (failing("memcpy"))
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	memcpy(dst, (const void *)(uintptr_t)src, count);
	return CUDA_SUCCESS;
}

EXPORT int cuStreamCreate(void **stream, unsigned flags)
{
	(void)flags;
	return fake_stream_create(stream);
}

EXPORT int cuStreamSynchronize(void *stream)
{
	return fake_stream_synchronize(stream);
}

EXPORT int cuStreamDestroy_v2(void *stream)
{
	return fake_stream_destroy(stream);
}

/* ---- for the tests: the rest of what is live is in fake_cuda.h ---- */

EXPORT int fake_cuda_live_contexts(void)
{
	return contexts_retained;
}
