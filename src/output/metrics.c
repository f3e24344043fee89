/* metrics.c - live metrics in the OpenMetrics text format (see the header).
 * Families are named as their samples (counters end in _total) and every
 * type is one Prometheus's text format knows too: node_exporter's
 * textfile collector parses that format, where # UNIT and # EOF are
 * comments. */
#include "output/metrics.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "device/output_gate.h"
#include "ranks/ranks.h"
#include "util/error.h"

static const char *const dir_names[DIR_ALL] = { "read", "write", "trim" };

/* A label value as OpenMetrics escapes it: backslash, quote, newline. */
static void label(FILE *f, const char *text)
{
	for (; *text; text++) {
		if (*text == '\\' || *text == '"')
			fputc('\\', f);
		if (*text == '\n')
			fputs("\\n", f);
		else
			fputc(*text, f);
	}
}

/* Under mpirun every sample names its rank: ranks on one host write
 * files one node_exporter reads, and their series must differ. */
static void rank_label(FILE *f, bool first)
{
	if (ranks_active())
		fprintf(f, "%srank=\"%d\"", first ? "" : ",", ranks_rank());
}

/* A sample without labels of its own: "name value", or
 * "name{rank="R"} value" under mpirun. */
static void plain(FILE *f, const char *name)
{
	fputs(name, f);
	if (ranks_active()) {
		fputc('{', f);
		rank_label(f, true);
		fputc('}', f);
	}
	fputc(' ', f);
}

static void family(FILE *f, const char *name, const char *type, const char *unit,
		   const char *help)
{
	fprintf(f, "# TYPE %s %s\n", name, type);
	if (unit)
		fprintf(f, "# UNIT %s %s\n", name, unit);
	fprintf(f, "# HELP %s %s\n", name, help);
}

static void sample(FILE *f, const char *name, const struct job_result *r, int d,
		   const char *extra, double value)
{
	fprintf(f, "%s{job=\"", name);
	label(f, r->name);
	fprintf(f, "\",clone=\"%u\"", r->clone);
	if (d >= 0)
		fprintf(f, ",direction=\"%s\"", dir_names[d]);
	if (extra)
		fprintf(f, ",%s", extra);
	rank_label(f, false);
	fprintf(f, "} %.15g\n", value);
}

/* The first number named key anywhere in o (the snapshot nests them). */
static bool find_number(const cJSON *o, const char *key, double *out)
{
	const cJSON *c;

	if (!o)
		return false;
	cJSON_ArrayForEach(c, o) {
		if (c->string && !strcmp(c->string, key)) {
			if (cJSON_IsNumber(c))
				return *out = c->valuedouble, true;
			if (cJSON_IsString(c))   /* 128-bit counters are strings */
				return *out = strtod(c->valuestring, NULL), true;
		}
		if ((cJSON_IsObject(c) || cJSON_IsArray(c)) && find_number(c, key, out))
			return true;
	}
	return false;
}

static void drive(FILE *f, const struct metrics_context *ctx)
{
	static const struct { const char *key, *name, *unit, *help; bool delta; } facts[] = {
		{ "temperature_celsius", "drivebench_drive_temperature_celsius", "celsius",
		  "the drive's composite temperature at its last snapshot", false },
		{ "media_errors", "drivebench_drive_media_errors", NULL,
		  "the drive's media and data integrity errors at its last snapshot", false },
		{ "write_amplification", "drivebench_drive_waf", NULL,
		  "NAND bytes written per host byte written between the last snapshots", true },
	};
	cJSON *snap = ctx->drive ? cJSON_Parse(ctx->drive) : NULL;
	cJSON *delta = ctx->drive_delta ? cJSON_Parse(ctx->drive_delta) : NULL;
	double v;

	for (size_t i = 0; i < sizeof(facts) / sizeof(facts[0]); i++)
		if (find_number(facts[i].delta ? delta : snap, facts[i].key, &v)) {
			family(f, facts[i].name, "gauge", facts[i].unit, facts[i].help);
			plain(f, facts[i].name);
			fprintf(f, "%.17g\n", v);
		}
	cJSON_Delete(snap);
	cJSON_Delete(delta);
}

/* When the jobs had the counts of res: the latest measurement start plus
 * runtime (a status copy's runtime is up to its copy; a result's, up to
 * its last I/O), so neither the copy's delay nor the time a finished run
 * spends storing counts in the interval; now_ns when no entry has one. */
