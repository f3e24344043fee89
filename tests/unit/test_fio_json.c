/* test_fio_json.c - the parts of fio's JSON and terse output beyond the
 * per-direction figures: the queue-depth buckets at each of fio's bounds,
 * their percentages, floats written as floats, "global options" apart from
 * "job options", disk_util from a sysfs tree made here (a disk, its
 * partition, a dm device over two disks: aggr_*), and terse lines of
 * every version with fio's field counts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "measure/depths.h"
#include "output/json_fio.h"
#include "output/output.h"
#include "device/disk_util.h"
#include "util/error.h"
#include "helpers/fixtures.h"
#include "helpers/testfile.h"
#include "helpers/tmpdir.h"

/* fio's io_u_mark_depth and __io_u_mark_map, bucket by bucket. */
static void depth_buckets_at_fio_bounds(void **state)
{
	static const struct { unsigned n, level, batch; } cases[] = {
		{ 0, 0, 0 }, { 1, 0, 1 }, { 2, 1, 1 }, { 3, 1, 1 }, { 4, 2, 1 },
		{ 5, 2, 2 }, { 7, 2, 2 }, { 8, 3, 2 }, { 9, 3, 3 }, { 15, 3, 3 },
		{ 16, 4, 3 }, { 17, 4, 4 }, { 31, 4, 4 }, { 32, 5, 4 }, { 33, 5, 5 },
		{ 63, 5, 5 }, { 64, 6, 5 }, { 65, 6, 6 }, { 1000, 6, 6 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct io_depths d;
		uint64_t level[IO_DEPTH_BUCKETS], submit[IO_DEPTH_BUCKETS];
		uint64_t complete[IO_DEPTH_BUCKETS];

		memset(&d, 0, sizeof(d));
		if (cases[i].n)
			io_depths_submitted(&d, 3, cases[i].n);   /* 3 I/Os at depth n */
		io_depths_submitted(&d, cases[i].n, 1 + cases[i].n);
		io_depths_reaped(&d, cases[i].n);
		io_depths_buckets(&d, level, submit, complete);
		if (cases[i].n && level[cases[i].level] < 3)
			fail_msg("depth %u: not in level bucket %u", cases[i].n, cases[i].level);
		if (complete[cases[i].batch] != 1)
			fail_msg("batch %u: not in bucket %u", cases[i].n, cases[i].batch);
		if (submit[cases[i].batch] < 1)
			fail_msg("submit %u: not in bucket %u", cases[i].n, cases[i].batch);
	}
}

/* stat_calc_dist: percent of the total, a bucket with any at least 0.1;
 * merging adds. */
static void depth_percent_and_merge(void **state)
{
	struct io_depths a, b;
	uint64_t level[IO_DEPTH_BUCKETS], submit[IO_DEPTH_BUCKETS];
	uint64_t complete[IO_DEPTH_BUCKETS];
	double pct[IO_DEPTH_BUCKETS];

	(void)state;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	io_depths_submitted(&a, 9999, 32);
	io_depths_submitted(&b, 1, 1);
	io_depths_merge(&a, &b);
	io_depths_buckets(&a, level, submit, complete);
	io_depths_percent(level, pct);
	assert_true(fabs(pct[5] - 99.99) < 1e-9);
	assert_true(pct[0] == 0.1);   /* 0.01 % shows as fio's 0.1 */
	assert_true(pct[1] == 0.0);
	memset(level, 0, sizeof(level));
	io_depths_percent(level, pct);
	assert_true(pct[0] == 0.0);
}

/* Floats always read as floats: fio prints "%f". */
static void floats_as_floats(void **state)
{
	char text[64];

	(void)state;
	assert_string_equal(json_fio_float(256000.0, text, sizeof(text)), "256000.0");
	assert_string_equal(json_fio_float(0.0, text, sizeof(text)), "0.0");
	assert_string_equal(json_fio_float(0.5, text, sizeof(text)), "0.5");
	assert_string_equal(json_fio_float(1e20, text, sizeof(text)), "1e+20");
	assert_string_equal(json_fio_float(-3.0, text, sizeof(text)), "-3.0");
	assert_true(strtod(json_fio_float(35.38369348822918, text, sizeof(text)), NULL) ==
		    35.38369348822918);
}

static cJSON *item(const cJSON *obj, const char *key)
{
	cJSON *found = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!found)
		fail_msg("missing key '%s'", key);
	return found;
}

