/* suiterun.c - runs a suite's steps on one target through the one runner
 * (purge, precondition, steady, measure, sweep, idle), stores each step and
 * its results as it completes, shows progress (a status line on a
 * terminal, log lines otherwise) and resumes an interrupted suite run at
 * its first incomplete step in the same run id. */
#include "suite/suiterun.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "run/runner.h"
#include "store/store.h"
#include "suite/sprandom.h"
#include "suite/steady.h"
#include "target/safety.h"
#include "target/snapshot.h"
#include "target/target.h"
#include "target/output_gate.h"
#include "util/error.h"
#include "verify/verify.h"
#include "workload/checkpoint.h"
#include "workload/job_list.h"

#define IDLE_SLICE_NS 100000000ull   /* idle checks the stop flag this often */

/* Everything one suite run carries from step to step. */
struct suite_ctx {
	const struct suite *s;
	const struct suite_options *o;
	struct store *db;
	int64_t run_id;
	char target_key[JOB_PATH_MAX];
	struct target target;
	int exit_code;
	bool interrupted;

	/* progress */
	const unsigned *selected;      /* suite step indexes to run, in order */
	unsigned nr_selected, position;/* position: index into selected */
	const struct suite_step *step;
	uint64_t suite_start_ns, step_start_ns;
	uint64_t step_bytes;           /* stored results' bytes in this step */
	uint64_t step_planned_bytes;   /* size-based step: bytes it will move */
	uint64_t phase_bytes, sample_bytes, sample_ns, last_draw_ns;
	double rate_bps;               /* current bytes/s */
	double work_bytes, work_seconds;  /* finished size-based work, for ETAs */
};

static void format_duration(double seconds, char *out, size_t len)
{
	unsigned long long s = seconds > 0 ? (unsigned long long)(seconds + 0.5) : 0;

	snprintf(out, len, "%llu:%02llu:%02llu", s / 3600, s / 60 % 60, s % 60);
}

static void format_rate(double bps, char *out, size_t len)
{
	if (bps >= 1e9)
		snprintf(out, len, "%.2f GB/s", bps / 1e9);
	else
		snprintf(out, len, "%.1f MB/s", bps / 1e6);
}

void suite_target_key(const char *target, char *key, size_t len)
{
	char *real = realpath(target, NULL);

	snprintf(key, len, "%s", real ? real : target);
	free(real);
}

/* --- estimates ------------------------------------------------------------ */

static unsigned step_repeats(const struct suite_step *st)
{
	if (st->kind == STEP_SWEEP)
		return st->nr_points ? st->nr_points : 1;
	if (st->kind == STEP_STEADY)
		return st->max_rounds ? st->max_rounds : 25;   /* an upper bound */
	return 1;
}

/* What a step will take: *seconds for time-based work, *bytes for
 * size-based work (either may be 0). */
static void step_estimate(const struct suite_ctx *c, const struct suite_step *st,
			  double *seconds, uint64_t *bytes)
{
	uint64_t size = st->spec.size ? st->spec.size : c->target.size;

	*seconds = 0;
	*bytes = 0;
	switch (st->kind) {
	case STEP_PURGE:
		return;
	case STEP_IDLE:
		*seconds = (double)st->idle_ns / 1e9;
		return;
	case STEP_PRECONDITION:
		if (st->precondition == PRECOND_SPRANDOM) {
			struct sprandom_plan plan;

			if (sprandom_plan(st->iu ? size / st->iu * st->iu : size, st->op,
					  st->regions, st->iu, &plan) == 0) {
				*bytes = plan.total_bytes;
				sprandom_plan_free(&plan);
			}
			err_clear();
			return;
		}
		*bytes = (uint64_t)((st->capacities > 0 ? st->capacities : 1) * (double)size);
		return;
	default:
		break;
	}
	if (st->spec.time_based || st->spec.runtime_ns)
		*seconds = (double)(st->spec.ramp_ns + st->spec.runtime_ns) / 1e9 * step_repeats(st);
	if (st->kind == STEP_SWEEP)
		*seconds += (double)st->pause_ns / 1e9 * step_repeats(st);
	else
		*bytes = (st->spec.io_size ? st->spec.io_size : size) * step_repeats(st);
}

/* Seconds a step will take, or -1 when unknown (size-based work before
 * any throughput was seen). */
static double step_seconds(const struct suite_ctx *c, const struct suite_step *st)
{
	double seconds;
	uint64_t bytes;

	step_estimate(c, st, &seconds, &bytes);
	if (!bytes)
		return seconds;
	if (c->work_seconds <= 0 || c->work_bytes <= 0)
		return -1;
	return seconds + (double)bytes * c->work_seconds / c->work_bytes;
}

/* --- progress ------------------------------------------------------------- */

