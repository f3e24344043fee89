/* summary.c - the concise human-readable result: per entry a header, one
 * throughput line and one latency line per direction, then fio-style
 * "Run status group" totals. MB = 10^6 bytes, MiB = 2^20. See
 * docs/output.md for the exact lines. */
#include "output/output.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io/fault.h"
#include "output/checks_out.h"
#include "util/error.h"
#include "util/units.h"
#include "verify/verify.h"
#include "job/check_options.h"

#define PARTIAL_BANNER \
	"*** PARTIAL RESULTS: interrupted - figures cover only the time run ***"

static const char *const dir_label[DIR_ALL] = { "read", "write", "trim" };
static const char *const group_label[DIR_ALL] = { "   READ", "  WRITE", "   TRIM" };

/* Latency unit by magnitude, with fio's rule for percentile lists. */
struct lat_unit {
	const char *name;
	double divisor;
};

static struct lat_unit lat_unit_for(uint64_t min, uint64_t max)
{
	if (min > 2000000 && max > 99999999)
		return (struct lat_unit){ "ms", 1e6 };
	if (min > 2000 && max > 99999)
		return (struct lat_unit){ "us", 1e3 };
	return (struct lat_unit){ "ns", 1.0 };
}

static uint64_t ns_to_ms_rounded(uint64_t ns)
{
	return (ns + 500000) / 1000000;
}

static int positive_errno(int error)
{
	return error < 0 ? -error : error;
}

static bool dir_active(const struct dir_stats *ds)
{
	return ds->ios || ds->bytes || ds->errors;
}

static void print_header(FILE *f, const struct job_result *r)
{
	const struct job_spec *spec = r->spec;
	int error = positive_errno(r->error);

	fprintf(f, "%s: (groupid=%u, jobs=%u): err=%d", r->name, r->groupid,
		r->nr_merged, error);
	if (error)
		fprintf(f, " (%s)", err_errno_text(error));
	if (spec) {
		char bs_read[32], bs_write[32];

		fprintf(f, ": rw=%s", job_spec_rw_name(spec->rw));
		if (spec->bssplit_nr[DIR_READ] || spec->bssplit_nr[DIR_WRITE]) {
			fprintf(f, ", bs=bssplit");
		} else {
			units_format_bytes(spec->bs[DIR_READ], UNITS_BLOCK, 0, bs_read, sizeof(bs_read));
			units_format_bytes(spec->bs[DIR_WRITE], UNITS_BLOCK, 0, bs_write, sizeof(bs_write));
			if (spec->bs[DIR_READ] == spec->bs[DIR_WRITE])
				fprintf(f, ", bs=%s", bs_read);
			else
				fprintf(f, ", bs=%s,%s", bs_read, bs_write);
		}
		fprintf(f, ", ioengine=%s, iodepth=%u",
			spec->ioengine[0] ? spec->ioengine : "?", spec->iodepth);
	}
	if (r->partial)
		fprintf(f, " [partial]");
	fputc('\n', f);
}

