/* test_fio_import.c - fio JSON import on real fio 3.33 output (tests/data):
 * figures equal to fio's as printed, json+ bins, global options merged,
 * drivebench's own JSON, and every rejection (malformed, truncated, not fio,
 * wrong field types, bad options) with its message. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "store/fio_import.h"
#include "util/error.h"

/* The samples live in tests/data; tests run from the repository root, but
 * also find them from a build directory one or two levels down. */
static const char *data_path(const char *name)
{
	static char path[512];
	static const char *const prefixes[] = { "", "../", "../../" };

	for (unsigned i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%stests/data/%s", prefixes[i], name);
		FILE *f = fopen(path, "r");

		if (f) {
			fclose(f);
			return path;
		}
	}
	fail_msg("test data %s not found", name);
	return NULL;
}

static void import_ok(const char *name, struct fio_import *imp)
{
	int rc = fio_import_file(data_path(name), imp);

	if (rc != 0)
		fail_msg("import %s: %s", name, err_msg());
}

static void assert_error_contains(const char *needle)
{
	if (!strstr(err_msg(), needle))
		fail_msg("error '%s' lacks '%s'", err_msg(), needle);
}

static int parse_text(const char *text, struct fio_import *imp)
{
	return fio_import_parse(text, strlen(text), "inline.json", imp);
}

static void assert_empty(const struct fio_import *imp)
{
	assert_null(imp->records);
	assert_int_equal(imp->nr_records, 0);
	assert_null(imp->disk_util_json);
}

static const struct pct_value *find_pct(const struct pct_value *p, unsigned nr,
					double pct)
{
	for (unsigned i = 0; i < nr; i++)
		if (p[i].pct == pct)
			return &p[i];
	fail_msg("no percentile %f", pct);
	return NULL;
}

/* fio --name=x --ioengine=null --size=64m --rw=randrw --output-format=json */
static void test_fio_normal_json(void **state)
{
	struct fio_import imp;
	const struct result_record *r;
	const struct dir_record *rd, *wr;
	(void)state;

	import_ok("fio-3.33-randrw.json", &imp);
	assert_string_equal(imp.tool_version, "fio-3.33");
	assert_false(imp.from_drivebench);
	assert_int_equal(imp.timestamp_ms, 1795985758212ULL);
	assert_null(imp.disk_util_json);
	assert_int_equal(imp.skipped_lines, 0);
	assert_int_equal(imp.nr_records, 1);
	r = &imp.records[0];
	assert_string_equal(r->job_name, "x");
	assert_int_equal(r->groupid, 0);
	assert_int_equal(r->error, 0);
	assert_false(r->partial);
	assert_string_equal(r->rw, "randrw");
	assert_int_equal(r->bs, 4096);       /* fio's default */
	assert_int_equal(r->iodepth, 1);
	assert_int_equal(r->numjobs, 1);
	assert_int_equal(r->runtime_ns, 4000000);
	assert_non_null(strstr(r->options_json, "\"ioengine\":\"null\""));
	assert_non_null(strstr(r->options_json, "\"size\":\"64m\""));

	rd = &r->dir[DIR_READ];
	assert_int_equal(rd->bytes, 33423360);
	assert_int_equal(rd->ios, 8160);
	assert_int_equal(rd->runtime_ms, 5);
	assert_true(rd->iops == 1632000.0);
	assert_true(rd->bw_bytes == 6684672000.0);
	assert_int_equal(rd->clat.min, 21);
	assert_int_equal(rd->clat.max, 56771);
	assert_int_equal(rd->clat.n, 8160);
	assert_true(rd->clat.mean == 33.825);
	assert_true(rd->clat.stddev == 637.139558);
	assert_true(rd->lat.mean == 59.357966);
	assert_int_equal(rd->slat.n, 0);
	assert_int_equal(rd->nr_clat_pct, 17);
	assert_true(rd->clat_pct[0].pct == 1.0);
	assert_true(rd->clat_pct[16].pct == 99.99);
	assert_int_equal(rd->clat_pct[16].value_ns, 56576);
	assert_int_equal(find_pct(rd->clat_pct, rd->nr_clat_pct, 99.0)->value_ns, 45);
	assert_int_equal(find_pct(rd->clat_pct, rd->nr_clat_pct, 99.9)->value_ns, 55);
	assert_int_equal(rd->nr_lat_pct, 0);  /* no lat_percentiles=1 */
	assert_int_equal(rd->nr_bins, 0);     /* not json+ */

	wr = &r->dir[DIR_WRITE];
	assert_int_equal(wr->bytes, 33685504);
	assert_int_equal(wr->ios, 8224);
	assert_true(wr->iops == 1644800.0);
	assert_true(wr->bw_bytes == 6737100800.0);
	assert_true(wr->clat.stddev == 3.63926);
	assert_int_equal(find_pct(wr->clat_pct, wr->nr_clat_pct, 99.95)->value_ns, 59);
	assert_int_equal(find_pct(wr->clat_pct, wr->nr_clat_pct, 99.99)->value_ns, 70);
	fio_import_free(&imp);
	assert_empty(&imp);
	fio_import_free(&imp);   /* twice is harmless */
}

