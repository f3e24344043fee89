/* memory_check.c - the runner's memory checks, made before anything is
 * allocated: the run's results (series and histograms, kept to its end)
 * and each phase's I/O buffers, file sets and verify maps, refused with
 * the arithmetic rather than dying of OOM half-way. */
#include "run/memory_check.h"

#include <stdio.h>
#include <unistd.h>

#include "run/files.h"
#include "run/runner.h"
#include "run/worker.h"
#include "job/options.h"
#include "util/error.h"
#include "util/units.h"
#include "verify/verify.h"

uint64_t run_default_buffer_limit(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0)
		return 1ull << 30;
	return (uint64_t)pages * (uint64_t)page / 4;
}

static void format_bytes(uint64_t b, char *out, size_t len)
{
	units_format_bytes(b, UNITS_IEC, 0, out, len);
}

/* What the run keeps until its end: every clone's result (counters, six
 * latency histograms) and series. Summed over the whole run, since results
 * outlive their phase. */
uint64_t run_results_bytes(const struct job_list *jobs)
{
	uint64_t total = 0;

	for (unsigned j = 0; j < jobs->nr; j++)
		total += worker_result_bytes(&jobs->jobs[j]) * jobs->jobs[j].numjobs;
	return total;
}

/* The job whose results weigh most, for the message. */
static const struct job_spec *heaviest_results(const struct job_list *jobs)
{
	const struct job_spec *worst = &jobs->jobs[0];

	for (unsigned j = 1; j < jobs->nr; j++)
		if (worker_result_bytes(&jobs->jobs[j]) * jobs->jobs[j].numjobs >
		    worker_result_bytes(worst) * worst->numjobs)
			worst = &jobs->jobs[j];
	return worst;
}

/* Checked before the workers are allocated: the series and histograms of
 * the whole run, refused with the arithmetic (series_interval=1ns used to
 * grow until the kernel killed the run). */
int run_check_result_memory(const struct job_list *jobs, uint64_t limit)
{
	uint64_t total = run_results_bytes(jobs);
	const struct job_spec *s;
	char series[32], per[32], want[32], have[32], rest[32], how[160];
	char runtime[32], interval[32];
	uint64_t points;

	if (total <= limit || !jobs->nr)
		return 0;
	s = heaviest_results(jobs);
	points = worker_series_points(s);
	format_bytes(points * sizeof(struct series_point), series, sizeof(series));
	format_bytes(sizeof(struct worker), rest, sizeof(rest));
	format_bytes(worker_result_bytes(s), per, sizeof(per));
	format_bytes(total, want, sizeof(want));
	format_bytes(limit, have, sizeof(have));
	if (s->runtime_ns)
		snprintf(how, sizeof(how), " (runtime %s / series_interval %s + 2%s)",
			 format_time_ns(s->runtime_ns, runtime, sizeof(runtime)),
			 format_time_ns(s->series_interval_ns, interval, sizeof(interval)),
			 points == SERIES_POINTS_MAX ? ", at most 2^28" : "");
	else
		snprintf(how, sizeof(how), " (a job without a runtime)");
	return err_set("job '%s'%s: the run's series and histograms need %s, over the limit of %s (--max-buffer-mem): %u clone%s x (%llu samples%s x %zu bytes = %s, plus %s of counters and histograms = %s); raise series_interval, shorten runtime or lower numjobs",
		       s->name, jobs->nr > 1 ? " (of the run's jobs, the one that needs most)" : "",
		       want, have, s->numjobs, s->numjobs == 1 ? "" : "s",
		       (unsigned long long)points, how, sizeof(struct series_point), series,
		       rest, per);
}

/* The memory check happens before anything is allocated, per phase (jobs
 * that run at the same time), so a job that cannot fit is refused with the
 * arithmetic rather than dying of OOM half-way. The run's results (series,
 * histograms) count in every phase: they are kept to the end. */
int run_check_buffer_memory(const struct job_list *jobs, unsigned first,
			     unsigned last, uint64_t limit, const uint64_t *verify_bytes,
			       uint64_t results)
{
	uint64_t total = 0;
	char want[32], have[32], kept[32];

	for (unsigned j = first; j < last; j++)
		total += (worker_buffer_bytes(&jobs->jobs[j]) +
			  fileset_memory_bytes(&jobs->jobs[j])) * jobs->jobs[j].numjobs +
			 verify_bytes[j];
	if (total <= limit && results <= limit - total)
		return 0;
	format_bytes(total, want, sizeof(want));
	format_bytes(limit, have, sizeof(have));
	format_bytes(results, kept, sizeof(kept));
	if (last - first == 1) {
		const struct job_spec *s = &jobs->jobs[first];
		uint64_t per_io = worker_buffer_bytes(s) / s->iodepth;

		if (verify_bytes[first]) {
			char buffers[32], map[32];

			format_bytes(worker_buffer_bytes(s) * s->numjobs, buffers, sizeof(buffers));
			format_bytes(verify_bytes[first], map, sizeof(map));
			return err_set("job '%s': I/O buffers (%u jobs x iodepth %u x %llu bytes = %s) and the verify map (4 bytes per %llu-byte unit written, plus verify_backlog: %s) need %s, plus %s of the run's series and histograms, over the limit of %s (--max-buffer-mem); lower size, numjobs or iodepth, or raise the verify unit (verify_interval)",
				       s->name, s->numjobs, s->iodepth,
				       (unsigned long long)per_io, buffers,
				       (unsigned long long)verify_unit(s), map, want, kept, have);
		}

		return err_set("job '%s': I/O buffers need %u jobs x iodepth %u x %llu bytes = %s, plus %s of the run's series and histograms, over the limit of %s (--max-buffer-mem); lower numjobs, iodepth or chunk_size",
			       s->name, s->numjobs, s->iodepth,
			       (unsigned long long)per_io, want, kept, have);
	}
	return err_set("jobs %u..%u running together need %s of I/O buffers, plus %s of the run's series and histograms, over the limit of %s (--max-buffer-mem)",
		       first + 1, last, want, kept, have);
}
