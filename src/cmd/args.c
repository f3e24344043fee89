/* args.c - reads "--name VALUE" / "--name=VALUE" options for the
 * subcommands (see args.h). */
#include "cmd/args.h"

#include <string.h>

#include "util/error.h"

const char *cmd_option(const char *name, int argc, char **argv, int *i)
{
	size_t n = strlen(name);

	err_clear();
	if (strncmp(argv[*i], name, n))
		return NULL;
	if (argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (argv[*i][n])
		return NULL;
	if (*i + 1 >= argc) {
		err_set("%s needs a value", name);
		return "";
	}
	return argv[++*i];
}
