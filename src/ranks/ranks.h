/* dist.h - the ranks of a distributed run: drivebench-mpi started by
 * mpirun is one rank of many; everything else (the plain build, or
 * drivebench-mpi started without mpirun) is rank 0 of 1 and every call
 * here is trivial. Rank 0 runs the command; the others serve it
 * (record/rank_run.h). Below the job model: it knows bytes, not jobs. */
#ifndef DRIVEBENCH_RANKS_H
#define DRIVEBENCH_RANKS_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Starts the rank (MPI_Init when started by mpirun) and takes the MPI
 * binary's own leading options from argv: --rank-map FILE (the target of
 * each rank, %t) and --rank-timeout SECONDS (docs/distributed.md).
 * Returns 0, or -1 with err_msg (exit 2). */
int ranks_init(int *argc, char ***argv);
/* Ends the rank (MPI_Finalize); exit_code is the command's. */
void ranks_finish(int exit_code);

bool ranks_active(void);          /* more than one rank */
int ranks_rank(void);
int ranks_size(void);
int ranks_local_rank(void);       /* rank among those on its host */
const char *ranks_host(void);     /* this rank's host name */
const char *ranks_host_of(int rank);   /* any rank's, gathered at start */

/* At rank 0: rank's wall clock minus rank 0's (ns), measured at start by
 * the quickest of several round trips; 0 for one process. */
int64_t ranks_clock_offset_ns(int rank);

/* Ends the run on every rank: prints "drivebench: rank R (host H): MSG;
 * ending the run on every rank" and aborts the MPI job with exit_code
 * (mpirun then exits with it). Single rank: exits with exit_code. */
_Noreturn void ranks_fail(int exit_code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Collective: 0 when every rank passes ok; otherwise -1 on every rank with
 * err_msg "rank R (host H): MSG", the lowest failing rank's own err_msg(),
 * and its exit code class in *code (err_exit_code of that rank). */
int ranks_agree(bool ok, int *code);

/* Collective: waits for every rank, polling stop (a signal) every few ms;
 * with timeout_ns > 0 it gives up after that long. -1 with err_msg when
 * stopped or timed out (the caller then calls ranks_fail). *exit_ns: the
 * CLOCK_MONOTONIC time this rank left the barrier (for clock agreement). */
int ranks_barrier(const volatile sig_atomic_t *stop, uint64_t timeout_ns,
		 uint64_t *exit_ns);
/* The grace --rank-timeout gives a rank to reach a barrier past the time
 * its phase should end (ns; 0 = wait for ever). */
uint64_t ranks_rank_timeout_ns(void);

/* Collective: the largest of every rank's value. */
int dist_max_u64(uint64_t mine, uint64_t *max);

/* The flag a signal sets in a rank that waits for rank 0's next request
 * (ranks_bcast): set, the wait ends with an error. NULL: none. */
void ranks_set_stop(const volatile sig_atomic_t *stop);

/* Collective: rank 0's bytes to every rank. On rank 0 *buf / *len are
 * sent as they are; elsewhere *buf is malloc'd (caller frees). */
int ranks_bcast(void **buf, size_t *len);
/* Collective: every rank's bytes to rank 0: there all[r] (malloc'd, the
 * caller frees each and the array) and lens[r]; elsewhere *all = NULL. */
int ranks_gather(const void *mine, size_t len, void ***all, size_t **lens);

/* A target name for this rank: %r (rank), %h (host), %l (local rank),
 * %t (this rank's target in --rank-map), %% (a percent sign). In the
 * plain build the name is copied unchanged (fio has no such escapes).
 * -1 with err_msg when out does not hold it or %t has no map entry. */
int ranks_expand(const char *in, char *out, size_t len);
/* Whether name has one of those escapes, %% included (a name shared by
 * every rank otherwise). */
bool ranks_names_rank(const char *name);
/* Whether name is each rank's own: %r, %t, or %h with %l. */
bool ranks_names_own(const char *name);

#endif