static uint64_t counts_ns(const struct job_result *res, unsigned nr, uint64_t now_ns)
{
	uint64_t at = 0;

	for (unsigned i = 0; i < nr; i++)
		if (res[i].measure_start_ns && res[i].measure_start_ns + res[i].runtime_ns > at)
			at = res[i].measure_start_ns + res[i].runtime_ns;
	return at ? at : now_ns;
}

static void base_free(struct metrics_base *b)
{
	free(b->ios);
	free(b->bytes);
	memset(b, 0, sizeof(*b));
}

/* The base to rate over at at_ns: the last write's, or the one before
 * when the last is under half an interval old; NULL: none (the rates are
 * the averages so far). */
static const struct metrics_base *rate_base(const struct metrics_state *st, unsigned nr,
					    uint64_t at_ns)
{
	if (st->nr != nr)
		return NULL;
	for (int k = 0; k < 2; k++) {
		const struct metrics_base *b = &st->base[k];

		if (b->at_ns && at_ns > b->at_ns &&
		    (k == 1 || at_ns - b->at_ns >= st->interval_ns / 2))
			return b;
	}
	return NULL;
}

static int remember(struct metrics_state *st, const struct job_result *res, unsigned nr,
		    uint64_t at_ns)
{
	struct metrics_base b;

	if (st->nr != nr) {   /* new entries: no interval to rate over yet */
		base_free(&st->base[0]);
		base_free(&st->base[1]);
	}
	b = st->base[1];
	/* the one before is dropped, its arrays reused for this write */
	st->base[1] = st->base[0];
	if (!b.ios)
		b.ios = calloc(nr ? nr : 1, sizeof(*b.ios));
	if (!b.bytes)
		b.bytes = calloc(nr ? nr : 1, sizeof(*b.bytes));
	if (!b.ios || !b.bytes) {
		base_free(&b);
		memset(&st->base[0], 0, sizeof(st->base[0]));
		return err_set("out of memory");
	}
	st->nr = nr;
	for (unsigned i = 0; i < nr; i++)
		for (int d = 0; d < DIR_ALL; d++) {
			b.ios[i][d] = res[i].dir[d].ios;
			b.bytes[i][d] = res[i].dir[d].bytes;
		}
	b.at_ns = at_ns;
	st->base[0] = b;
	return 0;
}

static void jobs(FILE *f, const struct job_result *res, unsigned nr,
		 const struct metrics_base *b, uint64_t at_ns)
{
	static const double pcts[] = { 50, 90, 99, 99.9, 99.99 };
	static const char *const quantiles[] = { "50", "90", "99", "99.9", "99.99" };
	double secs = b ? (double)(at_ns - b->at_ns) / 1e9 : 0;
	char extra[64];

	family(f, "drivebench_iops", "gauge", NULL,
	       "I/Os completed per second over the last interval");
	for (unsigned i = 0; i < nr; i++)
		for (int d = 0; d < DIR_ALL; d++) {
			/* no interval yet (the first write): the average so far */
			double v = b && res[i].dir[d].ios >= b->ios[i][d] ?
				   (double)(res[i].dir[d].ios - b->ios[i][d]) / secs :
				   result_iops(&res[i], (enum io_dir)d);
			sample(f, "drivebench_iops", &res[i], d, NULL, v);
		}
	family(f, "drivebench_bandwidth_bytes_per_second", "gauge", "bytes_per_second",
	       "bytes moved per second over the last interval");
	for (unsigned i = 0; i < nr; i++)
		for (int d = 0; d < DIR_ALL; d++) {
			double v = b && res[i].dir[d].bytes >= b->bytes[i][d] ?
				   (double)(res[i].dir[d].bytes - b->bytes[i][d]) / secs :
				   result_bw_bytes(&res[i], (enum io_dir)d);
			sample(f, "drivebench_bandwidth_bytes_per_second", &res[i], d, NULL, v);
		}
	family(f, "drivebench_ios_total", "counter", NULL, "I/Os completed since the measurement began");
	for (unsigned i = 0; i < nr; i++)
		for (int d = 0; d < DIR_ALL; d++)
			sample(f, "drivebench_ios_total", &res[i], d, NULL, (double)res[i].dir[d].ios);
	family(f, "drivebench_bytes_total", "counter", NULL, "bytes moved since the measurement began");
	for (unsigned i = 0; i < nr; i++)
		for (int d = 0; d < DIR_ALL; d++)
			sample(f, "drivebench_bytes_total", &res[i], d, NULL, (double)res[i].dir[d].bytes);
	family(f, "drivebench_errors_total", "counter", NULL, "failed I/Os since the measurement began");
	for (unsigned i = 0; i < nr; i++)
		for (int d = 0; d < DIR_ALL; d++)
			sample(f, "drivebench_errors_total", &res[i], d, NULL, (double)res[i].dir[d].errors);
	family(f, "drivebench_clat_seconds", "gauge", "seconds",
	       "completion latency percentiles since the measurement began (fio's clat)");
	for (unsigned i = 0; i < nr; i++)
		for (int d = 0; d < DIR_ALL; d++) {
			uint64_t v[5];

			if (!res[i].dir[d].clat.n)
				continue;
			hist_percentiles(&res[i].dir[d].clat.hist, pcts, 5, v);
			for (int q = 0; q < 5; q++) {
				snprintf(extra, sizeof(extra), "percentile=\"%s\"", quantiles[q]);
				sample(f, "drivebench_clat_seconds", &res[i], d, extra, (double)v[q] / 1e9);
			}
		}
}

