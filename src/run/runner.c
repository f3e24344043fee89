/* runner.c - turns a job list into worker threads: numjobs clones, target
 * lookup and file layout, the buffer-memory check, stonewall phases and
 * group ids (fio's rules), and the collection of per-clone results. */
#include "run/runner.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run/loop_log.h"
#include "run/memory_check.h"
#include "run/phase_plan.h"
#include "run/phase_snapshot.h"
#include "run/checks_run.h"
#include "run/jobctl.h"
#include "run/live_status.h"
#include "run/files.h"
#include "run/worker.h"
#include "run/zbd_run.h"
#include "device/output_gate.h"
#include "device/model_target.h"
#include "io/vssd.h"
#include "device/safety.h"
#include "device/write_consent.h"
#include "device/snapshot.h"
#include "verify/verify.h"

#include <cjson/cJSON.h>
#include "ranks/ranks.h"
#include "util/error.h"
#include "util/units.h"
#include "util/text.h"
#include "job/options.h"

/* Verification of one clone: the run's seed (drawn once per run unless the
 * job gives verify_seed) and the map's memory for the check above. Clones
 * of a job sharing one file must not overlap: one clone's writes would
 * fail the other's checks. */
struct verify_setup {
	uint64_t run_seed;
	bool have_seed;
	bool writer;                 /* a job with verify wrote earlier */
	uint64_t prev_end;           /* end of the job's previous clone */
};

static int setup_verify(struct worker *w, const struct target *t, const struct run_options *opt,
			struct verify_setup *vs, uint64_t *bytes)
{
	const struct job_spec *s = w->spec;
	uint64_t start, len;

	if (s->verify == VERIFY_NONE)
		return 0;
	/* fio's write phase then verify phase in one run (surface-scan):
	 * the reads check the run's own seed */
	if (!job_spec_writes(s) && !s->verify_seed_set && !vs->writer)
		return err_set("option 'verify': a job that only reads checks data an earlier job or run wrote: give that run's verify_seed (see drivebench verify), or write the data with verify in an earlier job of this run");
	vs->writer = vs->writer || job_spec_writes(s);
	if (!s->verify_seed_set && !vs->have_seed) {
		if (opt->has_verify_seed)
			vs->run_seed = opt->verify_seed;
		else if (verify_random_seed(&vs->run_seed))
			return -1;
		vs->have_seed = true;
	}
	w->verify_seed = s->verify_seed_set ? s->verify_seed : vs->run_seed;
	if (target_job_range(t, s, w->clone, &start, &len))
		return -1;
	/* verify_write_sequence=0 (fio's atomic-verify): any clone's write of
	 * a unit checks out, the sequence is not compared */
	if (w->clone > 0 && s->filename[0] && start < vs->prev_end &&
	    s->checks.verify_write_sequence)
		return err_set("verify with numjobs=%u needs clone ranges that do not overlap: clone %u starts at %llu, inside clone %u's range ending at %llu; set offset_increment to at least size",
			       s->numjobs, w->clone, (unsigned long long)start,
			       w->clone - 1, (unsigned long long)vs->prev_end);
	vs->prev_end = start + len;
	*bytes += verify_memory_bytes(s, len);
	return 0;
}

/* Lays out regular files that are missing or too short, as fio does, so
 * reads hit written blocks. A job that only reads never writes a file that
 * exists: a short one is an error, not a file to extend. */
static int prepare_target(struct worker *w, struct target *t)
{
	uint64_t start, len;
	char path[JOB_PATH_MAX];

	if (t->is_block || !engine_needs_fd(w->ops))
		return 0;
	if (target_job_range(t, w->spec, w->clone, &start, &len))
		return -1;
	if (t->exists && t->size >= start + len)
		return 0;
	/* drivebench verify never writes; a short file is checked as far as
	 * it goes and the rest is a verify failure (loop_verify_pass) */
	if (w->spec->verify_only && !t->exists)
		return err_set("'%s' does not exist: nothing the job wrote is there to verify",
			       t->path);
	if (w->spec->verify_only)
		return 0;
	if (t->exists && !job_spec_writes(w->spec))
		return err_set("'%s' holds %llu bytes, too few for the range [%llu, %llu) "
			       "the job reads; a job that only reads never extends a file "
			       "(lower size= or offset=)", t->path, (unsigned long long)t->size,
			       (unsigned long long)start, (unsigned long long)(start + len));
	if (target_layout_job_file(w->spec, t->path, start + len, w->stop) < 0)
		return -1;
	snprintf(path, sizeof(path), "%s", t->path);
	return target_probe(path, t);
}

