/* suitelogs.c - a suite's fio log files (write_bw_log=NAME and the other
 * write_*_log options, which --set gives every step): each of a suite's
 * jobs writes its own, named NAME-JOB (JOB: the step and its point,
 * "sweep-qd4-j1", "steady-round3"), so no point overwrites the one before
 * it; before the run, a file name two of the suite's jobs would still
 * share (a point listed twice, a step named as another's point) is
 * refused, naming both. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite/suitectx.h"
#include "util/error.h"

static const char *const log_option[JOB_LOG_KINDS] = {
	"write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log",
};

/* NAME-JOB for each log the step names itself (a bare write_*_log is
 * named after the job already); -1 when it does not fit. */
static int name_logs(struct job_spec *spec, const struct job_spec *step)
{
	int rc = 0;

	for (int k = 0; k < JOB_LOG_KINDS; k++) {
		const char *base = step->output.log_name[k];
		char named[JOB_LOG_NAME_MAX];
		int n;

		if (!spec->output.log[k] || !base[0])
			continue;
		/* through a copy: step may be spec itself */
		n = snprintf(named, sizeof(named), "%s-%s", base, spec->name);
		if (n < 0 || n >= (int)sizeof(named))
			rc = -1;
		memcpy(spec->output.log_name[k], named, sizeof(named));
	}
	return rc;
}

void suite_name_logs(struct job_spec *spec, const struct job_spec *step)
{
	(void)name_logs(spec, step);   /* suite_check_logs refused what does not fit */
}

/* One log file prefix a job of the suite writes. */
struct log_use {
	char prefix[JOB_LOG_NAME_MAX];
	const char *option;
	char name[JOB_NAME_MAX];
};

struct log_uses {
	struct log_use *v;
	size_t nr, cap;
};

static int add_job(struct log_uses *u, const struct suite_step *st, const char *suffix)
{
	struct job_spec spec;

	if (!job_output_logs(&st->spec.output))
		return 0;
	spec.output = st->spec.output;
	snprintf(spec.name, sizeof(spec.name), "%.*s%s", SUITE_NAME_MAX, st->name, suffix);
	if (name_logs(&spec, &st->spec))
		return err_set("step '%s': the log name of job '%s' is longer than %d characters",
			       st->name, spec.name, JOB_LOG_NAME_MAX - 1);
	for (int k = 0; k < JOB_LOG_KINDS; k++) {
		struct log_use *e;

		if (!spec.output.log[k])
			continue;
		if (u->nr == u->cap) {
			size_t cap = u->cap ? u->cap * 2 : 64;
			struct log_use *grown = realloc(u->v, cap * sizeof(*grown));

			if (!grown)
				return err_set("out of memory");
			u->v = grown;
			u->cap = cap;
		}
		e = &u->v[u->nr++];
		snprintf(e->prefix, sizeof(e->prefix), "%s",
			 spec.output.log_name[k][0] ? spec.output.log_name[k] : spec.name);
		e->option = log_option[k];
		snprintf(e->name, sizeof(e->name), "%s", spec.name);
	}
	return 0;
}

/* Every job the step runs, named as it runs them (suitesweep.c,
 * suitesteady.c, suitesteps.c). */
static int add_step(struct log_uses *u, const struct suite_step *st)
{
	char suffix[96];
	int rc = 0;

	switch (st->kind) {
	case STEP_PURGE:
	case STEP_IDLE:
	case STEP_CHECKPOINT:   /* writes no fio logs */
		return 0;
	case STEP_PRECONDITION:
		if (st->precondition != PRECOND_SPRANDOM)
			return add_job(u, st, "");
		for (unsigned r = 0; r < (st->regions ? st->regions : 1) && !rc; r++) {
			snprintf(suffix, sizeof(suffix), "-r%u-fill", r);
			rc = add_job(u, st, suffix);
			snprintf(suffix, sizeof(suffix), "-r%u-overwrite", r);
			rc = rc ? rc : add_job(u, st, suffix);
		}
		return rc;
	case STEP_STEADY: {
		unsigned rounds = st->max_rounds ? st->max_rounds : 25;

		for (unsigned r = 0; r < rounds && !rc; r++)
			for (unsigned k = 0; k < suite_round_points(st) && !rc; k++) {
				suite_round_suffix(st, r, k, suffix, sizeof(suffix));
				rc = add_job(u, st, suffix);
			}
		return rc;
	}
	case STEP_MEASURE:
	case STEP_SWEEP: {
		unsigned np = st->nr_points ? st->nr_points : 1, reps = st->repeat ? st->repeat : 1;

		for (unsigned r = 0; r < reps && !rc; r++)
			for (unsigned p = 0; p < np && !rc; p++) {
				suite_sweep_suffix(st, st->nr_points ? &st->points[p] : NULL, r,
						   suffix, sizeof(suffix));
				rc = add_job(u, st, suffix);
			}
		return rc;
	}
	}
	return 0;
}

static int by_prefix(const void *a, const void *b)
{
	const struct log_use *x = a, *y = b;
	int c = strcmp(x->prefix, y->prefix);

	return c ? c : strcmp(x->option, y->option);
}

int suite_check_logs(const struct suite *s, const unsigned *selected, unsigned nr)
{
	struct log_uses u = { 0 };
	int rc = 0;

	for (unsigned i = 0; i < nr && !rc; i++)
		rc = add_step(&u, &s->steps[selected[i]]);
	if (!rc && u.nr > 1) {
		qsort(u.v, u.nr, sizeof(*u.v), by_prefix);
		for (size_t i = 1; i < u.nr && !rc; i++)
			if (!by_prefix(&u.v[i - 1], &u.v[i]))
				rc = err_set("%s: jobs '%s' and '%s' of the suite would write the same "
					     "log files ('%s_...'), the second overwriting the first: "
					     "give them different names", u.v[i].option,
					     u.v[i - 1].name, u.v[i].name, u.v[i].prefix);
	}
	free(u.v);
	return rc;
}
