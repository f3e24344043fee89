/* verify_failures.c - the failures kept in a job result (see the header). */
#include "measure/verify_failures.h"

#include <stdlib.h>
#include <string.h>

#include "measure/stats.h"
#include "util/error.h"

/* Room for the whole limit at once (~70 KiB), allocated on the first
 * failure: a clean run allocates nothing. */
static int failure_room(struct job_result *r)
{
	if (r->verify_failures)
		return 0;
	r->verify_failures = malloc(VERIFY_FAILURES_KEPT * sizeof(*r->verify_failures));
	if (!r->verify_failures)
		return err_set("out of memory for verify failures");
	return 0;
}

int verify_result_add(struct job_result *r, const struct verify_failure *f)
{
	r->verify_failed += f->units ? f->units : 1;
	if (r->nr_verify_failures >= VERIFY_FAILURES_KEPT)
		return 0;
	if (failure_room(r))
		return -1;
	r->verify_failures[r->nr_verify_failures++] = *f;
	return 0;
}

int verify_result_copy(struct job_result *dst, const struct job_result *src)
{
	unsigned room, n;

	if (!src->nr_verify_failures || dst->nr_verify_failures >= VERIFY_FAILURES_KEPT)
		return 0;
	if (failure_room(dst))
		return -1;
	room = VERIFY_FAILURES_KEPT - dst->nr_verify_failures;
	n = src->nr_verify_failures < room ? src->nr_verify_failures : room;
	memcpy(dst->verify_failures + dst->nr_verify_failures, src->verify_failures,
	       n * sizeof(*src->verify_failures));
	dst->nr_verify_failures += n;
	return 0;
}

uint64_t verify_unlisted(uint64_t failed, const struct verify_failure *kept, unsigned nr)
{
	uint64_t listed = 0;

	for (unsigned i = 0; i < nr; i++)
		listed += kept[i].units ? kept[i].units : 1;
	return failed > listed ? failed - listed : 0;
}