/* tests/data/fio-3.33-global-jsonplus.fio with json+ and lat_percentiles=1 */
static void test_fio_json_plus_and_globals(void **state)
{
	struct fio_import imp;
	const struct result_record *seq, *w1, *w2;
	const struct dir_record *d;
	uint64_t total = 0;
	(void)state;

	import_ok("fio-3.33-global-jsonplus.json", &imp);
	assert_int_equal(imp.nr_records, 3);   /* numjobs=2: two entries */
	seq = &imp.records[0];
	w1 = &imp.records[1];
	w2 = &imp.records[2];
	assert_string_equal(seq->job_name, "seqread");
	assert_string_equal(w1->job_name, "randwrite");
	assert_string_equal(w2->job_name, "randwrite");

	/* globals under the job's own: bs=8k global, 16k in randwrite */
	assert_string_equal(seq->rw, "read");
	assert_int_equal(seq->bs, 8192);
	assert_int_equal(seq->iodepth, 4);
	assert_int_equal(seq->numjobs, 1);
	assert_string_equal(w1->rw, "randwrite");
	assert_int_equal(w1->bs, 16384);
	assert_int_equal(w1->iodepth, 4);
	assert_int_equal(w1->numjobs, 2);
	assert_non_null(strstr(seq->options_json, "\"size\":\"16m\""));
	assert_non_null(strstr(seq->options_json, "\"lat_percentiles\":\"1\""));
	assert_non_null(strstr(w1->options_json, "\"bs\":\"16k\""));
	assert_null(strstr(w1->options_json, "\"bs\":\"8k\""));

	d = &seq->dir[DIR_READ];
	assert_true(d->iops == 2048000.0);
	assert_true(d->bw_bytes == 16777216000.0);
	assert_int_equal(d->nr_bins, 23);
	assert_int_equal(d->bins[0].value_ns, 87);
	assert_int_equal(d->bins[0].count, 1);
	assert_int_equal(d->bins[1].value_ns, 159);
	assert_int_equal(d->bins[1].count, 2);
	for (unsigned i = 0; i < d->nr_bins; i++)
		total += d->bins[i].count;
	assert_int_equal(total, d->clat.n);
	assert_int_equal(total, 2048);
	assert_int_equal(find_pct(d->clat_pct, d->nr_clat_pct, 99.99)->value_ns, 5600);
	assert_int_equal(find_pct(d->lat_pct, d->nr_lat_pct, 99.99)->value_ns, 11456);
	assert_int_equal(find_pct(d->lat_pct, d->nr_lat_pct, 99.9)->value_ns, 270);

	d = &w1->dir[DIR_WRITE];
	assert_true(d->iops == 1024000.0);
	assert_int_equal(d->nr_bins, 97);
	assert_int_equal(d->bins[0].value_ns, 177);
	assert_int_equal(find_pct(d->lat_pct, d->nr_lat_pct, 99.95)->value_ns, 10048);
	assert_int_equal(w2->dir[DIR_WRITE].nr_bins, 45);
	assert_int_equal(w1->dir[DIR_READ].nr_bins, 0);
	assert_int_equal(w1->dir[DIR_READ].ios, 0);
	fio_import_free(&imp);
}

/* psync with iodepth=4: fio prints a "note:" line before the JSON; a real
 * file gives disk_util. */