static void log_line(const struct suite_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void log_line(const struct suite_ctx *c, const char *fmt, ...)
{
	char stamp[16], text[1024];
	time_t now = time(NULL);
	struct tm tm;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	if (!localtime_r(&now, &tm) || !strftime(stamp, sizeof(stamp), "%H:%M:%S", &tm))
		snprintf(stamp, sizeof(stamp), "?");
	fprintf(stderr, "%s[%s] step %u/%u %s %s: %s\n",
		c->o->progress_tty ? "\r\033[K" : "", stamp, c->position + 1,
		c->nr_selected, c->step->name, step_kind_name(c->step->kind), text);
}

/* Redraws the terminal status line: step, elapsed, ETAs, current rate. */
static void draw_status(struct suite_ctx *c, uint64_t now)
{
	double elapsed = (double)(now - c->step_start_ns) / 1e9;
	double step_left = -1, suite_left;
	char took[32], eta_step[32] = "?", eta_suite[32] = "?", rate[32] = "-";
	double seconds;
	uint64_t bytes;

	if (!c->o->progress_tty)
		return;
	c->last_draw_ns = now;
	step_estimate(c, c->step, &seconds, &bytes);
	if (c->step_planned_bytes && c->rate_bps > 0) {
		uint64_t done = c->step_bytes + c->phase_bytes;

		step_left = done < c->step_planned_bytes ?
			(double)(c->step_planned_bytes - done) / c->rate_bps : 0;
	} else if (!bytes) {
		step_left = seconds > elapsed ? seconds - elapsed : 0;
	}
	suite_left = step_left;
	for (unsigned i = c->position + 1; i < c->nr_selected && suite_left >= 0; i++) {
		double more = step_seconds(c, &c->s->steps[c->selected[i]]);

		suite_left = more < 0 ? -1 : suite_left + more;
	}
	format_duration(elapsed, took, sizeof(took));
	if (step_left >= 0)
		format_duration(step_left, eta_step, sizeof(eta_step));
	if (suite_left >= 0)
		format_duration(suite_left, eta_suite, sizeof(eta_suite));
	if (c->rate_bps > 0)
		format_rate(c->rate_bps, rate, sizeof(rate));
	fprintf(stderr, "\r\033[Kstep %u/%u %s %s  %s  ETA step %s  suite %s  %s",
		c->position + 1, c->nr_selected, c->step->name,
		step_kind_name(c->step->kind), took, eta_step, eta_suite, rate);
	fflush(stderr);
}

/* The runner's progress hook: bytes the running phase has measured. */
static void on_progress(void *arg, uint64_t bytes)
{
	struct suite_ctx *c = arg;
	uint64_t now = clock_now_ns();

	if (c->sample_ns && now > c->sample_ns) {
		/* a new phase or the end of a ramp restarts the count */
		uint64_t moved = bytes >= c->sample_bytes ? bytes - c->sample_bytes : bytes;

		c->rate_bps = (double)moved * 1e9 / (double)(now - c->sample_ns);
	}
	c->sample_bytes = bytes;
	c->sample_ns = now;
	c->phase_bytes = bytes;
	draw_status(c, now);
}

/* --- storing -------------------------------------------------------------- */

/* Figure a steady step tracks, over every reported entry. */
static double tracked_figure(enum steady_metric metric, const struct job_result *e,
			     unsigned nr)
{
	double sum = 0, lat_sum = 0;
	uint64_t ios = 0;

	for (unsigned i = 0; i < nr; i++)
		for (int d = 0; d < DIR_COUNT; d++) {
			if (metric == STEADY_IOPS)
				sum += result_iops(&e[i], d);
			else if (metric == STEADY_BW)
				sum += result_bw_bytes(&e[i], d);
			lat_sum += (double)e[i].dir[d].lat.sum;
			ios += e[i].dir[d].lat.n;
		}
	if (metric == STEADY_LAT_MEAN)
		return ios ? lat_sum / (double)ios : 0;
	return sum;
}

/* How a step runs its jobs: the suite's limits, consent and stop flag,
 * progress into the status line. */
static struct run_options step_run_options(struct suite_ctx *c)
{
	return (struct run_options){
		.max_buffer_mem = c->o->max_buffer_mem,
		.stop = c->o->stop,
		.destroy_ids = c->o->destroy_ids,
		.nr_destroy_ids = c->o->nr_destroy_ids,
		.progress = on_progress,
		.progress_arg = c,
	};
}

/* Runs jobs and stores what they report under step_id. An interrupted run
 * stores nothing (the step is re-run on resume). *figure (may be NULL)
 * gets the step's tracked metric. */
static int run_and_store(struct suite_ctx *c, const struct job_list *jobs,
			 int64_t step_id, double *figure)
{
	struct run_options opt = step_run_options(c);
	struct run_output out = { 0 };
	struct job_result *entries = NULL;
	enum run_failure why;
	unsigned nr = 0;
	int rc = 0;
	bool failed = false;
	char failure[1024] = "";

	/* the first sample's rate counts from here */
	c->phase_bytes = c->sample_bytes = 0;
	c->sample_ns = clock_now_ns();
	if (run_jobs(jobs, &opt, &out, &why)) {
		c->exit_code = run_failure_exit_code(why);
		return -1;
	}
	if (out.partial || *c->o->stop) {
		run_output_free(&out);
		c->interrupted = true;
		c->exit_code = EXIT_RUN_FAILED;
		return err_set("interrupted");
	}
	if (run_output_for_report(&out, &entries, &nr)) {
		run_output_free(&out);
		c->exit_code = EXIT_RUN_FAILED;
		return -1;
	}
	if (figure)
		*figure = tracked_figure(c->step->metric, entries, nr);
	for (unsigned i = 0; i < nr && rc == 0; i++) {
		struct result_record rec;

		if (record_from_result(&entries[i], &rec)) {
			rc = -1;
			break;
		}
		rec.step_id = step_id;
		rc = store_result_add(c->db, c->run_id, &rec, NULL);
		record_free(&rec);
		for (int d = 0; d < DIR_COUNT; d++)
			c->step_bytes += entries[i].dir[d].bytes;
		if (!failed && verify_result_failure(&entries[i])) {
			failed = true;   /* the first failing job names the step's failure */
			snprintf(failure, sizeof(failure), "%s", err_msg());
		}
	}
	for (unsigned i = 0; i < nr; i++)
		job_result_free(&entries[i]);
	free(entries);
	run_output_free(&out);
	c->phase_bytes = 0;
	if (rc == 0 && failed)
		rc = err_set("%s", failure);
	if (rc)
		c->exit_code = EXIT_RUN_FAILED;
	return rc;
}

/* Runs one job built from spec and stores it. */
static int run_one(struct suite_ctx *c, const struct job_spec *spec, int64_t step_id,
		   double *figure)
{
	struct job_list jobs = { 0 };
	int rc;

	if (job_list_append(&jobs, spec)) {
		c->exit_code = EXIT_RUN_FAILED;
		return err_set("out of memory");
	}
	rc = run_and_store(c, &jobs, step_id, figure);
	job_list_free(&jobs);
	return rc;
}

/* --- the step kinds ------------------------------------------------------- */

/* The step's workload aimed at the target, named after the step. */
static void step_spec(const struct suite_ctx *c, const struct suite_step *st,
		      const char *suffix, struct job_spec *spec)
{
	*spec = st->spec;
	snprintf(spec->filename, sizeof(spec->filename), "%s", c->o->target);
	spec->directory[0] = '\0';
	snprintf(spec->name, sizeof(spec->name), "%.*s%s", SUITE_NAME_MAX, st->name, suffix);
}

/* The gate every write passes: the target holds no data, or the user
 * consented with --destroy-data. */
static int purge_consent(struct suite_ctx *c)
{
	struct safety_verdict v;
	unsigned i = 0;

	do {
		const char *id = i < c->o->nr_destroy_ids ? c->o->destroy_ids[i] : NULL;

		if (safety_check(c->o->target, id, &v)) {
			c->exit_code = EXIT_BAD_INPUT;
			return -1;
		}
		if (v.allowed)
			return 0;
	} while (++i < c->o->nr_destroy_ids);
	c->exit_code = EXIT_UNSAFE;
	return err_set("refusing to purge '%s': %s%s%s", c->o->target,
		       v.nr_reasons ? v.reasons[0] : "it may hold data",
		       safety_consent_hint(&v)[0] ? "; " : "", safety_consent_hint(&v));
}

static int do_purge(struct suite_ctx *c, int64_t step_id)
{
	const char *method;
	uint64_t length = c->target.size;
	char detail[128];
	int fd;

	if (c->step->nvme_format) {
		c->exit_code = EXIT_BAD_INPUT;
		return err_set("nvme_format=1 is not supported yet (drop it to discard the whole target instead)");
	}
	if (!c->target.exists) {
		snprintf(detail, sizeof(detail), "{\"method\":\"none\",\"bytes\":0}");
		return store_step_detail_set(c->db, step_id, detail);
	}
	if (purge_consent(c))
		return -1;
	fd = open(c->o->target, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		c->exit_code = EXIT_BAD_INPUT;
		return err_set("cannot open '%s': %s", c->o->target, strerror(errno));
	}
	if (c->target.is_block) {
		uint64_t range[2] = { 0, length };

		method = "BLKDISCARD";
		if (ioctl(fd, BLKDISCARD, range) < 0) {
			int e = errno;

			close(fd);
			c->exit_code = EXIT_RUN_FAILED;
			return err_set("BLKDISCARD on '%s': %s", c->o->target, strerror(e));
		}
	} else {
		method = "punch-hole";
		if (length && fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
					0, (off_t)length) < 0) {
			int e = errno;

			close(fd);
			c->exit_code = EXIT_RUN_FAILED;
			return err_set("punching a hole over '%s': %s", c->o->target, strerror(e));
		}
	}
	close(fd);
	snprintf(detail, sizeof(detail), "{\"method\":\"%s\",\"bytes\":%llu}", method,
		 (unsigned long long)length);
	return store_step_detail_set(c->db, step_id, detail);
}

