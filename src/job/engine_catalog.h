/* engine_catalog.h - what the job model knows of the engines: the options
 * each declares, and the checks a job must pass against its engine, the
 * fault wrapper and the verify layer. The engines live above the job model
 * (io/). As fio's engines register themselves when the program loads,
 * io/engine_check.c hands its catalog over from a constructor, so the
 * model parses "hipri=1" and checks "ioengine=cpuio needs cpuload="
 * without including io/. (The library is linked whole, see the Makefile,
 * so the registering object is always in the program.) */
#ifndef DRIVEBENCH_JOB_ENGINE_CATALOG_H
#define DRIVEBENCH_JOB_ENGINE_CATALOG_H

#include <stdbool.h>

struct engine_ops;
struct job_spec;
struct option_def;

struct engine_catalog {
	/* The options the i-th engine declares (NULL-terminated, NULL when
	 * none) and its name in *name; false past the last engine. */
	bool (*engine_options)(unsigned i, const char **name,
			       const struct option_def **options);
	/* Every check of the job against the layers above the model: verify,
	 * the fault wrapper's options, its engine's needs and options. 0 or
	 * -1 with err_msg. */
	int (*check_job)(const struct job_spec *spec);
	/* True when the job's engine changes its target whatever rw says
	 * (ENGINE_ALTERS: falloc's reads allocate). */
	bool (*alters_target)(const struct job_spec *spec);
	/* The engine a job's ioengine names, fault wrapper included (kept in
	 * job_spec.engine); NULL with err_msg when none. */
	const struct engine_ops *(*find_engine)(const char *name);
};

/* Called once by the io layer, before main. */
void engine_catalog_set(const struct engine_catalog *catalog);

/* The catalog; a program linked without the io layer stops with an
 * internal error (a build defect, never input). */
const struct engine_catalog *engine_catalog(void);

#endif
