/* test_vssd_review.c - the model against what the reviews measured
 * (issue 29): every figure in tests/data/vssd-review-figures.tsv (143
 * figures of the five seed reviews: sweep points, QD1 latencies,
 * percentiles) is run on its drive's model in virtual time (sim.c), in
 * the review's state, and compared. The file holds the figures; nothing
 * here or in the model is taken from them. Prints every figure, then the
 * median and worst error over the figures the fit did not use, by kind.
 *
 * States: every drive is filled sequentially once (128K, as the reviews'
 * two fills); reads and sequential writes run on that. Random writes in
 * the "sweep" state run the review's sweep (its grid of depths and jobs)
 * after a sequential fill at their block size, each point aging the drive
 * by what the real point wrote, and each figure measured from the state
 * its point starts in, on a copy of the drive (run_sweep). Random writes
 * in the "steady" state run after a capacity of random writes at their
 * block size through the FTL alone (the reviews' workload-dependent
 * preconditioning, to steady state) and a quarter capacity on the clock. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "vssd/drive.h"
#include "vssd/model.h"
#include "vssd/sim.h"
#include "helpers/vssd_run.h"

#define FIGURES "tests/data/vssd-review-figures.tsv"
#define MAX_FIGURES 512
#define POINT_TURNOVERS 200ull   /* a point's I/Os: this many times those in flight */
#define POINT_IOS_MAX 120000ull  /* ... at most (and at least 30000) */
#ifndef TAIL_IOS
#define TAIL_IOS 400000ull       /* a point whose percentiles are figures */
#endif

enum metric { M_IOPS, M_MBS, M_LAT, M_P99, M_P999, M_P9999 };
/* the drive's state for a figure: the file's state column */
enum state { S_FILL, S_SWEEP, S_STEADY };

struct figure {
	char spec[64], seed[8], line[8], test[96];
	enum sim_rw rw;
	uint32_t bs, depth, jobs;
	enum metric metric;
	enum state state;
	double measured, model;
	bool fit;
};

static const char *const metric_names[] = { "iops", "mbs", "lat_us", "p99_us", "p99.9_us",
					    "p99.99_us" };

static int parse_metric(const char *s, enum metric *m)
{
	for (int i = 0; i < 6; i++)
		if (!strcmp(s, metric_names[i])) {
			*m = (enum metric)i;
			return 0;
		}
	return -1;
}

static int parse_state(const char *s, enum state *st)
{
	static const char *const names[] = { "fill", "sweep", "steady" };

	for (int i = 0; i < 3; i++)
		if (!strcmp(s, names[i])) {
			*st = (enum state)i;
			return 0;
		}
	return -1;
}

/* One data line: spec seed line rw bs depth jobs metric value state fit
 * test. */
static void parse_line(char *text, unsigned lineno, struct figure *f)
{
	char *field[12], *save = NULL;
	int n = 0;

	for (char *t = strtok_r(text, "\t\n", &save); t && n < 12; t = strtok_r(NULL, "\t\n", &save))
		field[n++] = t;
	if (n != 12)
		fail_msg(FIGURES ":%u: %d fields, expected 12", lineno, n);
	memset(f, 0, sizeof(*f));
	snprintf(f->spec, sizeof(f->spec), "%s", field[0]);
	snprintf(f->seed, sizeof(f->seed), "%s", field[1]);
	snprintf(f->line, sizeof(f->line), "%s", field[2]);
	snprintf(f->test, sizeof(f->test), "%s", field[11]);
	if (sim_rw_parse(field[3], &f->rw) || parse_metric(field[7], &f->metric) ||
	    parse_state(field[9], &f->state) || (f->state != S_FILL) != (f->rw == SIM_RANDWRITE))
		fail_msg(FIGURES ":%u: bad rw '%s', metric '%s' or state '%s'", lineno, field[3],
			 field[7], field[9]);
	f->bs = (uint32_t)atol(field[4]);
	f->depth = (uint32_t)atol(field[5]);
	f->jobs = (uint32_t)atol(field[6]);
	f->measured = atof(field[8]);
	f->fit = !strcmp(field[10], "y");
	if (!f->bs || !f->depth || !f->jobs || !(f->measured > 0))
		fail_msg(FIGURES ":%u: bs, depth, jobs and value must be positive", lineno);
}