static void test_fio_note_and_disk_util(void **state)
{
	struct fio_import imp;
	(void)state;

	import_ok("fio-3.33-note-diskutil.json", &imp);
	assert_int_equal(imp.skipped_lines, 1);
	assert_int_equal(imp.nr_records, 1);
	assert_string_equal(imp.records[0].rw, "randread");
	assert_int_equal(imp.records[0].iodepth, 4);
	assert_non_null(imp.disk_util_json);
	assert_int_equal(imp.disk_util_json[0], '[');
	assert_non_null(strstr(imp.disk_util_json, "\"util\":"));
	assert_int_equal(imp.records[0].dir[DIR_READ].bytes, 2 << 20);
	fio_import_free(&imp);
}

static void test_drivebench_json(void **state)
{
	struct fio_import imp;
	const struct result_record *r;
	const struct dir_record *d;
	(void)state;

	import_ok("drivebench-randread.json", &imp);
	assert_true(imp.from_drivebench);
	assert_int_equal(imp.timestamp_ms, 1795985761000ULL);
	assert_non_null(imp.disk_util_json);
	assert_string_equal(imp.disk_util_json, "[]");
	assert_int_equal(imp.nr_records, 1);
	r = &imp.records[0];
	assert_string_equal(r->job_name, "dbjob");
	assert_string_equal(r->rw, "randread");
	assert_int_equal(r->iodepth, 8);
	assert_int_equal(r->runtime_ns, 190929);   /* from the extras, in ns */
	d = &r->dir[DIR_READ];
	assert_true(d->iops == 21453000.853720494);
	assert_true(d->bw_bytes == 87871491496.0);
	assert_int_equal(find_pct(d->clat_pct, d->nr_clat_pct, 99.9999)->value_ns, 2128);
	assert_int_equal(r->series_interval_ms, 1000);
	assert_int_equal(r->nr_series, 1);
	assert_int_equal(r->series[0].ios[DIR_READ], 4096);
	assert_int_equal(r->series[0].bytes[DIR_READ], 16777216);
	assert_true(r->series[0].lat_mean_ns[DIR_READ] == 354.228515625);
	assert_int_equal(r->dir[DIR_READ].errors, 0);
	fio_import_free(&imp);
}

static void test_drivebench_extras_inline(void **state)
{
	struct fio_import imp;
	(void)state;

	assert_int_equal(parse_text(
		"{\"drivebench version\":\"0.1\",\"partial\":true,\"jobs\":[{\"jobname\":\"j\","
		"\"drivebench\":{\"errors\":{\"read\":3,\"write\":1},"
		"\"drive_before\":{\"model\":\"M\"},\"drive_after\":null}}]}", &imp), 0);
	assert_true(imp.from_drivebench);
	assert_string_equal(imp.tool_version, "0.1");
	assert_true(imp.records[0].partial);
	assert_int_equal(imp.records[0].dir[DIR_READ].errors, 3);
	assert_int_equal(imp.records[0].dir[DIR_WRITE].errors, 1);
	assert_string_equal(imp.records[0].drive_before, "{\"model\":\"M\"}");
	assert_null(imp.records[0].drive_after);
	fio_import_free(&imp);

	/* today's JSON carries "fio version" too, for fio's readers: still
	 * drivebench's, partial flag and all */
	assert_int_equal(parse_text(
		"{\"fio version\":\"fio-3.x-compatible (drivebench 0.1.0)\","
		"\"drivebench version\":\"0.1.0\",\"partial\":true,"
		"\"jobs\":[{\"jobname\":\"j\"}]}", &imp), 0);
	assert_true(imp.from_drivebench);
	assert_string_equal(imp.tool_version, "fio-3.x-compatible (drivebench 0.1.0)");
	assert_true(imp.records[0].partial);
	fio_import_free(&imp);

	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"j\","
				    "\"drivebench\":{\"series\":{}}}]}", &imp), -1);
	assert_error_contains("drivebench.series is not an array");
	assert_empty(&imp);
}

