/* error.c - thread-local last-error message for library code (see error.h). */
#include "util/error.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static _Thread_local char last_error[1024];

int err_set(const char *fmt, ...)
{
	va_list ap;

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

const char *err_msg(void)
{
	return last_error;
}

void err_clear(void)
{
	last_error[0] = '\0';
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