static unsigned load_figures(struct figure *figs)
{
	char line[1024];
	unsigned n = 0, lineno = 0;
	FILE *f = fopen(FIGURES, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || !strncmp(line, "spec\t", 5))
			continue;
		assert_true(n < MAX_FIGURES);
		parse_line(line, lineno, &figs[n++]);
	}
	fclose(f);
	return n;
}

static double pick(const struct sim_result *r, enum metric m)
{
	switch (m) {
	case M_IOPS: return r->iops;
	case M_MBS: return r->mbs;
	case M_LAT: return r->mean_lat_us;
	case M_P99: return r->p99_us;
	case M_P999: return r->p999_us;
	default: return r->p9999_us;
	}
}

static bool same_point(const struct figure *a, const struct figure *b)
{
	return a->rw == b->rw && a->bs == b->bs && a->depth == b->depth && a->jobs == b->jobs;
}

/* The I/Os a point runs: enough for its queues to turn over many times,
 * and where the review gives percentiles at the point, enough for a
 * p99.99 of TAIL_IOS / 10,000 samples past it and for the GC's slow
 * waves of a steady state to average out. */
static uint64_t point_ios(const struct figure *figs, unsigned n, const struct figure *f)
{
	uint64_t ios = POINT_TURNOVERS * f->depth * f->jobs;

	for (unsigned k = 0; k < n; k++)
		if (figs[k].metric >= M_P99 && figs[k].state == f->state && same_point(&figs[k], f))
			return TAIL_IOS;
	return ios < 30000 ? 30000 : ios > POINT_IOS_MAX ? POINT_IOS_MAX : ios;
}

/* A sweep point's length on the real drive, seconds. The reviews do not
 * say; 60 is the length at which the P5430's and P5336's 64K sweeps stay
 * at sequential speed to their last point as measured (a protocol
 * figure fitted to them, docs/vssd-fit.md); DB_POINT_SECONDS tries
 * others. */
static double point_seconds(void)
{
	const char *env = getenv("DB_POINT_SECONDS");

	return env ? atof(env) : 60;
}

/* The fit's scale of each drive (docs/vssd-fit.md); DB_SCALE runs every
 * drive at another (1/1000, the default's: about 3 minutes). */
static const char *scale_of(const char *spec)
{
	const char *env = getenv("DB_SCALE");

	if (env && env[0])
		return env;
	return strstr(spec, "p5430") || strstr(spec, "ps1030") ? "4g" : "8g";
}

/* Sets the model figure of every figure at r's point and state. */
static void take(struct figure *figs, unsigned n, const struct figure *at, enum state st,
		 const struct sim_result *r)
{
	for (unsigned k = 0; k < n; k++)
		if (figs[k].state == st && same_point(at, &figs[k]))
			figs[k].model = pick(r, figs[k].metric);
}

/* The jobs counts of a review's sweep grid: seeds/001 (the PS1030's
 * review) names points at 2 and 16 jobs (its 64K peak at 2/2, reads at
 * 16/16 and 32/16); the others sweep 1, 4 and 8 jobs. */
static unsigned sweep_jobs(const char *seed, const uint32_t **jobs)
{
	static const uint32_t five[] = { 1, 2, 4, 8, 16 }, three[] = { 1, 4, 8 };

	if (!strcmp(seed, "001")) {
		*jobs = five;
		return 5;
	}
	*jobs = three;
	return 3;
}

static bool has_figure(const struct figure *figs, unsigned n, const struct figure *at,
		       enum state st)
{
	for (unsigned k = 0; k < n; k++)
		if (figs[k].state == st && same_point(at, &figs[k]))
			return true;
	return false;
}

/* The figures of sweep point at, from the drive's state when the point
 * starts: measured on a copy of d (its FTL; the clock idle, as after the
 * pause between two fio jobs), 2 turnovers of the queues and a write
 * buffer's worth to fill them, then 10 turnovers (at least 2000 I/Os). At a small scale a point's own length is
 * a few milliseconds of the model's time, too few completions for a
 * mean (a 64K point at 32/8 on the P5336 at 8g: 59 I/Os for 256 in
 * flight), and measuring longer on d itself would age it past what the
 * real point wrote. */
