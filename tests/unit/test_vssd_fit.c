/* test_vssd_fit.c - the five seed drives' [model] sections reproduce
 * their [rated] figures (docs/vssd-fit.md): each spec file is loaded at
 * a small scale and run in virtual time (src/vssd/sim.c); 128K sequential
 * read and write, 4K random read at 256 outstanding and random write at
 * rand_write_bs in steady state must land within 15% of the rated
 * figures read from the same file, fresh-out-of-box random writes must
 * be faster than steady ones, and a drive with an SLC cache must show
 * its cliff. No rated figure is written here. The drives whose random
 * writes are 4K (the costly ones: 4x the I/Os of 16K) run at 4g, the
 * others at 8g (the smallest that leaves GC its spare), and the random
 * write's warm-up is through the FTL alone, off the clock, then a short
 * timed one: the test's time under AddressSanitizer is CI's. */
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
#include "util/units.h"
#include "vssd/drive.h"
#include "vssd/model.h"
#include "vssd/sim.h"
#include "helpers/vssd_run.h"

#define TOLERANCE 0.15

struct rated {
	double seq_read_mbs, seq_write_mbs, rand_read_iops, rand_write_iops;
	uint64_t rand_read_bs, rand_write_bs;
	/* [fit]: measured figures the fit follows instead of the rating
	 * (issue 29.10): one job's 128K sequential write and the most any
	 * writes reached; 0 where the rating is the fit's */
	double fit_seq_write_mbs, fit_write_ceiling_mbs;
	/* [fit] rand_write_outstanding: the writes in flight at which a
	 * review found the random-write rating met (8 jobs share them); 0:
	 * the rating is checked at 256, as the others */
	uint32_t fit_rand_write_outstanding;
};

/* [rated]'s figures and [fit]'s, from the spec file itself. */
static void read_rated(const char *path, struct rated *r)
{
	char line[256], section[32] = "";
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	memset(r, 0, sizeof(*r));
	while (fgets(line, sizeof(line), f)) {
		char key[64], value[64];

		if (sscanf(line, " [%31[^]]]", section) == 1)
			continue;
		if (!strcmp(section, "fit") && sscanf(line, " %63[a-z_] = %63s", key, value) == 2) {
			if (!strcmp(key, "seq_write_mbs"))
				r->fit_seq_write_mbs = atof(value);
			else if (!strcmp(key, "write_ceiling_mbs"))
				r->fit_write_ceiling_mbs = atof(value);
			else if (!strcmp(key, "rand_write_outstanding"))
				r->fit_rand_write_outstanding = (uint32_t)atoi(value);
			else
				fail_msg("%s: [fit] %s: not a key the test knows", path, key);
		}
		if (strcmp(section, "rated"))
			continue;
		if (sscanf(line, " %63[a-z_] = %63s", key, value) != 2)
			continue;
		if (!strcmp(key, "seq_read_mbs"))
			r->seq_read_mbs = atof(value);
		else if (!strcmp(key, "seq_write_mbs"))
			r->seq_write_mbs = atof(value);
		else if (!strcmp(key, "rand_read_iops"))
			r->rand_read_iops = atof(value);
		else if (!strcmp(key, "rand_write_iops"))
			r->rand_write_iops = atof(value);
		else if (!strcmp(key, "rand_read_bs"))
			assert_int_equal(units_parse_size(value, 1024, &r->rand_read_bs), 0);
		else if (!strcmp(key, "rand_write_bs"))
			assert_int_equal(units_parse_size(value, 1024, &r->rand_write_bs), 0);
	}
	fclose(f);
	assert_true(r->seq_read_mbs > 0 && r->seq_write_mbs > 0 && r->rand_read_iops > 0 &&
		    r->rand_write_iops > 0 && r->rand_read_bs && r->rand_write_bs);
}

static struct sim_result run_job(struct vdrive *d, enum sim_rw rw, uint64_t bs, uint32_t depth,
				 double capacities, uint64_t ios, bool untimed)
{
	/* 256 outstanding as 8 jobs of 32 (rated random figures are
	 * measured with several workers: one queue bounds a job, queue_us) */
	uint32_t jobs = depth == 256 ? 8 : 1;

	return vssd_run(d, rw, (uint32_t)bs, depth / jobs, jobs, ios, capacities, untimed);
}

