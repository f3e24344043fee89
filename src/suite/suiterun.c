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
#include "suite/suiteresume.h"
#include "target/safety.h"
#include "target/snapshot.h"
#include "target/target.h"
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
	struct suite_resume resume;    /* what a resume kept; nothing for a new run */

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

/* The figure a steady step tracks, summed over a round's stored results
 * (the same for rounds measured now and rounds a resume kept). */
struct figure {
	double sum, lat_sum;
	uint64_t ios;
};

static void figure_add(struct figure *f, enum steady_metric metric,
		       const struct result_record *rec)
{
	for (int d = 0; d < DIR_COUNT; d++) {
		if (metric == STEADY_IOPS)
			f->sum += rec->dir[d].iops;
		else if (metric == STEADY_BW)
			f->sum += rec->dir[d].bw_bytes;
		f->lat_sum += rec->dir[d].lat.mean * (double)rec->dir[d].lat.n;
		f->ios += rec->dir[d].lat.n;
	}
}

static double figure_value(const struct figure *f, enum steady_metric metric)
{
	if (metric == STEADY_LAT_MEAN)
		return f->ios ? f->lat_sum / (double)f->ios : 0;
	return f->sum;
}

/* The figure of a round a resume kept. */
static double kept_figure(const struct suite_ctx *c, int64_t step_id, unsigned point)
{
	struct figure f = { 0 };

	for (unsigned i = 0; i < c->resume.nr_kept; i++) {
		const struct result_record *rec = &c->resume.kept[i];

		if (rec->step_id == step_id && rec->has_point && rec->point == point)
			figure_add(&f, c->step->metric, rec);
	}
	return figure_value(&f, c->step->metric);
}

/* Whether a resume kept this point of the step: it is not run again. */
static bool point_kept(const struct suite_ctx *c, int64_t step_id, unsigned point)
{
	return suite_resume_kept(&c->resume, step_id, point);
}

/* A point's results in one transaction: after a kill the point is in the
 * store whole or not at all, so a resume can keep what it finds. */
