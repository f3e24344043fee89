/* ranks_mpi.c - dist.h on MPI (the drivebench-mpi build): the ranks, their
 * hosts, polled barriers that a signal or --rank-timeout can end, the
 * agreement that names the failing rank, and byte broadcast and gather.
 * Only the thread that called ranks_init calls MPI (MPI_THREAD_FUNNELED). */
#ifdef DRIVEBENCH_MPI
#include "ranks/ranks.h"

#include <limits.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ranks/ranks_internal.h"
#include "util/error.h"

#define HOST_LEN 256

static bool started;          /* MPI_Init ran (started by mpirun) */
static int my_rank, nr_ranks = 1, my_local_rank;
static char my_host[HOST_LEN];
static char *hosts;           /* [nr_ranks][HOST_LEN] */
static int64_t *clock_offsets;  /* [nr_ranks], at rank 0: theirs - rank 0's */
static uint64_t rank_timeout_ns = 30ull * 1000000000ull;
static const volatile sig_atomic_t *bcast_stop;   /* ranks_set_stop */

static uint64_t mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

/* mpirun (OpenMPI, MPICH or a PMIx launcher) leaves these in a rank's
 * environment; without them MPI is not started at all, so the binary
 * behaves as drivebench. */
static bool launched_by_mpirun(void)
{
	return getenv("OMPI_COMM_WORLD_SIZE") || getenv("PMIX_RANK") || getenv("PMI_RANK");
}

static int mpi_error(const char *what, int rc)
{
	char text[MPI_MAX_ERROR_STRING];
	int len = 0;

	if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
		snprintf(text, sizeof(text), "error %d", rc);
	return err_set("%s: %s", what, text);
}

static int64_t real_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (int64_t)t.tv_sec * 1000000000ll + t.tv_nsec;
}

/* Each rank's wall clock against rank 0's, as NTP's first step does: rank
 * 0 asks for the time, and the answer came halfway through the round
 * trip; the quickest of several round trips is kept (its error is at most
 * half of it). */
static int measure_clock_offsets(void)
{
	enum { ROUNDS = 8 };
	int rc = MPI_SUCCESS;

	if (!(clock_offsets = calloc((size_t)nr_ranks, sizeof(*clock_offsets))))
		return err_set("out of memory");
	for (int r = 1; r < nr_ranks && rc == MPI_SUCCESS; r++) {
		int64_t best = INT64_MAX;

		for (int k = 0; k < ROUNDS && rc == MPI_SUCCESS; k++) {
			int64_t sent, theirs = 0, back;

			if (my_rank == 0) {
				sent = real_ns();
				rc = MPI_Send(&sent, 1, MPI_INT64_T, r, 1, MPI_COMM_WORLD);
				if (rc == MPI_SUCCESS)
					rc = MPI_Recv(&theirs, 1, MPI_INT64_T, r, 2, MPI_COMM_WORLD,
						      MPI_STATUS_IGNORE);
				back = real_ns();
				if (back - sent < best) {
					best = back - sent;
					clock_offsets[r] = theirs - (sent + back) / 2;
				}
			} else if (my_rank == r) {
				rc = MPI_Recv(&sent, 1, MPI_INT64_T, 0, 1, MPI_COMM_WORLD,
					      MPI_STATUS_IGNORE);
				theirs = real_ns();
				if (rc == MPI_SUCCESS)
					rc = MPI_Send(&theirs, 1, MPI_INT64_T, 0, 2, MPI_COMM_WORLD);
			}
		}
	}
	return rc == MPI_SUCCESS ? 0 : mpi_error("comparing the ranks' clocks", rc);
}

int64_t ranks_clock_offset_ns(int rank)
{
	return clock_offsets && rank >= 0 && rank < nr_ranks ? clock_offsets[rank] : 0;
}

/* The binary's own options, before the command: taken out of argv. */
static int take_options(int *argc, char ***argv)
{
	char **v = *argv;
	int n = *argc, out = 1;

	for (int i = 1; i < n; i++) {
		char *end;

		if (!strcmp(v[i], "--rank-map") || !strcmp(v[i], "--rank-timeout")) {
			if (i + 1 >= n)
				return err_set("%s needs a value", v[i]);
			if (!strcmp(v[i], "--rank-map")) {
				if (ranks_read_rank_map(v[i + 1]))
					return -1;
			} else {
				double s = strtod(v[i + 1], &end);

				if (end == v[i + 1] || *end || !(s >= 0 && s <= 1e7))
					return err_set("--rank-timeout '%s': seconds from 0 (wait for ever) to 10000000",
						       v[i + 1]);
				rank_timeout_ns = (uint64_t)(s * 1e9);
			}
			i++;
			continue;
		}
		/* the first other argument is the command: the rest is its own */
		for (; i < n; i++)
			v[out++] = v[i];
	}
	v[out] = NULL;
	*argc = out;
	return 0;
}

