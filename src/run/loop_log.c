/* loop_log.c - a clone's fio logs as fio 3.33 fills them (stat.c):
 * - log_avg_msec=0: one entry per I/O: latencies in ns (slat, clat, lat),
 *   bandwidth as bytes * 10^6 / clat_ns, IOPS as 1, with the I/O's size,
 *   offset (log_offset) and priority;
 * - log_avg_msec=N: latencies averaged per direction, an entry at the
 *   first completion N ms or more after the window began and one for what
 *   is left when the job ends (add_log_sample, finalize_logs); bandwidth
 *   (KiB/s) and IOPS: the job's rate samples (bwavgtime = N unless given),
 *   each stamped when taken (__add_samples), none for a direction without
 *   I/O in its window; size 0;
 * - log_hist_msec=N: per direction, the clat histogram's counts since the
 *   last entry, at the first completion N ms or more after the window
 *   began (add_clat_sample); the last, partial window is not written, as
 *   in fio.
 * Times are ms since the measured part began (after ramp_time). */
#include "run/loop_log.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run/worker.h"
#include "ranks/ranks.h"
#include "util/error.h"

#define NS_PER_MS 1000000ull

enum { LAT_SLAT, LAT_CLAT, LAT_LAT, LAT_KINDS };

/* fio's avg_window: the samples of one direction since the last entry. */
struct avg_window {
	uint64_t samples, sum, max;
	uint64_t last_ms;            /* avg_last: where the window began */
};

/* fio's hist_window: when the window began, and the histogram at the
 * last entry (folded to fio's 1856 bins). */
struct hist_window {
	uint64_t last_ms;
	uint64_t prev[FIO_LOG_HIST_BINS];
};

struct loop_log {
	const struct job_output *o;
	const struct dir_stats *dirs;        /* the clone's result (clat hist) */
	bool bw, iops, lat, hist;
	bool no_slat;                        /* a synchronous engine: fio has none */
	struct fio_log_buf bw_buf, iops_buf, hist_buf, lat_buf[LAT_KINDS];
	struct avg_window lat_win[LAT_KINDS][DIR_ALL];
	struct hist_window hist_win[DIR_ALL];
	uint64_t bins[FIO_LOG_HIST_BINS];    /* scratch for one hist entry */
};

/* The priority column: drivebench issues no I/O priorities (cmdprio), so
 * it is 0: fio writes 1 there only for the RT class, and the value in full
 * with log_prio. */
static unsigned io_prio(void)
{
	return 0;
}

static const char *const option_of[JOB_LOG_KINDS] = {
	"write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log",
};

int loop_log_path(const struct job_spec *spec, enum job_log_kind kind, const char *type,
		  unsigned number, char *out, size_t len)
{
	const char *prefix = spec->output.log_name[kind][0] ? spec->output.log_name[kind] :
							    spec->name;
	int n = spec->output.per_job_logs ?
		snprintf(out, len, "%s_%s.%u.log", prefix, type, number) :
		snprintf(out, len, "%s_%s.log", prefix, type);

	if (n < 0 || (size_t)n >= len)
		return err_set("job '%s': log file name '%s_%s...' too long", spec->name,
			       prefix, type);
	/* under mpirun every rank writes its own logs: their names say whose */
	if (ranks_active() && !ranks_names_own(prefix))
		return err_set("job '%s': option '%s': under mpirun every rank would write '%s': "
			       "name the rank in it (%%r, or %%h and %%l)", spec->name,
			       option_of[kind], out);
	if (ranks_names_rank(out)) {
		char name[JOB_LOG_NAME_MAX + 64];

		snprintf(name, sizeof(name), "%s", out);
		return ranks_expand(name, out, len);
	}
	return 0;
}


static int open_buf(struct run_logs *logs, const struct job_spec *spec,
		    enum job_log_kind kind, const char *type, unsigned number,
		    struct fio_log_buf *b)
{
	struct fio_log_cols cols = {
		.offset = spec->output.log_offset, .prio_hex = spec->output.log_prio,
	};
	struct fio_log_file *file;
	char path[JOB_LOG_NAME_MAX + 64];

	if (loop_log_path(spec, kind, type, number, path, sizeof(path)) ||
	    fio_log_files_get(&logs->files, option_of[kind], path, &file))
		return -1;
	return fio_log_buf_init(b, file, cols);
}

