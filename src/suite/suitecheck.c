/* suitecheck.c - the write gate of a whole suite on its target, before
 * anything is written: whether any selected step would write there (the
 * purge, the fills, a writing workload, checkpoints on the device), then
 * the safety gate once, and the output gate of a file target's checkpoint
 * directory; so a suite on several targets refuses them before any starts. */
#include <stdio.h>

#include "run/files.h"
#include "suite/suitectx.h"
#include "device/output_gate.h"
#include "util/error.h"

/* Whether the step writes to the target itself. */
static bool step_writes(const struct suite_step *st, const struct target *t)
{
	switch (st->kind) {
	case STEP_PURGE:
		return t->exists;   /* a missing target is not purged */
	case STEP_PRECONDITION:
		return true;
	case STEP_CHECKPOINT:
		return st->checkpoint_fs[0] || t->is_block || t->is_model;
	case STEP_IDLE:
		return false;
	default:
		/* a reader of an existing target needs no consent; a missing
		 * one is created and laid out (the runner's rule) */
		return job_spec_writes(&st->spec) || st->spec.files.unlink || !t->exists;
	}
}

/* A file target's checkpoints are files in TARGET.checkpoints. */
static int check_checkpoint_dir(const char *target)
{
	char dir[JOB_PATH_MAX + 16];
	int n = snprintf(dir, sizeof(dir), "%s.checkpoints", target);

	if (n < 0 || (size_t)n >= sizeof(dir))
		return err_set("path too long: '%s.checkpoints'", target);
	return output_gate_check("checkpoint directory", dir, OUTPUT_DIRECTORY);
}

int suite_check_writes(const struct suite *s, const unsigned *selected, unsigned nr,
		       const struct suite_options *o, const struct target *t)
{
	struct run_options opt = {
		.destroy_ids = o->destroy_ids,
		.nr_destroy_ids = o->nr_destroy_ids,
	};
	bool writes = false;

	for (unsigned i = 0; i < nr; i++) {
		const struct suite_step *st = &s->steps[selected[i]];

		if (step_writes(st, t))
			writes = true;
		else if (st->kind == STEP_CHECKPOINT && check_checkpoint_dir(o->target))
			return err_prefix("step '%s'", st->name);
	}
	return writes ? check_path_consent(NULL, o->target, &opt) : 0;
}
