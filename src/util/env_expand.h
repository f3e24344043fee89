/* env_expand.h - ${VAR} in a line of a job or suite file, from the
 * environment: the one expansion both file parsers use. */
#ifndef DRIVEBENCH_ENV_EXPAND_H
#define DRIVEBENCH_ENV_EXPAND_H

#include <stdbool.h>

/* Returns a malloc'd copy of line with every ${VAR} replaced by the
 * variable's value, or NULL with err_msg naming file:lineno.
 * An unset variable is "FILE:N: environment variable 'X' is not set" in
 * both modes (fio expands it to nothing, which turns filename=${DIR}/f
 * into /f: a typo must not move a job's I/O); a variable set to "" is
 * the empty string.
 * strict false is fio's rule for the rest, in job files: "${}" expands to
 * nothing, a "${" without its "}" stays as written.
 * strict true is the suite files' rule: "FILE:N: bad ${VAR} in '${...'"
 * for a "${" without its "}", an empty name or one of 256 bytes or more.
 * Out of memory: "FILE:N: out of memory". */
char *env_expand(const char *line, const char *file, unsigned lineno, bool strict);

#endif
