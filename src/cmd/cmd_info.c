/* cmd_info.c - `drivebench info TARGET [--json]`: a target's identity, NVMe
 * Identify and health data (a drive snapshot) and the safety verdict on
 * writing to it, as text or one JSON object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "device/model_target.h"
#include "device/safety.h"
#include "device/snapshot.h"
#include "util/error.h"
#include "util/text.h"

struct info_args {
	bool json;
	const char *target;
	const char *vssd_state;       /* --vssd-state FILE: a vssd: TARGET as saved there */
};

static int set_target(void *args, const char *v)
{
	struct info_args *a = args;

	if (a->target)
		return err_set("one TARGET only ('%s' and '%s')", a->target, v);
	a->target = v;
	return 0;
}

static const struct cmdopt info_options[] = {
	CMDOPT_FLAG("--json", 0, struct info_args, json,
		    "one JSON object instead of text (see docs/info.md)"),
	CMDOPT_STRING("--vssd-state", 0, struct info_args, vssd_state, "FILE",
		      "a vssd: TARGET as saved in FILE (vssd_state=,\n"
		      "docs/vssd.md): its counters as its last job left them"),
};

static const struct cmdopt_spec info_spec = {
	.command = "info",
	.synopsis = "info [--json] [--vssd-state FILE] TARGET",
	.about =
	"Shows what TARGET (a regular file or a block device) is: kind, size,\n"
	"block sizes, queue settings, model / serial / firmware, for NVMe the\n"
	"Identify data, the SMART / Health log and the OCP extended SMART log,\n"
	"and whether `drivebench run` may write to it. Facts the system does not\n"
	"provide show as \"not available\" (null in JSON). Nothing is written.\n",
	.options = info_options,
	.nr_options = CMDOPT_COUNT(info_options),
	.positional = set_target,
};

static cJSON *safety_json(int rc, const struct safety_verdict *v)
{
	cJSON *o, *reasons;
	const char *hint;

	if (rc < 0)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	if (!o)
		return NULL;
	cJSON_AddBoolToObject(o, "write_allowed", v->allowed);
	cJSON_AddStringToObject(o, "device_id", v->device_id);
	cJSON_AddBoolToObject(o, "mounted", v->mounted);
	reasons = cJSON_AddArrayToObject(o, "reasons");
	for (unsigned i = 0; reasons && i < v->nr_reasons; i++)
		cJSON_AddItemToArray(reasons, cJSON_CreateString(v->reasons[i]));
	hint = safety_consent_hint(v);
	if (hint[0])
		cJSON_AddStringToObject(o, "consent_hint", hint);
	else
		cJSON_AddNullToObject(o, "consent_hint");
	return o;
}

static int print_json(const struct drive_snapshot *s, int safety_rc,
		      const struct safety_verdict *v, const char *safety_error)
{
	cJSON *root = drive_snapshot_json(s), *safety;
	char *text;

	if (!root) {
		fprintf(stderr, "drivebench info: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	safety = safety_json(safety_rc, v);
	if (safety)
		cJSON_AddItemToObject(root, "safety", safety);
	if (safety_rc < 0)
		cJSON_AddItemToArray(cJSON_GetObjectItem(root, "notes"),
				     cJSON_CreateString(safety_error));
	text = cJSON_Print(root);
	cJSON_Delete(root);
	if (!text) {
		fprintf(stderr, "drivebench info: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	printf("%s\n", text);
	cJSON_free(text);
	return EXIT_OK;
}

static void print_safety(int rc, const struct safety_verdict *v, const char *error)
{
	const char *hint;

	if (rc < 0) {
		printf("%-28s not available (%s)\n", "write allowed:", error);
		return;
	}
	printf("%-28s %s\n", "write allowed:", v->allowed ? "yes" : "no");
	printf("%-28s %s\n", "device id:", v->device_id[0] ? v->device_id : "not available");
	for (unsigned i = 0; i < v->nr_reasons; i++)
		printf("  - %s\n", v->reasons[i]);
	hint = safety_consent_hint(v);
	if (hint[0])
		printf("  %s\n", hint);
}

/* --vssd-state: the modelled drive loaded from FILE, so its snapshot is
 * the saved drive's. Nothing is written, so the file must be there (a
 * missing one would show a fresh drive as if saved). */
static int open_saved(const char *target, const char *state)
{
	int fd;

	if (!model_target_is(target))
		return err_set("--vssd-state %s: TARGET '%s' is not a modelled drive "
			       "(vssd:FILE[@SCALE])", state, target);
	if ((fd = text_open_input(state, "vssd_state file")) < 0)
		return -1;
	close(fd);
	return model_target_open_state(target, state);
}

int cmd_info(int argc, char **argv)
{
	struct info_args args = { 0 };
	const char *target;
	bool json;
	struct drive_snapshot *s;
	struct safety_verdict verdict;
	char safety_error[256] = "";
	int safety_rc, rc;

	if (cmd_parse(&info_spec, argc, argv, &args, &rc))
		return rc;
	target = args.target;
	json = args.json;
	if (!target) {
		fprintf(stderr, "drivebench info: missing TARGET (see 'drivebench info --help')\n");
		return EXIT_BAD_INPUT;
	}

	if (args.vssd_state && open_saved(target, args.vssd_state)) {
		fprintf(stderr, "drivebench info: %s\n", err_msg());
		return EXIT_BAD_INPUT;
	}
	/* The snapshot is ~10 KB of fixed buffers; keep it off the stack. */
	s = calloc(1, sizeof(*s));
	if (!s) {
		fprintf(stderr, "drivebench info: out of memory\n");
		return EXIT_RUN_FAILED;
	}
	if (drive_snapshot_take(target, s) < 0) {
		fprintf(stderr, "drivebench info: %s\n", err_msg());
		free(s);
		return EXIT_BAD_INPUT;
	}
	memset(&verdict, 0, sizeof(verdict));
	safety_rc = safety_check(target, NULL, &verdict);
	if (safety_rc < 0)
		snprintf(safety_error, sizeof(safety_error), "safety check: %s", err_msg());

	if (json) {
		rc = print_json(s, safety_rc, &verdict, safety_error);
	} else {
		drive_snapshot_print(stdout, s);
		print_safety(safety_rc, &verdict, safety_error);
		rc = EXIT_OK;
	}
	free(s);
	return rc;
}