static void print_latency(FILE *f, const struct dir_stats *ds)
{
	static const double pcts[] = { 99.0, 99.9, 99.99 };
	uint64_t values[3];
	struct lat_unit unit;

	if (ds->lat.n) {
		unit = lat_unit_for(ds->lat.min, ds->lat.max);
		hist_percentiles(&ds->lat.hist, pcts, 3, values);
		/* A bucket midpoint can lie past the exact extremes; the true
		 * percentile cannot, so clamp for display (JSON keeps fio's). */
		for (int i = 0; i < 3; i++) {
			if (values[i] > ds->lat.max)
				values[i] = ds->lat.max;
			if (values[i] < ds->lat.min)
				values[i] = ds->lat.min;
		}
		fprintf(f, "    lat (%s): mean %.2f, p99 %.2f, p99.9 %.2f, p99.99 %.2f, max %.2f\n",
			unit.name, lat_mean(&ds->lat) / unit.divisor,
			(double)values[0] / unit.divisor,
			(double)values[1] / unit.divisor,
			(double)values[2] / unit.divisor,
			(double)ds->lat.max / unit.divisor);
	}
	if (ds->slat.n || ds->clat.n) {
		const struct lat_stat *ref = ds->clat.n ? &ds->clat : &ds->slat;

		char slat[32] = "-", clat[32] = "-";

		unit = lat_unit_for(ref->min, ref->max);
		if (ds->slat.n)
			snprintf(slat, sizeof(slat), "%.2f", lat_mean(&ds->slat) / unit.divisor);
		if (ds->clat.n)
			snprintf(clat, sizeof(clat), "%.2f", lat_mean(&ds->clat) / unit.divisor);
		fprintf(f, "    slat/clat mean (%s): %s / %s\n", unit.name, slat, clat);
	}
}

/* fio's fsync/fdatasync lines, shortened: how many syncs and their
 * latency. */
static void print_sync(FILE *f, const struct job_result *r)
{
	static const double pcts[] = { 50.0, 99.0 };
	uint64_t values[2];
	struct lat_unit unit;

	if (!r->sync_ios)
		return;
	unit = lat_unit_for(r->sync_lat.min, r->sync_lat.max);
	hist_percentiles(&r->sync_lat.hist, pcts, 2, values);
	for (int i = 0; i < 2; i++)
		if (values[i] > r->sync_lat.max)
			values[i] = r->sync_lat.max;
	fprintf(f, "  sync: %" PRIu64 " (fsync/fdatasync), lat (%s): mean %.2f, p50 %.2f, "
		"p99 %.2f, max %.2f\n", r->sync_ios, unit.name,
		lat_mean(&r->sync_lat) / unit.divisor, (double)values[0] / unit.divisor,
		(double)values[1] / unit.divisor, (double)r->sync_lat.max / unit.divisor);
}

/* fio's totals line for a continue_on_error job, and what the fault
 * engine injected, by kind. */
static void print_error_totals(FILE *f, const struct job_result *r)
{
	const struct job_spec *spec = r->spec;
	uint64_t total = 0;

	if (spec && spec->continue_on_error) {
		for (int d = 0; d < DIR_ALL; d++)
			total += r->dir[d].errors;
		fprintf(f, "  errors    : total=%" PRIu64 ", first_error=%d/<%s>\n", total,
			positive_errno(r->error), err_errno_text(r->error));
	}
	if (spec && fault_engine_named(spec->ioengine)) {
		fprintf(f, "  faults injected:");
		for (int k = 0; k < FAULT_KINDS; k++)
			fprintf(f, "%s %s=%" PRIu64, k ? "," : "",
				fault_kind_name((enum fault_kind)k), r->faults_injected[k]);
		fputc('\n', f);
	}
}

#define VERIFY_FAILURES_SHOWN 10

/* One failed unit in words: the verdict, where, and what was found. */
static void print_verify_failure(FILE *f, const struct verify_failure *v)
{
	fprintf(f, "    %s at offset %" PRIu64, verify_verdict_name(v->verdict), v->offset);
	switch (v->verdict) {
	case VERIFY_STALE:
		fprintf(f, ": written by another run (seed %" PRIu64 ", seq %" PRIu64 ")",
			v->found_seed, v->found_seq);
		break;
	case VERIFY_MISDIRECTED:
		fprintf(f, ": holds the block written for offset %" PRIu64 " (seq %" PRIu64 ")",
			v->found_offset, v->found_seq);
		break;
	case VERIFY_LOST_WRITE:
		fprintf(f, ": holds write %" PRIu64 ", last written %" PRIu64,
			v->found_seq, v->expected_seq);
		break;
	case VERIFY_TORN:
		fprintf(f, ": right up to offset %" PRIu64 ", wrong from that sector to the end",
			v->bad_offset);
		break;
	case VERIFY_MISSING:
		fprintf(f, ": [%" PRIu64 ", %" PRIu64 ") lies past the end of the file (%" PRIu64
			" units)", v->offset, v->offset + v->len, v->units);
		break;
	case VERIFY_CORRUPT:
		if (v->found_byte >= 0)
			fprintf(f, ": first bad byte at offset %" PRIu64 " (expected 0x%02x, found 0x%02x)",
				v->bad_offset, v->expected_byte, v->found_byte);
		else
			fprintf(f, ": payload checksum does not match");
		break;
	default:
		break;
	}
	fputc('\n', f);
}

