/* fake_cudart.c - a stand-in for the CUDA runtime (libcudart.so.12) for the
 * cufile engine's tests: "device memory" is aligned host memory, copies are
 * memcpy, streams are tokens. Behaviour is steered by environment variables:
 * FAKE_CUDA_DEVICES=N (default 1), FAKE_CUDA_FAIL=count|set_device|malloc|
 * memcpy|stream|sync. Built as a shared library for tests only. */
#include <string.h>

#include "fake_cuda.h"

enum { CUDA_ERROR_MEMORY_ALLOCATION = 2 };

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
	return fake_stream_create(stream);
}

EXPORT int cudaStreamSynchronize(void *stream)
{
	return fake_stream_synchronize(stream);
}

EXPORT int cudaStreamDestroy(void *stream)
{
	return fake_stream_destroy(stream);
}