static void test_malformed_names_position(void **state)
{
	struct fio_import imp;
	(void)state;

	/* a comma removed at the end of line 10: the next key is unexpected */
	assert_int_equal(fio_import_file(data_path("fio-3.33-randrw-malformed.json"),
					 &imp), -1);
	assert_error_contains("fio-3.33-randrw-malformed.json: malformed JSON at line 11, column 7");
	assert_empty(&imp);

	assert_int_equal(parse_text("{\n  \"jobs\": [1,,2]\n}\n", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: malformed JSON at line 2, column 14");
	/* positions count the skipped leading lines too */
	assert_int_equal(parse_text("note: x\n{\"jobs\": tru}\n", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: malformed JSON at line 2, column 10");
	/* an error before the end of a cut-short file is still malformed */
	assert_int_equal(parse_text("{\"jobs\": [\n{\"a\": tru,\n\"b\": [1,\n", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: malformed JSON at line 2, column 7");
	assert_int_equal(parse_text("{\"jobs\": []}\n{\"jobs\": []}\n", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: unexpected text after the JSON at line 2, column 1");
	assert_empty(&imp);
}

static void test_truncated_names_position(void **state)
{
	struct fio_import imp;
	(void)state;

	/* cut inside the key "99.990000" on line 118 */
	assert_int_equal(fio_import_file(data_path("fio-3.33-randrw-truncated.json"),
					 &imp), -1);
	assert_error_contains("fio-3.33-randrw-truncated.json: truncated JSON: the text "
			      "ends at line 118, column 16");
	assert_empty(&imp);

	assert_int_equal(parse_text("{\n\"jobs\": [\n", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: truncated JSON: the text ends at "
			    "line 2, column 9 before the JSON is complete");
	assert_int_equal(parse_text("{\"jobs\": [{\"jobname\": \"a\\\"b", &imp), -1);
	assert_error_contains("truncated JSON");
	assert_int_equal(parse_text("{\"jobs\": [{\"iops\": 1.5e", &imp), -1);
	assert_error_contains("truncated JSON");
	assert_empty(&imp);
}

static void test_not_fio_rejected(void **state)
{
	struct fio_import imp;
	(void)state;

	assert_int_equal(fio_import_file(data_path("not-fio.json"), &imp), -1);
	assert_error_contains("not-fio.json: not fio JSON output (no \"jobs\" array)");
	assert_empty(&imp);
	assert_int_equal(parse_text("{\"jobs\": {}}", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: not fio JSON output (no \"jobs\" array)");
	assert_int_equal(parse_text("{\"fio version\": \"fio-3.33\", \"jobs\": []}", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: fio JSON output without jobs");
	assert_int_equal(parse_text("[1, 2]", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: not fio JSON output (no line starts with '{')");
	assert_int_equal(parse_text("fio: no such job file\n", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: not fio JSON output (no line starts with '{')");
	assert_int_equal(parse_text(" \n\n", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: empty file, no fio JSON");
	assert_int_equal(fio_import_parse("", 0, "e.json", &imp), -1);
	assert_string_equal(err_msg(), "e.json: empty file, no fio JSON");
	assert_int_equal(parse_text("{\"jobs\": [], \"global options\": 3}", &imp), -1);
	assert_error_contains("\"global options\" is not an object");
	assert_int_equal(fio_import_file("/nonexistent/dir/x.json", &imp), -1);
	assert_string_equal(err_msg(), "/nonexistent/dir/x.json: No such file or directory");
	assert_empty(&imp);
}

static void test_leading_text_skipped(void **state)
{
	struct fio_import imp;
	(void)state;

	/* a '{' inside a note line does not start the JSON */
	assert_int_equal(parse_text("note: {not json}\nwarning: x\n  {\"jobs\": [{\"jobname\": \"a\"}]}\n",
				    &imp), 0);
	assert_int_equal(imp.skipped_lines, 2);
	assert_int_equal(imp.nr_records, 1);
	assert_string_equal(imp.records[0].job_name, "a");
	fio_import_free(&imp);
}

static void test_field_types_checked(void **state)
{
	struct fio_import imp;
	(void)state;

	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"iops\":\"fast\"}}]}",
				    &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): read.iops is not a number");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\"},{\"jobname\":\"b\","
				    "\"write\":{\"clat_ns\":{\"N\":-1}}}]}", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[1] ('b'): write.clat_ns.N is not a non-negative integer");
	assert_empty(&imp);   /* the first, good job is not kept */
	/* figures no fio writes: infinite (1e99999 parses so; a report
	 * printed "inf" and an export null), negative, a fraction of a byte,
	 * a minimum above the maximum */
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"iops\":1e99999}}]}",
				    &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): read.iops is not a finite "
				       "number of 0 or more");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"bw_bytes\":-1e9}}]}",
				    &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): read.bw_bytes is not a finite "
				       "number of 0 or more");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"io_bytes\":1.5}}]}",
				    &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): read.io_bytes is not a "
				       "non-negative integer");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"lat_ns\":"
				    "{\"N\":2,\"min\":5,\"max\":1,\"mean\":3}}}]}", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): read.lat_ns.min is above max");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"lat_ns\":"
				    "{\"N\":2,\"min\":1,\"max\":5,\"mean\":3,\"stddev\":-1}}}]}",
				    &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): read.lat_ns.stddev is not a "
				       "finite number of 0 or more");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":[]}]}", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): read is not an object");
	assert_int_equal(parse_text("{\"jobs\":[{\"groupid\":1}]}", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] has no \"jobname\"");
	assert_int_equal(parse_text("{\"jobs\":[3]}", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] is not an object");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"clat_ns\":"
				    "{\"percentile\":{\"ninety\":5}}}}]}", &imp), -1);
	assert_error_contains("read.clat_ns.percentile has a key that is not a percentage");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"clat_ns\":"
				    "{\"percentile\":{\"99.0\":\"x\"}}}}]}", &imp), -1);
	assert_error_contains("read.clat_ns.percentile has a value that is not a latency");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"clat_ns\":"
				    "{\"bins\":{\"12x\":5}}}}]}", &imp), -1);
	assert_error_contains("read.clat_ns.bins has a key that is not a latency in ns");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"clat_ns\":"
				    "{\"bins\":{\"12\":-5}}}}]}", &imp), -1);
	assert_error_contains("read.clat_ns.bins has a count that is not a non-negative integer");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"error\":-1}]}", &imp), -1);
	assert_error_contains("jobs[0] ('a'): error is not a non-negative integer");
	assert_empty(&imp);
}