/* runner's side of the gate (device/write_consent.h), with the run's
 * --destroy-data ids */
int check_write_consent(const struct job_spec *s, const char *path,
			const struct run_options *opt)
{
	return target_write_consent(s, path, opt->destroy_ids, opt->nr_destroy_ids);
}

int check_path_consent(const struct job_spec *s, const char *path,
		       const struct run_options *opt)
{
	return target_path_consent(s, path, opt->destroy_ids, opt->nr_destroy_ids);
}

/* The files the engine writes beside the target pass the gates too: a
 * donor as a target (a missing one created now, as drivebench's own), an
 * output as --output does. */
static int check_side_files(const struct worker *w, unsigned clone,
			    const struct run_options *opt)
{
	struct side_file files[4];
	int n;

	if (!w->ops->side_files)
		return 0;
	n = w->ops->side_files(w->spec, clone, files, 4);
	for (int i = 0; i < n; i++) {
		if (files[i].kind == SIDE_FILE_OUTPUT) {
			if (output_gate_check("std_redirect", files[i].path, OUTPUT_FILE))
				return -1;
			continue;
		}
		if (check_write_consent(w->spec, files[i].path, opt) ||
		    target_layout_file(files[i].path, 0, NULL) < 0)
			return -1;
	}
	return n < 0 ? -1 : 0;
}

/* dedupe_global: every participating clone's data key, so each builds
 * its dedupe working set from all of them (run/buffers.h). */
static int share_dedupe_keys(struct worker *workers, unsigned nr, struct buffer_keys *keys)
{
	unsigned n = 0;

	for (unsigned i = 0; i < nr; i++)
		n += workers[i].spec->buffering.dedupe_global;
	if (!n)
		return 0;
	keys->keys = calloc(n, sizeof(*keys->keys));
	if (!keys->keys)
		return err_set("out of memory");
	for (unsigned i = 0; i < nr; i++) {
		struct worker *w = &workers[i];

		if (!w->spec->buffering.dedupe_global)
			continue;
		keys->keys[keys->nr] = job_seed(w->spec, w->clone, RNG_STREAM_DATA);
		w->dedupe_keys = keys;
		w->dedupe_index = keys->nr++;
	}
	return 0;
}

struct phase {
	struct worker *workers;
	struct target *targets;
	const struct run_options *opt;
	unsigned nr;
	pthread_barrier_t barrier;
	bool abort_start;
	/* MPI: the ranks start the phase together once every rank's workers
	 * are set up (start_together), then the go barrier releases them */
	bool together;
	pthread_barrier_t go;
	uint64_t prev_bound;          /* the previous phase's time bound */
	uint64_t start_ns, start_wall_ns;
	bool failed_together;         /* a rank's setup failed: every rank's did */
	/* for the live status: every worker, the ones before this phase's,
	 * when the run began, and the later phases' time (UINT64_MAX: one
	 * has no time bound) */
	struct worker *all;
	unsigned nr_before;
	uint64_t run_start_ns, later_ns;
	uint64_t *next_status;        /* when the next status is due */
};

static void *phase_thread(void *arg)
{
	struct worker *w = arg;

	if (worker_setup(w))
		*w->abort_start = true;
	return worker_main(w);
}

/* Bytes the phase's workers have measured so far. The workers update these
 * counters in their loops; a relaxed load is enough for a progress figure. */
static uint64_t phase_bytes(const struct phase *p)
{
	uint64_t total = 0;

	for (unsigned i = 0; i < p->nr; i++)
		for (int d = 0; d < DIR_COUNT; d++)
			total += __atomic_load_n(&p->workers[i].result.dir[d].bytes,
						 __ATOMIC_RELAXED);
	return total;
}