static char *print_to_text(int (*out)(FILE *, const struct job_result *, unsigned,
				      const struct run_info *),
			   const struct job_result *res, unsigned nr,
			   const struct run_info *info)
{
	struct fx_capture c;

	assert_int_equal(out(fx_capture_open(&c), res, nr, info), 0);
	return fx_capture_text(&c);
}

struct one_job {
	struct job_spec spec;
	struct job_result res;
};

static struct one_job *one_job(const char *options, size_t global_len)
{
	struct one_job *j = calloc(1, sizeof(*j));

	assert_non_null(j);
	job_spec_defaults(&j->spec);
	strcpy(j->spec.name, "t");
	snprintf(j->spec.options_text, sizeof(j->spec.options_text), "%s", options);
	j->spec.output.global_text_len = global_len;
	job_result_init(&j->res, &j->spec);
	j->res.runtime_ns = 1000000000;
	j->res.dir[DIR_READ].ios = 256;
	j->res.dir[DIR_READ].bytes = 1 << 20;
	for (int i = 0; i < 256; i++) {
		lat_add(&j->res.dir[DIR_READ].slat, 100);
		lat_add(&j->res.dir[DIR_READ].clat, 2000);
		lat_add(&j->res.dir[DIR_READ].lat, 2100);
	}
	io_depths_submitted(&j->res.depths, 1, 1);
	io_depths_reaped(&j->res.depths, 1);
	return j;
}

static void free_job(struct one_job *j)
{
	job_result_free(&j->res);
	free(j);
}

static int output_json_fn(FILE *f, const struct job_result *r, unsigned nr,
			  const struct run_info *info)
{
	return output_json(f, r, nr, info);
}

/* As fio: the global section's options at the top, the job's own in
 * "job options"; the depth objects with fio's keys; iops a float. */
static void global_and_job_options(void **state)
{
	const char *opts = "ioengine=null\nsize=1m\nname=t\nrw=read\nbs=8k";
	struct one_job *j = one_job(opts, strlen("ioengine=null\nsize=1m"));
	char *text = print_to_text(output_json_fn, &j->res, 1, NULL);
	cJSON *root = cJSON_Parse(text), *job, *g, *o;

	(void)state;
	assert_non_null(root);
	g = item(root, "global options");
	assert_int_equal(cJSON_GetArraySize(g), 2);
	assert_string_equal(item(g, "ioengine")->valuestring, "null");
	assert_string_equal(item(g, "size")->valuestring, "1m");
	job = cJSON_GetArrayItem(item(root, "jobs"), 0);
	o = item(job, "job options");
	assert_int_equal(cJSON_GetArraySize(o), 3);
	assert_string_equal(item(o, "rw")->valuestring, "read");
	assert_null(cJSON_GetObjectItemCaseSensitive(o, "ioengine"));
	assert_true(item(item(job, "iodepth_level"), "1")->valuedouble == 100.0);
	assert_non_null(item(item(job, "iodepth_level"), ">=64"));
	assert_true(item(item(job, "iodepth_submit"), "4")->valuedouble == 100.0);
	assert_non_null(item(item(job, "iodepth_complete"), "0"));
	assert_non_null(item(item(job, "iodepth_complete"), "64"));
	/* "iops" : 256.0, a float as in fio's "256.000000" */
	assert_non_null(strstr(text, "\"iops\":\t256.0,"));
	assert_non_null(strstr(text, "\"bw_agg\":\t"));
	cJSON_Delete(root);
	free(text);
	free_job(j);
}

/* A sysfs tree: sda (8:0) with partition sda1 (8:1), sdb (8:16), and
 * dm-0 (253:0) over sda1 and sdb. */
struct tree {
	const char *root;   /* the program's tmp_dir() */
};

static void put(const char *root, const char *rel, const char *text)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	file_write_text(path, text);
}

static void sh(const char *fmt, const char *root)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), fmt, root, root, root, root, root, root, root, root);
	if (system(cmd) != 0)
		fail_msg("%s", cmd);
}

