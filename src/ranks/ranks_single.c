/* ranks_single.c - dist.h for the plain build: one rank, no MPI. */
#ifndef DRIVEBENCH_MPI
#include "ranks/ranks.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"

static char host[256];

int ranks_init(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (gethostname(host, sizeof(host) - 1) < 0)
		snprintf(host, sizeof(host), "localhost");
	return 0;
}

void ranks_finish(int exit_code)
{
	(void)exit_code;
}

bool ranks_active(void) { return false; }
int ranks_rank(void) { return 0; }
int ranks_size(void) { return 1; }
int ranks_local_rank(void) { return 0; }
uint64_t ranks_rank_timeout_ns(void) { return 0; }
int64_t ranks_clock_offset_ns(int rank) { (void)rank; return 0; }

const char *ranks_host(void)
{
	if (!host[0] && gethostname(host, sizeof(host) - 1) < 0)
		snprintf(host, sizeof(host), "localhost");
	return host;
}

const char *ranks_host_of(int rank)
{
	(void)rank;
	return ranks_host();
}

void ranks_fail(int exit_code, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "drivebench: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(exit_code);
}

int ranks_agree(bool ok, int *code)
{
	if (code)
		*code = ok ? 0 : err_exit_code(EXIT_RUN_FAILED);
	return ok ? 0 : -1;
}

int ranks_barrier(const volatile sig_atomic_t *stop, uint64_t timeout_ns, uint64_t *exit_ns)
{
	struct timespec t;

	(void)stop;
	(void)timeout_ns;
	clock_gettime(CLOCK_MONOTONIC, &t);
	if (exit_ns)
		*exit_ns = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
	return 0;
}

void ranks_set_stop(const volatile sig_atomic_t *stop)
{
	(void)stop;
}

int dist_max_u64(uint64_t mine, uint64_t *max)
{
	*max = mine;
	return 0;
}

int ranks_bcast(void **buf, size_t *len)
{
	(void)buf;
	(void)len;
	return 0;
}

int ranks_gather(const void *mine, size_t len, void ***all, size_t **lens)
{
	*all = calloc(1, sizeof(**all));
	*lens = calloc(1, sizeof(**lens));
	if (!*all || !*lens || !((*all)[0] = malloc(len ? len : 1))) {
		free(*all);
		free(*lens);
		return err_set("out of memory");
	}
	memcpy((*all)[0], mine, len);
	(*lens)[0] = len;
	return 0;
}
#endif