/* The live status: the results so far and the time left. */
static void report_status(const struct phase *p)
{
	uint64_t now = clock_now_ns(), phase_start = 0;
	struct run_output live;
	struct run_status st = { .live = &live };

	if (live_status_copy(p->all, p->nr_before + p->nr, now, &live))
		return;   /* out of memory: the status waits for the next tick */
	for (unsigned i = 0; i < p->nr; i++) {
		st.running += !__atomic_load_n(&p->workers[i].live_done, __ATOMIC_ACQUIRE);
		if (p->workers[i].result.phase_start_ns)
			phase_start = p->workers[i].result.phase_start_ns;
	}
	st.elapsed_ns = now > p->run_start_ns ? now - p->run_start_ns : 0;
	st.eta_ns = live_status_eta(p->workers, p->nr, now, phase_start, &st.fraction);
	if (st.eta_ns != UINT64_MAX)
		st.eta_ns = p->later_ns == UINT64_MAX ? UINT64_MAX : st.eta_ns + p->later_ns;
	p->opt->status(p->opt->status_arg, &st);
	run_output_free(&live);
}

/* Joins a worker thread, reporting progress every second and the status
 * every status_tick_ns while it runs. */
static void join_reporting(struct phase *p, pthread_t thread, uint64_t *next_status)
{
	const struct run_options *o = p->opt;
	bool status = o && o->status && o->status_tick_ns;
	struct timespec deadline;

	if (!o || (!o->progress && !status)) {
		pthread_join(thread, NULL);
		return;
	}
	for (;;) {
		uint64_t now = clock_now_ns(), wait = 1000000000ull;

		if (status && *next_status > now && *next_status - now < wait)
			wait = *next_status - now;
		if (status && *next_status <= now)
			wait = 0;
		clock_gettime(CLOCK_REALTIME, &deadline);
		deadline.tv_nsec += (long)(wait % 1000000000ull);
		deadline.tv_sec += (time_t)(wait / 1000000000ull + (uint64_t)deadline.tv_nsec / 1000000000ull);
		deadline.tv_nsec %= 1000000000l;
		if (pthread_timedjoin_np(thread, NULL, &deadline) != ETIMEDOUT)
			return;
		now = clock_now_ns();
		if (status && now >= *next_status) {
			report_status(p);
			while (*next_status <= now)
				*next_status += o->status_tick_ns;
		}
		if (o->progress)
			o->progress(o->progress_arg, phase_bytes(p));
	}
}

static int phase_barrier(const struct run_options *opt, uint64_t prev_bound,
			 uint64_t *start_ns, uint64_t *wall_ns);

/* MPI, once this rank's workers are set up (at the start barrier): every
 * rank's setup is agreed and the ranks leave one barrier together; the
 * phase starts then, and the workers are released (go). A rank whose
 * setup failed fails every rank's phase, naming it. A barrier that a
 * signal or --rank-timeout ends is this rank's failure (the caller ends
 * the run). */
static int start_together(struct phase *p, enum run_failure *why)
{
	bool ok = !p->abort_start;
	int code = 0, rc = 0;

	pthread_barrier_wait(&p->barrier);
	ok = !p->abort_start;
	for (unsigned i = 0; !ok && i < p->nr; i++)
		if (p->workers[i].setup_failed) {
			err_fail(p->workers[i].setup_refused ? EXIT_UNSAFE : EXIT_BAD_INPUT, "%s",
				 p->workers[i].error_text);
			break;
		}
	if (phase_barrier(p->opt, p->prev_bound, &p->start_ns, &p->start_wall_ns)) {
		*why = RUN_FAILED_RUNTIME;
		p->abort_start = true;
		rc = -1;
	} else if (ranks_agree(ok, &code)) {
		*why = code == EXIT_UNSAFE ? RUN_FAILED_UNSAFE : RUN_FAILED_INPUT;
		p->abort_start = true;
		p->failed_together = true;
		rc = -1;
	} else {
		struct timespec wall;

		/* the phase starts when the ranks leave the agreement */
		p->start_ns = clock_now_ns();
		clock_gettime(CLOCK_REALTIME, &wall);
		p->start_wall_ns = (uint64_t)wall.tv_sec * 1000000000ull + (uint64_t)wall.tv_nsec;
		for (unsigned i = 0; i < p->nr; i++) {
			p->workers[i].result.phase_start_ns = p->start_ns;
			p->workers[i].result.phase_start_wall_ns = p->start_wall_ns;
		}
	}
	pthread_barrier_wait(&p->go);
	return rc;
}