/* A job's byte range on the target, for fills sized in capacities. */
static int spec_range(struct suite_ctx *c, const struct job_spec *spec,
		      uint64_t *start, uint64_t *len)
{
	struct target t = c->target;

	if (!t.exists && !t.is_block && spec->size)
		t.size = spec->offset + spec->size;   /* the runner lays it out */
	if (target_job_range(&t, spec, 0, start, len)) {
		c->exit_code = EXIT_BAD_INPUT;
		return -1;
	}
	return 0;
}

static int do_fill(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	double capacities = st->capacities > 0 ? st->capacities : 1;
	struct job_spec spec;
	uint64_t start, len, bs;

	step_spec(c, st, "", &spec);
	spec.rw = st->precondition == PRECOND_RANDOM ? RW_RANDWRITE : RW_WRITE;
	spec.time_based = false;
	spec.runtime_ns = 0;
	spec.ramp_ns = 0;
	spec.numjobs = 1;
	if (spec_range(c, &spec, &start, &len))
		return -1;
	bs = job_spec_max_bs(&spec);
	spec.io_size = (uint64_t)(capacities * (double)len) / bs * bs;
	if (!spec.io_size)
		spec.io_size = bs;
	c->step_planned_bytes = spec.io_size;
	return run_one(c, &spec, step_id, NULL);
}