static void test_too_many_percentiles(void **state)
{
	struct fio_import imp;
	char text[4096];
	size_t pos;
	(void)state;

	pos = (size_t)snprintf(text, sizeof(text),
			       "{\"jobs\":[{\"jobname\":\"a\",\"read\":{\"clat_ns\":{\"percentile\":{");
	for (unsigned i = 0; i < RECORD_PCT_MAX + 1; i++)
		pos += (size_t)snprintf(text + pos, sizeof(text) - pos, "%s\"%u.5\":%u",
					i ? "," : "", i, i);
	snprintf(text + pos, sizeof(text) - pos, "}}}}]}");
	assert_int_equal(parse_text(text, &imp), -1);
	assert_error_contains("read.clat_ns.percentile has more than 64 entries");
	assert_empty(&imp);
}

static void test_workload_options(void **state)
{
	struct fio_import imp;
	(void)state;

	/* defaults when nothing is given */
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\"}]}", &imp), 0);
	assert_string_equal(imp.records[0].rw, "read");
	assert_int_equal(imp.records[0].bs, 4096);
	assert_int_equal(imp.records[0].iodepth, 1);
	assert_int_equal(imp.records[0].numjobs, 1);
	assert_string_equal(imp.records[0].options_json, "{}");
	fio_import_free(&imp);

	/* bs=R,W: a write-only job takes W; aliases; bssplit means mixed (0) */
	assert_int_equal(parse_text(
		"{\"global options\":{\"bs\":\"4k,64k\",\"iodepth\":\"2\"},\"jobs\":["
		"{\"jobname\":\"w\",\"job options\":{\"readwrite\":\"randwrite\"}},"
		"{\"jobname\":\"r\",\"job options\":{\"rw\":\"randread\",\"iodepth\":\"32\"}},"
		"{\"jobname\":\"m\",\"job options\":{\"bssplit\":\"4k/50:64k/50\",\"numjobs\":\"4\"}},"
		"{\"jobname\":\"d\",\"job options\":{\"rw\":\"write\",\"blocksize\":\",1m\"}}]}",
		&imp), 0);
	assert_int_equal(imp.nr_records, 4);
	assert_string_equal(imp.records[0].rw, "randwrite");
	assert_int_equal(imp.records[0].bs, 65536);
	assert_int_equal(imp.records[0].iodepth, 2);
	assert_int_equal(imp.records[1].bs, 4096);
	assert_int_equal(imp.records[1].iodepth, 32);
	assert_non_null(strstr(imp.records[1].options_json, "\"iodepth\":\"32\""));
	assert_null(strstr(imp.records[1].options_json, "\"iodepth\":\"2\""));
	assert_int_equal(imp.records[2].bs, 0);
	assert_int_equal(imp.records[2].numjobs, 4);
	/* "blocksize" is fio's alias of bs, ",1m": write 1m */
	assert_int_equal(imp.records[3].bs, 1 << 20);
	fio_import_free(&imp);

	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"job options\":{\"bs\":\"4q\"}}]}",
				    &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): bs '4q' is not a size");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"job options\":{\"iodepth\":\"0\"}}]}",
				    &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): iodepth '0' is not a positive count");
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"job options\":[]}]}", &imp), -1);
	assert_error_contains("job options is not an object");
	assert_empty(&imp);
}

