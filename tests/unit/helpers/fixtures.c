/* fixtures.c - test helper: shared fixtures (see fixtures.h). */
#include "fixtures.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "job/job_spec.h"
#include "job/options.h"
#include "util/error.h"

struct job_spec *new_spec(void)
{
	struct job_spec *spec = calloc(1, sizeof(*spec));

	assert_non_null(spec);
	job_spec_defaults(spec);
	return spec;
}

void set_ok(struct job_spec *spec, const char *key, const char *value)
{
	if (job_option_set(spec, key, value) != 0)
		fail_msg("%s=%s: %s", key, value ? value : "(flag)", err_msg());
}

void set_fails_with(struct job_spec *spec, const char *key, const char *value,
		    const char *fragment)
{
	err_clear();
	assert_int_equal(job_option_set(spec, key, value), -1);
	if (!strstr(err_msg(), fragment))
		fail_msg("%s=%s: message '%s' lacks '%s'", key, value ? value : "(flag)",
			 err_msg(), fragment);
}

void validate_fails_with(struct job_spec *spec, const char *fragment)
{
	err_clear();
	assert_int_equal(job_spec_validate(spec), -1);
	if (!strstr(err_msg(), fragment))
		fail_msg("'%s' lacks '%s'", err_msg(), fragment);
}

FILE *fx_capture_open(struct fx_capture *c)
{
	c->text = NULL;
	c->len = 0;
	c->f = open_memstream(&c->text, &c->len);
	assert_non_null(c->f);
	return c->f;
}

char *fx_capture_text(struct fx_capture *c)
{
	assert_non_null(c->f);
	assert_int_equal(fclose(c->f), 0);
	c->f = NULL;
	assert_non_null(c->text);
	return c->text;
}
