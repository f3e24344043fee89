/* job_list.h - the jobs of one run, from a fio job file or fio-style
 * command-line options, with --set overrides applied. */
#ifndef DRIVEBENCH_JOB_LIST_H
#define DRIVEBENCH_JOB_LIST_H

#include "job/job_spec.h"

struct job_list {
	struct job_spec *jobs;   /* in file order; numjobs not yet expanded */
	unsigned nr, cap;
};

/* Parses a fio job file: [global] and job sections, ';' and '#' comments,
 * "include FILE" (relative to the including file), ${VAR} from the
 * environment in option lines (unset: empty), stonewall / new_group, and
 * checks every job (job_spec_validate). Errors name "file:line: ...". */
int jobfile_load(const char *path, struct job_list *out);

/* The same without the check, for a caller that applies overrides first
 * (--set runtime=1 completes a time_based job) and then calls
 * job_list_validate. sections[0..nr_sections) is fio's --section: only
 * those job sections (and [global]) are read; a name that matches no
 * section is an error. */
int jobfile_parse(const char *path, const char *const *sections,
		  unsigned nr_sections, struct job_list *out);

/* job_spec_validate on jobs[first..): the first error, prefixed with the
 * job file and line of the job's section when it came from one. */
int job_list_validate(struct job_list *jobs, unsigned first);

/* Parses fio-style options "--key=value" / "--flag": options before the
 * first --name are global, each --name starts a job. Errors name the
 * option. argv holds only job options (the command layer strips its own). */
int cmdline_jobs(int argc, char *const argv[], struct job_list *out);
/* The same without job_spec_validate (see jobfile_parse). */
int cmdline_parse(int argc, char *const argv[], struct job_list *out);

/* Applies KEY=VALUE ("--set") to every job. */
int job_list_set_all(struct job_list *list, const char *key_value);

void job_list_free(struct job_list *list);

/* Appends a copy of spec (growing the array); 0, or -1 when out of memory.
 * For every producer of jobs (job files, command line, suites). */
int job_list_append(struct job_list *list, const struct job_spec *spec);

#endif