static struct sim_result run(struct vdrive *d, enum sim_rw rw, uint64_t bs, uint32_t depth,
			     double capacities, uint64_t ios)
{
	return run_job(d, rw, bs, depth, capacities, ios, false);
}

static void near(const char *file, const char *what, double model, double rated)
{
	printf("  %-28s %-16s target %10.0f model %10.0f (%.3f)\n", file, what, rated, model,
	       model / rated);
	if (fabs(model / rated - 1) > TOLERANCE)
		fail_msg("%s: %s %.0f is not within 15%% of the target %.0f", file, what, model, rated);
}

/* scale: the fit's scale for this drive (docs/vssd-fit.md's table). */
static void check_drive(const char *file, const char *scale)
{
	char path[256];
	struct vssd_model m;
	struct rated rated;
	struct vdrive *d;
	struct sim_result fob, r;

	snprintf(path, sizeof(path), "specs/%s", file);
	read_rated(path, &rated);
	if (vssd_model_load(path, scale, &m))
		fail_msg("%s", err_msg());
	/* fresh out of box: random writes on an empty drive */
	assert_non_null(d = vdrive_create(&m));
	fob = run(d, SIM_RANDWRITE, rated.rand_write_bs, 256, 0.1, 0);
	vdrive_destroy(d);

	assert_non_null(d = vdrive_create(&m));
	run(d, SIM_WRITE, 128 << 10, 16, 1, 0);                         /* the fill */
	if (rated.fit_seq_write_mbs) {
		/* the measurement, not the sheet: one job at depth 16, and four
		 * jobs at the most the review's writes reached */
		near(file, "seq_write_mbs [fit] 1/16",
		     run(d, SIM_WRITE, 128 << 10, 16, 0.5, 0).mbs, rated.fit_seq_write_mbs);
		struct sim_job four = { .rw = SIM_WRITE, .bs = 128 << 10, .depth = 16, .jobs = 4,
					.bytes = vdrive_model(d)->capacity / 2 };
		assert_true(rated.fit_write_ceiling_mbs > 0);
		assert_int_equal(sim_run(d, &four, &r), 0);
		near(file, "write_ceiling_mbs [fit] 16/4", r.mbs, rated.fit_write_ceiling_mbs);
	} else {
		near(file, "seq_write_mbs", run(d, SIM_WRITE, 128 << 10, 16, 0.5, 0).mbs,
		     rated.seq_write_mbs);
	}
	near(file, "seq_read_mbs", run(d, SIM_READ, 128 << 10, 64, 0.25, 0).mbs,
	     rated.seq_read_mbs);
	near(file, "rand_read_iops", run(d, SIM_RANDREAD, rated.rand_read_bs, 256, 0, 100000).iops,
	     rated.rand_read_iops);
	/* steady state: a capacity through the FTL alone settles the WAF, a
	 * quarter on the clock fills its queues, then a quarter is measured */
	run_job(d, SIM_RANDWRITE, rated.rand_write_bs, 256, 1, 0, true);
	run(d, SIM_RANDWRITE, rated.rand_write_bs, 256, 0.25, 0);
	if (rated.fit_rand_write_outstanding) {
		uint32_t n = rated.fit_rand_write_outstanding;

		assert_true(n >= 8 && n % 8 == 0);
		r = vssd_run(d, SIM_RANDWRITE, (uint32_t)rated.rand_write_bs, n / 8, 8, 0, 0.25,
			     false);
		printf("  %-28s rand_write_iops at %u in flight ([fit])\n", file, n);
	} else {
		r = run(d, SIM_RANDWRITE, rated.rand_write_bs, 256, 0.25, 0);
	}
	near(file, "rand_write_iops", r.iops, rated.rand_write_iops);
	printf("  %-28s FOB %.0f IOPS, steady %.0f at WAF %.2f\n", file, fob.iops, r.iops, r.waf);
	/* a fresh drive writes at least twice as fast, unless the buffer's
	 * intake (write_ack_us, one write at a time, and for writes smaller
	 * than the mapping unit write_ack_queued_ns for each of the other
	 * 255 the FOB keeps in flight) bounds it first */
	bool partial = rated.rand_write_bs < m.geometry.iu_bytes;
	uint64_t per_write = m.timing.write_ack_ns + (partial ? 255 * m.timing.write_ack_queued_ns : 0);
	double intake = per_write ? 1e9 / (double)per_write : INFINITY;
	assert_true(fob.iops > fmin(2 * r.iops, 0.95 * intake));
	assert_true(fob.iops <= intake * 1.005);
	assert_true(r.waf > 1.5);
	vdrive_destroy(d);

	if (m.geometry.slc_cache_blocks) {   /* the cliff: past the cache, slower */
		const struct ftl_geometry *g = &m.geometry;
		double cache = (double)g->slc_cache_blocks * g->pages_per_block / g->bits_per_cell *
			       g->ius_per_page * g->iu_bytes / (double)m.capacity;
		struct sim_result burst, past;

		assert_non_null(d = vdrive_create(&m));
		burst = run(d, SIM_WRITE, 128 << 10, 16, cache / 2, 0);
		run(d, SIM_WRITE, 128 << 10, 16, cache, 0);
		past = run(d, SIM_WRITE, 128 << 10, 16, cache, 0);
		printf("  %-28s SLC burst %.0f MB/s, past the cache %.0f\n", file, burst.mbs, past.mbs);
		assert_true(past.mbs < 0.7 * burst.mbs);
		vdrive_destroy(d);
	}
}