static void temp_name(const char *path, char *tmp, size_t len)
{
	const char *slash = strrchr(path, '/');

	/* in the same folder, so the rename is atomic; node_exporter reads
	 * only *.prom, so a leading dot and another ending hide it */
	if (slash)
		snprintf(tmp, len, "%.*s/.%s.%ld.tmp", (int)(slash - path), path,
			 slash + 1, (long)getpid());
	else
		snprintf(tmp, len, ".%s.%ld.tmp", path, (long)getpid());
}

/* Whether the file starts as metrics_write writes one. */
static bool is_metrics_file(const char *path)
{
	static const char head[] = "# TYPE drivebench_";
	char buf[sizeof(head) - 1];
	FILE *f = fopen(path, "r");
	size_t got = f ? fread(buf, 1, sizeof(buf), f) : 0;

	if (f)
		fclose(f);
	return got == sizeof(buf) && !memcmp(buf, head, sizeof(buf));
}

/* What is at path may be replaced by a new file renamed over it: the
 * output gate's (no block device, kernel setting or results database),
 * then a regular file, not a symbolic link (the rename would replace the
 * link), that metrics_write wrote (or an empty one), or a new name.
 * Checked before the run and again before each rename: the path is the
 * user's between writes. */
static int check_target(const char *path)
{
	struct stat st;

	if (output_gate_check("--metrics-file", path, OUTPUT_FILE))
		return -1;
	if (lstat(path, &st) != 0)
		return 0;   /* a new name; the gate checked its folder */
	if (S_ISLNK(st.st_mode))
		return err_set("--metrics-file: '%s' is a symbolic link: the file is replaced by "
			       "renaming a new one over it, which would replace the link (name "
			       "the file it points to)", path);
	if (!S_ISREG(st.st_mode))
		return err_set("--metrics-file: '%s' is not a regular file: the file is replaced "
			       "by renaming a new one over it", path);
	if (st.st_size > 0 && !is_metrics_file(path))
		return err_set("--metrics-file: '%s' exists and is not a drivebench metrics file: "
			       "it would be replaced (remove it or name another file)", path);
	return 0;
}

/* This rank's file: path with %r %h %l %t expanded under mpirun. */
static int own_path(const char *path, char *own, size_t len)
{
	if (ranks_expand(path, own, len))
		return err_prefix("--metrics-file");
	return 0;
}

int metrics_check_path(const char *path)
{
	char own[4200], tmp[4300];
	FILE *f;

	if (!path[0] || path[strlen(path) - 1] == '/')
		return err_set("--metrics-file '%s': not a file name", path);
	if (ranks_active() && !ranks_names_own(path))
		return err_set("--metrics-file %s: under mpirun every rank writes its own file: "
			       "name the rank in it (%%r, or %%h and %%l: drivebench-%%r.prom)", path);
	if (own_path(path, own, sizeof(own)) || check_target(own))
		return -1;
	temp_name(own, tmp, sizeof(tmp));
	if (!(f = output_gate_open("--metrics-file", tmp)))
		return err_prefix("--metrics-file %s: cannot write beside it", own);
	output_gate_close(f, "--metrics-file", tmp);
	unlink(tmp);
	return 0;
}