/* "verify: ..." with the seed, the counts and the first failures; what the
 * JSON and the database list beyond them, and what no output lists. */
static void print_verify(FILE *f, const struct job_result *r)
{
	uint64_t unlisted = verify_unlisted(r->verify_failed, r->verify_failures,
					    r->nr_verify_failures);

	if (!verify_result_present(r))
		return;
	fprintf(f, "  verify: %s, seed %" PRIu64 ", checked %" PRIu64 " of %" PRIu64
		" units, %" PRIu64 " failed%s\n",
		r->spec && r->spec->verify != VERIFY_NONE ? verify_method_name(r->spec->verify) :
		"crc32c", r->verify_seed, r->verify_checked,
		r->verify_units, r->verify_failed,
		r->verify_stopped ? "; verify_fatal=1 stopped at the first failure" : "");
	for (unsigned i = 0; i < r->nr_verify_failures && i < VERIFY_FAILURES_SHOWN; i++)
		print_verify_failure(f, &r->verify_failures[i]);
	if (r->nr_verify_failures > VERIFY_FAILURES_SHOWN)
		fprintf(f, "    ... %u more listed in the JSON and the database\n",
			r->nr_verify_failures - VERIFY_FAILURES_SHOWN);
	if (unlisted)
		fprintf(f, "    ... %" PRIu64 " more failed units counted, not listed (at most %d failures are kept)\n",
			unlisted, VERIFY_FAILURES_KEPT);
}

/* A direction is listed when it did anything; a job that did nothing at
 * all (its I/Os outlasted the run) lists the directions it issues, with
 * their zeros, rather than no figure. */
static bool dir_listed(const struct job_result *r, int d)
{
	if (dir_active(&r->dir[d]))
		return true;
	if (!r->spec || dir_active(&r->dir[DIR_READ]) || dir_active(&r->dir[DIR_WRITE]) ||
	    dir_active(&r->dir[DIR_TRIM]))
		return false;
	return job_spec_uses_dir(r->spec, d);
}

static void print_dir(FILE *f, const struct job_result *r, const char *label,
		      const struct dir_stats *ds)
{
	char decimal[32], binary[32], iops[32], io[32];
	double secs = (double)r->runtime_ns / 1e9;
	double bw = secs > 0 ? (double)ds->bytes / secs : 0;

	units_format_rate(bw, UNITS_RATE_FIO_SI, 2, decimal, sizeof(decimal));
	units_format_rate(bw, UNITS_RATE_FIO_IEC, 2, binary, sizeof(binary));
	units_format_count(secs > 0 ? (double)ds->ios / secs : 0, iops, sizeof(iops));
	units_format_bytes(ds->bytes, UNITS_FIO_SI, 2, io, sizeof(io));
	fprintf(f, "  %s: %s (%s), IOPS %s, %s in %.3f s\n", label,
		decimal, binary, iops, io, secs);
	print_latency(f, ds);
	if (ds->errors) {
		fprintf(f, "    errors: %" PRIu64, ds->errors);
		if (ds->first_error)
			fprintf(f, ", first: %s (errno %d) at offset %" PRIu64,
				err_errno_text(ds->first_error),
				positive_errno(ds->first_error),
				ds->first_error_offset);
		fputc('\n', f);
	}
}

