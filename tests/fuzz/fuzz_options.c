/* fuzz_options.c - libFuzzer target for option and value parsing: every
 * input line through parse_size (both kb_base), parse_time_ns and
 * parse_cpu_list; the lines as "key=value" options applied to one job
 * (job_option_set, then job_spec_validate); and the "--key=value" lines as
 * a command line (cmdline_jobs). */
#include "fuzz_common.h"

#include <sched.h>

#include "workload/job_list.h"
#include "workload/options.h"

#define MAX_LINES 64

static void parse_values(const char *text)
{
	cpu_set_t cpus;
	uint64_t value;

	(void)parse_size(text, 1024, &value);
	(void)parse_size(text, 1000, &value);
	(void)parse_time_ns(text, 1000000000ull, &value);
	(void)parse_time_ns(text, 1000ull, &value);
	(void)parse_cpu_list(text, &cpus);
	(void)parse_cpu_list(text, NULL);
}

/* Applies "key=value" / "key" lines in order, stopping at the first error
 * as the job-file parser does, and validates the job when all applied. */
static void apply_options(char *const lines[], unsigned nr)
{
	struct job_spec *spec = malloc(sizeof(*spec));
	bool all_applied = true;

	if (!spec)
		abort();
	job_spec_defaults(spec);
	for (unsigned i = 0; i < nr && all_applied; i++) {
		char *key = strdup(lines[i]), *equals;

		if (!key)
			abort();
		equals = strchr(key, '=');
		if (equals)
			*equals = '\0';
		(void)job_option_known(key);
		if (job_option_set(spec, key, equals ? equals + 1 : NULL))
			all_applied = false;
		free(key);
	}
	if (all_applied)
		(void)job_spec_validate(spec);
	free(spec);
}

static void apply_command_line(char *const lines[], unsigned nr)
{
	char *args[MAX_LINES];
	struct job_list jobs = { 0 };
	int argc = 0;

	for (unsigned i = 0; i < nr; i++)
		if (!strncmp(lines[i], "--", 2))
			args[argc++] = lines[i];
	if (argc && cmdline_jobs(argc, args, &jobs) == 0)
		job_list_set_all(&jobs, "numjobs=2");
	job_list_free(&jobs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *lines[MAX_LINES];
	unsigned nr = 0;
	size_t start = 0;

	if (fuzz_names_outside_file(data, size))
		return 0;
	while (start < size && nr < MAX_LINES) {
		const uint8_t *nl = memchr(data + start, '\n', size - start);
		size_t end = nl ? (size_t)(nl - data) : size;

		lines[nr] = strndup((const char *)data + start, end - start);
		if (!lines[nr])
			abort();
		parse_values(lines[nr]);
		nr++;
		start = end + 1;
	}
	apply_options(lines, nr);
	apply_command_line(lines, nr);
	for (unsigned i = 0; i < nr; i++)
		free(lines[i]);
	return 0;
}
