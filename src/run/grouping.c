/* grouping.c - arranges per-clone results into the entries fio would print:
 * each clone on its own, or one merged entry per reporting group when the
 * group's jobs ask for group_reporting. */
#include <stdlib.h>
#include <string.h>

#include "measure/check_results.h"
#include "run/runner.h"
#include "util/error.h"
#include "verify/verify.h"

static int copy_result(struct job_result *dst, const struct job_result *src)
{
	*dst = *src;
	memset(&dst->series, 0, sizeof(dst->series));
	dst->series.interval_ns = src->series.interval_ns;
	dst->drive_before = dst->drive_after = dst->drive_delta = NULL;
	dst->verify_failures = NULL;
	dst->nr_verify_failures = 0;
	dst->checks = NULL;
	memset(dst->prio_clat, 0, sizeof(dst->prio_clat));
	memset(dst->nr_prio_clat, 0, sizeof(dst->nr_prio_clat));
	if (job_result_copy_drive(dst, src) || verify_result_copy(dst, src) ||
	    check_results_dup(&dst->checks, src->checks) || prio_clat_merge(dst, src))
		return -1;
	return series_merge(&dst->series, &src->series);
}

int run_output_for_report(const struct run_output *out,
			  struct job_result **entries, unsigned *nr)
{
	struct job_result *list = calloc(out->nr ? out->nr : 1, sizeof(*list));
	unsigned n = 0;

	if (!list)
		return err_set("out of memory");
	for (unsigned i = 0; i < out->nr; i++) {
		const struct job_result *r = &out->results[i];
		bool grouped = r->spec && r->spec->group_reporting;
		struct job_result *into = NULL;

		for (unsigned e = 0; grouped && e < n; e++)
			if (list[e].groupid == r->groupid && list[e].spec &&
			    list[e].spec->group_reporting)
				into = &list[e];
		if (into) {
			if (job_result_merge(into, r))
				goto fail;
			continue;
		}
		if (copy_result(&list[n++], r))
			goto fail;
	}
	*entries = list;
	*nr = n;
	return 0;
fail:
	for (unsigned e = 0; e < n; e++)
		job_result_free(&list[e]);
	free(list);
	return -1;
}