static void test_j5060(void **state)
{
	(void)state;
	check_drive("dapustor-j5060-61t.ini", "8g");
}

static void test_6600_ion(void **state)
{
	(void)state;
	check_drive("micron-6600-ion-245t.ini", "8g");
}

static void test_p5336(void **state)
{
	(void)state;
	check_drive("solidigm-d5-p5336-122t.ini", "8g");
}

static void test_p5430(void **state)
{
	(void)state;
	check_drive("solidigm-d5-p5430-30t.ini", "4g");
}

static void test_ps1030(void **state)
{
	(void)state;
	check_drive("solidigm-d7-ps1030-12t.ini", "4g");
}

/* Issue 29: figures a review measured that the fit did not use, run on
 * the model in the review's state (a sequential fill), each within 1.5x.
 * Plausibility checks: the figures live here, never in the model. The
 * P5430's review (seeds/002, StorageReview's FIO sweeps, jobs/depth):
 * mean latencies at low depth. */
struct review_figure {
	const char *what;
	enum sim_rw rw;
	uint32_t bs, depth, jobs;   /* the review's depth/jobs */
	double measured;            /* us (latencies) or IOPS */
};

static struct vdrive *filled(const char *path, const char *scale)
{
	struct vssd_model m;
	struct vdrive *d;

	if (vssd_model_load(path, scale, &m))
		fail_msg("%s", err_msg());
	assert_non_null(d = vdrive_create(&m));
	run(d, SIM_WRITE, 128 << 10, 16, 1, 0);                         /* the fill */
	return d;
}

static struct vdrive *filled_p5430(void)
{
	return filled("specs/solidigm-d5-p5430-30t.ini", "4g");
}

static struct sim_result run_jobs(struct vdrive *d, const struct review_figure *f, uint64_t ios)
{
	struct sim_job j = { .rw = f->rw, .bs = f->bs, .depth = f->depth, .jobs = f->jobs,
			     .ios = ios };
	struct sim_result r;

	if (sim_run(d, &j, &r))
		fail_msg("sim: %s", err_msg());
	return r;
}

/* model / measured, printed; the error (>= 1) returned */
static double review_error(const struct review_figure *f, double model, const char *unit)
{
	double ratio = model / f->measured;

	printf("  (seeds/002, filled) %-38s measured %9.1f %s model %9.1f (%.2f)\n",
	       f->what, f->measured, unit, model, ratio);
	return ratio >= 1 ? ratio : 1 / ratio;
}

