/* cmdline.c - fio-style job options on the command line ("--key=value",
 * "--flag"; options before the first --name are global, each --name starts
 * a job), "--set KEY=VALUE" overrides applied to every job, and the
 * job_list container itself (append, free). */
#include "job/job_list.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/values.h"
#include "job/file_options.h"
#include "job/options.h"

int job_list_append(struct job_list *list, const struct job_spec *spec)
{
	uint64_t clones = spec->numjobs;

	if (list->nr >= JOB_SECTIONS_LIMIT)
		return err_set("more than %u jobs (fio's limit), job '%s' is one too many",
			       JOB_SECTIONS_LIMIT, spec->name);
	for (unsigned j = 0; j < list->nr; j++)
		clones += list->jobs[j].numjobs;
	if (clones > JOB_CLONES_LIMIT)
		return err_set("job '%s': numjobs=%u brings the clones to %llu, more than "
			       "%u (fio's limit)", spec->name, spec->numjobs,
			       (unsigned long long)clones, JOB_CLONES_LIMIT);
	if (list->nr == list->cap) {
		unsigned cap = list->cap ? list->cap * 2 : 4;
		struct job_spec *jobs;

		if (cap < list->cap)
			return err_set("too many jobs");
		jobs = realloc(list->jobs, cap * sizeof(*jobs));
		if (!jobs)
			return err_set("out of memory for %u jobs", cap);
		list->jobs = jobs;
		list->cap = cap;
	}
	list->jobs[list->nr++] = *spec;
	return 0;
}

void job_list_free(struct job_list *list)
{
	free(list->jobs);
	list->jobs = NULL;
	list->nr = list->cap = 0;
}

/* Appends every job of from to to, all or nothing. */
static int job_list_append_all(struct job_list *to, const struct job_list *from)
{
	unsigned before = to->nr;

	for (unsigned i = 0; i < from->nr; i++) {
		if (job_list_append(to, &from->jobs[i])) {
			to->nr = before;
			return -1;
		}
	}
	return 0;
}

/* Splits "--key=value" / "--key" into key (copied into key_buf) and value
 * (a pointer into arg, NULL for a flag). */
static int split_argument(const char *arg, char *key_buf, size_t key_size,
			  const char **value)
{
	const char *body, *equals;
	size_t key_len;

	if (strncmp(arg, "--", 2) != 0 || arg[2] == '\0' || arg[2] == '=')
		return err_set("unexpected argument '%s' (job options are --key=value)", arg);
	body = arg + 2;
	equals = strchr(body, '=');
	key_len = equals ? (size_t)(equals - body) : strlen(body);
	if (key_len >= key_size)
		return err_set("%s: option name too long", arg);
	memcpy(key_buf, body, key_len);
	key_buf[key_len] = '\0';
	*value = equals ? equals + 1 : NULL;
	return 0;
}

/* Applies argv[first..last) to spec. kb_base goes first, as fio gives it
 * priority, so "--bs=4k --kb_base=1000" reads 4k with base 1000. */
static int apply_arguments(struct job_spec *spec, char *const argv[], int first, int last)
{
	for (int pass = 0; pass < 2; pass++) {
		for (int i = first; i < last; i++) {
			char key[128];
			const char *value;

			if (split_argument(argv[i], key, sizeof(key), &value))
				return -1;
			if ((strcmp(key, "kb_base") == 0) != (pass == 0))
				continue;
			if (job_option_set(spec, key, value))
				/* a long value is cut so the reason still fits */
				return err_prefix("%.80s%s", argv[i],
						  strlen(argv[i]) > 80 ? "..." : "");
		}
	}
	return 0;
}

static bool is_name_argument(const char *arg)
{
	return strncmp(arg, "--name=", 7) == 0 || strcmp(arg, "--name") == 0;
}

int cmdline_parse(int argc, char *const argv[], struct job_list *out)
{
	struct job_list jobs = { 0 };
	struct job_spec *global, *job;
	int first_name = argc;
	int rc = -1;

	if (argc <= 0)
		return 0;
	global = malloc(sizeof(*global));
	job = malloc(sizeof(*job));
	if (!global || !job) {
		err_set("out of memory");
		goto out;
	}
	/* Check the shape of every argument before applying any. */
	for (int i = 0; i < argc; i++) {
		char key[128];
		const char *value;

		if (split_argument(argv[i], key, sizeof(key), &value))
			goto out;
		if (is_name_argument(argv[i]) && first_name == argc)
			first_name = i;
	}
	job_spec_defaults(global);
	if (apply_arguments(global, argv, 0, first_name))
		goto out;
	if (first_name == argc && job_list_append(&jobs, global))
		goto out;
	for (int start = first_name; start < argc;) {
		int end = start + 1;

		while (end < argc && !is_name_argument(argv[end]))
			end++;
		*job = *global;
		job_output_mark_global(job);
		if (apply_arguments(job, argv, start, end))
			goto out;
		if (job_list_append(&jobs, job))
			goto out;
		start = end;
	}
	rc = job_list_append_all(out, &jobs);
out:
	job_list_free(&jobs);
	free(global);
	free(job);
	return rc;
}

int cmdline_jobs(int argc, char *const argv[], struct job_list *out)
{
	unsigned before = out->nr;

	if (cmdline_parse(argc, argv, out))
		return -1;
	if (job_list_validate(out, before)) {
		out->nr = before;
		return -1;
	}
	return 0;
}

int job_list_set_all(struct job_list *list, const char *key_value)
{
	struct job_spec *updated;
	const char *equals = strchr(key_value, '=');
	char key[128];
	size_t key_len = equals ? (size_t)(equals - key_value) : strlen(key_value);
	int rc = -1;

	if (key_len == 0 || key_len >= sizeof(key))
		return err_set("--set %s: expected KEY=VALUE", key_value);
	memcpy(key, key_value, key_len);
	key[key_len] = '\0';
	if (list->nr == 0)
		return 0;
	/* Work on copies so a failure leaves every job as it was. No
	 * job_spec_validate here: overrides come one at a time ("--set
	 * time_based --set runtime=5"), the caller validates after the last. */
	updated = malloc(list->nr * sizeof(*updated));
	if (!updated)
		return err_set("out of memory");
	memcpy(updated, list->jobs, list->nr * sizeof(*updated));
	for (unsigned i = 0; i < list->nr; i++) {
		file_options_override(&updated[i], key);   /* filename= replaces */
		if (job_option_set(&updated[i], key, equals ? equals + 1 : NULL)) {
			err_prefix("--set %.80s%s", key_value,
				   strlen(key_value) > 80 ? "..." : "");
			goto out;
		}
	}
	memcpy(list->jobs, updated, list->nr * sizeof(*updated));
	rc = 0;
out:
	free(updated);
	return rc;
}
