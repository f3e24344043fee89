/* check_results.c - the steady-state report and sprandom plan a job
 * result owns: allocation, deep copy and release. */
#include "measure/check_results.h"

#include <stdlib.h>

#include "util/error.h"

struct check_results *check_results_of(struct check_results **slot)
{
	if (!*slot)
		*slot = calloc(1, sizeof(**slot));
	return *slot;
}

void check_results_free(struct check_results *c)
{
	if (!c)
		return;
	steady_report_free(c->steady);
	free(c->steady);
	sprandom_report_free(c->sprandom);
	free(c);
}

int check_results_dup(struct check_results **dst, const struct check_results *src)
{
	struct check_results *c;

	*dst = NULL;
	if (!src)
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return err_set("out of memory");
	if (steady_report_dup(&c->steady, src->steady) ||
	    sprandom_report_dup(&c->sprandom, src->sprandom)) {
		check_results_free(c);
		return -1;
	}
	*dst = c;
	return 0;
}