static int store_point(struct suite_ctx *c, const struct result_record *recs, unsigned nr)
{
	if (store_transaction_begin(c->db))
		return -1;
	for (unsigned i = 0; i < nr; i++)
		if (store_result_add(c->db, c->run_id, &recs[i], NULL)) {
			store_transaction_rollback(c->db);
			return -1;
		}
	if (store_transaction_commit(c->db)) {
		store_transaction_rollback(c->db);
		return -1;
	}
	return 0;
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

/* Builds the records of what a point's jobs reported, under step_id and
 * point; *failure names the first failing job's failure ("" = none). */
static int point_records(struct suite_ctx *c, const struct job_result *entries,
			 unsigned nr, int64_t step_id, unsigned point,
			 struct result_record *recs, char *failure, size_t len)
{
	for (unsigned i = 0; i < nr; i++) {
		if (record_from_result(&entries[i], &recs[i]))
			return -1;
		recs[i].step_id = step_id;
		recs[i].has_point = true;
		recs[i].point = point;
		for (int d = 0; d < DIR_COUNT; d++)
			c->step_bytes += entries[i].dir[d].bytes;
		if (!failure[0] && verify_result_failure(&entries[i]))
			snprintf(failure, len, "%s", err_msg());   /* the first names it */
	}
	return 0;
}

/* Runs one point's jobs and stores what they report under step_id and
 * point, all in one transaction. An interrupted run stores nothing (the
 * point is run again on resume). *figure (may be NULL) gets the step's
 * tracked metric. */
static int run_and_store(struct suite_ctx *c, const struct job_list *jobs,
			 int64_t step_id, unsigned point, double *figure)
{
	struct run_options opt = step_run_options(c);
	struct run_output out = { 0 };
	struct job_result *entries = NULL;
	struct result_record *recs = NULL;
	enum run_failure why;
	unsigned nr = 0;
	int rc;
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
	rc = run_output_for_report(&out, &entries, &nr);
	if (rc == 0 && !(recs = calloc(nr + 1, sizeof(*recs))))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = point_records(c, entries, nr, step_id, point, recs, failure, sizeof(failure));
	if (rc == 0 && figure) {
		struct figure f = { 0 };

		for (unsigned i = 0; i < nr; i++)
			figure_add(&f, c->step->metric, &recs[i]);
		*figure = figure_value(&f, c->step->metric);
	}
	if (rc == 0)
		rc = store_point(c, recs, nr);
	for (unsigned i = 0; recs && i < nr; i++)
		record_free(&recs[i]);
	free(recs);
	for (unsigned i = 0; i < nr; i++)
		job_result_free(&entries[i]);
	free(entries);
	run_output_free(&out);
	c->phase_bytes = 0;
	if (rc == 0 && failure[0])
		rc = err_set("%s", failure);
	if (rc)
		c->exit_code = EXIT_RUN_FAILED;
	return rc;
}

/* Runs one job built from spec and stores it. */
static int run_one(struct suite_ctx *c, const struct job_spec *spec, int64_t step_id,
		   unsigned point, double *figure)
{
	struct job_list jobs = { 0 };
	int rc;

	if (job_list_append(&jobs, spec)) {
		c->exit_code = EXIT_RUN_FAILED;
		return err_set("out of memory");
	}
	rc = run_and_store(c, &jobs, step_id, point, figure);
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

/* A precondition is one point: kept when a resume found it stored whole,
 * else written again from its start (a cut fill is not a fill). */
static int do_fill(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	double capacities = st->capacities > 0 ? st->capacities : 1;
	struct job_spec spec;
	uint64_t start, len, bs;

	if (point_kept(c, step_id, 0))
		return 0;
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
	return run_one(c, &spec, step_id, 0, NULL);
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

	if (point_kept(c, step_id, 0))   /* one point, as a fill */
		return 0;
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
		rc = run_and_store(c, &jobs, step_id, 0, NULL);
	}
	job_list_free(&jobs);
	return rc;
}

static const char *metric_name(enum steady_metric m)
{
	return m == STEADY_IOPS ? "iops" : m == STEADY_BW ? "bw_bytes" : "lat_mean_ns";
}

/* A steady step's limits, defaults filled in. */
struct steady_limits {
	unsigned window, max_rounds;
	double range_limit, slope_limit;
};

/* The step's detail: every round's figure, the verdict over the window
 * (which starts at window_start: rounds before it were measured before an
 * interruption). */
static int steady_detail(struct suite_ctx *c, int64_t step_id, const struct steady_limits *l,
			 const double *values, unsigned n, unsigned window_start,
			 const struct steady_verdict *v)
{
	cJSON *detail = cJSON_CreateObject(), *rounds;
	char *text;
	int rc;

	rounds = cJSON_AddArrayToObject(detail, "rounds");
	for (unsigned i = 0; rounds && i < n; i++)
		cJSON_AddItemToArray(rounds, cJSON_CreateNumber(values[i]));
	cJSON_AddStringToObject(detail, "metric", metric_name(c->step->metric));
	cJSON_AddBoolToObject(detail, "reached", v->reached);
	cJSON_AddNumberToObject(detail, "window", l->window);
	cJSON_AddNumberToObject(detail, "max_rounds", l->max_rounds);
	cJSON_AddNumberToObject(detail, "range_limit", l->range_limit);
	cJSON_AddNumberToObject(detail, "slope_limit", l->slope_limit);
	cJSON_AddNumberToObject(detail, "window_start", window_start);
	if (n - window_start >= l->window) {
		cJSON_AddNumberToObject(detail, "mean", v->mean);
		cJSON_AddNumberToObject(detail, "range", v->range);
		cJSON_AddNumberToObject(detail, "slope", v->slope);
		cJSON_AddNumberToObject(detail, "slope_excursion", v->slope_excursion);
	}
	text = detail ? cJSON_PrintUnformatted(detail) : NULL;
	cJSON_Delete(detail);
	rc = text ? store_step_detail_set(c->db, step_id, text) : err_set("out of memory");
	free(text);
	return rc;
}

/* Rounds of the workload until steady state (SNIA PTS) or max_rounds;
 * every round is a stored result (point = round), the verdict is the
 * step's detail. A resume keeps the rounds stored before the interruption
 * and continues after them, but the window restarts: the drive idled (and
 * recovered) in between, so a window across the gap proves nothing; at
 * least one window of rounds runs after a resume, even past max_rounds. */
static int do_steady(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	struct steady_limits l = {
		.window = st->window ? st->window : 5,
		.max_rounds = st->max_rounds ? st->max_rounds : 25,
		.range_limit = st->range_limit > 0 ? st->range_limit : 0.20,
		.slope_limit = st->slope_limit > 0 ? st->slope_limit : 0.10,
	};
	unsigned kept = suite_resume_prefix(&c->resume, step_id), n;
	unsigned after = l.window < l.max_rounds ? l.window : l.max_rounds;
	double *values = calloc((size_t)kept + l.max_rounds + l.window, sizeof(*values));
	struct steady_verdict v = { 0 };
	char suffix[32];
	struct job_spec spec;
	int rc = 0;

	c->exit_code = EXIT_RUN_FAILED;
	if (!values)
		return err_set("out of memory");
	for (n = 0; n < kept; n++)
		values[n] = kept_figure(c, step_id, n);
	if (kept)
		log_line(c, "kept %u round%s; the steady-state window starts again at round %u",
			 kept, kept == 1 ? "" : "s", kept + 1);
	while (rc == 0 && (n < l.max_rounds || (kept && n - kept < after))) {
		snprintf(suffix, sizeof(suffix), "-round%u", n + 1);
		step_spec(c, st, suffix, &spec);
		spec.group_reporting = true;
		if ((rc = run_one(c, &spec, step_id, n, &values[n])))
			break;
		n++;
		if ((rc = steady_check(values + kept, n - kept, l.window, l.range_limit,
				       l.slope_limit, &v))) {
			c->exit_code = EXIT_BAD_INPUT;
			break;
		}
		if (!c->o->progress_tty)
			log_line(c, "round %u: %s %.6g", n, metric_name(st->metric), values[n - 1]);
		if (v.reached)
			break;
	}
	if (rc == 0)
		rc = steady_detail(c, step_id, &l, values, n, kept, &v);
	if (rc == 0)
		log_line(c, "steady state %s after %u rounds", v.reached ? "reached" : "not reached", n);
	free(values);
	return rc;
}

static int idle_for(struct suite_ctx *c, uint64_t ns);

static int do_sweep(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	struct job_spec spec;
	char suffix[48];

	if (!st->nr_points) {
		if (point_kept(c, step_id, 0))
			return 0;
		step_spec(c, st, "", &spec);
		return run_one(c, &spec, step_id, 0, NULL);
	}
	for (unsigned p = 0; p < st->nr_points; p++) {
		if (point_kept(c, step_id, p))
			continue;   /* a resume kept it: the sweep goes on after it */
		/* the pause after the point before may not have happened: the
		 * point starts from an idle drive, as in an uninterrupted sweep */
		if (p && point_kept(c, step_id, p - 1) && st->pause_ns &&
		    idle_for(c, st->pause_ns))
			return -1;
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
		if (run_one(c, &spec, step_id, p, NULL))
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
	if (mkdir(dir, 0755) && errno != EEXIST)
		return err_set("cannot create '%s': %s", dir, strerror(errno));
	return 0;
}

/* How many checkpoints a pass writes: the step's count, else as many as
 * fit the free space. Recorded in the step's detail when first computed,
 * so a resume (which finds pass 1's files taking space) writes as many. */
static int checkpoint_count(struct suite_ctx *c, int64_t step_id, const struct dlio_plan *plan,
			    const char *dir, unsigned *count)
{
	const struct suite_step *st = c->step;
	char *stored = NULL, detail[64];
	uint64_t free_bytes;
	const cJSON *item;
	cJSON *j;

	if (store_step_detail_get(c->db, step_id, &stored))
		return -1;
	j = stored ? cJSON_Parse(stored) : NULL;
	free(stored);
	item = cJSON_GetObjectItemCaseSensitive(j, "checkpoints");
	*count = cJSON_IsNumber(item) && item->valuedouble >= 1 &&
		 item->valuedouble <= UINT32_MAX ? (unsigned)item->valuedouble : 0;
	cJSON_Delete(j);
	if (*count)
		return 0;
	if (checkpoint_free_bytes(dir, &free_bytes))
		return -1;
	*count = st->checkpoint_count ? st->checkpoint_count :
		checkpoint_count_for_space(free_bytes, st->checkpoint_fill, plan->total_bytes);
	if (!*count)
		return err_set("not one checkpoint of %.2f GB fits in the %.2f GB free in '%s'",
			       (double)plan->total_bytes / 1e9, (double)free_bytes / 1e9, dir);
	snprintf(detail, sizeof(detail), "{\"checkpoints\":%u}", *count);
	return store_step_detail_set(c->db, step_id, detail);
}

/* One checkpoint of one pass, stored as point (pass - 1) x count + i - 1. */
static int checkpoint_point(struct suite_ctx *c, const struct dlio_plan *plan,
			    const struct checkpoint_write *w, unsigned pass, unsigned i,
			    unsigned count, int64_t step_id)
{
	struct run_options opt = step_run_options(c);
	unsigned point = (pass - 1) * count + i - 1;
	struct checkpoint_one one;
	struct result_record rec;
	enum run_failure why;
	uint64_t bytes;
	int rc;

	c->phase_bytes = c->sample_bytes = 0;
	c->sample_ns = clock_now_ns();
	if (checkpoint_one_run(plan, w, pass, i, &opt, &one, &why)) {
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
		rec.has_point = true;
		rec.point = point;
		rc = store_point(c, &rec, 1);
		record_free(&rec);
		bytes = one.merged.dir[DIR_WRITE].bytes;
		c->step_bytes += bytes;
		log_line(c, "pass %u checkpoint %u/%u: %.3f GB in %.3f s", pass, i, count,
			 (double)bytes / 1e9, (double)one.merged.runtime_ns / 1e9);
		if (rc == 0 && verify_result_failure(&one.merged))
			rc = -1;
		if (rc)
			c->exit_code = EXIT_RUN_FAILED;
	}
	c->phase_bytes = 0;
	checkpoint_one_free(&one);
	return rc;
}

/* DLIO-style checkpoint passes (workload/checkpoint.h): pass 1 writes the
 * checkpoints, later passes write over them in place; one result per
 * checkpoint, named "passP-ckptNNN", under this step. A resume continues
 * at the first checkpoint not stored (a pass-1 checkpoint cut short is
 * written again over its partly written files). */
static int do_checkpoint(struct suite_ctx *c, int64_t step_id)
{
	const struct suite_step *st = c->step;
	char dir[JOB_PATH_MAX];
	struct checkpoint_write w = { .dir = dir, .fsync = true };
	struct dlio_plan plan;
	unsigned count;
	int rc = 0;

	c->exit_code = EXIT_BAD_INPUT;
	if (checkpoint_directory(c, dir, sizeof(dir)) ||
	    checkpoint_plan_for(st->checkpoint_model, st->checkpoint_size,
				st->checkpoint_ranks, &plan))
		return -1;
	if (checkpoint_count(c, step_id, &plan, dir, &count)) {
		dlio_plan_free(&plan);
		return -1;
	}
	c->exit_code = EXIT_OK;
	for (unsigned p = 1; p <= st->checkpoint_passes && rc == 0; p++)
		for (unsigned i = 1; i <= count && rc == 0; i++)
			if (!point_kept(c, step_id, (p - 1) * count + i - 1))
				rc = checkpoint_point(c, &plan, &w, p, i, count, step_id);
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

/* Finds the unfinished run to continue and what of it is kept
 * (suiteresume.c). */
static int resume_run(struct suite_ctx *c)
{
	char key[JOB_PATH_MAX];
	bool bad_input = false;

	suite_key(c->s, key, sizeof(key));
	if (suite_resume_prepare(c->db, c->s, c->o->target, c->target_key, key, &c->run_id,
				 &c->resume, &bad_input)) {
		c->exit_code = bad_input ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
		return -1;
	}
	return 0;
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

/* The step's row: the one a resume continues (running again), or a new one. */
static int step_row(struct suite_ctx *c, unsigned idx, int64_t *step_id)
{
	*step_id = c->resume.steps[idx].id;
	if (*step_id)
		return store_step_reopen(c->db, *step_id);
	return store_step_begin(c->db, c->run_id, idx, c->step->name,
				step_kind_name(c->step->kind), step_id);
}

/* Runs the selected steps not done yet; 0 when all completed. */
static int run_steps(struct suite_ctx *c)
{
	for (c->position = 0; c->position < c->nr_selected; c->position++) {
		unsigned idx = c->selected[c->position];
		uint64_t took_ns;
		int64_t step_id;
		char took[32], rate[32];
		int rc;

		c->step = &c->s->steps[idx];
		if (c->resume.steps[idx].done)
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
		if (step_row(c, idx, &step_id)) {
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
	int rc = -1;

	if (!opts.stop)
		opts.stop = &never;
	*exit_code = EXIT_BAD_INPUT;
	if (!o->target || !o->target[0] || !o->db_path || !o->db_path[0])
		return err_set("suite_run needs a target and a database");
	if (!s->nr_steps)
		return err_set("suite '%s' has no steps", s->name);
	selected = calloc(s->nr_steps, sizeof(*selected));
	if (!selected || suite_resume_init(&c.resume, s->nr_steps)) {
		rc = err_set("out of memory");
		goto out;
	}
	if (select_steps(s, o, selected, &c.nr_selected))
		goto out;
	c.selected = selected;
	suite_target_key(o->target, c.target_key, sizeof(c.target_key));
	if (target_probe(o->target, &c.target))
		goto out;
	if (store_open(o->db_path, &c.db))
		goto out;
	c.exit_code = EXIT_RUN_FAILED;
	if (o->resume ? resume_run(&c) : begin_run(&c))
		goto out;
	fprintf(stderr, "drivebench: suite '%s' on %s: run %lld in %s\n", s->name,
		o->target, (long long)c.run_id, o->db_path);
	c.suite_start_ns = clock_now_ns();
	if (run_steps(&c))
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
	suite_resume_free(&c.resume);
	*exit_code = c.exit_code;
	return rc;
}
