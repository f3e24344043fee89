/* record_kind.c - what a stored result is (see the header). */
#include "report/analysis/record_kind.h"

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

bool record_checkpoint(const struct result_record *rec, unsigned *pass, unsigned *index)
{
	if (!rec->has_pass || strncmp(rec->step_kind, "checkpoint", strlen("checkpoint")))
		return false;
	*pass = rec->pass;
	*index = rec->pass_index;
	return true;
}

static bool copy_string(const cJSON *opts, const char *key, char *out, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(opts, key);

	if (!cJSON_IsString(v))
		return false;
	snprintf(out, len, "%s", v->valuestring);
	return true;
}

bool record_gds(const struct result_record *rec, char *xfer, size_t xfer_len,
		char *mode, size_t mode_len)
{
	cJSON *opts = rec->options_json ? cJSON_Parse(rec->options_json) : NULL;
	bool is_gds = copy_string(opts, "gds_xfer", xfer, xfer_len);

	if (is_gds && !copy_string(opts, "gds_mode", mode, mode_len))
		snprintf(mode, mode_len, "%s", "");
	cJSON_Delete(opts);
	return is_gds;
}