static void test_p5430_review(void **state)
{
	static const struct review_figure figs[] = {
		{ "P5430 4K random write latency 1/1", SIM_RANDWRITE, 4096, 1, 1, 11.8 },
		{ "P5430 4K random write latency 1/4", SIM_RANDWRITE, 4096, 1, 4, 29.3 },
		{ "P5430 4K random read latency 1/1 (fit)", SIM_RANDREAD, 4096, 1, 1, 99.8 },
		{ "P5430 64K random write latency 1/1", SIM_RANDWRITE, 65536, 1, 1, 26.1 },
		{ "P5430 64K random read latency 1/1 (fit)", SIM_RANDREAD, 65536, 1, 1, 228.2 },
	};
	struct vdrive *d = filled_p5430();
	double worst = 1;

	(void)state;
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		double err = review_error(&figs[i], run_jobs(d, &figs[i], 3000).mean_lat_us, "us");

		worst = err > worst ? err : worst;
		assert_true(err <= 1.5);
	}
	printf("  worst error %.2fx\n", worst);
	vdrive_destroy(d);
}

/* Issue 29.4: jobs against depth. The review's 4K random read sweep
 * (seeds/002) at as many outstanding from one job and from eight: 32/1
 * reached 130.2K, 4/8 273.3K. queue_us was fitted to the 32/1 points, so
 * the multi-job sweep is what checks it; each within 1.5x, and 4/8 at
 * least 1.5x 32/1 (one queue is the bound, not the outstanding count). */
static void test_p5430_jobs(void **state)
{
	static const struct review_figure figs[] = {
		{ "P5430 4K random read IOPS 1/8", SIM_RANDREAD, 4096, 1, 8, 77.1e3 },
		{ "P5430 4K random read IOPS 2/8", SIM_RANDREAD, 4096, 2, 8, 147.0e3 },
		{ "P5430 4K random read IOPS 4/8", SIM_RANDREAD, 4096, 4, 8, 273.3e3 },
		{ "P5430 4K random read IOPS 8/8", SIM_RANDREAD, 4096, 8, 8, 495.5e3 },
		{ "P5430 4K random read IOPS 16/8", SIM_RANDREAD, 4096, 16, 8, 822.6e3 },
		{ "P5430 4K random read IOPS 32/8", SIM_RANDREAD, 4096, 32, 8, 975.2e3 },
		{ "P5430 4K random read IOPS 32/1 (fit)", SIM_RANDREAD, 4096, 32, 1, 130.2e3 },
	};
	struct vdrive *d = filled_p5430();
	double iops[7], worst = 1;

	(void)state;
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		double err;

		iops[i] = run_jobs(d, &figs[i], 40000).iops;
		err = review_error(&figs[i], iops[i], "IOPS");
		worst = err > worst ? err : worst;
		assert_true(err <= 1.5);
	}
	printf("  worst error %.2fx; 4/8 over 32/1: %.2f\n", worst, iops[2] / iops[6]);
	assert_true(iops[2] > 1.5 * iops[6]);
	vdrive_destroy(d);
}

/* Issue 29.5: a QLC read's time and its data out, fitted apart. tR and
 * the channel's rate come from the QD1 latencies of 4K and 64K reads
 * (the P5430's and the 6600 ION's, marked fit); what checks them is what
 * they did not fit: the P5430's 64K random read sweep (MB/s, before:
 * 1.3-1.8x too fast), the P5336's 64K QD1 read (its channel is the
 * P5430's), the 6600 ION's 64K read at 32/8. Each within 1.5x. MB/s are
 * decimal: the review prints fio's MiB/s as "MB/s" (docs/vssd-fit.md). */
