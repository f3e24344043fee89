/* phase_plan.c - the arithmetic of a job list's stonewall phases: how
 * many clones and phases it has, and how long a phase (and all the
 * phases after one) can run, for barriers and the ETA. */
#include "run/phase_plan.h"

unsigned count_clones(const struct job_list *jobs)
{
	unsigned n = 0;

	for (unsigned j = 0; j < jobs->nr; j++)
		n += jobs->jobs[j].numjobs;
	return n;
}

/* The longest a phase of jobs [first, last) runs when every job has a
 * runtime: startdelay + ramp + runtime; 0 = not bounded (a size alone). */
uint64_t phase_bound_ns(const struct job_list *jobs, unsigned first, unsigned last)
{
	uint64_t bound = 0;

	for (unsigned q = first; q < last; q++) {
		const struct job_spec *s = &jobs->jobs[q];
		uint64_t delay = s->pacing.startdelay_max_ns > s->pacing.startdelay_ns ?
				 s->pacing.startdelay_max_ns : s->pacing.startdelay_ns;

		if (!s->runtime_ns)
			return 0;
		if (delay + s->ramp_ns + s->runtime_ns > bound)
			bound = delay + s->ramp_ns + s->runtime_ns;
	}
	return bound;
}

/* The time the phases from job first on take; UINT64_MAX when one of
 * them has no time bound. */
uint64_t later_phases_ns(const struct job_list *jobs, unsigned first)
{
	uint64_t total = 0;

	while (first < jobs->nr) {
		unsigned last = first + 1;
		uint64_t bound;

		while (last < jobs->nr && !jobs->jobs[last].stonewall)
			last++;
		bound = phase_bound_ns(jobs, first, last);
		if (!bound)
			return UINT64_MAX;
		total += bound;
		first = last;
	}
	return total;
}

unsigned count_phases(const struct job_list *jobs)
{
	unsigned n = 0;

	for (unsigned j = 0; j < jobs->nr; j++)
		n += j == 0 || jobs->jobs[j].stonewall;
	return n;
}