static void make_tree(struct tree *t)
{
	t->root = tmp_dir();
	sh("mkdir -p %s/dev/block %s/devices/sda/sda1 %s/devices/sdb %s/devices/dm-0/slaves", t->root);
	sh("ln -s ../../devices/sda %s/dev/block/8:0 && ln -s ../../devices/sda/sda1 %s/dev/block/8:1"
	   " && ln -s ../../devices/sdb %s/dev/block/8:16 && ln -s ../../devices/dm-0 %s/dev/block/253:0"
	   " && ln -s ../../sda/sda1 %s/devices/dm-0/slaves/sda1 && ln -s ../../sdb %s/devices/dm-0/slaves/sdb",
	   t->root);
	put(t->root, "devices/sda/dev", "8:0\n");
	put(t->root, "devices/sda/sda1/dev", "8:1\n");
	put(t->root, "devices/sda/sda1/partition", "1\n");
	put(t->root, "devices/sdb/dev", "8:16\n");
	put(t->root, "devices/dm-0/dev", "253:0\n");
	put(t->root, "devices/sda/stat", "100 1 800 10 50 2 400 20 0 30 40\n");
	put(t->root, "devices/sda/sda1/stat", "100 1 800 10 50 2 400 20 0 30 40\n");
	put(t->root, "devices/sdb/stat", "0 0 0 0 0 0 0 0 0 0 0\n");
	put(t->root, "devices/dm-0/stat", "10 0 80 1 0 0 0 0 0 5 6\n");
	disk_util_set_sysfs_root(t->root);
}

static void drop_tree(struct tree *t)
{
	(void)t;   /* tmp_teardown removes the tree */
	disk_util_set_sysfs_root(NULL);
}

/* stat files as fio reads them; fewer than 11 fields is no stat. */
static void stat_lines(void **state)
{
	struct disk_stat s;

	(void)state;
	assert_int_equal(disk_stat_parse("1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", &s), 0);
	assert_true(s.ios[0] == 1 && s.merges[0] == 2 && s.sectors[0] == 3 && s.ticks[0] == 4);
	assert_true(s.ios[1] == 5 && s.merges[1] == 6 && s.ticks[1] == 8);
	assert_true(s.io_ticks == 10 && s.time_in_queue == 11);
	assert_int_equal(disk_stat_parse("1 2 3", &s), -1);
}

/* A block device node's device, its slaves as entries of their own (a
 * partition as its disk), the counters' deltas, fio's aggr_* (sums over
 * the slaves divided by their count, the busiest one's util); JSON and
 * terse show them. */
static void disk_util_from_sysfs(void **state)
{
	struct tree t;
	struct disk_util *du = calloc(1, sizeof(*du));
	struct disk_util_figures f;
	char node[128];
	struct one_job *j;
	struct run_info info = { 0 };
	char *text;
	cJSON *root, *arr, *dm, *sda;

	(void)state;
	assert_non_null(du);
	make_tree(&t);
	snprintf(node, sizeof(node), "%s/dm-node", t.root);
	if (mknod(node, S_IFBLK | 0600, makedev(253, 0))) {
		drop_tree(&t);
		free(du);
		skip();   /* needs root, as make check has */
	}
	assert_int_equal(disk_util_add(du, node), 0);
	assert_int_equal(disk_util_add(du, node), 0);   /* once */
	assert_int_equal(du->nr, 3);
	assert_string_equal(du->dev[0].name, "dm-0");
	assert_int_equal(du->dev[0].nr_slaves, 2);
	/* a file on a filesystem with no block device under it adds nothing */
	assert_int_equal(disk_util_add(du, "/proc/self/status"), 0);
	assert_int_equal(du->nr, 3);
	put(t.root, "devices/sda/stat", "300 3 2400 40 50 2 400 20 1 130 140\n");
	put(t.root, "devices/sdb/stat", "100 0 800 20 10 1 80 6 0 50 60\n");
	put(t.root, "devices/dm-0/stat", "410 0 3280 71 10 0 80 6 0 155 206\n");
	disk_util_finish(du);
	for (unsigned i = 0; i < du->nr; i++)
		du->dev[i].msec = 1000;   /* a known span for util */
	disk_util_figures(du, 0, &f);
	assert_int_equal(f.slavecount, 2);
	assert_true(f.util == 15.0);
	assert_int_equal(f.agg_ios[0], (200 + 100) / 2);
	assert_int_equal(f.agg_merges[0], (2 + 0) / 2);
	assert_int_equal(f.agg_ticks[1], (0 + 6) / 2);
	assert_int_equal(f.agg_in_queue, (100 + 60) / 2);
	assert_true(f.agg_util == 10.0);   /* sda: 100 ticks in 1000 ms */

	j = one_job("rw=read", 0);
	info.disk_util = du;
	text = print_to_text(output_json_fn, &j->res, 1, &info);
	root = cJSON_Parse(text);
	arr = item(root, "disk_util");
	assert_int_equal(cJSON_GetArraySize(arr), 3);
	dm = cJSON_GetArrayItem(arr, 0);
	assert_string_equal(item(dm, "name")->valuestring, "dm-0");
	assert_true(item(dm, "read_ios")->valuedouble == 400);
	assert_true(item(dm, "in_queue")->valuedouble == 200);
	assert_true(item(dm, "aggr_read_ios")->valuedouble == 150);
	assert_non_null(item(dm, "aggr_write_merge"));   /* fio's spelling */
	sda = cJSON_GetArrayItem(arr, 1);
	assert_null(cJSON_GetObjectItemCaseSensitive(sda, "aggr_read_ios"));
	assert_non_null(strstr(text, "\"util\":\t15.0"));
	cJSON_Delete(root);
	free(text);
	drop_tree(&t);
	free_job(j);
	free(du);
}