/* sprandom: one sequential write of each region, then random overwrites
 * inside it with the IU as block size, as the plan says. */
static int do_sprandom(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	struct sprandom_plan plan;
	struct job_list jobs = { 0 };
	struct job_spec base, spec;
	uint64_t start, len;
	char suffix[48];
	int rc = 0;

	step_spec(c, st, "", &base);
	base.time_based = false;
	base.runtime_ns = 0;
	base.ramp_ns = 0;
	base.numjobs = 1;
	if (spec_range(c, &base, &start, &len))
		return -1;
	/* the plan tiles whole IUs: a tail smaller than one IU is left out */
	if (st->iu)
		len = len / st->iu * st->iu;
	if (sprandom_plan(len, st->op, st->regions, st->iu, &plan)) {
		c->exit_code = EXIT_BAD_INPUT;
		return -1;
	}
	base.size_pct = base.offset_pct = 0;
	base.offset_increment = 0;
	base.offset_increment_pct = 0;
	base.io_size = 0;
	base.stonewall = true;
	for (unsigned r = 0; r < plan.nr && rc == 0; r++) {
		const struct sprandom_region *region = &plan.regions[r];

		spec = base;
		spec.rw = RW_WRITE;
		spec.offset = start + region->offset;
		spec.size = region->length;
		snprintf(suffix, sizeof(suffix), "-r%u-fill", r);
		snprintf(spec.name, sizeof(spec.name), "%.*s%s", SUITE_NAME_MAX, st->name, suffix);
		rc = job_list_append(&jobs, &spec);
		if (rc || region->overwrite_bytes < plan.iu)
			continue;
		spec.rw = RW_RANDWRITE;
		spec.bs[DIR_READ] = spec.bs[DIR_WRITE] = plan.iu;
		spec.bssplit_nr[DIR_READ] = spec.bssplit_nr[DIR_WRITE] = 0;
		spec.blockalign[DIR_READ] = spec.blockalign[DIR_WRITE] = 0;
		/* the planned invalid share needs distinct blocks: the random
		 * map (a permutation) never repeats a block within a pass */
		spec.norandommap = false;
		spec.random_generator = RANDGEN_TAUSWORTHE;
		spec.distribution.kind = DIST_RANDOM;
		spec.io_size = region->overwrite_bytes / plan.iu * plan.iu;
		snprintf(suffix, sizeof(suffix), "-r%u-overwrite", r);
		snprintf(spec.name, sizeof(spec.name), "%.*s%s", SUITE_NAME_MAX, st->name, suffix);
		rc = job_list_append(&jobs, &spec);
	}
	c->step_planned_bytes = plan.total_bytes;
	sprandom_plan_free(&plan);
	if (rc) {
		c->exit_code = EXIT_RUN_FAILED;
		rc = err_set("out of memory");
	} else {
		rc = run_and_store(c, &jobs, step_id, NULL);
	}
	job_list_free(&jobs);
	return rc;
}

static const char *metric_name(enum steady_metric m)
{
	return m == STEADY_IOPS ? "iops" : m == STEADY_BW ? "bw_bytes" : "lat_mean_ns";
}

/* Rounds of the workload until steady state (SNIA PTS) or max_rounds;
 * every round is a stored result, the verdict is the step's detail. */