/* path's folder resolved, then its name: two spellings of one file
 * compare equal (the file need not exist; its folder must). */
static bool canonical(const char *path, char *out, size_t len)
{
	const char *slash = strrchr(path, '/');
	char dir[4200], *real;
	bool ok;

	snprintf(dir, sizeof(dir), "%.*s", !slash ? 1 : slash == path ? 1 : (int)(slash - path),
		 !slash ? "." : path);
	if (!(real = realpath(dir, NULL)))
		return false;
	ok = (size_t)snprintf(out, len, "%s/%s", real, slash ? slash + 1 : path) < len;
	free(real);
	return ok;
}

int metrics_check_other(const char *path, const char *what, const char *other)
{
	char own[4200], a[8400], b[8400];
	struct stat sa, sb;

	if (!other || own_path(path, own, sizeof(own)))
		return other ? -1 : 0;
	if ((stat(own, &sa) == 0 && stat(other, &sb) == 0 && sa.st_dev == sb.st_dev &&
	     sa.st_ino == sb.st_ino) ||
	    (canonical(own, a, sizeof(a)) && canonical(other, b, sizeof(b)) && !strcmp(a, b)))
		return err_set("--metrics-file %s: it is the file %s names: the metrics would "
			       "replace it (name another file)", path, what);
	return 0;
}

int metrics_write(const char *given, const struct job_result *res, unsigned nr,
		  const struct metrics_context *ctx, struct metrics_state *st,
		  uint64_t now_ns)
{
	const char *path;
	uint64_t at_ns = counts_ns(res, nr, now_ns);
	char own[4200], tmp[4300];
	FILE *f;
	int rc;

	if (own_path(given, own, sizeof(own)) || check_target(own))
		return -1;
	path = own;
	temp_name(path, tmp, sizeof(tmp));
	if (!(f = output_gate_open("--metrics-file", tmp)))
		return -1;
	family(f, "drivebench_info", "gauge", NULL, "what drivebench is running");
	fprintf(f, "drivebench_info{command=\"%s\",step=\"", ctx->command);
	label(f, ctx->step ? ctx->step : "");
	fputc('"', f);
	rank_label(f, false);
	fprintf(f, "} 1\n");
	if (ctx->nr_steps) {
		family(f, "drivebench_step", "gauge", NULL, "the step running, from 1");
		plain(f, "drivebench_step");
		fprintf(f, "%u\n", ctx->step_index);
		family(f, "drivebench_steps", "gauge", NULL, "the steps of the suite");
		plain(f, "drivebench_steps");
		fprintf(f, "%u\n", ctx->nr_steps);
	}
	if (ctx->point) {
		family(f, "drivebench_point", "gauge", NULL, "the point of the step running, from 1");
		plain(f, "drivebench_point");
		fprintf(f, "%u\n", ctx->point);
	}
	family(f, "drivebench_progress_ratio", "gauge", "ratio",
	       "the part done of the running step (of the run outside a suite)");
	plain(f, "drivebench_progress_ratio");
	fprintf(f, "%.6f\n", ctx->progress);
	if (ctx->eta_s >= 0) {
		family(f, "drivebench_eta_seconds", "gauge", "seconds", "the time left");
		plain(f, "drivebench_eta_seconds");
		fprintf(f, "%.3f\n", ctx->eta_s);
	}
	jobs(f, res, nr, rate_base(st, nr, at_ns), at_ns);
	drive(f, ctx);
	fprintf(f, "# EOF\n");
	if (output_gate_close(f, "--metrics-file", tmp)) {
		unlink(tmp);
		return -1;
	}
	if (rename(tmp, path)) {
		rc = errno;
		unlink(tmp);
		return err_set("--metrics-file %s: cannot rename %s over it: %s", path, tmp,
			       strerror(rc));
	}
	return remember(st, res, nr, at_ns);
}

void metrics_state_free(struct metrics_state *st)
{
	base_free(&st->base[0]);
	base_free(&st->base[1]);
	st->nr = 0;
}