static void measure_point(const struct vdrive *d, struct figure *figs, unsigned n,
			  const struct figure *at)
{
	uint64_t outstanding = (uint64_t)at->depth * at->jobs;
	struct vdrive *copy;
	struct sim_result r;

	if (!has_figure(figs, n, at, S_SWEEP))
		return;
	if (!(copy = vdrive_clone(d)))
		fail_msg("%s", err_msg());
	/* the warm-up passes the write buffer too: a point of tens of
	 * seconds on the real drive is not its first 32 MB */
	vssd_run(copy, at->rw, at->bs, at->depth, at->jobs,
		 2 * outstanding + vdrive_model(d)->timing.write_buffer_bytes / at->bs, 0, false);
	r = vssd_run(copy, at->rw, at->bs, at->depth, at->jobs,
		     outstanding * 10 > 2000 ? outstanding * 10 : 2000, 0, false);
	take(figs, n, at, S_SWEEP, &r);
	vdrive_destroy(copy);
}

/* A sweep of random writes at one block size as the reviews run it: a
 * sequential fill at the block size (their preconditioning at a new
 * size), then the review's grid depth by depth (1/1, 1/4, 1/8, 2/1 ...
 * 32/8), each for point_seconds of the real drive's time (the model's
 * time at its scale), so a point late in the sweep meets the state the
 * ones before it left. Points off the grid run after it. */
static void run_sweep(struct vdrive *d, struct figure *figs, unsigned n, const char *seed,
		      uint32_t bs)
{
	static const uint32_t depths[] = { 1, 2, 4, 8, 16, 32 };
	const uint32_t *jobs;
	unsigned njobs = sweep_jobs(seed, &jobs);
	double seconds = point_seconds() * vdrive_model(d)->scale;

	vssd_run(d, SIM_WRITE, bs, 16, 1, 0, 1, false);
	for (unsigned a = 0; a < 6; a++)
		for (unsigned b = 0; b < njobs; b++) {
			struct figure at = { .rw = SIM_RANDWRITE, .bs = bs, .depth = depths[a],
					     .jobs = jobs[b] };
			struct sim_job j = { .rw = SIM_RANDWRITE, .bs = bs, .depth = depths[a],
					     .jobs = jobs[b], .seconds = seconds };
			struct sim_result r;

			measure_point(d, figs, n, &at);
			if (sim_run(d, &j, &r))   /* the point's own writing ages the drive */
				fail_msg("sim: %s", err_msg());
		}
	for (unsigned k = 0; k < n; k++)
		if (figs[k].state == S_SWEEP && figs[k].bs == bs && !(figs[k].model > 0)) {
			struct sim_result r = vssd_run(d, SIM_RANDWRITE, bs, figs[k].depth, figs[k].jobs,
						       point_ios(figs, n, &figs[k]), 0, false);
			take(figs, n, &figs[k], S_SWEEP, &r);
		}
}

/* Random writes at random steady state at one block size: a capacity
 * through the FTL alone settles the WAF, then a quarter capacity on the
 * clock settles what the clock holds (the write buffer, the dies' GC
 * backlog: after 5% of a capacity the J5060's write p99 was still 2-3x
 * what it settles to), then each point. */
static void run_steady(struct vdrive *d, struct figure *figs, unsigned n, uint32_t bs)
{
	vssd_run(d, SIM_RANDWRITE, bs, 32, 8, 0, 1, true);
	vssd_run(d, SIM_RANDWRITE, bs, 32, 8, 0, 0.25, false);
	for (unsigned k = 0; k < n; k++)
		if (figs[k].state == S_STEADY && figs[k].bs == bs && !(figs[k].model > 0)) {
			struct sim_result r = vssd_run(d, SIM_RANDWRITE, bs, figs[k].depth, figs[k].jobs,
						       point_ios(figs, n, &figs[k]), 0, false);
			take(figs, n, &figs[k], S_STEADY, &r);
		}
}

/* Runs every figure of one drive: figs[0, n) share spec. Reads and
 * sequential writes on the filled drive, then each block size's sweep,
 * then each block size's steady state. */
static void run_drive(struct figure *figs, unsigned n)
{
	char path[128];
	struct vssd_model m;
	struct vdrive *d;

	snprintf(path, sizeof(path), "specs/%s", figs[0].spec);
	if (vssd_model_load(path, scale_of(figs[0].spec), &m))
		fail_msg("%s", err_msg());
	assert_non_null(d = vdrive_create(&m));
	vssd_run(d, SIM_WRITE, 128 << 10, 16, 1, 0, 1, false);   /* the fill */
	for (unsigned i = 0; i < n; i++)
		if (figs[i].state == S_FILL && !(figs[i].model > 0)) {
			struct sim_result r = vssd_run(d, figs[i].rw, figs[i].bs, figs[i].depth,
						       figs[i].jobs, point_ios(figs, n, &figs[i]), 0, false);
			take(figs, n, &figs[i], S_FILL, &r);
		}
	for (unsigned i = 0; i < n; i++)
		if (figs[i].state == S_SWEEP && !(figs[i].model > 0))
			run_sweep(d, figs, n, figs[i].seed, figs[i].bs);
	for (unsigned i = 0; i < n; i++)
		if (figs[i].state == S_STEADY && !(figs[i].model > 0))
			run_steady(d, figs, n, figs[i].bs);
	vdrive_destroy(d);
}

