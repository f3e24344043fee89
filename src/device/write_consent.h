/* write_consent.h - the write gate as jobs ask it (safety.h decides what
 * a path holds): one path of a job, and every target of a job list agreed
 * across the ranks of an MPI run. ids are the --destroy-data names. */
#ifndef DRIVEBENCH_DEVICE_WRITE_CONSENT_H
#define DRIVEBENCH_DEVICE_WRITE_CONSENT_H

#include <stdbool.h>

#include "job/job_list.h"

struct engine_ops;

/* For one path of a job: a job that only reads an existing file needs no
 * consent; otherwise as target_path_consent. 0, or -1 with err_msg
 * (err_refused() for a refusal listing every reason). */
int target_write_consent(const struct job_spec *s, const char *path,
			 const char *const *ids, unsigned nr_ids);
/* For a path whatever the job does (s may be NULL: a suite's target, a
 * file-ops engine that creates or deletes). */
int target_path_consent(const struct job_spec *s, const char *path,
			const char *const *ids, unsigned nr_ids);

/* Whether a clone of spec (run by ops) has a file set (several files,
 * filesize=, or a file-ops engine) rather than one target. */
bool target_has_file_set(const struct job_spec *spec, const struct engine_ops *ops);

/* The rank gate: checked_here is what this rank's own up-front checks
 * said; under MPI every clone's target and the files beside it are
 * checked too (setup checks each again as it prepares it), and every
 * rank learns whether all passed, so one refusal stops every rank before
 * any writes. 0 when all passed, -1 with err_msg naming the failing rank
 * (ranks_agree) otherwise. */
int target_gate_agreed(const struct job_list *jobs, const char *const *ids, unsigned nr_ids,
		       bool checked_here);

#endif
