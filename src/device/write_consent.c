/* write_consent.c - the write gate as a job asks it: a target that a job
 * writes (or that unlink=1 deletes) must hold no data unless the user
 * named it with --destroy-data (safety.c decides; here the refusal is
 * worded), and under MPI the gate of every target of every rank, agreed
 * before any rank writes. */
#include "device/write_consent.h"

#include <stdio.h>
#include <unistd.h>

#include "device/model_target.h"
#include "device/safety.h"
#include "io/engine.h"
#include "ranks/ranks.h"
#include "util/error.h"

/* The safety gate: a job that writes may only touch a target that holds
 * no data, or one the user named with --destroy-data. */
int target_write_consent(const struct job_spec *s, const char *path,
			 const char *const *ids, unsigned nr_ids)
{
	/* reading an existing target needs no consent (unless unlink=1
	 * deletes it at the end); a missing one is created and laid out, so
	 * it passes the gate as a write does */
	if (!job_spec_writes(s) && !s->files.unlink && access(path, F_OK) == 0)
		return 0;
	return target_path_consent(s, path, ids, nr_ids);
}

int target_path_consent(const struct job_spec *s, const char *path,
			const char *const *ids, unsigned nr_ids)
{
	struct safety_verdict v;
	char text[1024];
	size_t used;
	unsigned i = 0;

	do {
		const char *id = i < nr_ids ? ids[i] : NULL;

		if (safety_check(path, id, &v))
			return -1;
		if (v.allowed)
			return 0;
	} while (++i < nr_ids);
	used = (size_t)snprintf(text, sizeof(text), "refusing to write to '%s':", path);
	for (unsigned r = 0; r < v.nr_reasons && used < sizeof(text); r++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "\n  - %s", v.reasons[r]);
	if (used < sizeof(text) && safety_consent_hint(&v)[0])
		used += (size_t)snprintf(text + used, sizeof(text) - used, "\n%s",
					 safety_consent_hint(&v));
	if (used < sizeof(text) && v.mounted && s && s->eng.allow_mounted_write)
		snprintf(text + used, sizeof(text) - used, "\nallow_mounted_write=1 does "
			 "not lift this: drivebench never writes to a mounted device");
	return err_refuse("%s", text);
}

bool target_has_file_set(const struct job_spec *spec, const struct engine_ops *ops)
{
	return ops && ((engine_flags(ops) & ENGINE_FILE_OPS) || job_files_many(spec) ||
		       spec->files.filesize_low);
}

/* The gate of every clone's target and of the files beside it, before
 * any is laid out (setup_clone checks each again as it prepares it). */
static int gate_every_target(const struct job_list *jobs, const char *const *ids, unsigned nr_ids)
{
	for (unsigned j = 0; j < jobs->nr; j++) {
		const struct job_spec *s = &jobs->jobs[j];
		const struct engine_ops *ops = job_engine(s);

		if (!ops)
			return err_prefix("job '%s'", s->name);
		for (unsigned c = 0; c < s->numjobs; c++) {
			struct side_file files[4];
			char path[JOB_PATH_MAX];
			int n = ops->side_files ? ops->side_files(s, c, files, 4) : 0;

			for (int i = 0; i < n; i++)
				if (files[i].kind != SIDE_FILE_OUTPUT &&
				    target_write_consent(s, files[i].path, ids, nr_ids))
					return err_prefix("job '%s'", s->name);
			if (job_spec_path(s, c, path, sizeof(path)))
				return err_prefix("job '%s'", s->name);
			if (model_target_is(path) || !engine_needs_fd(ops) || target_has_file_set(s, ops))
				continue;
			if (target_write_consent(s, path, ids, nr_ids))
				return err_prefix("job '%s'", s->name);
		}
	}
	return 0;
}

int target_gate_agreed(const struct job_list *jobs, const char *const *ids, unsigned nr_ids,
		       bool checked_here)
{
	return ranks_agree(checked_here &&
			   (!ranks_active() || gate_every_target(jobs, ids, nr_ids) == 0), NULL);
}