static int do_steady(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	unsigned window = st->window ? st->window : 5;
	unsigned max_rounds = st->max_rounds ? st->max_rounds : 25;
	double range_limit = st->range_limit > 0 ? st->range_limit : 0.20;
	double slope_limit = st->slope_limit > 0 ? st->slope_limit : 0.10;
	struct steady_verdict v = { 0 };
	double *values = calloc(max_rounds, sizeof(*values));
	cJSON *detail = NULL, *rounds;
	char suffix[32], *text = NULL;
	struct job_spec spec;
	unsigned n = 0;
	int rc = 0;

	if (!values) {
		c->exit_code = EXIT_RUN_FAILED;
		return err_set("out of memory");
	}
	while (n < max_rounds) {
		snprintf(suffix, sizeof(suffix), "-round%u", n + 1);
		step_spec(c, st, suffix, &spec);
		spec.group_reporting = true;
		if (run_one(c, &spec, step_id, &values[n]))
			goto done;
		n++;
		if (steady_check(values, n, window, range_limit, slope_limit, &v)) {
			c->exit_code = EXIT_BAD_INPUT;
			goto done;
		}
		if (!c->o->progress_tty)
			log_line(c, "round %u: %s %.6g", n, metric_name(st->metric), values[n - 1]);
		if (v.reached)
			break;
	}
	detail = cJSON_CreateObject();
	rounds = cJSON_AddArrayToObject(detail, "rounds");
	for (unsigned i = 0; rounds && i < n; i++)
		cJSON_AddItemToArray(rounds, cJSON_CreateNumber(values[i]));
	cJSON_AddStringToObject(detail, "metric", metric_name(st->metric));
	cJSON_AddBoolToObject(detail, "reached", v.reached);
	cJSON_AddNumberToObject(detail, "window", window);
	cJSON_AddNumberToObject(detail, "max_rounds", max_rounds);
	cJSON_AddNumberToObject(detail, "range_limit", range_limit);
	cJSON_AddNumberToObject(detail, "slope_limit", slope_limit);
	if (n >= window) {
		cJSON_AddNumberToObject(detail, "mean", v.mean);
		cJSON_AddNumberToObject(detail, "range", v.range);
		cJSON_AddNumberToObject(detail, "slope", v.slope);
		cJSON_AddNumberToObject(detail, "slope_excursion", v.slope_excursion);
	}
	text = detail ? cJSON_PrintUnformatted(detail) : NULL;
	if (!text) {
		c->exit_code = EXIT_RUN_FAILED;
		rc = err_set("out of memory");
		goto done;
	}
	if (store_step_detail_set(c->db, step_id, text)) {
		c->exit_code = EXIT_RUN_FAILED;
		goto done;
	}
	log_line(c, "steady state %s after %u rounds", v.reached ? "reached" : "not reached", n);
	rc = 1;
done:
	cJSON_Delete(detail);
	free(text);
	free(values);
	return rc == 1 ? 0 : -1;
}

static int idle_for(struct suite_ctx *c, uint64_t ns);

static int do_sweep(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	struct job_spec spec;
	char suffix[48];

	if (!st->nr_points) {
		step_spec(c, st, "", &spec);
		return run_one(c, &spec, step_id, NULL);
	}
	for (unsigned p = 0; p < st->nr_points; p++) {
		snprintf(suffix, sizeof(suffix), "-qd%u-j%u", st->points[p].iodepth,
			 st->points[p].numjobs);
		step_spec(c, st, suffix, &spec);
		spec.iodepth = st->points[p].iodepth;
		spec.numjobs = st->points[p].numjobs;
		spec.group_reporting = true;   /* one result per point */
		if (job_spec_validate(&spec)) {
			c->exit_code = EXIT_BAD_INPUT;
			return -1;
		}
		if (run_one(c, &spec, step_id, NULL))
			return -1;
		/* pause = 180s: the drive idles after every point (CDN) */
		if (st->pause_ns && idle_for(c, st->pause_ns))
			return -1;
	}
	return 0;
}

/* The checkpoint passes' directory: next to a file target, TARGET.checkpoints */
static int checkpoint_directory(struct suite_ctx *c, char *dir, size_t len)
{
	int n;

	if (c->target.is_block)
		return err_set("checkpoints on a raw device region are not supported yet; "
			       "run this step on a file target (its checkpoints go next to it)");
	n = snprintf(dir, len, "%s.checkpoints", c->o->target);
	if (n < 0 || (size_t)n >= len)
		return err_set("path too long: '%s.checkpoints'", c->o->target);
	if (output_gate_check("checkpoint directory", dir, OUTPUT_DIRECTORY))
		return -1;
	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set("cannot create '%s': %s", dir, strerror(errno));
	return 0;
}

/* DLIO-style checkpoint passes (workload/checkpoint.h): pass 1 writes the
 * checkpoints, later passes write over them in place; one result per
 * checkpoint, named "passP-ckptNNN", under this step. */
