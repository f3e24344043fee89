/* rank_run.c - job lists across MPI ranks (see the header): rank 0's
 * messages to the others (run these jobs, drop the page cache, end), the
 * others' loop that serves them, and the gathering of what they measured. */
#include "record/rank_run.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ranks/ranks.h"
#include "measure/result_pack.h"
#include "record/rank_merge.h"
#include "record/rank_metrics.h"
#include "device/cache.h"
#include "device/target.h"
#include "util/error.h"
#include "util/pack.h"
#include "verify/verify.h"

enum rank_op {
	OP_RUN = 1,
	OP_DROP_CACHES = 2,
	OP_END = 3,
	OP_PURGE = 4,
};

static volatile sig_atomic_t serve_stop;
static bool ended;
/* rank_own_target's names: rank 0's expansion and the name given */
static char own_target[JOB_PATH_MAX], target_name[JOB_PATH_MAX];

int rank_own_target(const char *name, char *out, size_t len)
{
	if (ranks_expand(name, out, len))
		return -1;
	if (strcmp(name, out) && strlen(name) < sizeof(target_name) &&
	    strlen(out) < sizeof(own_target)) {
		snprintf(own_target, sizeof(own_target), "%s", out);
		snprintf(target_name, sizeof(target_name), "%s", name);
	}
	return 0;
}

/* The size of rank 0's own target (0: none, or it does not exist yet). */
static uint64_t own_target_size(void)
{
	struct target t;

	if (!own_target[0] || access(own_target, F_OK) != 0 || target_probe(own_target, &t)) {
		err_clear();
		return 0;
	}
	return t.exists ? t.size : 0;
}

/* A job of rank 0 that names rank 0's own target (or a file under it)
 * names the target as given, which each rank expands (job_file_path). */
static void name_targets_as_given(struct job_spec *s, const char *mine, const char *given)
{
	char *fields[] = { s->filename, s->directory };
	size_t n = strlen(mine);

	if (!n)
		return;
	for (unsigned f = 0; f < 2; f++) {
		char *v = fields[f], swapped[JOB_PATH_MAX];

		if (strncmp(v, mine, n) || (v[n] && v[n] != '/'))
			continue;
		if (snprintf(swapped, sizeof(swapped), "%s%s", given, v + n) < (int)sizeof(swapped))
			memcpy(v, swapped, strlen(swapped) + 1);
	}
}

/* --- rank 0's message, every rank's reading of it ------------------------ */

static void pack_run(struct pack *p, const struct job_list *jobs, const struct run_options *opt,
		     const unsigned *shards)
{
	pack_u64(p, OP_RUN);
	pack_u64(p, shards != NULL);
	pack_u64(p, opt->max_buffer_mem);
	pack_u64(p, opt->has_verify_seed);
	pack_u64(p, opt->verify_seed);
	pack_u64(p, opt->nr_destroy_ids);
	for (unsigned i = 0; i < opt->nr_destroy_ids; i++)
		pack_str(p, opt->destroy_ids[i]);
	pack_str(p, own_target);
	pack_str(p, target_name);
	pack_u64(p, own_target_size());
	pack_u64(p, jobs->nr);
	for (unsigned j = 0; j < jobs->nr; j++)
		pack_bytes(p, &jobs->jobs[j], sizeof(jobs->jobs[j]));
	for (unsigned j = 0; shards && j < jobs->nr; j++)
		pack_u64(p, shards[j]);
	rank_metrics_pack(p, opt->metrics);
}

struct run_message {
	unsigned *shards;          /* [jobs.nr] or NULL */
	bool has_verify_seed;
	uint64_t verify_seed;
	char *target_name;         /* rank_own_target's name as given, or NULL */
	uint64_t rank0_target_size;
	uint64_t max_buffer_mem;
	char **destroy_ids;
	unsigned nr_destroy_ids;
	struct job_list jobs;      /* every job of the list */
	struct rank_metrics metrics;   /* --metrics-file: this rank's own */
};

static void run_message_free(struct run_message *m)
{
	for (unsigned i = 0; i < m->nr_destroy_ids; i++)
		free(m->destroy_ids[i]);
	free(m->destroy_ids);
	free(m->shards);
	free(m->target_name);
	free(m->jobs.jobs);
	rank_metrics_free(&m->metrics);
	memset(m, 0, sizeof(*m));
}