static void test_qlc_read_review(void **state)
{
	static const struct {
		const char *spec, *scale;
		struct review_figure f;
		bool mbs;   /* measured is MB/s, else a mean latency in us */
	} figs[] = {
		{ "solidigm-d5-p5430-30t.ini", "4g",
		  { "P5430 64K random read MB/s 1/4", SIM_RANDREAD, 65536, 1, 4, 1089.3 }, true },
		{ "solidigm-d5-p5430-30t.ini", "4g",
		  { "P5430 64K random read MB/s 1/8", SIM_RANDREAD, 65536, 1, 8, 2046.6 }, true },
		{ "solidigm-d5-p5430-30t.ini", "4g",
		  { "P5430 64K random read MB/s 2/8", SIM_RANDREAD, 65536, 2, 8, 3615.1 }, true },
		{ "solidigm-d5-p5430-30t.ini", "4g",
		  { "P5430 64K random read MB/s 4/8", SIM_RANDREAD, 65536, 4, 8, 5863.0 }, true },
		{ "solidigm-d5-p5430-30t.ini", "4g",
		  { "P5430 64K random read MB/s 8/8", SIM_RANDREAD, 65536, 8, 8, 7470.9 }, true },
		{ "solidigm-d5-p5336-122t.ini", "8g",
		  { "P5336 64K random read latency 1/1", SIM_RANDREAD, 65536, 1, 1, 227.5 }, false },
		{ "micron-6600-ion-245t.ini", "8g",
		  { "6600 ION 4K random read latency 1/1 (fit)", SIM_RANDREAD, 4096, 1, 1, 52.4 }, false },
		{ "micron-6600-ion-245t.ini", "8g",
		  { "6600 ION 64K random read latency 1/1 (fit)", SIM_RANDREAD, 65536, 1, 1, 110.3 },
		  false },
		{ "micron-6600-ion-245t.ini", "8g",
		  { "6600 ION 64K random read MB/s 32/8", SIM_RANDREAD, 65536, 32, 8, 12526.9 }, true },
	};
	const char *open_spec = NULL;
	struct vdrive *d = NULL;
	double worst = 1;

	(void)state;
	for (size_t i = 0; i < sizeof(figs) / sizeof(figs[0]); i++) {
		struct sim_result r;
		double err;

		if (!open_spec || strcmp(open_spec, figs[i].spec)) {   /* one fill per drive */
			char path[256];

			vdrive_destroy(d);
			snprintf(path, sizeof(path), "specs/%s", figs[i].spec);
			d = filled(path, figs[i].scale);
			open_spec = figs[i].spec;
		}
		r = run_jobs(d, &figs[i].f, figs[i].mbs ? 20000 : 3000);
		err = review_error(&figs[i].f, figs[i].mbs ? r.mbs : r.mean_lat_us,
				   figs[i].mbs ? "MB/s" : "us");
		worst = err > worst ? err : worst;
		assert_true(err <= 1.5);
	}
	printf("  worst error %.2fx\n", worst);
	vdrive_destroy(d);
}

/* Issue 29.2: steady state has no periodic holes. On the P5336 at 8g,
 * after a fill and a capacity of random writes, successive 0.02-capacity
 * windows of 16K QD32 random writes: their IOPS within 1.25x of each
 * other and their WAF within 1.1x (before: 11K-22K IOPS, WAF 5.8-10.7,
 * as every die's forced GC came in one burst per host block, all dies
 * at once). */
static void test_steady_windows(void **state)
{
	struct vdrive *d = filled("specs/solidigm-d5-p5336-122t.ini", "8g");
	double lo = INFINITY, hi = 0, wlo = INFINITY, whi = 0;

	(void)state;
	run_job(d, SIM_RANDWRITE, 16384, 256, 1, 0, true);   /* to steady state */
	run(d, SIM_RANDWRITE, 16384, 32, 0.1, 0);               /* the queues fill */
	for (int i = 0; i < 15; i++) {
		struct sim_result r = run(d, SIM_RANDWRITE, 16384, 32, 0.02, 0);

		lo = fmin(lo, r.iops);
		hi = fmax(hi, r.iops);
		wlo = fmin(wlo, r.waf);
		whi = fmax(whi, r.waf);
	}
	printf("  P5336 steady 16K QD32, 15 windows of 0.02 capacity: IOPS %.0f-%.0f (%.2fx), "
	       "WAF %.2f-%.2f\n", lo, hi, hi / lo, wlo, whi);
	assert_true(hi / lo <= 1.25);
	assert_true(whi / wlo <= 1.1);
	vdrive_destroy(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_j5060),
		cmocka_unit_test(test_6600_ion),
		cmocka_unit_test(test_p5336),
		cmocka_unit_test(test_p5430),
		cmocka_unit_test(test_p5430_review),
		cmocka_unit_test(test_p5430_jobs),
		cmocka_unit_test(test_qlc_read_review),
		cmocka_unit_test(test_steady_windows),
		cmocka_unit_test(test_ps1030),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
