/* run_live.c - what `drivebench run` shows while it runs (see the header). */
#include "cmd/run_live.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/run_command.h"
#include "ranks/ranks.h"
#include "util/clock.h"
#include "util/error.h"
#include "util/units.h"

int run_live_parse(const char *status_interval, const char *eta, uint64_t *status_ns,
		   int *eta_mode)
{
	*status_ns = 0;
	*eta_mode = RUN_ETA_AUTO;
	if (status_interval) {
		/* fio's --status-interval: a time, seconds by default */
		if (units_parse_duration(status_interval, 1000000000ull, status_ns))
			return err_set("--status-interval: '%s' is not a time (5, 500ms, 1m)",
				       status_interval);
		if (*status_ns < 1000000ull)
			return err_set("--status-interval: '%s' is under 1ms", status_interval);
	}
	if (!eta || !strcmp(eta, "auto"))
		return 0;
	if (!strcmp(eta, "always"))
		*eta_mode = RUN_ETA_ALWAYS;
	else if (!strcmp(eta, "never"))
		*eta_mode = RUN_ETA_NEVER;
	else
		return err_set("--eta: '%s' is not always, never or auto", eta);
	return 0;
}

/* fio's rate figures: "12.3MiB/s", "512KiB/s". */
static void rate_text(double bytes_per_s, char *out, size_t len)
{
	units_format_rate(bytes_per_s, UNITS_RATE_FIO_IEC, -3, out, len);
}

/* fio's ETA line: jobs running, the part done, the rates over the last
 * tick, the time left:
 *   Jobs: 1 (f=1): [R(1)][42.0%][r=123MiB/s][r=31.5k IOPS][eta 00m:07s] */
static void draw_eta(struct run_live *live, const struct run_status *st, uint64_t now)
{
	const struct run_output *o = st->live;
	uint64_t bytes[DIR_ALL] = { 0 }, ios[DIR_ALL] = { 0 };
	double secs = now > live->last_ns ? (double)(now - live->last_ns) / 1e9 : 0;
	char eta[48] = "--", rates[96] = "", iops[96] = "", text[32];
	static const char dir_char[DIR_ALL] = { 'r', 'w', 't' };

	for (unsigned i = 0; i < o->nr; i++)
		for (int d = 0; d < DIR_ALL; d++) {
			bytes[d] += o->results[i].dir[d].bytes;
			ios[d] += o->results[i].dir[d].ios;
		}
	for (int d = 0; d < DIR_ALL; d++) {
		/* a new phase starts its counts again: no rate from that tick */
		double db = secs > 0 && bytes[d] >= live->last_bytes[d] ?
			    (double)(bytes[d] - live->last_bytes[d]) / secs : 0;
		double di = secs > 0 && ios[d] >= live->last_ios[d] ?
			    (double)(ios[d] - live->last_ios[d]) / secs : 0;
		size_t n = strlen(rates), m = strlen(iops);

		if (!bytes[d] && d == DIR_TRIM)
			continue;
		rate_text(db, text, sizeof(text));
		snprintf(rates + n, sizeof(rates) - n, "%s%c=%s", n ? "," : "", dir_char[d], text);
		units_format_count(di, text, sizeof(text));
		snprintf(iops + m, sizeof(iops) - m, "%s%c=%s", m ? "," : "", dir_char[d], text);
		live->last_bytes[d] = bytes[d];
		live->last_ios[d] = ios[d];
	}
	live->last_ns = now;
	if (st->eta_ns != UINT64_MAX) {
		uint64_t s = (st->eta_ns + 999999999ull) / 1000000000ull;

		if (s >= 86400)
			snprintf(eta, sizeof(eta), "%llud:%02lluh:%02llum:%02llus",
				 (unsigned long long)(s / 86400), (unsigned long long)(s / 3600 % 24),
				 (unsigned long long)(s / 60 % 60), (unsigned long long)(s % 60));
		else if (s >= 3600)
			snprintf(eta, sizeof(eta), "%02lluh:%02llum:%02llus",
				 (unsigned long long)(s / 3600), (unsigned long long)(s / 60 % 60),
				 (unsigned long long)(s % 60));
		else
			snprintf(eta, sizeof(eta), "%02llum:%02llus", (unsigned long long)(s / 60),
				 (unsigned long long)(s % 60));
	}
	fprintf(stderr, "%sJobs: %u (f=%u): [%.1f%%][%s][%s IOPS][eta %s]%s",
		isatty(2) ? "\r\033[K" : "", st->running, st->running, st->fraction * 100.0,
		rates, iops, eta, isatty(2) ? "" : "\n");
	fflush(stderr);
	live->eta_drawn = isatty(2);
}

