/* fake_cuda.h - what both fake CUDA libraries (fake_cudart.c, the runtime,
 * and fake_cuda_driver.c, the driver API) share, included once by each: the
 * "GPU memory" table (host allocations, tracked so tests can see what is
 * live), the FAKE_CUDA_DEVICES / FAKE_CUDA_FAIL steering, stream tokens and
 * the counters the tests read. Engine threads allocate at once, so the table
 * is under a mutex (without it two threads could take the same slot and one
 * allocation would be lost). */
#ifndef FAKE_CUDA_H
#define FAKE_CUDA_H

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT __attribute__((visibility("default")))

/* The result codes both APIs number alike; each library adds its own. */
enum {
	CUDA_SUCCESS = 0,
	CUDA_ERROR_INVALID_VALUE = 1,
	CUDA_ERROR_INVALID_DEVICE = 101,
	CUDA_ERROR_ILLEGAL_ADDRESS = 700,
	CUDA_ERROR_UNKNOWN = 999,
};

#define FAKE_MAX_ALLOCATIONS 64

static void *fake_allocations[FAKE_MAX_ALLOCATIONS];
static pthread_mutex_t fake_alloc_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int streams_live;   /* atomic: several engine threads */

/* Whether $FAKE_CUDA_FAIL names what. */
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

/* 4 KiB-aligned host memory in a free slot; NULL when none is left. */
static void *fake_alloc(size_t size)
{
	void *p = NULL;
	int slot;

	pthread_mutex_lock(&fake_alloc_lock);
	for (slot = 0; slot < FAKE_MAX_ALLOCATIONS && fake_allocations[slot]; slot++)
		;
	if (slot < FAKE_MAX_ALLOCATIONS && posix_memalign(&p, 4096, size ? size : 1) == 0)
		fake_allocations[slot] = p;
	else
		p = NULL;
	pthread_mutex_unlock(&fake_alloc_lock);
	return p;
}

/* Frees p if the table holds it: 0, else -1. */
static int fake_free(void *p)
{
	int rc = -1;

	pthread_mutex_lock(&fake_alloc_lock);
	for (int i = 0; p && i < FAKE_MAX_ALLOCATIONS; i++)
		if (fake_allocations[i] == p) {
			fake_allocations[i] = NULL;
			free(p);
			rc = 0;
			break;
		}
	pthread_mutex_unlock(&fake_alloc_lock);
	return rc;
}

/* Streams are tokens: the address of the live count. */
static int fake_stream_create(void **stream)
{
	if (failing("stream"))
		return CUDA_ERROR_UNKNOWN;
	*stream = &streams_live;
	streams_live++;
	return CUDA_SUCCESS;
}

static int fake_stream_synchronize(void *stream)
{
	(void)stream;
	return failing("sync") ? CUDA_ERROR_ILLEGAL_ADDRESS : CUDA_SUCCESS;
}

static int fake_stream_destroy(void *stream)
{
	if (stream != &streams_live || streams_live == 0)
		return CUDA_ERROR_INVALID_VALUE;
	streams_live--;
	return CUDA_SUCCESS;
}

/* ---- for the tests: what is live ---- */

EXPORT int fake_cuda_live_allocations(void)
{
	int n = 0;

	pthread_mutex_lock(&fake_alloc_lock);
	for (int i = 0; i < FAKE_MAX_ALLOCATIONS; i++)
		n += fake_allocations[i] != NULL;
	pthread_mutex_unlock(&fake_alloc_lock);
	return n;
}

/* The i-th live allocation (in slot order), NULL when there is none. */
EXPORT void *fake_cuda_allocation(int index)
{
	void *p = NULL;

	pthread_mutex_lock(&fake_alloc_lock);
	for (int i = 0; i < FAKE_MAX_ALLOCATIONS && !p; i++)
		if (fake_allocations[i] && index-- == 0)
			p = fake_allocations[i];
	pthread_mutex_unlock(&fake_alloc_lock);
	return p;
}

EXPORT int fake_cuda_live_streams(void)
{
	return streams_live;
}

#endif