static double error_of(const struct figure *f)
{
	double r = f->model / f->measured;

	return r >= 1 ? r : 1 / r;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

struct summary {
	unsigned n, within_10, within_50;
	double median, worst;
};

/* Over the figures the fit did not use and keep(f) selects. */
static struct summary summarize(const struct figure *figs, unsigned n,
				bool (*keep)(const struct figure *))
{
	static double err[MAX_FIGURES];
	struct summary s = { 0 };

	for (unsigned i = 0; i < n; i++) {
		if (figs[i].fit || !keep(&figs[i]))
			continue;
		err[s.n] = error_of(&figs[i]);
		s.within_10 += err[s.n] <= 1.10;
		s.within_50 += err[s.n] <= 1.5;
		s.worst = fmax(s.worst, err[s.n]);
		s.n++;
	}
	if (s.n) {
		qsort(err, s.n, sizeof(err[0]), cmp_double);
		s.median = s.n % 2 ? err[s.n / 2] : (err[s.n / 2 - 1] + err[s.n / 2]) / 2;
	}
	return s;
}

static bool is_tail(const struct figure *f)
{
	return f->metric >= M_P99;
}

static bool any(const struct figure *f)
{
	(void)f;
	return true;
}

static bool read_or_sequential(const struct figure *f)
{
	return !is_tail(f) && f->rw != SIM_RANDWRITE;
}

static bool random_write(const struct figure *f)
{
	return !is_tail(f) && f->rw == SIM_RANDWRITE;
}

static void print_summary(const char *what, struct summary s)
{
	printf("  %-26s %3u figures: median error %.3fx, worst %.2fx, %u within 1.1x, %u within "
	       "1.5x\n", what, s.n, s.median, s.worst, s.within_10, s.within_50);
}

static void test_review_figures(void **state)
{
	static struct figure figs[MAX_FIGURES];
	static const char *const rw_names[] = { "read", "write", "randread", "randwrite" };
	unsigned n = load_figures(figs);

	(void)state;
	assert_true(n > 100);
	for (unsigned i = 0; i < n;) {   /* the file is sorted by spec */
		unsigned k = i;

		while (k < n && !strcmp(figs[k].spec, figs[i].spec))
			k++;
		run_drive(figs + i, k - i);
		i = k;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct figure *f = &figs[i];

		assert_true(f->model > 0 && isfinite(f->model));
		printf("  %-24.24s %s:%-4s %-9s %4uK %2u/%-2u %-9s measured %10.1f model %10.1f "
		       "(%.2f)%s\n", f->spec, f->seed, f->line, rw_names[f->rw], f->bs >> 10,
		       f->depth, f->jobs, metric_names[f->metric], f->measured, f->model,
		       f->model / f->measured, f->fit ? " fit" : "");
	}
	struct summary reads = summarize(figs, n, read_or_sequential), all = summarize(figs, n, any);
	struct summary writes = summarize(figs, n, random_write);

	print_summary("all", all);
	print_summary("reads and sequential", reads);
	print_summary("random writes", writes);
	print_summary("percentiles", summarize(figs, n, is_tail));
	/* issue 29's goal, where the model reaches it: reads and sequential
	 * I/O (rates and mean latencies) within 10% at the median and none
	 * past 1.5x, */
	assert_true(reads.n >= 60);
	assert_true(reads.median <= 1.10);
	assert_true(reads.worst <= 1.5);
	/* random writes' rates and mean latencies none past 1.5x, */
	assert_true(writes.n >= 30);
	assert_true(writes.worst <= 1.5);
	/* and over every figure at the median (the worst is not met yet:
	 * docs/vssd-fit.md lists the figures past 1.5x and why) */
	assert_true(all.n >= 120);
	assert_true(all.median <= 1.10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_review_figures),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
