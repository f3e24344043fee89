/* fake_alloc.h - the "GPU memory" table both fake CUDA libraries keep:
 * host allocations, tracked so tests can see what is live. Engine threads
 * allocate at once, so the table is under a mutex (without it two threads
 * could take the same slot and one allocation would be lost). */
#ifndef FAKE_ALLOC_H
#define FAKE_ALLOC_H

#include <pthread.h>
#include <stdlib.h>

#define FAKE_MAX_ALLOCATIONS 64

static void *fake_allocations[FAKE_MAX_ALLOCATIONS];
static pthread_mutex_t fake_alloc_lock = PTHREAD_MUTEX_INITIALIZER;

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

static int fake_live_allocations(void)
{
	int n = 0;

	pthread_mutex_lock(&fake_alloc_lock);
	for (int i = 0; i < FAKE_MAX_ALLOCATIONS; i++)
		n += fake_allocations[i] != NULL;
	pthread_mutex_unlock(&fake_alloc_lock);
	return n;
}

/* The i-th live allocation (in slot order), NULL when there is none. */
static void *fake_allocation(int index)
{
	void *p = NULL;

	pthread_mutex_lock(&fake_alloc_lock);
	for (int i = 0; i < FAKE_MAX_ALLOCATIONS && !p; i++)
		if (fake_allocations[i] && index-- == 0)
			p = fake_allocations[i];
	pthread_mutex_unlock(&fake_alloc_lock);
	return p;
}

#endif