static int run_phase(struct phase *p, enum run_failure *why)
{
	pthread_t *threads = calloc(p->nr, sizeof(*threads));
	unsigned started = 0;
	struct ss_monitor *ss = NULL;
	int rc = 0;

	if (!threads)
		return err_set("out of memory");
	if (ss_monitor_create(p->workers, p->nr, p->opt->stop, &ss)) {
		free(threads);
		return -1;
	}
	/* the steady-state monitor starts its clock with the workers; under
	 * MPI this thread joins both barriers, to start with the other ranks */
	if (pthread_barrier_init(&p->barrier, NULL, p->nr + (p->together ? 1 : ss ? 1 : 0))) {
		free(threads);
		ss_monitor_finish(ss);
		return err_set("pthread_barrier_init failed");
	}
	if (p->together && pthread_barrier_init(&p->go, NULL, p->nr + 1 + (ss ? 1 : 0))) {
		pthread_barrier_destroy(&p->barrier);
		free(threads);
		ss_monitor_finish(ss);
		return err_set("pthread_barrier_init failed");
	}
	if (ss && ss_monitor_start(ss, p->together ? &p->go : &p->barrier)) {
		fprintf(stderr, "drivebench: %s\n", err_msg());
		_exit(EXIT_RUN_FAILED);   /* the barrier can never fill */
	}
	for (unsigned i = 0; i < p->nr; i++) {
		p->workers[i].start_barrier = &p->barrier;
		p->workers[i].go_barrier = p->together ? &p->go : NULL;
		p->workers[i].abort_start = &p->abort_start;
		if (pthread_create(&threads[i], NULL, phase_thread, &p->workers[i])) {
			/* the barrier can never fill: fail the jobs already started */
			rc = err_set("cannot start thread %u: %s", i, strerror(errno));
			break;
		}
		started++;
	}
	if (started < p->nr) {
		/* unreachable barrier count: nothing sane left to do but exit */
		fprintf(stderr, "drivebench: %s\n", err_msg());
		_exit(EXIT_RUN_FAILED);
	}
	if (p->together)
		rc = start_together(p, why);
	for (unsigned i = 0; i < started; i++)
		join_reporting(p, threads[i], p->next_status);
	if (ss_monitor_finish(ss) && rc == 0) {
		rc = -1;
		*why = RUN_FAILED_RUNTIME;
	}
	pthread_barrier_destroy(&p->barrier);
	if (p->together)
		pthread_barrier_destroy(&p->go);
	free(threads);
	for (unsigned i = 0; i < p->nr; i++) {
		struct worker *w = &p->workers[i];

		if ((w->setup_failed || w->run_failed) && rc == 0 && !p->failed_together) {
			rc = err_set("%s", w->error_text);
			/* a setup cut by a stop (vssd making its drive) is
			 * an interrupted run, not bad input */
			*why = w->setup_refused ? RUN_FAILED_UNSAFE :
				w->setup_failed && !*p->opt->stop ? RUN_FAILED_INPUT :
				RUN_FAILED_RUNTIME;
		}
	}
	return rc;
}

/* Clone w->clone of job w->spec on worker w and its target t: the engine,
 * the gates of the files beside the target and of the target itself, the
 * target (or the set of files) probed and prepared, verify, the result.
 * Returns 0, or -1 with err_msg and *why (left as it is for bad input). */
