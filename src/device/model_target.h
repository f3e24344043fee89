/* model_target.h - a modelled drive as a target: "vssd:FILE" or
 * "vssd:FILE@SCALE" (FILE a spec file with a [model] section, SCALE as
 * vssd_scale= takes it, 1/1000 by default). Every command that takes a
 * target takes one: its size is the scaled capacity, it holds no data a
 * user could lose, and a job aimed at it runs on ioengine=vssd
 * (docs/vssd.md). */
#ifndef DRIVEBENCH_MODEL_TARGET_H
#define DRIVEBENCH_MODEL_TARGET_H

#include <stdbool.h>
#include <stddef.h>

#include "job/job_spec.h"
#include "device/target.h"

#define MODEL_TARGET_PREFIX JOB_MODEL_TARGET_PREFIX

struct drive_snapshot;

/* Whether path names a modelled drive (starts with "vssd:"). */
bool model_target_is(const char *path);

/* Splits "vssd:FILE[@SCALE]": model (the file) and scale ("" when none is
 * given). -1 with err_msg naming the target when FILE is empty or either
 * part does not fit. */
int model_target_parse(const char *path, char *model, size_t model_len,
		       char *scale, size_t scale_len);

/* The target: exists, not a block device, size the scaled capacity,
 * logical block 512 and physical block the model's IU. -1 with err_msg
 * naming the file, line and key when the model cannot be read. */
int model_target_probe(const char *path, struct target *t);

/* The same drive whatever the path's spelling: "vssd:REALPATH@SCALE". */
void model_target_key(const char *path, char *key, size_t len);
/* The drive's identity for comparing targets: as model_target_key with the
 * scale as its value (vssd_scale_key), so @2g, @2G and @2048m are one. */
void model_target_identity(const char *path, char *key, size_t len);

/* Aims spec at the modelled drive: ioengine=vssd with its vssd_model and
 * vssd_scale, filename the target. An engine other than vssd that the
 * spec names is replaced: a model is reached through its engine only. */
int model_target_aim(struct job_spec *spec, const char *path);

/* Opens the modelled drive of path with state as its state file
 * (vssd_state=, io/vssd.h's vssd_drive_open_state): loaded from it now,
 * before any job, format or snapshot meets the drive, and saved there as a
 * job on ioengine=vssd saves it. state NULL or "": nothing to do. 0, or -1
 * with err_msg naming the file. */
int model_target_open_state(const char *path, const char *state);

/* Formats the modelled drive (io/vssd.h's vssd_drive_format). 0 / -1. */
int model_target_format(const char *path);

/* The model target a job on ioengine=vssd names with vssd_model= and
 * vssd_scale= ("vssd:FILE@SCALE" in name); false for any other job. */
bool model_target_of_job(const struct job_spec *spec, char *name, size_t len);

/* A job aimed at path: when path is a model, the job must be on
 * ioengine=vssd with the same model file and scale. 0, or -1 with err_msg. */
int model_target_check_job(const struct job_spec *spec, const char *path);

/* The drive's snapshot: identity from the model file (its name marked as
 * a model with its scale), health and OCP counters from the drive of this
 * process (io/vssd.h): host and NAND bytes, so WAF reads as on an NVMe
 * drive. -1 with err_msg when the model cannot be read. */
int model_target_snapshot(const char *path, struct drive_snapshot *s);

#endif
