/* fuzz_suite.c - libFuzzer target for the suite parser (suite_load): the
 * [suite], [global] and step sections, step parameters (points, iodepths,
 * precondition, steady, checkpoint ...) and the fio options of each step.
 * The input becomes fuzz.suite in a scratch directory (fuzz_common.h). */
#include "fuzz_common.h"

#include "suite/suite.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char split[] = "4k/50\n128k/50\n";

	(void)argc;
	(void)argv;
	fuzz_write_file("split.bssplit", split, sizeof(split) - 1);
	setenv("DB_BS", "4k", 1);
	setenv("DB_RW", "randread", 1);
	setenv("DB_QD", "32", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct suite suite;
	char path[128];

	if (fuzz_names_outside_file(data, size))
		return 0;
	fuzz_write_file("fuzz.suite", data, size);
	snprintf(path, sizeof(path), "%s/fuzz.suite", fuzz_scratch_dir());
	if (suite_load(path, &suite) == 0) {
		/* what a loaded suite promises the planner and the runner */
		if (suite.nr_steps == 0 || !memchr(suite.name, '\0', sizeof(suite.name)) ||
		    !suite.name[0])
			abort();
		for (unsigned i = 0; i < suite.nr_steps; i++) {
			const struct suite_step *step = &suite.steps[i];

			check_valid_job(&step->spec, step->name);
			if (!strcmp(step_kind_name(step->kind), "unknown") ||
			    step->nr_points > SUITE_POINTS_MAX ||
			    !memchr(step->name, '\0', sizeof(step->name)))
				abort();
			/* a point is a job's iodepth and numjobs: their option limits */
			for (unsigned j = 0; j < step->nr_points; j++)
				if (step->points[j].iodepth < 1 || step->points[j].iodepth > 65536 ||
				    step->points[j].numjobs < 1 || step->points[j].numjobs > 4096)
					abort();
		}
		suite_free(&suite);
	}
	return 0;
}