static void write_metrics(struct run_live *live, const struct job_result *entries,
			  unsigned nr, double progress, double eta_s, uint64_t now)
{
	struct metrics_context ctx = { .command = "run", .progress = progress, .eta_s = eta_s };

	/* the latest drive snapshot known: a finished phase's */
	for (unsigned i = 0; i < nr; i++)
		if (entries[i].drive_after) {
			ctx.drive = entries[i].drive_after;
			ctx.drive_delta = entries[i].drive_delta;
		}
	if (metrics_write(live->metrics_path, entries, nr, &ctx, &live->metrics, now) &&
	    !live->metrics_failed) {
		live->metrics_failed = true;   /* the run goes on; said once */
		fprintf(stderr, "drivebench: %s\n", err_msg());
	}
}

void run_live_final_metrics(struct run_live *live, const struct job_result *entries,
			    unsigned nr)
{
	if (live->metrics_path)
		write_metrics(live, entries, nr, 1.0, 0, clock_now_ns());
	metrics_state_free(&live->metrics);
}

static void on_status(void *arg, const struct run_status *st)
{
	struct run_live *live = arg;
	uint64_t now = st->elapsed_ns;
	struct job_result *entries = NULL;
	unsigned nr = 0;
	bool status, metrics;

	if (live->eta)
		draw_eta(live, st, now);
	status = live->status_ns && now >= live->next_status_ns;
	metrics = live->metrics_path && now >= live->next_metrics_ns;
	if (!status && !metrics)
		return;
	while (status && live->next_status_ns <= now)
		live->next_status_ns += live->status_ns;
	while (metrics && live->next_metrics_ns <= now)
		live->next_metrics_ns += live->metrics_ns;
	if (run_output_for_report(st->live, &entries, &nr)) {
		fprintf(stderr, "drivebench: status: %s\n", err_msg());
		return;
	}
	if (metrics)
		write_metrics(live, entries, nr, st->fraction,
			      st->eta_ns == UINT64_MAX ? -1 : (double)st->eta_ns / 1e9, clock_now_ns());
	if (status) {
		run_live_finish(live);
		if (run_command_print(*live->output, live->a, st->live, entries, nr, live->note,
				      live->started, NULL, NULL, 0))
			fprintf(stderr, "drivebench: status: %s\n", err_msg());
		fflush(*live->output);
	}
	for (unsigned i = 0; i < nr; i++)
		job_result_free(&entries[i]);
	free(entries);
}

void run_live_start(struct run_live *live, struct run_options *opt)
{
	const struct run_args *a = live->a;

	/* under mpirun rank 0 shows its own rank's status: the ranks'
	 * aggregate is known only at the end */
	bool shows = !ranks_active() || ranks_rank() == 0;

	live->status_ns = shows ? a->status_ns : 0;
	live->next_status_ns = a->status_ns;
	live->eta = shows && (a->eta_mode == RUN_ETA_ALWAYS ||
			      (a->eta_mode == RUN_ETA_AUTO && isatty(2)));
	live->metrics_path = a->metrics_file;
	live->metrics_ns = a->status_ns ? a->status_ns : RUN_METRICS_DEFAULT_NS;
	live->next_metrics_ns = live->metrics_ns;
	live->metrics.interval_ns = live->metrics_ns;
	if (live->metrics_path) {   /* under mpirun every other rank writes its own */
		live->metrics_note = (struct run_metrics_note){
			.path = live->metrics_path, .interval_ns = live->metrics_ns, .command = "run",
		};
		opt->metrics = &live->metrics_note;
	}
	if (!live->status_ns && !live->eta && !live->metrics_path)
		return;
	/* the ETA redraws every second; a status more often ticks faster */
	opt->status_tick_ns = live->eta ? 1000000000ull : UINT64_MAX;
	if (live->status_ns && live->status_ns < opt->status_tick_ns)
		opt->status_tick_ns = live->status_ns;
	if (live->metrics_path && live->metrics_ns < opt->status_tick_ns)
		opt->status_tick_ns = live->metrics_ns;
	opt->status = on_status;
	opt->status_arg = live;
}

void run_live_finish(struct run_live *live)
{
	if (live->eta_drawn)
		fprintf(stderr, "\r\033[K");
	live->eta_drawn = false;
}