static int unpack_run(struct unpack *u, struct run_message *m)
{
	char *mine = NULL, *given = NULL;
	bool sharded;
	uint64_t n;

	memset(m, 0, sizeof(*m));
	sharded = unpack_u64(u) != 0;
	m->max_buffer_mem = unpack_u64(u);
	m->has_verify_seed = unpack_u64(u) != 0;
	m->verify_seed = unpack_u64(u);
	n = unpack_u64(u);
	if (n > 4096 || !(m->destroy_ids = calloc(n ? n : 1, sizeof(*m->destroy_ids))))
		return err_set("rank 0's job list: bad --destroy-data count");
	for (; m->nr_destroy_ids < n && !u->failed; m->nr_destroy_ids++)
		m->destroy_ids[m->nr_destroy_ids] = unpack_str(u);
	mine = unpack_str(u);
	given = unpack_str(u);
	m->rank0_target_size = unpack_u64(u);
	if (given && !(m->target_name = strdup(given))) {
		free(mine);
		free(given);
		return err_set("out of memory");
	}
	n = unpack_u64(u);
	if (u->failed || n > (u->len - u->at) / sizeof(struct job_spec) ||
	    !(m->jobs.jobs = calloc(n ? n : 1, sizeof(*m->jobs.jobs)))) {
		free(mine);
		free(given);
		return err_set("rank 0's job list is short or malformed");
	}
	m->jobs.nr = m->jobs.cap = (unsigned)n;
	for (unsigned j = 0; j < n; j++) {
		struct engine_opts *e = &m->jobs.jobs[j].eng;

		unpack_bytes(u, &m->jobs.jobs[j], sizeof(m->jobs.jobs[j]));
		/* names of another process's option table: checked on rank 0 */
		memset(e->engine_option, 0, sizeof(e->engine_option));
		e->nr_engine_options = e->nr_global_engine_options = 0;
		/* ... and its resolved engine: resolved again on this rank */
		m->jobs.jobs[j].engine = NULL;
		if (mine && given)
			name_targets_as_given(&m->jobs.jobs[j], mine, given);
	}
	free(mine);
	free(given);
	if (sharded && !(m->shards = calloc(n ? n : 1, sizeof(*m->shards))))
		return err_set("out of memory");
	for (unsigned j = 0; sharded && j < n; j++)
		m->shards[j] = (unsigned)unpack_u64(u);
	if (rank_metrics_unpack(u, &m->metrics))
		return -1;
	return unpack_done(u, "rank 0's job list");
}

/* The jobs this rank runs: all, or those whose shard % ranks == rank;
 * index[k] is the k-th one's place in the whole list. */
static int my_jobs(const struct job_list *all, const unsigned *shards, struct job_list *mine,
		   unsigned *index)
{
	memset(mine, 0, sizeof(*mine));
	mine->jobs = calloc(all->nr ? all->nr : 1, sizeof(*mine->jobs));
	if (!mine->jobs)
		return err_set("out of memory");
	for (unsigned j = 0; j < all->nr; j++) {
		if (shards && shards[j] % (unsigned)ranks_size() != (unsigned)ranks_rank())
			continue;
		index[mine->nr] = j;
		mine->jobs[mine->nr++] = all->jobs[j];
	}
	mine->cap = mine->nr;
	return 0;
}

/* What this rank measured: per result its job's place in the whole list,
 * then the result. */
static int pack_output(struct pack *p, const struct run_output *out, const struct job_list *mine,
		       const unsigned *index)
{
	static struct host_facts host;
	static bool have_host;

	if (!have_host) {
		host_facts_read(&host);
		have_host = true;
	}
	pack_u64(p, (uint64_t)ranks_local_rank());
	pack_bytes(p, &host, sizeof(host));
	pack_u64(p, out->nr);
	for (unsigned i = 0; i < out->nr; i++) {
		unsigned k = (unsigned)(out->results[i].spec - mine->jobs);

		pack_u64(p, index[k]);
		result_pack(p, &out->results[i]);
	}
	return pack_done(p);
}

static int unpack_output(const void *data, size_t len, const struct job_list *all,
			 struct run_output *out, struct rank_results *ranks, int rank)
{
	struct unpack u;
	uint64_t n;

