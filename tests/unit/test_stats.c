/* test_stats.c - latency summaries, the per-interval series, job result
 * init / merge / free and the derived IOPS and bandwidth. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "measure/stats.h"
#include "util/error.h"

static struct lat_stat *new_lat(void)
{
	struct lat_stat *s = malloc(sizeof(*s));

	assert_non_null(s);
	lat_stat_init(s);
	return s;
}

static struct job_result *new_result(const struct job_spec *spec)
{
	struct job_result *r = malloc(sizeof(*r));

	assert_non_null(r);
	job_result_init(r, spec);
	return r;
}

static void free_result(struct job_result *r)
{
	job_result_free(r);
	free(r);
}

static void test_lat_init_and_empty(void **state)
{
	struct lat_stat *s = new_lat();

	(void)state;
	assert_true(s->min == UINT64_MAX);
	assert_int_equal(s->n, 0);
	assert_int_equal(s->max, 0);
	assert_int_equal(hist_count(&s->hist), 0);
	assert_true(lat_mean(s) == 0.0);
	assert_true(lat_stddev(s) == 0.0);
	lat_add(s, 1234);
	assert_true(lat_mean(s) == 1234.0);
	assert_true(lat_stddev(s) == 0.0);  /* one sample: no spread */
	assert_int_equal(s->min, 1234);
	assert_int_equal(s->max, 1234);
	free(s);
}

