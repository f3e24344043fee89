/* suite_report.c - `suite --report FILE` (see the header). The page is
 * drawn by review_page.c, as `report` draws it, from a read-only
 * connection to the suite's database between its steps (review_file.c). */
#include "cmd/suite_report.h"

#include <stdio.h>
#include <time.h>

#include "cmd/review_file.h"
#include "util/error.h"
#include "util/units.h"

int suite_report_check(const char *path)
{
	return review_file_check("--report", path);
}

void suite_report_step(void *arg, const struct suite_step_done *d)
{
	const struct suite_report *r = arg;
	char text[512], eta[32] = "unknown", next[200] = "", stamp[40] = "";
	time_t now = time(NULL);
	struct tm tm;

	if (d->eta_s >= 0)
		units_format_clock(d->eta_s, eta, sizeof(eta));
	if (d->next)
		snprintf(next, sizeof(next), " (next: %s)", d->next);
	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S UTC", &tm);
	snprintf(text, sizeof(text), "in progress: step %u of %u done%s, ETA %s; written %s, "
		 "rewritten after every step, reloads every %u s", d->done, d->nr, next, eta,
		 stamp, SUITE_REPORT_REFRESH_S);
	if (review_file_write("--report", r->path, r->db_path, d->run_id, text,
			      SUITE_REPORT_REFRESH_S))
		fprintf(stderr, "drivebench suite: warning: --report %s not written after step "
			"%u of %u: %s; the suite goes on (its results are in %s)\n", r->path,
			d->done, d->nr, err_msg(), r->db_path);
	err_clear();
}

int suite_report_final(const struct suite_report *r, int64_t run_id)
{
	return review_file_write("--report", r->path, r->db_path, run_id, NULL, 0);
}