	memset(out, 0, sizeof(*out));
	unpack_init(&u, data, len);
	ranks->local_ranks[rank] = (int)unpack_u64(&u);
	unpack_bytes(&u, &ranks->hosts[rank], sizeof(ranks->hosts[rank]));
	ranks->hosts[rank].hostname[sizeof(ranks->hosts[rank].hostname) - 1] = '\0';
	ranks->hosts[rank].kernel[sizeof(ranks->hosts[rank].kernel) - 1] = '\0';
	ranks->hosts[rank].cpu_model[sizeof(ranks->hosts[rank].cpu_model) - 1] = '\0';
	ranks->hosts[rank].os[sizeof(ranks->hosts[rank].os) - 1] = '\0';
	ranks->hosts[rank].server[sizeof(ranks->hosts[rank].server) - 1] = '\0';
	n = unpack_u64(&u);
	if (u.failed || n > len / 64)
		return err_set("rank %d sent a malformed result list", rank);
	out->results = calloc(n ? n : 1, sizeof(*out->results));
	if (!out->results)
		return err_set("out of memory");
	for (; out->nr < n; out->nr++) {
		uint64_t j = unpack_u64(&u);

		if (j >= all->nr)
			return err_set("rank %d sent a result of job %llu of %u", rank,
				       (unsigned long long)j, all->nr);
		if (result_unpack(&u, &all->jobs[j], &out->results[out->nr]))
			return err_prefix("rank %d", rank);
	}
	return 0;
}

/* The first error a job of this rank hit: under MPI it ends the run (a
 * failed verification does not: it is a result like any other). */
static const struct job_result *failed_result(const struct run_output *out)
{
	for (unsigned i = 0; i < out->nr; i++)
		if (out->results[i].error && !result_failed_verify(&out->results[i]))
			return &out->results[i];
	return NULL;
}

/* Runs this rank's part; a failure that not every rank shares ends the
 * run everywhere (rank 0's prints and stores nothing). */
static int run_my_part(const struct job_list *all, const struct run_options *opt, const unsigned *shards,
		       struct run_output *out, struct job_list *mine, unsigned *index,
		       enum run_failure *why)
{
	const struct job_result *bad;

	if (my_jobs(all, shards, mine, index))
		ranks_fail(EXIT_RUN_FAILED, "%s", err_msg());
	if (run_jobs(mine, opt, out, why)) {
		if (out->failed_together)
			return -1;
		ranks_fail(run_failure_exit_code(*why), "%s", err_msg());
	}
	if (out->partial || (opt->stop && *opt->stop))
		ranks_fail(EXIT_RUN_FAILED, "stopped by a signal");
	if ((bad = failed_result(out)))
		ranks_fail(EXIT_RUN_FAILED, "job '%s': %s", bad->name, err_errno_text(bad->error));
	return 0;
}

/* --- rank 0 ---------------------------------------------------------------- */

static int send_op(struct pack *p)
{
	void *data = p->data;
	size_t len = p->len;

	if (pack_done(p))
		ranks_fail(EXIT_RUN_FAILED, "%s", err_msg());
	if (ranks_bcast(&data, &len))
		ranks_fail(EXIT_RUN_FAILED, "%s", err_msg());
	return 0;
}

/* A deep copy of src into dst (the per-rank outputs keep their own). */
static int result_copy(struct job_result *dst, const struct job_result *src)
{
	struct pack p = { 0 };
	struct unpack u;
	int rc;

	result_pack(&p, src);
	unpack_init(&u, p.data, p.len);
	rc = pack_done(&p) || result_unpack(&u, src->spec, dst) ? -1 : 0;
	pack_free(&p);
	return rc;
}

/* Sharded: each job ran on one rank, so the aggregate is every rank's
 * results in job order. Each rank's are in job order already: the next
 * one is always at the front of some rank's (a merge, never a sort of
 * the large result structs). */
static int interleave(const struct rank_results *ranks, struct run_output *out)
{
	unsigned *next = calloc(ranks->nr, sizeof(*next));

	if (!next)
		return err_set("out of memory");
	for (;;) {
		const struct job_result *first = NULL;
		unsigned from = 0;

		for (unsigned r = 0; r < ranks->nr; r++) {
			const struct run_output *o = &ranks->per_rank[r];

			if (next[r] < o->nr && (!first || o->results[next[r]].spec < first->spec)) {
				first = &o->results[next[r]];
				from = r;
			}
		}
		if (!first)
			break;
		next[from]++;
		if (result_copy(&out->results[out->nr], first)) {
			free(next);
			return -1;
		}
		out->results[out->nr++].nr_ranks = 1;
	}
	free(next);
	return 0;
}