static int do_checkpoint(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	char dir[JOB_PATH_MAX];
	struct checkpoint_write w = { .dir = dir, .fsync = true };
	struct run_options opt = step_run_options(c);
	struct dlio_plan plan;
	uint64_t free_bytes;
	unsigned count;
	int rc = 0;

	c->exit_code = EXIT_BAD_INPUT;
	if (checkpoint_directory(c, dir, sizeof(dir)) ||
	    checkpoint_plan_for(st->checkpoint_model, st->checkpoint_size,
				st->checkpoint_ranks, &plan))
		return -1;
	if (checkpoint_free_bytes(dir, &free_bytes)) {
		dlio_plan_free(&plan);
		return -1;
	}
	count = st->checkpoint_count ? st->checkpoint_count :
		checkpoint_count_for_space(free_bytes, st->checkpoint_fill, plan.total_bytes);
	if (!count) {
		dlio_plan_free(&plan);
		return err_set("not one checkpoint of %.2f GB fits in the %.2f GB free in '%s'",
			       (double)plan.total_bytes / 1e9, (double)free_bytes / 1e9, dir);
	}
	c->exit_code = EXIT_OK;
	for (unsigned p = 1; p <= st->checkpoint_passes && rc == 0; p++)
		for (unsigned i = 1; i <= count && rc == 0; i++) {
			struct checkpoint_one one;
			struct result_record rec;
			enum run_failure why;
			uint64_t bytes;

			c->phase_bytes = c->sample_bytes = 0;
			c->sample_ns = clock_now_ns();
			if (checkpoint_one_run(&plan, &w, p, i, &opt, &one, &why)) {
				c->exit_code = run_failure_exit_code(why);
				rc = -1;
			} else if (one.out.partial || one.out.nr == 0 || *c->o->stop) {
				c->interrupted = true;
				c->exit_code = EXIT_RUN_FAILED;
				rc = err_set("interrupted");
			} else if (record_from_result(&one.merged, &rec)) {
				c->exit_code = EXIT_RUN_FAILED;
				rc = -1;
			} else {
				rec.step_id = step_id;
				rc = store_result_add(c->db, c->run_id, &rec, NULL);
				record_free(&rec);
				bytes = one.merged.dir[DIR_WRITE].bytes;
				c->step_bytes += bytes;
				log_line(c, "pass %u checkpoint %u/%u: %.3f GB in %.3f s", p, i, count,
					 (double)bytes / 1e9, (double)one.merged.runtime_ns / 1e9);
				if (rc == 0 && verify_result_failure(&one.merged))
					rc = -1;
				if (rc)
					c->exit_code = EXIT_RUN_FAILED;
			}
			c->phase_bytes = 0;
			checkpoint_one_free(&one);
		}
	dlio_plan_free(&plan);
	return rc;
}

static int do_idle(struct suite_ctx *c)
{
	return idle_for(c, c->step->idle_ns);
}

/* Sleeps ns in slices, checking the stop flag between them. */
static int idle_for(struct suite_ctx *c, uint64_t ns)
{
	uint64_t end = clock_now_ns() + ns;
	uint64_t now;

	c->rate_bps = 0;
	while ((now = clock_now_ns()) < end) {
		uint64_t left = end - now;
		struct timespec slice;

		if (*c->o->stop) {
			c->interrupted = true;
			c->exit_code = EXIT_RUN_FAILED;
			return err_set("interrupted");
		}
		if (left > IDLE_SLICE_NS)
			left = IDLE_SLICE_NS;
		slice.tv_sec = (time_t)(left / 1000000000ull);
		slice.tv_nsec = (long)(left % 1000000000ull);
		nanosleep(&slice, NULL);
		if (now - c->last_draw_ns >= 1000000000ull)
			draw_status(c, now);
	}
	return 0;
}

static int run_step(struct suite_ctx *c, int64_t step_id)
{
	switch (c->step->kind) {
	case STEP_PURGE:
		return do_purge(c, step_id);
	case STEP_PRECONDITION:
		return c->step->precondition == PRECOND_SPRANDOM ?
			do_sprandom(c, step_id) : do_fill(c, step_id);
	case STEP_STEADY:
		return do_steady(c, step_id);
	case STEP_MEASURE:
	case STEP_SWEEP:
		return do_sweep(c, step_id);
	case STEP_IDLE:
		return do_idle(c);
	case STEP_CHECKPOINT:
		return do_checkpoint(c, step_id);
	}
	c->exit_code = EXIT_BAD_INPUT;
	return err_set("unknown step kind %d", (int)c->step->kind);
}

/* --- the suite -------------------------------------------------------------- */

