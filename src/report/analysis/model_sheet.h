/* model_sheet.h - the spec sheet of a drive measured on a model, read at
 * report time: the [drive] and [rated] sections of the model file its run
 * ran on (spec_parse skips [model]). Read when the report is drawn, not
 * stored with the run: the sheet is the model file's as it is now, and a
 * file that is gone is a warning line, never a failed report. */
#ifndef DRIVEBENCH_REPORT_MODEL_SHEET_H
#define DRIVEBENCH_REPORT_MODEL_SHEET_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

/* The model file a run ran on: from its target ("vssd:FILE[@SCALE]", a
 * job file's "vssd\:FILE" too), else from the first of its results whose
 * drive snapshot is a model's (a job on ioengine=vssd without filename=).
 * A relative FILE is relative to where the report runs. false ("") when
 * the run was not on a model. */
bool model_sheet_file(const struct stored_run *run, const struct result_record *recs,
		      unsigned nr, char *file, size_t len);

/* The run's sheet: *text the model file's text (malloc'd) and a note
 * naming the file. When the run was on a model whose file cannot be read
 * or parsed now: *text NULL and a warning naming the run and why. Not on a
 * model: *text NULL, note and warning "". */
void model_sheet_load(const struct stored_run *run, const struct result_record *recs,
		      unsigned nr, char **text, char *note, size_t note_len,
		      char *warning, size_t warning_len);

#endif