static int setup_clone(struct worker *w, struct target *t, unsigned groupid,
		       const struct run_options *opt, struct verify_setup *vs,
		       uint64_t *verify_bytes, enum run_failure *why)
{
	const struct job_spec *s = w->spec;
	unsigned c = w->clone;
	char path[JOB_PATH_MAX];

	w->deadline_ns = UINT64_MAX;
	w->fd = -1;
	w->stop = opt->stop;
	w->target = t;
	w->ops = job_engine(s);
	if (!w->ops)
		return err_prefix("job '%s'", s->name);
	if (job_spec_path(s, c, path, sizeof(path)))
		return err_prefix("job '%s'", s->name);
	/* an NVMe character device only with io_uring_cmd, and it only there */
	if (engine_needs_fd(w->ops) && (engine_has(w->ops, ENGINE_NVME_CHAR) ||
					!target_has_file_set(s, w->ops)) &&
	    target_engine_fits(path, s->ioengine, engine_has(w->ops, ENGINE_NVME_CHAR)))
		return err_prefix("job '%s'", s->name);
	/* files beside the target (a donor, redirected output) */
	if (check_side_files(w, c, opt)) {
		*why = err_refused() ? RUN_FAILED_UNSAFE : RUN_FAILED_INPUT;
		return err_prefix("job '%s'", s->name);
	}
	if (model_target_check_job(s, path)) {
		return err_prefix("job '%s'", s->name);
	} else if (model_target_is(path)) {
		if (target_probe(path, t))
			return err_prefix("job '%s'", s->name);
	} else if (!engine_needs_fd(w->ops)) {
		snprintf(t->path, sizeof(t->path), "%s", path);
		t->exists = true;
		t->size = s->size ? s->size : SCRATCH_DEFAULT_SIZE;
		t->logical_block = 512;
		/* a modelled drive is the job's device: no size= covers it
		 * and size=N% is a share of it, as fio sizes a job */
		if (!strcmp(w->ops->name, "vssd") && s->eng.vssd.model[0] &&
		    vssd_drive_capacity(s->eng.vssd.model, s->eng.vssd.scale, &t->size))
			return err_prefix("job '%s'", s->name);
	} else if (target_has_file_set(s, w->ops)) {
		if (fileset_prepare(w, t, opt->stop)) {
			*why = *opt->stop ? RUN_FAILED_RUNTIME :
			       err_refused() ? RUN_FAILED_UNSAFE : RUN_FAILED_INPUT;
			return err_prefix("job '%s'", s->name);
		}
	} else if (check_write_consent(s, path, opt)) {
		*why = err_refused() ? RUN_FAILED_UNSAFE : RUN_FAILED_INPUT;
		return err_prefix("job '%s'", s->name);
	} else if (target_probe(path, t) || zbd_run_check(w) || prepare_target(w, t)) {
		if (*opt->stop)   /* a signal, not bad input: exit 1 */
			*why = RUN_FAILED_RUNTIME;
		else if (err_refused())
			*why = RUN_FAILED_UNSAFE;
		return err_prefix("job '%s'", s->name);
	}
	/* a drive with a state file is loaded now, before the first phase's
	 * snapshots: they are of the drive as saved, not of a fresh one */
	if (!strcmp(w->ops->name, "vssd") && s->eng.vssd.model[0] &&
	    vssd_drive_open_state(s->eng.vssd.model, s->eng.vssd.scale, s->eng.vssd.state,
				  opt->stop)) {
		if (*opt->stop)   /* a signal while a large drive was made: exit 1 */
			*why = RUN_FAILED_RUNTIME;
		return err_prefix("job '%s'", s->name);
	}
	if (setup_verify(w, t, opt, vs, verify_bytes))
		return err_prefix("job '%s'", s->name);
	job_result_init(&w->result, s);
	if (s->verify != VERIFY_NONE)
		w->result.verify_seed = w->verify_seed;
	w->result.groupid = groupid;
	w->result.clone = c;
	snprintf(w->result.name, sizeof(w->result.name), "%s", s->name);
	return 0;
}

/* Every clone of every job on its worker and target, in job order, with
 * the group ids (a stonewall or new_group job starts a group). */
static int setup_clones(const struct job_list *jobs, const struct run_options *opt,
			struct worker *workers, struct target *targets,
			uint64_t *verify_bytes, enum run_failure *why)
{
	struct verify_setup vs = { 0 };
	unsigned k = 0, groupid = 0;

	for (unsigned j = 0; j < jobs->nr; j++) {
		const struct job_spec *s = &jobs->jobs[j];

		if (j > 0 && (s->stonewall || s->new_group))
			groupid++;
		vs.prev_end = 0;
		for (unsigned c = 0; c < s->numjobs; c++, k++) {
			struct worker *w = &workers[k];

			w->spec = s;
			w->clone = c;
			w->job_index = j;
			if (setup_clone(w, &targets[k], groupid, opt, &vs, &verify_bytes[j], why))
				return -1;
		}
	}
	return 0;
}

/* Every rank of an MPI run starts a phase together: the phase starts when
 * they all left the barrier. A rank that has not come by the previous
 * phase's bound plus --rank-timeout ends the run (the first phase waits
 * for every rank's setup, which has no bound). One process: now. */
static int phase_barrier(const struct run_options *opt, uint64_t prev_bound,
			 uint64_t *start_ns, uint64_t *wall_ns)
{
	uint64_t timeout = 0;
	struct timespec wall;

	if (prev_bound && ranks_rank_timeout_ns())
		timeout = prev_bound + ranks_rank_timeout_ns();
	if (ranks_barrier(opt->stop, timeout, NULL))
		return -1;
	*start_ns = clock_now_ns();
	clock_gettime(CLOCK_REALTIME, &wall);
	*wall_ns = (uint64_t)wall.tv_sec * 1000000000ull + (uint64_t)wall.tv_nsec;
	return 0;
}

