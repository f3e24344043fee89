/* fake_cudart.c - a stand-in for the CUDA runtime (libcudart.so.12) for the
 * cufile engine's tests: "device memory" is aligned host memory, copies are
 * memcpy, streams are tokens. Behaviour is steered by environment variables:
 * FAKE_CUDA_DEVICES=N (default 1), FAKE_CUDA_FAIL=count|set_device|malloc|
 * memcpy|stream|sync. Built as a shared library for tests only. */
#include <stdlib.h>
#include <string.h>

#include "fake_alloc.h"

#define EXPORT __attribute__((visibility("default")))

enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_MEMORY_ALLOCATION = 2,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_UNKNOWN = 999,
};


static _Atomic int streams_live;   /* atomic: several engine threads */

static int failing(const char *what)
{
	const char *fail = getenv("FAKE_CUDA_FAIL");

	return fail && !strcmp(fail, what);
}

static int device_count(void)
{
	const char *text = getenv("FAKE_CUDA_DEVICES");

	return text ? atoi(text) : 1;
}

EXPORT int cudaGetDeviceCount(int *count)
{
	if (failing("count"))
		return CUDA_ERROR_UNKNOWN;
	*count = device_count();
	return CUDA_SUCCESS;
}

EXPORT int cudaSetDevice(int device)
{
	if (failing("set_device") || device < 0 || device >= device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	return CUDA_SUCCESS;
}

EXPORT int cudaGetDeviceProperties_v2(void *props, int device)
{
	if (device < 0 || device >= device_count())
		return CUDA_ERROR_INVALID_DEVICE;
	strcpy(props, "Fake GPU 80GB");
	return CUDA_SUCCESS;
}

EXPORT const char *cudaGetErrorString(int code)
{
	switch (code) {
	case CUDA_SUCCESS: return "no error";
	case CUDA_ERROR_MEMORY_ALLOCATION: return "out of memory";
	case CUDA_ERROR_INVALID_DEVICE: return "invalid device ordinal";
	case CUDA_ERROR_ILLEGAL_ADDRESS: return "an illegal memory access was encountered";
	default: return "unknown error";
	}
}

EXPORT int cudaMalloc(void **ptr, size_t size)
{
	if (failing("malloc"))
		return CUDA_ERROR_MEMORY_ALLOCATION;
	*ptr = fake_alloc(size);
	return *ptr ? CUDA_SUCCESS : CUDA_ERROR_MEMORY_ALLOCATION;
}

EXPORT int cudaFree(void *ptr)
{
	return fake_free(ptr) ? CUDA_ERROR_INVALID_VALUE : CUDA_SUCCESS;
}

EXPORT int cudaMemcpy(void *dst, const void *src, size_t count, int kind)
{
	(void)kind;
	if (failing("memcpy"))
		return CUDA_ERROR_ILLEGAL_ADDRESS;
	memcpy(dst, src, count);
	return CUDA_SUCCESS;
}

EXPORT int cudaStreamCreate(void **stream)
{
	if (failing("stream"))
		return CUDA_ERROR_UNKNOWN;
	*stream = &streams_live;
	streams_live++;
	return CUDA_SUCCESS;
}

EXPORT int cudaStreamSynchronize(void *stream)
{
	(void)stream;
	return failing("sync") ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

EXPORT int cudaStreamDestroy(void *stream)
{
	if (stream != &streams_live || streams_live == 0)
		return CUDA_ERROR_INVALID_VALUE;
	streams_live--;
	return CUDA_SUCCESS;
}

/* ---- for the tests: what is live ---- */

EXPORT int fake_cuda_live_allocations(void)
{
	return fake_live_allocations();
}

/* The i-th live allocation (in slot order), NULL when there is none. */
EXPORT void *fake_cuda_allocation(int index)
{
	return fake_allocation(index);
}

EXPORT int fake_cuda_live_streams(void)
{
	return streams_live;
}