static void test_lat_mean_stddev_direct(void **state)
{
	static const uint64_t values[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct lat_stat *s = new_lat();

	(void)state;
	for (unsigned i = 0; i < 8; i++)
		lat_add(s, values[i]);
	assert_true(lat_mean(s) == 5.0);
	/* sample stddev (n - 1), like fio: sqrt(32 / 7) */
	assert_true(fabs(lat_stddev(s) - sqrt(32.0 / 7.0)) < 1e-12);
	assert_int_equal(s->min, 2);
	assert_int_equal(s->max, 9);

	/* 100 us latencies with a 1 us spread: sumsq - sum^2/n must not
	 * cancel. (sumsq is a double in lat_add, so far larger means with
	 * tiny spreads, e.g. 1 s +- 50 ns, do lose precision.) */
	lat_stat_init(s);
	double sum = 0, sq = 0;
	const unsigned n = 100000;

	for (unsigned i = 0; i < n; i++) {
		uint64_t v = 100000 + (i % 1000);

		lat_add(s, v);
		sum += (double)v;
	}
	double mean = sum / n;

	for (unsigned i = 0; i < n; i++) {
		double dv = (double)(100000 + (i % 1000)) - mean;

		sq += dv * dv;
	}
	assert_true(fabs(lat_mean(s) - mean) < 1e-6);
	assert_true(fabs(lat_stddev(s) - sqrt(sq / (n - 1))) < 1e-6 * sqrt(sq / (n - 1)));
	free(s);
}

static void test_lat_merge(void **state)
{
	struct lat_stat *a = new_lat(), *b = new_lat(), *all = new_lat();
	struct lat_stat *empty = new_lat();

	(void)state;
	for (uint64_t v = 100; v < 200000; v += 37) {
		lat_add(v % 2 ? a : b, v);
		lat_add(all, v);
	}
	lat_merge(a, b);
	lat_merge(a, empty);  /* merging nothing changes nothing */
	assert_int_equal(a->n, all->n);
	assert_int_equal(a->sum, all->sum);
	assert_int_equal(a->min, all->min);
	assert_int_equal(a->max, all->max);
	assert_true(fabs(a->sumsq - all->sumsq) <= 1e-9 * all->sumsq);
	assert_memory_equal(&a->hist, &all->hist, sizeof(all->hist));
	assert_true(fabs(lat_stddev(a) - lat_stddev(all)) < 1e-6);

	lat_merge(empty, all);  /* into an empty one: min comes from src */
	assert_int_equal(empty->min, 100);
	free(a);
	free(b);
	free(all);
	free(empty);
}

static struct series_point point(uint64_t t_ns, uint64_t read_ios, uint64_t write_ios)
{
	struct series_point p = { .t_ns = t_ns };

	p.ios[DIR_READ] = read_ios;
	p.ios[DIR_WRITE] = write_ios;
	p.bytes[DIR_READ] = read_ios * 4096;
	p.bytes[DIR_WRITE] = write_ios * 4096;
	p.lat_sum_ns[DIR_READ] = read_ios * 100;
	p.lat_sum_ns[DIR_WRITE] = write_ios * 200;
	return p;
}

static void test_series_append_grows(void **state)
{
	struct series s = { .interval_ns = 1000 };

	(void)state;
	for (unsigned i = 0; i < 1000; i++) {
		struct series_point p = point((i + 1) * 1000ull, i, 2 * i);

		assert_int_equal(series_append(&s, &p), 0);
	}
	assert_int_equal(s.nr, 1000);
	assert_true(s.cap >= 1000);
	assert_int_equal(s.points[999].t_ns, 1000000);
	assert_int_equal(s.points[500].ios[DIR_WRITE], 1000);
	series_free(&s);
	assert_null(s.points);
	assert_int_equal(s.nr, 0);
	series_free(&s);  /* twice is harmless */
}

static void test_series_merge(void **state)
{
	struct series a = { .interval_ns = 1000 }, b = { .interval_ns = 1000 };
	struct series empty = { 0 };

	(void)state;
	for (unsigned i = 0; i < 3; i++) {
		struct series_point p = point((i + 1) * 1000ull, 10, 1);

		assert_int_equal(series_append(&a, &p), 0);
	}
	for (unsigned i = 0; i < 5; i++) {
		struct series_point p = point((i + 1) * 1000ull + 3, 5, 2);

		assert_int_equal(series_append(&b, &p), 0);
	}
	assert_int_equal(series_merge(&a, &b), 0);
	assert_int_equal(a.nr, 5);  /* extended to the longer one */
	assert_int_equal(a.points[0].ios[DIR_READ], 15);
	assert_int_equal(a.points[2].ios[DIR_WRITE], 3);
	assert_int_equal(a.points[2].bytes[DIR_READ], 15 * 4096);
	assert_int_equal(a.points[2].lat_sum_ns[DIR_READ], 1500);
	assert_int_equal(a.points[3].ios[DIR_READ], 5);  /* only b had it */
	assert_int_equal(a.points[4].t_ns, 5003);
	assert_int_equal(a.points[0].t_ns, 1003);  /* the later end wins */

	/* merging an empty series is a no-op; into an empty one copies */
	assert_int_equal(series_merge(&a, &empty), 0);
	assert_int_equal(a.nr, 5);
	assert_int_equal(series_merge(&empty, &a), 0);
	assert_int_equal(empty.nr, 5);
	assert_int_equal(empty.interval_ns, 1000);
	assert_int_equal(empty.points[0].ios[DIR_READ], 15);
	series_free(&a);
	series_free(&b);
	series_free(&empty);
}

static void test_series_merge_interval_mismatch(void **state)
{
	struct series a = { .interval_ns = 1000 }, b = { .interval_ns = 300 };
	struct series_point p = point(1000, 1, 1);

	(void)state;
	assert_int_equal(series_append(&a, &p), 0);
	assert_int_equal(series_append(&b, &p), 0);
	err_clear();
	assert_int_equal(series_merge(&a, &b), -1);
	assert_non_null(strstr(err_msg(), "interval"));
	assert_int_equal(a.nr, 1);
	assert_int_equal(a.points[0].ios[DIR_READ], 1);  /* untouched */
	series_free(&a);
	series_free(&b);
}

/* A full series halves its points at twice the interval; series of
 * intervals a power of two apart merge at the coarser one. */
static void test_series_coarsen_and_merge(void **state)
{
	struct series a = { .interval_ns = 1000 }, b = { .interval_ns = 250 };

	(void)state;
	for (unsigned i = 0; i < 5; i++) {
		struct series_point p = point((i + 1) * 1000ull, i + 1, 1);

		assert_int_equal(series_append(&a, &p), 0);
	}
	series_coarsen(&a);
	assert_int_equal(a.interval_ns, 2000);
	assert_int_equal(a.nr, 3);
	assert_int_equal(a.points[0].ios[DIR_READ], 1 + 2);
	assert_int_equal(a.points[0].t_ns, 2000);
	assert_int_equal(a.points[1].ios[DIR_READ], 3 + 4);
	assert_int_equal(a.points[1].lat_sum_ns[DIR_WRITE], 400);
	assert_int_equal(a.points[2].ios[DIR_READ], 5);   /* odd last point kept */
	assert_int_equal(a.points[2].t_ns, 5000);
	for (unsigned i = 0; i < 8; i++) {
		struct series_point p = point((i + 1) * 250ull, 1, 0);

		assert_int_equal(series_append(&b, &p), 0);
	}
	/* the finer source is coarsened on a copy: b itself is untouched */
	assert_int_equal(series_merge(&a, &b), 0);
	assert_int_equal(a.interval_ns, 2000);
	assert_int_equal(a.nr, 3);
	assert_int_equal(a.points[0].ios[DIR_READ], 3 + 8);
	assert_int_equal(b.nr, 8);
	assert_int_equal(b.interval_ns, 250);
	/* the finer destination is coarsened in place */
	assert_int_equal(series_merge(&b, &a), 0);
	assert_int_equal(b.interval_ns, 2000);
	assert_int_equal(b.nr, 3);
	assert_int_equal(b.points[0].ios[DIR_READ], 8 + 11);
	series_free(&a);
	series_free(&b);
}

static void test_job_result_init(void **state)
{
	struct job_spec *spec = calloc(1, sizeof(*spec));
	struct job_result *r;

	(void)state;
	assert_non_null(spec);
	strcpy(spec->name, "randread");
	spec->series_interval_ns = 250000000;
	r = new_result(spec);
	assert_ptr_equal(r->spec, spec);
	assert_string_equal(r->name, "randread");
	assert_int_equal(r->series.interval_ns, 250000000);
	assert_int_equal(r->nr_merged, 1);
	for (int d = 0; d < DIR_COUNT; d++) {
		assert_true(r->dir[d].slat.min == UINT64_MAX);
		assert_true(r->dir[d].clat.min == UINT64_MAX);
		assert_true(r->dir[d].lat.min == UINT64_MAX);
		assert_int_equal(r->dir[d].ios, 0);
	}
	free_result(r);

	r = new_result(NULL);
	assert_null(r->spec);
	assert_int_equal(r->series.interval_ns, 1000000000);
	assert_string_equal(r->name, "");
	free_result(r);
	free(spec);
}

static void fill_result(struct job_result *r, uint64_t ios, uint64_t runtime_ns,
			uint64_t lat_base)
{
	r->runtime_ns = runtime_ns;
	r->dir[DIR_READ].ios = ios;
	r->dir[DIR_READ].bytes = ios * 4096;
	for (uint64_t i = 0; i < ios; i++) {
		lat_add(&r->dir[DIR_READ].clat, lat_base + i);
		lat_add(&r->dir[DIR_READ].lat, lat_base + i + 10);
	}
	for (unsigned i = 0; i < 2; i++) {
		struct series_point p = point((i + 1) * 1000000000ull, ios / 2, 0);

		assert_int_equal(series_append(&r->series, &p), 0);
	}
}

static void test_job_result_merge(void **state)
{
	struct job_result *a = new_result(NULL), *b = new_result(NULL);

	(void)state;
	fill_result(a, 100, 2000000000, 1000);
	fill_result(b, 300, 3000000000, 500);
	a->usr_cpu_s = 1.5;
	b->usr_cpu_s = 0.5;
	a->sys_cpu_s = 0.25;
	b->ctx_switches = 7;
	a->max_buffer_bytes = 1 << 20;
	b->max_buffer_bytes = 1 << 21;
	a->ramp_ns = 5;
	b->ramp_ns = 9;
	b->partial = true;
	b->error = -5;
	b->dir[DIR_WRITE].errors = 2;
	b->dir[DIR_WRITE].first_error = -5;
	b->dir[DIR_WRITE].first_error_offset = 8192;
	a->dir[DIR_READ].errors = 1;
	a->dir[DIR_READ].first_error = -61;
	b->dir[DIR_READ].first_error = -5;
	b->start_unix_ms = 1000;
	a->start_unix_ms = 2000;

	assert_int_equal(job_result_merge(a, b), 0);
	assert_int_equal(a->dir[DIR_READ].ios, 400);
	assert_int_equal(a->dir[DIR_READ].bytes, 400 * 4096);
	assert_int_equal(a->dir[DIR_READ].clat.n, 400);
	assert_int_equal(a->dir[DIR_READ].clat.min, 500);
	assert_int_equal(a->dir[DIR_READ].clat.max, 1099);
	assert_int_equal(a->dir[DIR_READ].lat.min, 510);
	assert_int_equal(hist_count(&a->dir[DIR_READ].lat.hist), 400);
	assert_true(a->dir[DIR_WRITE].slat.min == UINT64_MAX);  /* still empty */
	assert_int_equal(a->runtime_ns, 3000000000);
	assert_int_equal(a->ramp_ns, 9);
	assert_true(a->partial);
	assert_int_equal(a->error, -5);
	assert_int_equal(a->dir[DIR_READ].errors, 1);
	assert_int_equal(a->dir[DIR_READ].first_error, -61);  /* first kept */
	assert_int_equal(a->dir[DIR_WRITE].errors, 2);
	assert_int_equal(a->dir[DIR_WRITE].first_error, -5);  /* taken over */
	assert_int_equal(a->dir[DIR_WRITE].first_error_offset, 8192);
	assert_true(a->usr_cpu_s == 2.0);
	assert_true(a->sys_cpu_s == 0.25);
	assert_int_equal(a->ctx_switches, 7);
	assert_int_equal(a->max_buffer_bytes, 3 << 20);
	assert_int_equal(a->nr_merged, 2);
	assert_int_equal(a->start_unix_ms, 1000);
	assert_int_equal(a->series.nr, 2);
	assert_int_equal(a->series.points[1].ios[DIR_READ], 200);

	/* a second merge keeps the first error and adds nr_merged */
	b->error = -28;
	assert_int_equal(job_result_merge(a, b), 0);
	assert_int_equal(a->error, -5);
	assert_int_equal(a->nr_merged, 3);
	free_result(a);
	free_result(b);
}

/* fio's add_stat_sample and calc_lat: integer samples, sample stddev. */
static void test_rate_stat(void **state)
{
	struct rate_stat st;

	(void)state;
	rate_stat_init(&st);
	assert_int_equal(st.samples, 0);
	assert_true(st.min == UINT64_MAX);
	assert_true(rate_stat_dev(&st) == 0.0);
	rate_stat_add(&st, 100);
	assert_true(rate_stat_dev(&st) == 0.0);   /* one sample: no spread */
	rate_stat_add(&st, 300);
	rate_stat_add(&st, 200);
	assert_int_equal(st.samples, 3);
	assert_int_equal(st.min, 100);
	assert_int_equal(st.max, 300);
	assert_true(fabs(st.mean - 200.0) < 1e-9);
	assert_true(fabs(rate_stat_dev(&st) - 100.0) < 1e-9);
}

/* Samples on a 500 ms grid over a 2 s run: at 500, 1000 and 1500 ms, none
 * at the deadline; the rate over the time since the last sample, in whole
 * milliseconds; a direction idle in a window gives no sample. */
static void test_rate_sampler(void **state)
{
	const uint64_t ms = 1000000, t0 = 7 * ms, deadline = t0 + 2000 * ms;
	struct rate_stat st[DIR_ALL];
	struct rate_sampler r;
	uint64_t count[DIR_ALL] = { 0, 0, 0 };
	int64_t taken[DIR_ALL];

	(void)state;
	for (int d = 0; d < DIR_ALL; d++)
		rate_stat_init(&st[d]);
	rate_sampler_start(&r, 500 * ms, 1024, t0, deadline);
	assert_true(r.next_ns == t0 + 500 * ms);
	count[DIR_READ] = 1024000;             /* 1000 KiB in 500 ms */
	rate_sampler_take(&r, count, st, t0 + 500 * ms, deadline, taken);
	assert_int_equal(taken[DIR_READ], 2000);      /* what a bw log gets */
	assert_int_equal(taken[DIR_WRITE], -1);
	assert_int_equal(st[DIR_READ].samples, 1);
	assert_int_equal(st[DIR_READ].min, 2000);
	assert_int_equal(st[DIR_WRITE].samples, 0);   /* nothing written */
	assert_true(r.next_ns == t0 + 1000 * ms);
	/* a late look (1250 ms): one longer window, then back on the grid */
	count[DIR_READ] += 1536000;            /* 1500 KiB in 750 ms */
	count[DIR_WRITE] = 750 * 1024;
	rate_sampler_take(&r, count, st, t0 + 1250 * ms, deadline, NULL);
	assert_int_equal(st[DIR_READ].samples, 2);
	assert_int_equal(st[DIR_READ].max, 2000);
	assert_int_equal(st[DIR_WRITE].min, 1000);
	assert_true(r.next_ns == t0 + 1500 * ms);
	/* the 1500 ms sample is the last: 2000 ms is the deadline */
	count[DIR_READ] += 1024;
	rate_sampler_take(&r, count, st, t0 + 1500 * ms, deadline, taken);
	assert_int_equal(taken[DIR_READ], 4);
	assert_int_equal(taken[DIR_WRITE], -1);
	assert_int_equal(st[DIR_READ].samples, 3);
	assert_int_equal(st[DIR_READ].min, 4);      /* 1 KiB in 250 ms */
	assert_int_equal(st[DIR_WRITE].samples, 1); /* idle: no sample */
	assert_true(r.next_ns == UINT64_MAX);
	/* IOPS: no scaling; a window shorter than a millisecond gives 0 */
	rate_sampler_start(&r, 1, 1, t0, UINT64_MAX);
	count[DIR_READ] = 5;
	count[DIR_WRITE] = 0;
	rate_stat_init(&st[DIR_READ]);
	rate_sampler_take(&r, count, st, t0 + 1000, UINT64_MAX, NULL);
	assert_int_equal(st[DIR_READ].samples, 1);
	assert_int_equal(st[DIR_READ].max, 0);
	assert_true(r.next_ns == t0 + 1001);
}

/* group_reporting of four clones as fio's sum_thread_stats: job runtimes
 * add up, the longest runtime stays, and the rate samples are summed
 * (count, min, max, mean and S: the mean is the group's bandwidth). */
static void test_group_of_four_sums_as_fio(void **state)
{
	struct job_result *group = new_result(NULL), *clone = new_result(NULL);

	(void)state;
	for (unsigned i = 0; i < 4; i++) {
		struct job_result *r = i == 0 ? group : clone;

		job_result_free(clone);
		job_result_init(clone, NULL);
		r->runtime_ns = r->total_run_ns = 1000000000ull + i * 1000000;
		rate_stat_add(&r->bw_stat[DIR_READ], 1000 + i);
		rate_stat_add(&r->bw_stat[DIR_READ], 3000 + i);
		rate_stat_add(&r->iops_stat[DIR_READ], 250);
		if (i)
			assert_int_equal(job_result_merge(group, clone), 0);
	}
	assert_int_equal(group->total_run_ns, 4000000000ull + 6000000);
	assert_int_equal(group->runtime_ns, 1003000000);
	assert_int_equal(group->bw_stat[DIR_READ].samples, 8);
	assert_int_equal(group->bw_stat[DIR_READ].min, 4006);
	assert_int_equal(group->bw_stat[DIR_READ].max, 12006);
	assert_true(fabs(group->bw_stat[DIR_READ].mean - 8006.0) < 1e-9);
	/* S adds up too: 4 x 2e6, over 8 - 1 samples, as fio computes it */
	assert_true(fabs(rate_stat_dev(&group->bw_stat[DIR_READ]) - sqrt(8e6 / 7)) < 1e-6);
	assert_int_equal(group->iops_stat[DIR_READ].samples, 4);
	assert_true(fabs(group->iops_stat[DIR_READ].mean - 1000.0) < 1e-9);
	assert_int_equal(group->bw_stat[DIR_WRITE].samples, 0);   /* none anywhere */
	assert_true(group->bw_stat[DIR_WRITE].min == UINT64_MAX);
	free_result(group);
	free_result(clone);
}

static void test_job_result_merge_failure_leaves_dst(void **state)
{
	struct job_result *a = new_result(NULL), *b = new_result(NULL);

	(void)state;
	fill_result(a, 10, 1000000000, 100);
	fill_result(b, 10, 1000000000, 100);
	b->series.interval_ns = 123;
	strcpy(b->name, "other");
	err_clear();
	assert_int_equal(job_result_merge(a, b), -1);
	assert_non_null(strstr(err_msg(), "other"));
	assert_int_equal(a->dir[DIR_READ].ios, 10);
	assert_int_equal(a->nr_merged, 1);
	free_result(a);
	free_result(b);
}

static void test_result_iops_bw(void **state)
{
	struct job_result *r = new_result(NULL);

	(void)state;
	assert_true(result_iops(r, DIR_READ) == 0.0);  /* runtime 0 */
	assert_true(result_bw_bytes(r, DIR_READ) == 0.0);
	r->dir[DIR_READ].ios = 1000;
	assert_true(result_iops(r, DIR_READ) == 0.0);
	r->runtime_ns = 2000000000;
	r->dir[DIR_READ].bytes = 4096000;
	r->dir[DIR_WRITE].ios = 3;
	r->dir[DIR_WRITE].bytes = 3 * 512;
	assert_true(fabs(result_iops(r, DIR_READ) - 500.0) < 1e-9);
	assert_true(fabs(result_bw_bytes(r, DIR_READ) - 2048000.0) < 1e-6);
	assert_true(fabs(result_iops(r, DIR_WRITE) - 1.5) < 1e-12);
	assert_true(fabs(result_bw_bytes(r, DIR_WRITE) - 768.0) < 1e-9);
	assert_true(result_iops(r, DIR_COUNT) == 0.0);  /* no such direction */
	free_result(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lat_init_and_empty),
		cmocka_unit_test(test_lat_mean_stddev_direct),
		cmocka_unit_test(test_lat_merge),
		cmocka_unit_test(test_series_append_grows),
		cmocka_unit_test(test_series_merge),
		cmocka_unit_test(test_series_merge_interval_mismatch),
		cmocka_unit_test(test_series_coarsen_and_merge),
		cmocka_unit_test(test_job_result_init),
		cmocka_unit_test(test_job_result_merge),
		cmocka_unit_test(test_job_result_merge_failure_leaves_dst),
		cmocka_unit_test(test_rate_stat),
		cmocka_unit_test(test_rate_sampler),
		cmocka_unit_test(test_group_of_four_sums_as_fio),
		cmocka_unit_test(test_result_iops_bw),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
