/* error.c - thread-local last-error message for library code (see error.h). */
#include "util/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[1024];
static _Thread_local int last_error_code;   /* 0: the caller decides */

int err_set(const char *fmt, ...)
{
	va_list ap;

	last_error_code = 0;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return -1;
}

/* True when message already starts with "prefix: " (or is just prefix). */
static int has_prefix(const char *message, const char *prefix, size_t len)
{
	return !strncmp(message, prefix, len) &&
	       (message[len] == '\0' || (message[len] == ':' && message[len + 1] == ' '));
}

int err_prefix(const char *fmt, ...)
{
	char old[sizeof(last_error)];
	size_t used;
	va_list ap;

	memcpy(old, last_error, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	used = strlen(last_error);
	/* a message that already names this context keeps its one mention
	 * ("job 'j': job 'j': size 0" said nothing twice) */
	if (has_prefix(old, last_error, used)) {
		memcpy(last_error, old, sizeof(old));
		return -1;
	}
	if (used + 2 < sizeof(last_error)) {
		memcpy(last_error + used, ": ", 3);
		used += 2;
		strncat(last_error + used, old, sizeof(last_error) - used - 1);
	}
	return -1;
}

static int set_with_code(int code, const char *fmt, va_list ap)
{
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	last_error_code = code;
	return -1;
}

int err_fail(enum exit_code code, const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = set_with_code(code, fmt, ap);
	va_end(ap);
	return rc;
}

int err_refuse(const char *fmt, ...)
{
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = set_with_code(EXIT_UNSAFE, fmt, ap);
	va_end(ap);
	return rc;
}

bool err_refused(void)
{
	return last_error_code == EXIT_UNSAFE && last_error[0];
}

int err_exit_code(int otherwise)
{
	return last_error_code && last_error[0] ? last_error_code : otherwise;
}

const char *err_msg(void)
{
	return last_error;
}

void err_clear(void)
{
	last_error[0] = '\0';
	last_error_code = 0;
}

const char *err_errno_text(int error)
{
	if (error < 0)
		error = -error;
	/* EILSEQ is only ever the job's own verify failure (fio's code) */
	if (error == EILSEQ)
		return "verify failed";
	return strerror(error);
}