static void free_clone(struct loop_log *lg)
{
	if (!lg)
		return;
	fio_log_buf_free(&lg->bw_buf);
	fio_log_buf_free(&lg->iops_buf);
	fio_log_buf_free(&lg->hist_buf);
	for (int k = 0; k < LAT_KINDS; k++)
		fio_log_buf_free(&lg->lat_buf[k]);
	free(lg);
}

static int open_clone(struct run_logs *logs, struct worker *w, unsigned number,
		      struct loop_log **out)
{
	static const char *const lat_type[LAT_KINDS] = { "slat", "clat", "lat" };
	const struct job_spec *s = w->spec;
	const struct job_output *o = &s->output;
	struct loop_log *lg = calloc(1, sizeof(*lg));
	int rc = 0;

	if (!lg)
		return err_set("out of memory");
	lg->o = o;
	lg->dirs = w->result.dir;
	lg->bw = o->log[JOB_LOG_BW];
	lg->iops = o->log[JOB_LOG_IOPS];
	lg->lat = o->log[JOB_LOG_LAT];
	lg->hist = o->log[JOB_LOG_HIST];
	if (lg->lat)   /* fio's order: lat, slat, clat */
		for (int k = LAT_KINDS - 1; k >= 0 && !rc; k--)
			rc = open_buf(logs, s, JOB_LOG_LAT, lat_type[k], number, &lg->lat_buf[k]);
	if (!rc && lg->hist)
		rc = open_buf(logs, s, JOB_LOG_HIST, "clat_hist", number, &lg->hist_buf);
	if (!rc && lg->bw)
		rc = open_buf(logs, s, JOB_LOG_BW, "bw", number, &lg->bw_buf);
	if (!rc && lg->iops)
		rc = open_buf(logs, s, JOB_LOG_IOPS, "iops", number, &lg->iops_buf);
	if (rc) {
		free_clone(lg);
		return err_prefix("job '%s'", s->name);
	}
	*out = lg;
	return 0;
}

int run_logs_open(struct run_logs *logs, struct worker *workers, unsigned nr)
{
	bool any = false;

	memset(logs, 0, sizeof(*logs));
	for (unsigned k = 0; k < nr; k++)
		any = any || job_output_logs(&workers[k].spec->output);
	if (!any)
		return 0;
	logs->clones = calloc(nr, sizeof(*logs->clones));
	if (!logs->clones)
		return err_set("out of memory");
	logs->nr = nr;
	for (unsigned k = 0; k < nr; k++) {
		if (!job_output_logs(&workers[k].spec->output))
			continue;
		/* fio numbers every job clone of the run from 1 */
		if (open_clone(logs, &workers[k], k + 1, &logs->clones[k]))
			return -1;
		workers[k].log = logs->clones[k];
	}
	return 0;
}

int run_logs_close(struct run_logs *logs)
{
	for (unsigned k = 0; k < logs->nr; k++)
		free_clone(logs->clones[k]);
	free(logs->clones);
	logs->clones = NULL;
	logs->nr = 0;
	return fio_log_files_close(&logs->files);
}

/* A window's entry: its mean (rounded, as fio adds 0.5) or its maximum. */
static int64_t window_value(const struct loop_log *lg, const struct avg_window *w)
{
	if (lg->o->log_max_value)
		return (int64_t)w->max;
	return (int64_t)((double)w->sum / (double)w->samples + 0.5);
}

/* One latency sample into a window of log_avg_msec (fio's add_log_sample
 * for the latency logs): the entry is due at the first sample N ms or more
 * after the window began, and covers that sample too. */
static void lat_avg_add(struct loop_log *lg, int kind, unsigned dir, uint64_t value,
			uint64_t t_ms)
{
	struct avg_window *w = &lg->lat_win[kind][dir];
	uint64_t avg = lg->o->log_avg_msec;

	w->samples++;
	w->sum += value;
	if (value > w->max)
		w->max = value;
	if (t_ms < w->last_ms || t_ms - w->last_ms < avg)
		return;
	fio_log_entry(&lg->lat_buf[kind], t_ms, window_value(lg, w), dir, 0, 0, 0);
	w->samples = w->sum = w->max = 0;
	w->last_ms = t_ms - t_ms % avg;
}

/* fio's add_clat_sample for the hist log: when the direction's window has
 * run log_hist_msec, the counts since the last entry. */