/* unified_rw_reporting: every direction as one "mixed" line. */
static void print_mixed(FILE *f, const struct job_result *r)
{
	struct dir_stats *mixed = malloc(sizeof(*mixed));

	if (!mixed)
		return;
	*mixed = r->dir[DIR_READ];   /* trims too, as fio's mixed */
	for (int d = DIR_WRITE; d < DIR_ALL; d++) {
		const struct dir_stats *o = &r->dir[d];

		mixed->ios += o->ios;
		mixed->bytes += o->bytes;
		mixed->errors += o->errors;
		if (!mixed->first_error) {
			mixed->first_error = o->first_error;
			mixed->first_error_offset = o->first_error_offset;
		}
		lat_merge(&mixed->slat, &o->slat);
		lat_merge(&mixed->clat, &o->clat);
		lat_merge(&mixed->lat, &o->lat);
	}
	print_dir(f, r, "mixed", mixed);
	free(mixed);
}

/* An MPI run's aggregate: the figures above are last-done (every rank's
 * I/O over the union of their intervals); first-done is until the first
 * rank finished, as IOR and elbencho report a stonewalled run. */
static void print_ranks(FILE *f, const struct job_result *r)
{
	uint64_t ios = 0, bytes = 0, all_bytes = 0;
	double secs = (double)r->first_done_ns / 1e9, all_secs = (double)r->runtime_ns / 1e9;

	if (r->nr_ranks < 2)
		return;
	for (int d = 0; d < DIR_ALL; d++) {
		ios += r->first_done_ios[d];
		bytes += r->first_done_bytes[d];
		all_bytes += r->dir[d].bytes;
	}
	fprintf(f, "  ranks: %u; last done: %.2f MB/s over %.3f s; first done: %.2f MB/s, "
		"IOPS %.0f over %.3f s\n", r->nr_ranks,
		all_secs > 0 ? (double)all_bytes / all_secs / 1e6 : 0.0, all_secs,
		secs > 0 ? (double)bytes / secs / 1e6 : 0.0, secs > 0 ? (double)ios / secs : 0.0,
		secs);
}

static void print_entry(FILE *f, const struct job_result *r)
{
	enum unified_rw u = r->spec ? r->spec->checks.unified_rw : UNIFIED_NONE;

	print_header(f, r);
	for (int d = 0; d < DIR_ALL && u != UNIFIED_MIXED; d++)
		if (dir_listed(r, d))
			print_dir(f, r, dir_label[d], &r->dir[d]);
	if (u != UNIFIED_NONE)
		print_mixed(f, r);
	print_sync(f, r);
	print_error_totals(f, r);
	print_verify(f, r);
	output_checks_summary(f, r);
	print_ranks(f, r);
}

/* fio's show_group_stats: aggregate bandwidth is all bytes over the
 * longest runtime; the range is the slowest and fastest entry. */
/* A group's totals line, as fio's show_group_stats: rates in bytes a
 * second over whole milliseconds (its integer arithmetic), every figure
 * through its num2str rule at significant_figures digits. */