static bool name_listed(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

/* The steps to run, in suite order; every name in --only/--skip must exist. */
static int select_steps(const struct suite *s, const struct suite_options *o,
			unsigned *selected, unsigned *nr)
{
	const char *const *lists[2] = { o->only, o->skip };

	for (int l = 0; l < 2; l++)
		for (const char *const *n = lists[l]; n && *n; n++) {
			unsigned i = 0;

			while (i < s->nr_steps && strcmp(s->steps[i].name, *n))
				i++;
			if (i == s->nr_steps)
				return err_set("%s: suite '%s' has no step '%s'",
					       l ? "--skip" : "--only", s->name, *n);
		}
	*nr = 0;
	for (unsigned i = 0; i < s->nr_steps; i++) {
		if (o->only && o->only[0] && !name_listed(o->only, s->steps[i].name))
			continue;
		if (name_listed(o->skip, s->steps[i].name))
			continue;
		selected[(*nr)++] = i;
	}
	if (!*nr)
		return err_set("no step of suite '%s' is selected", s->name);
	return 0;
}

static void suite_key(const struct suite *s, char *key, size_t len)
{
	suite_target_key(s->path[0] ? s->path : s->name, key, len);
}

/* Finds the unfinished run to continue: keeps its done steps (marked in
 * done[]), discards every other step with its results. */
static int resume_run(struct suite_ctx *c, bool *done)
{
	struct stored_run run;
	struct stored_step *steps = NULL;
	char recorded[JOB_PATH_MAX], key[JOB_PATH_MAX];
	unsigned nr = 0;
	int rc = 0;

	c->exit_code = EXIT_BAD_INPUT;
	if (store_run_find_last(c->db, "suite", c->target_key, &c->run_id))
		return -1;
	if (!c->run_id)
		return err_set("no suite run on '%s' to resume", c->o->target);
	if (store_run_get(c->db, c->run_id, &run) ||
	    store_run_suite(c->db, c->run_id, recorded, sizeof(recorded)))
		return -1;
	if (run.finished_ms)
		return err_set("the last suite run on '%s' (run %lld) finished; nothing to resume",
			       c->o->target, (long long)c->run_id);
	suite_key(c->s, key, sizeof(key));
	if (strcmp(recorded, key))
		return err_set("run %lld on '%s' ran suite '%s', not '%s'",
			       (long long)c->run_id, c->o->target, recorded, key);
	if (store_steps_list(c->db, c->run_id, &steps, &nr))
		return -1;
	for (unsigned i = 0; i < nr && rc == 0; i++) {
		const struct stored_step *st = &steps[i];

		if (st->idx >= c->s->nr_steps || strcmp(st->name, c->s->steps[st->idx].name)) {
			rc = err_set("suite '%s' changed since run %lld (step %u was '%s')",
				     c->s->name, (long long)c->run_id, st->idx + 1, st->name);
		} else if (!strcmp(st->status, "done")) {
			done[st->idx] = true;
		} else {
			rc = store_step_discard(c->db, st->id);
			if (rc == 0)
				fprintf(stderr, "drivebench: resuming run %lld: step %u '%s' was %s, re-running it\n",
					(long long)c->run_id, st->idx + 1, st->name,
					!strcmp(st->status, "running") ? "interrupted" : st->status);
		}
	}
	free(steps);
	if (rc == 0)
		c->exit_code = EXIT_RUN_FAILED;
	return rc;
}

static int begin_run(struct suite_ctx *c)
{
	struct drive_snapshot *snap = calloc(1, sizeof(*snap));
	char *drive_json = NULL, key[JOB_PATH_MAX];
	int64_t previous = 0;
	struct stored_run prev;
	struct run_meta meta = {
		.label = c->o->label ? c->o->label : "",
		.source = "suite",
		.command = c->o->command ? c->o->command : "drivebench suite",
		.target = c->target_key,
		.started_ms = (uint64_t)time(NULL) * 1000,
	};
	int rc;

	if (store_run_find_last(c->db, "suite", c->target_key, &previous) == 0 && previous &&
	    store_run_get(c->db, previous, &prev) == 0 && !prev.finished_ms)
		fprintf(stderr, "drivebench: note: suite run %lld on this target is unfinished; starting a new run (--resume continues it)\n",
			(long long)previous);
	err_clear();
	if (snap && drive_snapshot_take(c->o->target, snap) == 0) {
		cJSON *j = drive_snapshot_json(snap);

		drive_json = j ? cJSON_PrintUnformatted(j) : NULL;
		cJSON_Delete(j);
	}
	err_clear();
	free(snap);
	suite_key(c->s, key, sizeof(key));
	meta.suite = key;
	meta.drive_json = drive_json;
	rc = store_run_begin(c->db, &meta, &c->run_id);
	free(drive_json);
	return rc;
}

/* Runs the selected steps not done yet; 0 when all completed. */
static int run_steps(struct suite_ctx *c, const bool *done)
{
	for (c->position = 0; c->position < c->nr_selected; c->position++) {
		unsigned idx = c->selected[c->position];
		uint64_t took_ns;
		int64_t step_id;
		char took[32], rate[32];
		int rc;

		c->step = &c->s->steps[idx];
		if (done[idx])
			continue;
		if (*c->o->stop) {
			c->interrupted = true;
			c->exit_code = EXIT_RUN_FAILED;
			store_run_mark_partial(c->db, c->run_id, true);
			return err_set("interrupted before step %u/%u '%s'",
				       c->position + 1, c->nr_selected, c->step->name);
		}
		if (target_probe(c->o->target, &c->target)) {
			c->exit_code = EXIT_BAD_INPUT;
			return -1;
		}
		c->step_start_ns = clock_now_ns();
		c->step_bytes = c->step_planned_bytes = 0;
		c->rate_bps = 0;
		if (!c->o->progress_tty)
			log_line(c, "started");
		draw_status(c, c->step_start_ns);
		if (store_step_begin(c->db, c->run_id, idx, c->step->name,
				     step_kind_name(c->step->kind), &step_id)) {
			c->exit_code = EXIT_RUN_FAILED;
			return -1;
		}
		rc = run_step(c, step_id);
		if (rc) {
			char message[1024];

			snprintf(message, sizeof(message), "%s", err_msg());
			store_step_end(c->db, step_id, c->interrupted ? "partial" : "failed");
			if (c->interrupted) {
				store_run_mark_partial(c->db, c->run_id, true);
				return err_set("interrupted at step %u/%u '%s'", c->position + 1,
					       c->nr_selected, c->step->name);
			}
			return err_set("step %u/%u '%s': %s", c->position + 1, c->nr_selected,
				       c->step->name, message);
		}
		if (store_step_end(c->db, step_id, "done")) {
			c->exit_code = EXIT_RUN_FAILED;
			return -1;
		}
		took_ns = clock_now_ns() - c->step_start_ns;
		format_duration((double)took_ns / 1e9, took, sizeof(took));
		if (c->step_bytes && took_ns) {
			double bps = (double)c->step_bytes * 1e9 / (double)took_ns;
			double seconds;
			uint64_t bytes;

			step_estimate(c, c->step, &seconds, &bytes);
			if (bytes) {   /* size-based work teaches the ETA its speed */
				c->work_bytes += (double)c->step_bytes;
				c->work_seconds += (double)took_ns / 1e9;
			}
			format_rate(bps, rate, sizeof(rate));
			log_line(c, "done in %s, %s", took, rate);
		} else {
			log_line(c, "done in %s", took);
		}
	}
	return 0;
}

int suite_run(const struct suite *s, const struct suite_options *o, int *exit_code)
{
	static const volatile sig_atomic_t never;
	struct suite_options opts = *o;
	struct suite_ctx c = { .s = s, .o = &opts, .exit_code = EXIT_BAD_INPUT };
	unsigned *selected = NULL;
	bool *done = NULL;
	int rc = -1;

	if (!opts.stop)
		opts.stop = &never;
	*exit_code = EXIT_BAD_INPUT;
	if (!o->target || !o->target[0] || !o->db_path || !o->db_path[0])
		return err_set("suite_run needs a target and a database");
	if (!s->nr_steps)
		return err_set("suite '%s' has no steps", s->name);
	selected = calloc(s->nr_steps, sizeof(*selected));
	done = calloc(s->nr_steps, sizeof(*done));
	if (!selected || !done) {
		rc = err_set("out of memory");
		goto out;
	}
	if (select_steps(s, o, selected, &c.nr_selected))
		goto out;
	c.selected = selected;
	suite_target_key(o->target, c.target_key, sizeof(c.target_key));
	if (target_probe(o->target, &c.target)) {
		c.exit_code = err_exit_code(c.exit_code);
		goto out;
	}
	if (store_open(o->db_path, &c.db)) {
		c.exit_code = err_exit_code(c.exit_code);
		goto out;
	}
	c.exit_code = EXIT_RUN_FAILED;
	if (o->resume ? resume_run(&c, done) : begin_run(&c))
		goto out;
	fprintf(stderr, "drivebench: suite '%s' on %s: run %lld in %s\n", s->name,
		o->target, (long long)c.run_id, o->db_path);
	c.suite_start_ns = clock_now_ns();
	if (run_steps(&c, done))
		goto out;
	if (store_run_end(c.db, c.run_id, false)) {
		c.exit_code = EXIT_RUN_FAILED;
		goto out;
	}
	c.exit_code = EXIT_OK;
	rc = 0;
out:
	if (c.db)
		store_close(c.db);
	free(selected);
	free(done);
	*exit_code = c.exit_code;
	return rc;
}

int suite_resume_lookup(const char *db_path, const char *target, char *path,
			size_t len)
{
	struct store *db;
	char key[JOB_PATH_MAX];
	int64_t run_id = 0;
	int rc;

	if (access(db_path, F_OK))
		return err_set("no database '%s': nothing to resume", db_path);
	if (store_open(db_path, &db))
		return -1;
	suite_target_key(target, key, sizeof(key));
	rc = store_run_find_last(db, "suite", key, &run_id);
	if (rc == 0 && !run_id)
		rc = err_set("no suite run on '%s' in %s to resume", target, db_path);
	if (rc == 0)
		rc = store_run_suite(db, run_id, path, len);
	if (rc == 0 && !path[0])
		rc = err_set("run %lld on '%s' names no suite file", (long long)run_id, target);
	store_close(db);
	return rc;
}
