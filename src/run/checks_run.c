/* checks_run.c - sprandom around a clone's loop: the plan made at setup
 * (job/sprandom_job.c) drives the random offsets, is kept with the
 * result for the outputs, and sizes the measured part. */
#include "run/checks_run.h"

#include "measure/check_results.h"
#include "util/error.h"

int checks_worker_setup(struct worker *w)
{
	const struct job_spec *s = w->spec;
	struct check_results *c;
	struct sprandom_report *plan;
	struct spr_gen *gen;

	if (!s->checks.sprandom)
		return 0;
	if (!(c = check_results_of(&w->result.checks)))
		return err_set("job '%s': out of memory", s->name);
	if (spr_gen_create(&gen, s, w->range_len / w->align, w->align,
			   job_seed(s, w->clone, RNG_STREAM_OFFSETS), &plan))
		return err_prefix("job '%s'", s->name);
	w->offsets.kind = OFFSET_SPRANDOM;
	w->offsets.spr = gen;
	c->sprandom = plan;
	return 0;
}

void checks_worker_teardown(struct worker *w)
{
	if (w->offsets.kind != OFFSET_SPRANDOM)
		return;
	spr_gen_free(w->offsets.spr);
	w->offsets.spr = NULL;
}

uint64_t checks_bytes_target(const struct worker *w, uint64_t fallback)
{
	const struct check_results *c = w->result.checks;

	if (w->offsets.kind == OFFSET_SPRANDOM && c && c->sprandom)
		return c->sprandom->writes * c->sprandom->block_bytes;
	return fallback;
}