static void hist_window_add(struct loop_log *lg, unsigned dir, uint64_t bytes, uint64_t t_ms)
{
	struct hist_window *w = &lg->hist_win[dir];
	const uint64_t *now = lg->dirs[dir].clat.hist.bucket;
	uint64_t window, top = 0;

	if (!w->last_ms)
		w->last_ms = t_ms;
	if (t_ms < w->last_ms)
		return;
	window = t_ms - w->last_ms;
	if (window < lg->o->log_hist_msec)
		return;
	/* fio's last bin takes every larger value */
	for (unsigned i = FIO_LOG_HIST_BINS - 1; i < HIST_BUCKETS; i++)
		top += now[i];
	for (unsigned i = 0; i < FIO_LOG_HIST_BINS; i++) {
		uint64_t count = i < FIO_LOG_HIST_BINS - 1 ? now[i] : top;

		lg->bins[i] = count - w->prev[i];
		w->prev[i] = count;
	}
	fio_log_hist_entry(&lg->hist_buf, t_ms, dir, bytes, lg->bins,
			   lg->o->log_hist_coarseness);
	w->last_ms = t_ms - (window - lg->o->log_hist_msec);
}

void loop_log_without_slat(struct loop_log *lg)
{
	lg->no_slat = true;
}

void loop_log_io(struct loop_log *lg, unsigned dir, uint64_t offset, uint64_t bytes,
		 uint64_t slat_ns, uint64_t clat_ns, uint64_t lat_ns, uint64_t t_ns)
{
	const uint64_t lat[LAT_KINDS] = { slat_ns, clat_ns, lat_ns };
	uint64_t t_ms = t_ns / NS_PER_MS;

	if (lg->lat)
		for (int k = lg->no_slat ? 1 : 0; k < LAT_KINDS; k++) {
			if (lg->o->log_avg_msec)
				lat_avg_add(lg, k, dir, lat[k], t_ms);
			else
				fio_log_entry(&lg->lat_buf[k], t_ms, (int64_t)lat[k], dir, bytes,
					      offset, io_prio());
		}
	if (!lg->o->log_avg_msec) {
		if (lg->bw)   /* fio's add_bw_sample: bytes * 10^6 / clat ns */
			fio_log_entry(&lg->bw_buf, t_ms, clat_ns ?
				      (int64_t)(bytes * 1000000ull / clat_ns) : 0,
				      dir, bytes, offset, io_prio());
		if (lg->iops)
			fio_log_entry(&lg->iops_buf, t_ms, 1, dir, bytes, offset, io_prio());
	}
	if (lg->hist && lg->o->log_hist_msec)
		hist_window_add(lg, dir, bytes, t_ms);
}

void loop_log_rates(struct loop_log *lg, const struct rates_taken *taken, uint64_t t_ns)
{
	uint64_t t_ms = t_ns / NS_PER_MS;

	if (!lg->o->log_avg_msec)
		return;      /* per-I/O logs: loop_log_io wrote them */
	for (unsigned d = 0; d < DIR_ALL; d++) {
		if (lg->bw && taken->bw[d] >= 0)
			fio_log_entry(&lg->bw_buf, t_ms, taken->bw[d], d, 0, 0, 0);
		if (lg->iops && taken->iops[d] >= 0)
			fio_log_entry(&lg->iops_buf, t_ms, taken->iops[d], d, 0, 0, 0);
	}
}

void loop_log_finish(struct loop_log *lg, uint64_t t_ns)
{
	uint64_t t_ms = t_ns / NS_PER_MS;

	if (lg->lat && lg->o->log_avg_msec)
		for (int k = 0; k < LAT_KINDS; k++)
			for (unsigned d = 0; d < DIR_ALL; d++) {
				struct avg_window *w = &lg->lat_win[k][d];

				if (!w->samples)
					continue;
				fio_log_entry(&lg->lat_buf[k], t_ms, window_value(lg, w), d, 0, 0, 0);
				w->samples = w->sum = w->max = 0;
			}
	fio_log_buf_flush(&lg->bw_buf);
	fio_log_buf_flush(&lg->iops_buf);
	fio_log_buf_flush(&lg->hist_buf);
	for (int k = 0; k < LAT_KINDS; k++)
		fio_log_buf_flush(&lg->lat_buf[k]);
}