int ranks_init(int *argc, char ***argv)
{
	MPI_Comm node;
	int provided, rc;

	if (gethostname(my_host, sizeof(my_host) - 1) < 0)
		snprintf(my_host, sizeof(my_host), "localhost");
	if (launched_by_mpirun()) {
		rc = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
		if (rc != MPI_SUCCESS)
			return err_set("MPI_Init failed (error %d)", rc);
		started = true;
		MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
		MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
		MPI_Comm_size(MPI_COMM_WORLD, &nr_ranks);
		if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, my_rank,
					MPI_INFO_NULL, &node) == MPI_SUCCESS) {
			MPI_Comm_rank(node, &my_local_rank);
			MPI_Comm_free(&node);
		}
	}
	hosts = calloc((size_t)nr_ranks, HOST_LEN);
	if (!hosts)
		return err_set("out of memory");
	if (started) {
		rc = MPI_Allgather(my_host, HOST_LEN, MPI_CHAR, hosts, HOST_LEN, MPI_CHAR,
				   MPI_COMM_WORLD);
		if (rc != MPI_SUCCESS)
			return mpi_error("gathering the ranks' host names", rc);
	} else {
		memcpy(hosts, my_host, HOST_LEN);
	}
	if (started && measure_clock_offsets())
		return -1;
	return take_options(argc, argv);
}

void ranks_finish(int exit_code)
{
	(void)exit_code;
	ranks_forget_rank_map();
	free(hosts);
	hosts = NULL;
	free(clock_offsets);
	clock_offsets = NULL;
	if (started)
		MPI_Finalize();
	started = false;
}

bool ranks_active(void) { return nr_ranks > 1; }
int ranks_rank(void) { return my_rank; }
int ranks_size(void) { return nr_ranks; }
int ranks_local_rank(void) { return my_local_rank; }
const char *ranks_host(void) { return my_host; }
uint64_t ranks_rank_timeout_ns(void) { return rank_timeout_ns; }

const char *ranks_host_of(int rank)
{
	if (!hosts || rank < 0 || rank >= nr_ranks)
		return "?";
	return hosts + (size_t)rank * HOST_LEN;
}

void ranks_fail(int exit_code, const char *fmt, ...)
{
	char text[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!started) {
		fprintf(stderr, "drivebench: %s\n", text);
		exit(exit_code);
	}
	fprintf(stderr, "drivebench: rank %d (host %s): %s; ending the run on every rank\n",
		my_rank, my_host, text);
	fflush(stderr);
	MPI_Abort(MPI_COMM_WORLD, exit_code);
	_exit(exit_code);   /* MPI_Abort does not return */
}

int ranks_agree(bool ok, int *code)
{
	struct { int code; char msg[1024]; } why = { 0 };
	int mine = ok ? nr_ranks : my_rank, lowest = mine, rc;

	if (!ok) {
		why.code = err_exit_code(EXIT_RUN_FAILED);
		snprintf(why.msg, sizeof(why.msg), "%s", err_msg());
	}
	if (code)
		*code = ok ? 0 : why.code;
	if (!started)
		return ok ? 0 : -1;
	rc = MPI_Allreduce(&mine, &lowest, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS)
		ranks_fail(EXIT_RUN_FAILED, "%s", (mpi_error("agreeing with the other ranks", rc), err_msg()));
	if (lowest == nr_ranks)
		return 0;
	rc = MPI_Bcast(&why, sizeof(why), MPI_BYTE, lowest, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS)
		ranks_fail(EXIT_RUN_FAILED, "%s", (mpi_error("agreeing with the other ranks", rc), err_msg()));
	if (code)
		*code = why.code;
	return err_fail((enum exit_code)why.code, "rank %d (host %s): %s", lowest,
			ranks_host_of(lowest), why.msg);
}

/* Waits for a request, napping between tests so a waiting rank leaves the
 * CPU to the others (ranks may share cores); a signal or the timeout ends
 * the wait. */
static int wait_request(MPI_Request *req, const char *what,
			const volatile sig_atomic_t *stop, uint64_t timeout_ns, long max_nap_ns)
{
	uint64_t start = mono_ns();
	long nap_ns = 20000;
	int done = 0, rc;

	for (;;) {
		struct timespec nap = { 0, nap_ns };

		rc = MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (rc != MPI_SUCCESS)
			return mpi_error(what, rc);
		if (done)
			return 0;
		if (stop && *stop)
			return err_set("stopped by a signal while waiting for the other ranks");
		if (timeout_ns && mono_ns() - start > timeout_ns)
			return err_set("the other ranks did not reach the barrier within %.0f s "
				       "(--rank-timeout): a rank or host does not answer",
				       (double)timeout_ns / 1e9);
		/* short naps at first: ranks that arrive together leave together */
		nanosleep(&nap, NULL);
		if (nap_ns < max_nap_ns)
			nap_ns *= 2;
	}
}

