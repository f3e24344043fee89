/* suite_report.c - `suite --report FILE` (see the header). The page is
 * drawn by review_page.c, as `report` draws it, from a read-only
 * connection to the suite's database between its steps (review_file.c). */
#include "cmd/suite_report.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd/review_file.h"
#include "util/error.h"
#include "util/units.h"

int suite_report_check(const char *path, unsigned nr)
{
	if (nr > REVIEW_FILE_MAX_RUNS)
		return err_set("--report: %u targets, one page takes at most %u", nr,
			       REVIEW_FILE_MAX_RUNS);
	return review_file_check("--report", path);
}

int suite_report_init(struct suite_report *r, const char *path, const char *db_path,
		      const char *const *targets, unsigned nr)
{
	*r = (struct suite_report){ path, db_path, targets, nr, calloc(nr, sizeof(*r->last)) };
	return r->last ? 0 : err_set("out of memory");
}

void suite_report_free(struct suite_report *r)
{
	free(r->last);
	r->last = NULL;
}

/* The known runs, oldest first (as `report` with no selection orders a
 * database of only these runs; targets begin in no set order). */
unsigned suite_report_runs(const struct suite_report *r, int64_t *ids)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nr; i++) {
		unsigned at = n++;

		if (!r->last[i].run_id) {
			n--;
			continue;
		}
		for (; at > 0 && ids[at - 1] > r->last[i].run_id; at--)
			ids[at] = ids[at - 1];
		ids[at] = r->last[i].run_id;
	}
	return n;
}

static void eta_text(double eta_s, char *buf, size_t len)
{
	if (eta_s >= 0)
		units_format_clock(eta_s, buf, len);
	else
		snprintf(buf, len, "unknown");
}

/* "in progress: step 2 of 14 done (next: NAME), ETA 1:00:00" (next: the
 * step after, NULL after the last), or for several targets "in progress:
 * A step 2 of 14 done, B step 1 of 14 done; ETA 1:00:00" (the longest's,
 * unknown when one's is), then when and how. */
static void progress_text(const struct suite_report *r, const char *next, char *buf,
			  size_t len)
{
	char eta[32], stamp[40] = "";
	time_t now = time(NULL);
	size_t used;
	struct tm tm;

	if (gmtime_r(&now, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%d %H:%M:%S UTC", &tm);
	if (r->nr == 1) {
		const struct suite_step_done *d = &r->last[0];

		eta_text(d->eta_s, eta, sizeof(eta));
		used = (size_t)snprintf(buf, len, "in progress: step %u of %u done%s%s%s, ETA %s",
					d->done, d->nr, next ? " (next: " : "", next ? next : "",
					next ? ")" : "", eta);
	} else {
		double longest = 0;
		bool first = true;

		used = (size_t)snprintf(buf, len, "in progress:");
		for (unsigned i = 0; i < r->nr && used < len; i++) {
			const struct suite_step_done *d = &r->last[i];

			if (!d->run_id)
				continue;
			used += (size_t)snprintf(buf + used, len - used, "%s %s step %u of %u done",
						 first ? "" : ",", r->targets[i], d->done, d->nr);
			first = false;
			if (longest >= 0)
				longest = d->eta_s < 0 ? -1 : d->eta_s > longest ? d->eta_s : longest;
		}
		eta_text(longest, eta, sizeof(eta));
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "; ETA %s", eta);
	}
	if (used < len)
		snprintf(buf + used, len - used, "; written %s, rewritten after every step, "
			 "reloads every %u s", stamp, SUITE_REPORT_REFRESH_S);
}

void suite_report_target_step(struct suite_report *r, unsigned i,
			      const struct suite_step_done *d)
{
	int64_t ids[REVIEW_FILE_MAX_RUNS];
	char text[4096];
	unsigned n;

	r->last[i] = *d;
	r->last[i].next = NULL;   /* the caller's, used now only */
	progress_text(r, d->next, text, sizeof(text));
	n = suite_report_runs(r, ids);
	if (review_file_write("--report", r->path, r->db_path, ids, n, text,
			      SUITE_REPORT_REFRESH_S))
		fprintf(stderr, "drivebench suite: warning: --report %s not written after step "
			"%u of %u%s%s: %s; the suite goes on (its results are in %s)\n", r->path,
			d->done, d->nr, r->nr > 1 ? " on " : "", r->nr > 1 ? r->targets[i] : "",
			err_msg(), r->db_path);
	err_clear();
}

void suite_report_step(void *arg, const struct suite_step_done *d)
{
	suite_report_target_step(arg, 0, d);
}

int suite_report_final(const struct suite_report *r, bool *written)
{
	int64_t ids[REVIEW_FILE_MAX_RUNS];
	unsigned n = suite_report_runs(r, ids);

	*written = n > 0;
	if (!n)
		return 0;
	return review_file_write("--report", r->path, r->db_path, ids, n, NULL, 0);
}
