/* fuzz_options.c - libFuzzer target for option and value parsing: every
 * input line through parse_size (both kb_base), parse_time_ns and
 * parse_cpu_list; the lines as "key=value" options applied to one job
 * (job_option_set, then job_spec_validate); and the "--key=value" lines as
 * a command line (cmdline_jobs). Besides crashes it checks what a parser
 * promises (must_hold aborts, which libFuzzer reports as a crash). */
#include "fuzz_common.h"

#include <errno.h>
#include <sched.h>

#include "util/error.h"
#include "job/job_list.h"
#include "job/options.h"

#define MAX_LINES 64

static bool all_digits(const char *text)
{
	if (!*text)
		return false;
	for (; *text; text++)
		if (*text < '0' || *text > '9')
			return false;
	return true;
}

static void parse_values(const char *text)
{
	cpu_set_t cpus;
	uint64_t size_1024 = 0, size_1000 = 0, ns_sec = 0, ns_us = 0;
	int ok_1024, ok_1000, ok_sec, ok_us, count, count_no_set;

	ok_1024 = parse_size(text, 1024, &size_1024) == 0;
	ok_1000 = parse_size(text, 1000, &size_1000) == 0;
	ok_sec = parse_time_ns(text, 1000000000ull, &ns_sec) == 0;
	ok_us = parse_time_ns(text, 1000ull, &ns_us) == 0;
	count = parse_cpu_list(text, &cpus);
	count_no_set = parse_cpu_list(text, NULL);

	/* whether a text is a size does not depend on kb_base, short of
	 * overflow ("16384p" fits in 64 bits with base 1000, not 1024) */
	if (ok_1024 != ok_1000) {
		uint64_t ignored;

		(void)parse_size(text, ok_1024 ? 1000 : 1024, &ignored);
		must_hold(strstr(err_msg(), "too large") != NULL,
			  "parse_size accepts under one kb_base only", text);
	}
	if (all_digits(text)) {
		/* a plain number is bytes, and a time in its default unit */
		errno = 0;
		unsigned long long plain = strtoull(text, NULL, 10);
		bool fits = errno != ERANGE;

		must_hold(ok_1024 == fits, "parse_size on a plain number", text);
		if (ok_1024)
			must_hold(size_1024 == plain && size_1000 == plain,
				  "parse_size of a plain number is not the number", text);
		if (ok_us)
			must_hold(ns_us == plain * 1000ull, "parse_time_ns default unit", text);
		if (ok_sec)
			must_hold(ns_sec / 1000000000ull == plain, "parse_time_ns default unit", text);
	} else if (ok_sec || ok_us) {
		/* with a unit the default unit does not matter */
		must_hold(ok_sec && ok_us && ns_sec == ns_us, "parse_time_ns with a unit", text);
	}
	must_hold(count == count_no_set, "parse_cpu_list counts differ with and without a set",
		  text);
	if (count >= 0)
		must_hold(count >= 1 && count == CPU_COUNT(&cpus),
			  "parse_cpu_list count is not the set's", text);
}

/* Applies "key=value" / "key" lines in order, stopping at the first error
 * as the job-file parser does, and validates the job when all applied. */
static void apply_options(char *const lines[], unsigned nr, const char *input)
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
	if (all_applied && job_spec_validate(spec) == 0)
		check_valid_job(spec, input);
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
	if (argc && cmdline_jobs(argc, args, &jobs) == 0) {
		must_hold(jobs.nr >= 1, "cmdline_jobs made no job", lines[0]);
		for (unsigned i = 0; i < jobs.nr; i++)
			check_valid_job(&jobs.jobs[i], lines[0]);
		job_list_set_all(&jobs, "numjobs=2");
	}
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
	apply_options(lines, nr, nr ? lines[0] : "");
	apply_command_line(lines, nr);
	for (unsigned i = 0; i < nr; i++)
		free(lines[i]);
	return 0;
}
