/* job_list.h - the jobs of one run, from a fio job file or fio-style
 * command-line options, with --set overrides applied. */
#ifndef DRIVEBENCH_JOB_LIST_H
#define DRIVEBENCH_JOB_LIST_H

#include "workload/job_spec.h"

struct job_list {
	struct job_spec *jobs;   /* in file order; numjobs not yet expanded */
	unsigned nr, cap;
};

/* Parses a fio job file: [global] and job sections, ';' and '#' comments,
 * "include FILE" (relative to the including file), ${VAR} from the
 * environment, stonewall / new_group. Errors name "file:line: ...". */
int jobfile_load(const char *path, struct job_list *out);

/* Parses fio-style options "--key=value" / "--flag": options before the
 * first --name are global, each --name starts a job. Errors name the
 * option. argv holds only job options (the command layer strips its own). */
int cmdline_jobs(int argc, char *const argv[], struct job_list *out);

/* Applies KEY=VALUE ("--set") to every job. */
int job_list_set_all(struct job_list *list, const char *key_value);

void job_list_free(struct job_list *list);

/* Appends a copy of spec (growing the array); 0, or -1 when out of memory.
 * For every producer of jobs (job files, command line, suites). */
int job_list_append(struct job_list *list, const struct job_spec *spec);

#endif