/* Every rank ran every job: each clone merged over the ranks. */
static int merge_over_ranks(const struct rank_results *ranks, struct run_output *out)
{
	const struct job_result **others = calloc(ranks->nr, sizeof(*others));
	unsigned n0 = ranks->per_rank[0].nr;

	if (!others)
		return err_set("out of memory");
	for (unsigned r = 1; r < ranks->nr; r++)
		if (ranks->per_rank[r].nr != n0) {
			free(others);
			return err_set("rank %u measured %u results, rank 0 %u: the ranks ran different jobs",
				       r, ranks->per_rank[r].nr, n0);
		}
	for (unsigned i = 0; i < n0; i++) {
		struct job_result *dst = &out->results[out->nr];

		if (result_copy(dst, &ranks->per_rank[0].results[i])) {
			free(others);
			return -1;
		}
		out->nr++;
		for (unsigned r = 1; r < ranks->nr; r++)
			others[r - 1] = &ranks->per_rank[r].results[i];
		if (rank_merge_results(dst, others, ranks->nr - 1)) {
			free(others);
			return -1;
		}
	}
	free(others);
	return 0;
}

/* The aggregate of every rank's outputs: each job once (sharded), or
 * every clone merged over the ranks. */
static int aggregate(const struct rank_results *ranks, bool share_jobs, struct run_output *out)
{
	unsigned total = 0;

	for (unsigned r = 0; r < ranks->nr; r++)
		total += ranks->per_rank[r].nr;
	out->results = calloc(total ? total : 1, sizeof(*out->results));
	if (!out->results)
		return err_set("out of memory");
	return share_jobs ? interleave(ranks, out) : merge_over_ranks(ranks, out);
}

/* Once per command, on standard error: who the ranks are, where, and how
 * far each host's clock is from rank 0's. */
static void print_ranks_once(const struct rank_results *ranks)
{
	static bool printed;

	if (printed)
		return;
	printed = true;
	fprintf(stderr, "drivebench: %u ranks:", ranks->nr);
	for (unsigned r = 0; r < ranks->nr; r++)
		fprintf(stderr, "%s rank %u on %s (local %d, clock %+.1f us)", r ? ";" : "", r,
			ranks->hosts[r].hostname, ranks->local_ranks[r],
			(double)ranks->clock_offset_ns[r] / 1e3);
	fputc('\n', stderr);
}

static int gather_outputs(const struct job_list *jobs, const struct run_output *mine_out,
			  const struct job_list *mine, const unsigned *index, bool share_jobs,
			  struct run_output *out, struct rank_results *ranks)
{
	struct pack p = { 0 };
	void **all = NULL;
	size_t *lens = NULL;
	int rc = 0;

	if (pack_output(&p, mine_out, mine, index) || ranks_gather(p.data, p.len, &all, &lens)) {
		pack_free(&p);
		return -1;
	}
	pack_free(&p);
	ranks->nr = (unsigned)ranks_size();
	ranks->per_rank = calloc(ranks->nr, sizeof(*ranks->per_rank));
	ranks->clock_offset_ns = calloc(ranks->nr, sizeof(*ranks->clock_offset_ns));
	ranks->hosts = calloc(ranks->nr, sizeof(*ranks->hosts));
	ranks->local_ranks = calloc(ranks->nr, sizeof(*ranks->local_ranks));
	if (!ranks->per_rank || !ranks->clock_offset_ns || !ranks->hosts || !ranks->local_ranks)
		rc = err_set("out of memory");
	for (unsigned r = 0; rc == 0 && r < ranks->nr; r++)
		rc = unpack_output(all[r], lens[r], jobs, &ranks->per_rank[r], ranks, (int)r);
	for (unsigned r = 0; all && r < (unsigned)ranks_size(); r++)
		free(all[r]);
	free(all);
	free(lens);
	if (rc)
		return -1;
	for (unsigned r = 0; r < ranks->nr; r++)
		ranks->clock_offset_ns[r] = ranks_clock_offset_ns((int)r);
	print_ranks_once(ranks);
	return aggregate(ranks, share_jobs, out);
}