/* Runs the phases one after the other: a stonewall job waits for every
 * job before it. out->nr counts the workers of the phases run; a stop
 * between phases leaves the rest unrun and the output partial. Under MPI
 * every rank runs as many phases (a rank with fewer waits out the rest at
 * their barriers) and leaves the last one at a barrier too. */
static int run_phases(const struct job_list *jobs, const struct run_options *opt,
		      struct worker *workers, struct drive_snapshot **snapshots,
		      uint64_t limit, const uint64_t *verify_bytes, uint64_t results,
		      struct run_output *out, enum run_failure *why)
{
	unsigned k = 0, j = 0;
	uint64_t phases = count_phases(jobs), bound = 0, start_ns, wall_ns;
	uint64_t run_start = clock_now_ns(), next_status = run_start + opt->status_tick_ns;

	if (dist_max_u64(phases, &phases))
		return -1;
	for (uint64_t n = 0; n < phases; n++) {
		unsigned last = j + 1, first_worker = k;
		struct phase p = { 0 };
		int rc;

		if (j >= jobs->nr) {   /* this rank has no part in the phase */
			int code = 0;

			*why = RUN_FAILED_RUNTIME;
			if (phase_barrier(opt, bound, &start_ns, &wall_ns))
				return -1;
			if (ranks_agree(true, &code)) {   /* another rank's setup failed */
				*why = code == EXIT_UNSAFE ? RUN_FAILED_UNSAFE : RUN_FAILED_INPUT;
				out->failed_together = true;
				return -1;
			}
			continue;
		}
		while (last < jobs->nr && !jobs->jobs[last].stonewall)
			last++;
		if (run_check_buffer_memory(jobs, j, last, limit, verify_bytes, results))
			return -1;
		for (unsigned q = j; q < last; q++)
			k += jobs->jobs[q].numjobs;
		if (*opt->stop) {
			out->partial = true;
			*why = RUN_FAILED_RUNTIME;
			if (ranks_active())   /* the others cannot go on without this rank */
				return err_fail(EXIT_RUN_FAILED, "stopped by a signal");
			break;
		}
		p.workers = &workers[first_worker];
		p.all = workers;
		p.nr_before = first_worker;
		p.run_start_ns = run_start;
		p.next_status = &next_status;
		p.later_ns = later_phases_ns(jobs, last);
		p.opt = opt;
		p.nr = k - first_worker;
		p.together = ranks_active();
		p.prev_bound = bound;
		for (unsigned i = 0; i < p.nr; i++)
			snapshots[i] = snapshot_before(&p.workers[i]);
		if (!p.together) {   /* one process: the phase starts now */
			phase_barrier(opt, 0, &start_ns, &wall_ns);
			for (unsigned i = 0; i < p.nr; i++) {
				p.workers[i].result.phase_start_ns = start_ns;
				p.workers[i].result.phase_start_wall_ns = wall_ns;
			}
		}
		rc = run_phase(&p, why);
		out->failed_together = p.failed_together;
		for (unsigned i = 0; i < p.nr; i++) {
			worker_teardown(&p.workers[i]);
			snapshot_after(&p.workers[i], snapshots[i]);
			snapshots[i] = NULL;
		}
		if (rc)
			return rc;
		/* MPI: a job's I/O error ends the run on every rank now, not once
		 * the other ranks' phases end (a failed verification is a result,
		 * stored with the others) */
		for (unsigned i = 0; ranks_active() && i < p.nr; i++)
			if (p.workers[i].result.error && !result_failed_verify(&p.workers[i].result)) {
				*why = RUN_FAILED_RUNTIME;
				return err_fail(EXIT_RUN_FAILED, "job '%s': %s", p.workers[i].result.name,
						err_errno_text(p.workers[i].result.error));
			}
		out->nr = k;
		bound = phase_bound_ns(jobs, j, last);
		j = last;
	}
	if (ranks_active() && phases && phase_barrier(opt, bound, &start_ns, &wall_ns)) {
		*why = RUN_FAILED_RUNTIME;
		return -1;
	}
	return 0;
}

/* The results of the workers run move to out; the workers keep nothing
 * that the output now owns, so freeing them frees none of it. */
