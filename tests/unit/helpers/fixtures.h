/* fixtures.h - test helper: fixtures that several unit tests build the
 * same way: a job spec with fio's defaults, options set on it expecting
 * success or a given error, and a stream whose output is captured into a
 * string. Every function asserts (cmocka). */
#ifndef DRIVEBENCH_TEST_FIXTURES_H
#define DRIVEBENCH_TEST_FIXTURES_H

#include <stddef.h>
#include <stdio.h>

struct job_spec;

/* A job spec from calloc with fio's defaults (job_spec_defaults); free()
 * it. */
struct job_spec *new_spec(void);

/* key=value (value NULL: a flag) is accepted by job_option_set. */
void set_ok(struct job_spec *spec, const char *key, const char *value);

/* key=value is refused, with a message containing fragment. */
void set_fails_with(struct job_spec *spec, const char *key, const char *value,
		    const char *fragment);

/* job_spec_validate refuses spec, with a message containing fragment. */
void validate_fails_with(struct job_spec *spec, const char *fragment);

/* Output captured in memory: fx_capture_open gives a stream to write to,
 * fx_capture_text closes it and returns what was written (NUL-terminated,
 * from malloc: free it). */
struct fx_capture {
	FILE *f;
	char *text;
	size_t len;
};
FILE *fx_capture_open(struct fx_capture *c);
char *fx_capture_text(struct fx_capture *c);

#endif