int rank_run_jobs(const struct job_list *jobs, const struct run_options *opt,
		  const unsigned *shards, struct run_output *out, struct rank_results *ranks,
		  enum run_failure *why)
{
	struct run_output mine_out = { 0 };
	struct run_options mine_opt;
	struct job_list mine = { 0 };
	unsigned *index;
	struct pack p = { 0 };
	int rc;

	memset(ranks, 0, sizeof(*ranks));
	if (!ranks_active())
		return run_jobs(jobs, opt, out, why);
	memset(out, 0, sizeof(*out));
	/* one verify seed for every rank: the one rank 0 stores */
	mine_opt = *opt;
	if (!mine_opt.has_verify_seed) {
		if (verify_random_seed(&mine_opt.verify_seed))
			ranks_fail(EXIT_RUN_FAILED, "%s", err_msg());
		mine_opt.has_verify_seed = true;
	}
	opt = &mine_opt;
	pack_run(&p, jobs, opt, shards);
	send_op(&p);
	pack_free(&p);
	if (!(index = calloc(jobs->nr ? jobs->nr : 1, sizeof(*index))))
		ranks_fail(EXIT_RUN_FAILED, "out of memory");
	if (run_my_part(jobs, opt, shards, &mine_out, &mine, index, why)) {
		*out = mine_out;   /* failed together: empty, failed_together set */
		free(mine.jobs);
		free(index);
		return -1;
	}
	rc = gather_outputs(jobs, &mine_out, &mine, index, shards != NULL, out, ranks);
	run_output_free(&mine_out);
	free(mine.jobs);
	free(index);
	if (rc) {
		*why = RUN_FAILED_RUNTIME;
		run_output_free(out);
		rank_results_free(ranks);
		return -1;
	}
	return 0;
}

void rank_results_free(struct rank_results *ranks)
{
	for (unsigned r = 0; ranks->per_rank && r < ranks->nr; r++)
		run_output_free(&ranks->per_rank[r]);
	free(ranks->per_rank);
	free(ranks->clock_offset_ns);
	free(ranks->hosts);
	free(ranks->local_ranks);
	memset(ranks, 0, sizeof(*ranks));
}

int rank_drop_page_cache(void)
{
	struct pack p = { 0 };
	int rc;

	if (ranks_active()) {
		pack_u64(&p, OP_DROP_CACHES);
		send_op(&p);
		pack_free(&p);
	}
	rc = target_drop_page_cache();
	return ranks_agree(rc == 0, NULL);
}

/* Every rank's part of a purge: the gate on every rank first (agreed),
 * then the purge; a failure on any rank is every rank's. */
static int purge_here(const char *given, const char *const *ids, unsigned nr,
		      struct purge_result *done, int *exit_code)
{
	char path[JOB_PATH_MAX];
	int code = 0;
	bool ok = ranks_expand(given, path, sizeof(path)) == 0;

	if (!ok)
		*exit_code = EXIT_BAD_INPUT;
	/* the purge itself checks the gate; refusing here stops all first */
	if (ok && ranks_active() && access(path, F_OK) == 0)
		ok = target_purge_consent(path, ids, nr, exit_code) == 0;
	if (ranks_agree(ok, &code)) {
		*exit_code = code;
		return -1;
	}
	ok = target_purge(path, ids, nr, done, exit_code) == 0;
	if (ranks_agree(ok, &code)) {
		*exit_code = code;
		return -1;
	}
	return 0;
}

int rank_purge(const char *target, const char *const *destroy_ids, unsigned nr_destroy_ids,
	       struct purge_result *done, int *exit_code)
{
	const char *given = own_target[0] && !strcmp(target, own_target) ? target_name : target;
	struct pack p = { 0 };

	if (!ranks_active())
		return target_purge(target, destroy_ids, nr_destroy_ids, done, exit_code);
	pack_u64(&p, OP_PURGE);
	pack_str(&p, given);
	pack_u64(&p, nr_destroy_ids);
	for (unsigned i = 0; i < nr_destroy_ids; i++)
		pack_str(&p, destroy_ids[i]);
	send_op(&p);
	pack_free(&p);
	return purge_here(given, destroy_ids, nr_destroy_ids, done, exit_code);
}