static void print_group(FILE *f, const struct job_result *res, unsigned nr,
			unsigned groupid)
{
	int sig = 4;

	for (unsigned i = 0; i < nr; i++)
		if (res[i].groupid == groupid && res[i].spec) {
			sig = (int)res[i].spec->checks.sig_figs;
			break;
		}
	fprintf(f, "\nRun status group %u (all jobs):\n", groupid);
	for (int d = 0; d < DIR_ALL; d++) {
		uint64_t bytes = 0, min_run = UINT64_MAX, max_run = 0;
		uint64_t min_bw = 0, max_bw = 0, agg;
		bool any = false;
		char agg_bin[32], agg_dec[32], min_bin[32], min_dec[32];
		char max_bin[32], max_dec[32], io_bin[32], io_dec[32];

		for (unsigned i = 0; i < nr; i++) {
			const struct job_result *r = &res[i];
			uint64_t ms = ns_to_ms_rounded(r->runtime_ns), bw;

			if (r->groupid != groupid || !r->dir[d].ios)
				continue;
			bw = ms ? r->dir[d].bytes * 1000 / ms : 0;
			bytes += r->dir[d].bytes;
			if (ms < min_run)
				min_run = ms;
			if (ms > max_run)
				max_run = ms;
			if (!any || bw < min_bw)
				min_bw = bw;
			if (!any || bw > max_bw)
				max_bw = bw;
			any = true;
		}
		if (!any)
			continue;
		agg = max_run ? bytes * 1000 / max_run : 0;
		units_fio_num2str(agg, sig, true, "B/s", agg_bin, sizeof(agg_bin));
		units_fio_num2str(agg, sig, false, "B/s", agg_dec, sizeof(agg_dec));
		units_fio_num2str(min_bw, sig, true, "B/s", min_bin, sizeof(min_bin));
		units_fio_num2str(min_bw, sig, false, "B/s", min_dec, sizeof(min_dec));
		units_fio_num2str(max_bw, sig, true, "B/s", max_bin, sizeof(max_bin));
		units_fio_num2str(max_bw, sig, false, "B/s", max_dec, sizeof(max_dec));
		units_fio_num2str(bytes, sig, true, "B", io_bin, sizeof(io_bin));
		units_fio_num2str(bytes, sig, false, "B", io_dec, sizeof(io_dec));
		fprintf(f, "%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%" PRIu64
			"-%" PRIu64 "msec\n", group_label[d], agg_bin, agg_dec,
			min_bin, max_bin, min_dec, max_dec, io_bin, io_dec, min_run, max_run);
	}
}

/* The entries, then the per-group totals ("Run status group N"), in
 * ascending groupid order as fio prints them. */
static void print_block(FILE *f, const struct job_result *res, unsigned nr)
{
	bool have_group = false;
	unsigned group = 0;

	for (unsigned i = 0; i < nr; i++)
		print_entry(f, &res[i]);
	for (;;) {
		bool found = false;
		unsigned next = 0;

		for (unsigned i = 0; i < nr; i++) {
			unsigned id = res[i].groupid;

			if (have_group && id <= group)
				continue;
			if (!found || id < next)
				next = id;
			found = true;
		}
		if (!found)
			break;
		print_group(f, res, nr, next);
		group = next;
		have_group = true;
	}
}

int output_summary(FILE *f, const struct job_result *res, unsigned nr,
		   const struct run_info *info)
{
	static const struct run_info no_info;

	if (!f || (nr && !res))
		return err_set("output_summary: no %s", f ? "results" : "output stream");
	if (!info)
		info = &no_info;

	errno = 0;
	if (info->partial)
		fprintf(f, "%s\n", PARTIAL_BANNER);
	if (info->target_note && info->target_note[0])
		fprintf(f, "%s\n", info->target_note);
	/* MPI: each rank's block as fio --client prints each client's, under
	 * a "<host>" line as fio prefixes a client's lines, then the
	 * aggregate as "All clients" */
	for (unsigned k = 0; k < info->nr_clients; k++) {
		const struct run_client *c = &info->clients[k];

		fprintf(f, "%s<%s> rank %u (local %u):\n", k ? "\n" : "",
			c->hostname ? c->hostname : "", c->rank, c->local_rank);
		print_block(f, c->res, c->nr);
	}
	if (info->nr_clients)
		fprintf(f, "\nAll clients (%u ranks):\n", info->nr_clients);
	print_block(f, res, nr);
	if (info->partial)
		fprintf(f, "\n%s\n", PARTIAL_BANNER);
	if (fflush(f) == EOF || ferror(f))
		return err_set("writing summary: %s",
			       errno ? strerror(errno) : "write error");
	return 0;
}