static unsigned count_fields(const char *line)
{
	unsigned n = 1;

	for (; *line && *line != '\n'; line++)
		n += *line == ';';
	return n;
}

static char *terse_text(const struct job_result *r, unsigned nr, int version,
			const struct run_info *info)
{
	struct fx_capture c;

	assert_int_equal(output_terse(fx_capture_open(&c), r, nr, info, version), 0);
	return fx_capture_text(&c);
}

/* Field counts of fio 3.33 for a job without disks: v2 161, v3 121, v4
 * 162, v5 180; the header, units (KiB, KiB/s, ms, us), fio's 17
 * percentiles for the default list and "0%=0" to 20. */
static void terse_lines(void **state)
{
	struct one_job *j = one_job("rw=read", 0);
	static const unsigned want[] = { 0, 0, 161, 121, 162, 180 };
	char *text;

	(void)state;
	for (int v = 2; v <= 5; v++) {
		text = terse_text(&j->res, 1, v, NULL);
		if (count_fields(text) != want[v])
			fail_msg("v%d: %u fields, fio has %u: %s", v, count_fields(text), want[v], text);
		free(text);
	}
	text = terse_text(&j->res, 1, 3, NULL);
	assert_int_equal(strncmp(text, "3;" JSON_FIO_VERSION ";t;0;0;1024;1024;256;1000;0;0;"
				 "0.100000;0.000000;2;2;2.000000;0.000000;1.000000%=2;", 0), 0);
	assert_non_null(strstr(text, ";99.990000%=2;0%=0;0%=0;0%=0;2;2;2.100000;"));
	free(text);
	/* a description and continue_on_error add fields at the end */
	strcpy(j->spec.description, "hello");
	j->spec.continue_on_error = 3;
	text = terse_text(&j->res, 1, 3, NULL);
	assert_int_equal(count_fields(text), 124);
	assert_non_null(strstr(text, ";0;0;hello\n"));
	free(text);
	text = terse_text(&j->res, 1, 2, NULL);
	assert_non_null(strstr(text, ";0;0\n;hello\n"));   /* fio's v2 quirk */
	free(text);
	free_job(j);
}

static void terse_bad_version(void **state)
{
	(void)state;
	assert_int_equal(output_terse(stdout, NULL, 0, NULL, 6), -1);
	assert_non_null(strstr(err_msg(), "terse version 6"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(depth_buckets_at_fio_bounds),
		cmocka_unit_test(depth_percent_and_merge),
		cmocka_unit_test(floats_as_floats),
		cmocka_unit_test(global_and_job_options),
		cmocka_unit_test(stat_lines),
		cmocka_unit_test_setup_teardown(disk_util_from_sysfs, tmp_setup, tmp_teardown),
		cmocka_unit_test(terse_lines),
		cmocka_unit_test(terse_bad_version),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