static void serve_purge(struct unpack *u)
{
	char *given = unpack_str(u), **ids = NULL;
	uint64_t n = unpack_u64(u);
	unsigned got = 0;
	struct purge_result done;
	int code = 0;

	if (n <= 4096)
		ids = calloc(n ? n : 1, sizeof(*ids));
	for (; ids && got < n; got++)
		ids[got] = unpack_str(u);
	if (!given || !ids || unpack_done(u, "rank 0's purge"))
		ranks_fail(EXIT_RUN_FAILED, "rank 0's purge request is malformed");
	purge_here(given, (const char *const *)ids, got, &done, &code);
	for (unsigned i = 0; i < got; i++)
		free(ids[i]);
	free(ids);
	free(given);
}

void rank_end(void)
{
	struct pack p = { 0 };

	if (!ranks_active() || ranks_rank() != 0 || ended)
		return;
	ended = true;
	pack_u64(&p, OP_END);
	send_op(&p);
	pack_free(&p);
}

/* --- the other ranks --------------------------------------------------------- */

static void on_signal(int sig)
{
	(void)sig;
	serve_stop = 1;
}

/* A rank's own target may not be smaller than rank 0's: a suite sizes its
 * steps (a fill of 2 x capacity) from rank 0's, and a smaller file would
 * silently grow. */
static void check_target_size(const struct run_message *m)
{
	char path[JOB_PATH_MAX];
	struct target t;

	if (!m->target_name || !m->rank0_target_size ||
	    ranks_expand(m->target_name, path, sizeof(path)) || access(path, F_OK) != 0)
		return;
	if (target_probe(path, &t))
		ranks_fail(EXIT_BAD_INPUT, "%s", err_msg());
	if (t.exists && t.size < m->rank0_target_size)
		ranks_fail(EXIT_BAD_INPUT, "target '%s' holds %llu bytes, fewer than rank 0's "
			  "(%llu): the ranks' targets must be alike (the steps are sized from "
			  "rank 0's)", path, (unsigned long long)t.size,
			  (unsigned long long)m->rank0_target_size);
}

static void serve_run(struct unpack *u)
{
	struct run_message m;
	struct run_options opt = { 0 };
	struct run_output out = { 0 };
	struct job_list mine = { 0 };
	enum run_failure why = RUN_FAILED_INPUT;
	unsigned *index;
	struct pack p = { 0 };
	void **all = NULL;
	size_t *lens = NULL;

	if (unpack_run(u, &m))
		ranks_fail(EXIT_RUN_FAILED, "%s", err_msg());
	check_target_size(&m);
	opt.max_buffer_mem = m.max_buffer_mem;
	opt.has_verify_seed = m.has_verify_seed;
	opt.verify_seed = m.verify_seed;
	opt.stop = &serve_stop;
	opt.destroy_ids = (const char *const *)m.destroy_ids;
	opt.nr_destroy_ids = m.nr_destroy_ids;
	if (rank_metrics_start(&m.metrics, &opt))
		ranks_fail(err_exit_code(EXIT_BAD_INPUT), "%s", err_msg());
	if (!(index = calloc(m.jobs.nr ? m.jobs.nr : 1, sizeof(*index))))
		ranks_fail(EXIT_RUN_FAILED, "out of memory");
	if (run_my_part(&m.jobs, &opt, m.shards, &out, &mine, index, &why) == 0) {
		rank_metrics_finish(&m.metrics, &out);
		if (pack_output(&p, &out, &mine, index) || ranks_gather(p.data, p.len, &all, &lens))
			ranks_fail(EXIT_RUN_FAILED, "%s", err_msg());
		pack_free(&p);
	}
	run_output_free(&out);
	free(mine.jobs);
	free(index);
	run_message_free(&m);
}

int rank_serve(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ranks_set_stop(&serve_stop);   /* a signal ends the wait for rank 0 too */
	for (;;) {
		void *data = NULL;
		size_t len = 0;
		struct unpack u;
		uint64_t op;

		if (ranks_bcast(&data, &len))
			ranks_fail(EXIT_RUN_FAILED, "%s", err_msg());
		unpack_init(&u, data, len);
		op = unpack_u64(&u);
		if (op == OP_END) {
			free(data);
			return serve_stop ? EXIT_RUN_FAILED : EXIT_OK;
		}
		if (op == OP_RUN)
			serve_run(&u);
		else if (op == OP_PURGE)
			serve_purge(&u);
		else if (op == OP_DROP_CACHES)
			ranks_agree(target_drop_page_cache() == 0, NULL);
		else
			ranks_fail(EXIT_RUN_FAILED, "rank 0 sent an unknown request %llu",
				  (unsigned long long)op);
		free(data);
	}
}
