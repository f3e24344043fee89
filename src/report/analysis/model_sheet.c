/* model_sheet.c - a modelled drive's spec sheet from its model file (see
 * the header). */
#include "report/analysis/model_sheet.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/analysis/spec.h"
#include "device/model_target.h"
#include "util/error.h"

/* "vssd:FILE[@SCALE]" -> FILE; false when path is not a model's. */
static bool file_of(const char *path, char *file, size_t len)
{
	char target[1024], scale[64];
	size_t n = 0;

	/* a filename= in a job file escapes its colons: "vssd\:FILE" */
	for (const char *p = path; *p && n + 1 < sizeof(target); p++)
		if (!(p[0] == '\\' && p[1] == ':'))
			target[n++] = *p;
	target[n] = '\0';
	if (!model_target_is(target))
		return false;
	if (model_target_parse(target, file, len, scale, sizeof(scale))) {
		err_clear();   /* no file named: no sheet, the marking still shows */
		return false;
	}
	return true;
}

/* The model target a snapshot was taken of: its "path" when its kind is
 * "model". */
static bool snapshot_file(const char *json, char *file, size_t len)
{
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(j, "kind");
	const cJSON *path = cJSON_GetObjectItemCaseSensitive(j, "path");
	bool found = cJSON_IsString(kind) && !strcmp(kind->valuestring, "model") &&
		     cJSON_IsString(path) && file_of(path->valuestring, file, len);

	cJSON_Delete(j);
	return found;
}

bool model_sheet_file(const struct stored_run *run, const struct result_record *recs,
		      unsigned nr, char *file, size_t len)
{
	file[0] = '\0';
	if (file_of(run->target, file, len))
		return true;
	for (unsigned i = 0; i < nr; i++)
		if (snapshot_file(recs[i].drive_before, file, len))
			return true;
	file[0] = '\0';
	return false;
}

void model_sheet_load(const struct stored_run *run, const struct result_record *recs,
		      unsigned nr, char **text, char *note, size_t note_len,
		      char *warning, size_t warning_len)
{
	char file[1024];
	struct drive_spec spec;

	*text = NULL;
	note[0] = warning[0] = '\0';
	if (!model_sheet_file(run, recs, nr, file, sizeof(file)))
		return;
	if (spec_load(file, &spec, text) == 0) {
		snprintf(note, note_len, "spec sheet from the model file %s ([drive] and "
			 "[rated]; none is stored for the label)", file);
		return;
	}
	snprintf(warning, warning_len, "no spec sheet: the model file of run %lld can no "
		 "longer be read (%s)", (long long)run->id, err_msg());
	err_clear();
}