/* The options' sizes are read with fio's kb_base rule (util/units.c):
 * with fio's default 1024, 4k = 4KB = 4096 and 2KiB = 2000; a job that set
 * kb_base=1000 gets 4k = 4000 and 2KiB = 2048. */
static void test_sizes_follow_kb_base(void **state)
{
	struct fio_import imp;
	(void)state;

	assert_int_equal(parse_text("{\"jobs\":["
		"{\"jobname\":\"a\",\"job options\":{\"bs\":\"4k\",\"iodepth\":\"1k\"}},"
		"{\"jobname\":\"b\",\"job options\":{\"bs\":\"4KB\"}},"
		"{\"jobname\":\"c\",\"job options\":{\"bs\":\"2KiB\"}},"
		"{\"jobname\":\"d\",\"job options\":{\"bs\":\"1m\"}}]}", &imp), 0);
	assert_int_equal(imp.records[0].bs, 4096);
	assert_int_equal(imp.records[0].iodepth, 1024);
	assert_int_equal(imp.records[1].bs, 4096);
	assert_int_equal(imp.records[2].bs, 2000);
	assert_int_equal(imp.records[3].bs, 1 << 20);
	fio_import_free(&imp);

	/* kb_base from the global options, and from the job's own */
	assert_int_equal(parse_text("{\"global options\":{\"kb_base\":\"1000\"},\"jobs\":["
		"{\"jobname\":\"a\",\"job options\":{\"bs\":\"4k\"}},"
		"{\"jobname\":\"b\",\"job options\":{\"bs\":\"2KiB\"}},"
		"{\"jobname\":\"c\",\"job options\":{\"bs\":\"4k\",\"kb_base\":\"1024\"}}]}",
		&imp), 0);
	assert_int_equal(imp.records[0].bs, 4000);
	assert_int_equal(imp.records[1].bs, 2048);
	assert_int_equal(imp.records[2].bs, 4096);
	fio_import_free(&imp);

	/* not sizes: a bad suffix, trailing junk, empty, overflow, a sign */
	static const char *const bad[] = { "k", "4x", "4kx", "99999999999999999999",
					   "16777216t", "-4k", " 4k" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char json[256], want[128];

		snprintf(json, sizeof(json),
			 "{\"jobs\":[{\"jobname\":\"a\",\"job options\":{\"bs\":\"%s\"}}]}", bad[i]);
		snprintf(want, sizeof(want), "inline.json: jobs[0] ('a'): bs '%s' is not a size", bad[i]);
		assert_int_equal(parse_text(json, &imp), -1);
		assert_string_equal(err_msg(), want);
		assert_empty(&imp);
	}
	assert_int_equal(parse_text("{\"jobs\":[{\"jobname\":\"a\",\"job options\":"
				    "{\"numjobs\":\"2x\"}}]}", &imp), -1);
	assert_string_equal(err_msg(), "inline.json: jobs[0] ('a'): numjobs '2x' is not a positive count");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fio_normal_json),
		cmocka_unit_test(test_fio_json_plus_and_globals),
		cmocka_unit_test(test_fio_note_and_disk_util),
		cmocka_unit_test(test_drivebench_json),
		cmocka_unit_test(test_drivebench_extras_inline),
		cmocka_unit_test(test_malformed_names_position),
		cmocka_unit_test(test_truncated_names_position),
		cmocka_unit_test(test_not_fio_rejected),
		cmocka_unit_test(test_leading_text_skipped),
		cmocka_unit_test(test_field_types_checked),
		cmocka_unit_test(test_too_many_percentiles),
		cmocka_unit_test(test_workload_options),
		cmocka_unit_test(test_sizes_follow_kb_base),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
