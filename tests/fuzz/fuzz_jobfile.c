/* fuzz_jobfile.c - libFuzzer target for the fio job-file parser
 * (jobfile_load): sections, comments, ${VAR}, include, every option value
 * and job_spec_validate. The input becomes job.fio in a scratch directory
 * that also holds files to include; see fuzz_common.h for the path rule. */
#include "fuzz_common.h"

#include "job/job_list.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	static const char inc[] = "[global]\nbs=4k\niodepth=8\nrw=randread\n";
	static const char nested[] = "include inc.fio\n[nested]\nrw=read\nbs=128k\n";
	static const char split[] = "4k/50\n128k/50\n";

	(void)argc;
	(void)argv;
	fuzz_write_file("inc.fio", inc, sizeof(inc) - 1);
	fuzz_write_file("nested.fio", nested, sizeof(nested) - 1);
	fuzz_write_file("split.bssplit", split, sizeof(split) - 1);
	/* ${VAR}s with known values; any other name is unset (or the user's) */
	setenv("DB_BS", "4k", 1);
	setenv("DB_RW", "randread", 1);
	setenv("DB_QD", "32", 1);
	setenv("DB_SIZE", "1g", 1);
	setenv("DB_INC", "inc.fio", 1);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct job_list jobs = { 0 };
	char path[128];

	if (fuzz_names_outside_file(data, size))
		return 0;
	fuzz_write_file("job.fio", data, size);
	snprintf(path, sizeof(path), "%s/job.fio", fuzz_scratch_dir());
	if (jobfile_load(path, &jobs) == 0) {
		must_hold(jobs.nr >= 1, "jobfile_load made no job", "job.fio");
		for (unsigned i = 0; i < jobs.nr; i++)
			check_valid_job(&jobs.jobs[i], jobs.jobs[i].name);
		/* a loaded list takes --set overrides like the run command's */
		job_list_set_all(&jobs, "iodepth=4");
		job_list_set_all(&jobs, "bs");
	}
	job_list_free(&jobs);
	return 0;
}
