/* env_expand.h - ${VAR} in a line of a job or suite file, from the
 * environment: the one expansion both file parsers use. */
#ifndef DRIVEBENCH_ENV_EXPAND_H
#define DRIVEBENCH_ENV_EXPAND_H

#include <stdbool.h>

/* Returns a malloc'd copy of line with every ${VAR} replaced by the
 * variable's value, or NULL with err_msg naming file:lineno.
 * strict false is fio's rule for job files: an unset variable (and "${}")
 * expands to nothing, a "${" without its "}" stays as written.
 * strict true is the suite files' rule: "FILE:N: environment variable 'X'
 * is not set", and "FILE:N: bad ${VAR} in '${...'" for a "${" without its
 * "}", an empty name or one of 256 bytes or more.
 * Out of memory: "FILE:N: out of memory". */
char *env_expand(const char *line, const char *file, unsigned lineno, bool strict);

#endif
