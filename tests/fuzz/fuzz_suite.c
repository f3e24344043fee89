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
		for (unsigned i = 0; i < suite.nr_steps; i++)
			(void)step_kind_name(suite.steps[i].kind);
		suite_free(&suite);
	}
	return 0;
}