static int move_results(struct worker *workers, struct run_output *out)
{
	for (unsigned i = 0; i < out->nr; i++)
		if (workers[i].result.partial)
			out->partial = true;
	out->results = calloc(out->nr ? out->nr : 1, sizeof(*out->results));
	if (!out->results)
		return err_set("out of memory");
	for (unsigned i = 0; i < out->nr; i++) {
		/* moved: the worker's copy must not free what the output owns */
		out->results[i] = workers[i].result;
		memset(&workers[i].result.series, 0, sizeof(workers[i].result.series));
		workers[i].result.drive_before = NULL;
		workers[i].result.drive_after = NULL;
		workers[i].result.drive_delta = NULL;
		workers[i].result.verify_failures = NULL;
		workers[i].result.checks = NULL;
		workers[i].result.nr_verify_failures = 0;
		memset(workers[i].result.prio_clat, 0, sizeof(workers[i].result.prio_clat));
	}
	return 0;
}

int run_jobs(const struct job_list *jobs, const struct run_options *opt,
	     struct run_output *out, enum run_failure *why)
{
	unsigned nr = count_clones(jobs);
	struct worker *workers = NULL;
	struct target *targets = NULL;
	struct drive_snapshot **snapshots = NULL;
	uint64_t *verify_bytes = NULL;
	struct buffer_keys dedupe_keys = { 0 };
	struct run_logs logs = { 0 };
	struct jobctl *ctl = NULL;
	uint64_t limit = opt->max_buffer_mem ? opt->max_buffer_mem : run_default_buffer_limit();
	uint64_t results = run_results_bytes(jobs);
	int rc = 0;

	memset(out, 0, sizeof(*out));
	*why = RUN_FAILED_INPUT;
	if (run_check_result_memory(jobs, limit))
		return -1;
	workers = calloc(nr ? nr : 1, sizeof(*workers));
	targets = calloc(nr ? nr : 1, sizeof(*targets));
	snapshots = calloc(nr ? nr : 1, sizeof(*snapshots));
	verify_bytes = calloc(jobs->nr ? jobs->nr : 1, sizeof(*verify_bytes));
	if (!workers || !targets || !snapshots || !verify_bytes) {
		rc = err_set("out of memory");
		goto done;
	}
	/* every file of every job with a set of files passes the gate first:
	 * a refusal leaves nothing laid out; under MPI every target of every
	 * rank does, and one refusal stops every rank before any writes */
	if (target_gate_agreed(jobs, opt->destroy_ids, opt->nr_destroy_ids,
			       fileset_consent(jobs, opt, limit) == 0)) {
		*why = err_refused() ? RUN_FAILED_UNSAFE : RUN_FAILED_INPUT;
		out->failed_together = ranks_active();
		rc = -1;
		goto done;
	}
	if (setup_clones(jobs, opt, workers, targets, verify_bytes, why) ||
	    share_dedupe_keys(workers, nr, &dedupe_keys)) {
		rc = -1;
		goto done;
	}
	/* fio's log files, through the output gate, before anything runs */
	if (run_logs_open(&logs, workers, nr)) {
		*why = err_refused() ? RUN_FAILED_UNSAFE : RUN_FAILED_INPUT;
		rc = -1;
		goto done;
	}
	/* startdelay, wait_for, exitall, flows across the clones */
	if (jobctl_create(jobs, workers, nr, &ctl) ||
	    run_phases(jobs, opt, workers, snapshots, limit, verify_bytes, results, out, why)) {
		rc = -1;
		goto done;
	}
	if (run_logs_close(&logs)) {
		*why = RUN_FAILED_RUNTIME;
		rc = -1;
		goto done;
	}
	rc = move_results(workers, out);
done:
	run_logs_close(&logs);   /* after a failure: what was written stays */
	if (workers)
		for (unsigned i = 0; i < nr; i++) {
			files_close(&workers[i]);   /* a set prepared but never run */
			job_result_free(&workers[i].result);
		}
	if (rc) {
		free(out->results);
		out->results = NULL;
		out->nr = 0;
	}
	jobctl_free(ctl);
	free(workers);
	free(targets);
	free(snapshots);
	free(verify_bytes);
	free(dedupe_keys.keys);
	return rc;
}

void run_output_free(struct run_output *out)
{
	for (unsigned i = 0; i < out->nr; i++)
		job_result_free(&out->results[i]);
	free(out->results);
	memset(out, 0, sizeof(*out));
}