int ranks_barrier(const volatile sig_atomic_t *stop, uint64_t timeout_ns, uint64_t *exit_ns)
{
	MPI_Request req;
	int rc;

	if (started) {
		rc = MPI_Ibarrier(MPI_COMM_WORLD, &req);
		if (rc != MPI_SUCCESS)
			return mpi_error("barrier", rc);
		if (wait_request(&req, "barrier", stop, timeout_ns, 200000))
			return -1;
	}
	if (exit_ns)
		*exit_ns = mono_ns();
	return 0;
}

int dist_max_u64(uint64_t mine, uint64_t *max)
{
	int rc;

	*max = mine;
	if (!started)
		return 0;
	rc = MPI_Allreduce(&mine, max, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
	return rc == MPI_SUCCESS ? 0 : mpi_error("agreeing with the other ranks", rc);
}

void ranks_set_stop(const volatile sig_atomic_t *stop)
{
	bcast_stop = stop;
}

int ranks_bcast(void **buf, size_t *len)
{
	uint64_t n = my_rank == 0 ? *len : 0;
	MPI_Request req;
	int rc;

	if (!started)
		return 0;
	/* the other ranks wait here for rank 0's next request, however long
	 * rank 0 works in between: polled, not spinning */
	rc = MPI_Ibcast(&n, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD, &req);
	if (rc != MPI_SUCCESS || wait_request(&req, "broadcast", bcast_stop, 0, 5000000))
		return rc != MPI_SUCCESS ? mpi_error("broadcast", rc) : -1;
	if (n > INT_MAX)
		return err_set("broadcast of %llu bytes: more than MPI's int count", (unsigned long long)n);
	if (my_rank != 0) {
		*buf = malloc(n ? n : 1);
		if (!*buf)
			return err_set("out of memory");
		*len = n;
	}
	rc = MPI_Bcast(*buf, (int)n, MPI_BYTE, 0, MPI_COMM_WORLD);
	return rc == MPI_SUCCESS ? 0 : mpi_error("broadcast", rc);
}

int ranks_gather(const void *mine, size_t len, void ***all, size_t **lens)
{
	uint64_t n = len, *ns = NULL, total = 0;
	int *counts = NULL, *displs = NULL, rc;
	char *flat = NULL;

	*all = NULL;
	*lens = NULL;
	if (!started || nr_ranks == 1) {
		*all = calloc(1, sizeof(**all));
		*lens = calloc(1, sizeof(**lens));
		if (!*all || !*lens || !((*all)[0] = malloc(len ? len : 1)))
			return err_set("out of memory");
		memcpy((*all)[0], mine, len);
		(*lens)[0] = len;
		return 0;
	}
	if (len > INT_MAX)
		return err_set("gather of %zu bytes: more than MPI's int count", len);
	if (my_rank == 0 && !(ns = calloc((size_t)nr_ranks, sizeof(*ns))))
		return err_set("out of memory");
	rc = MPI_Gather(&n, 1, MPI_UINT64_T, ns, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	if (rc != MPI_SUCCESS) {
		free(ns);
		return mpi_error("gathering the results", rc);
	}
	if (my_rank == 0) {
		counts = calloc((size_t)nr_ranks, sizeof(*counts));
		displs = calloc((size_t)nr_ranks, sizeof(*displs));
		for (int r = 0; counts && displs && r < nr_ranks; r++) {
			counts[r] = (int)ns[r];
			displs[r] = (int)total;
			total += ns[r];
		}
		/* the others send anyway: fail after the collective, not before */
		flat = counts && displs && total <= INT_MAX ? malloc(total ? total : 1) : NULL;
	}
	if (my_rank == 0 && !flat)
		ranks_fail(EXIT_RUN_FAILED, "out of memory gathering %llu bytes of results",
			  (unsigned long long)total);
	rc = MPI_Gatherv(mine, (int)len, MPI_BYTE, flat, counts, displs, MPI_BYTE, 0,
			 MPI_COMM_WORLD);
	if (my_rank == 0 && rc == MPI_SUCCESS && flat) {
		*all = calloc((size_t)nr_ranks, sizeof(**all));
		*lens = calloc((size_t)nr_ranks, sizeof(**lens));
		for (int r = 0; *all && *lens && r < nr_ranks; r++) {
			if (!((*all)[r] = malloc(ns[r] ? ns[r] : 1)))
				break;
			memcpy((*all)[r], flat + displs[r], ns[r]);
			(*lens)[r] = ns[r];
		}
	}
	free(flat);
	free(counts);
	free(displs);
	free(ns);
	if (rc != MPI_SUCCESS)
		return mpi_error("gathering the results", rc);
	if (my_rank == 0 && (!*all || !*lens || !(*all)[nr_ranks - 1]))
		return err_set("out of memory gathering the results");
	return 0;
}
#endif
