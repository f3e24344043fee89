/* measured.h - what a drive's results were measured on, as the report says
 * it: the runs' stored drive models ("NAME (model, scale S)" for a modelled
 * drive, target/model_target.c writes it), split into name and scale, the
 * mark a modelled drive carries ("model, scale 1/1000") and the name it is
 * shown under in sections and legends, so a modelled result never passes
 * for a real drive's. */
#ifndef DRIVEBENCH_REPORT_MEASURED_H
#define DRIVEBENCH_REPORT_MEASURED_H

#include <stdbool.h>
#include <stddef.h>

/* A modelled drive's stored model: true with its name and scale; false
 * (name and scale "") for a real drive's model or "". */
bool measured_model_split(const char *drive_model, char *name, size_t name_len,
			  char *scale, size_t scale_len);

/* The mark of a drive measured on these drives: "model, scale 1/1000";
 * "model, scales 1/1000, 1/100" when its runs were on different scales;
 * "partly model, ..." when some ran on a real drive. "" (false) when none
 * is a model. */
bool measured_model_mark(const char *const *measured_on, unsigned nr, char *buf, size_t len);

/* The name a drive is shown under outside the Drives table: its label, and
 * its mark in parentheses when it is modelled ("x (model, scale 1/1000)").
 * The label is cut so that the mark always fits a 160-byte name. */
void measured_shown_label(const char *label, const char *const *measured_on, unsigned nr,
			  char *buf, size_t len);

#endif
