/* args.c - what the subcommands share: reading "--name VALUE" options
 * and catching the stop signals (see args.h). */
#include "cmd/args.h"

#include <signal.h>
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

volatile sig_atomic_t cmd_stop_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	cmd_stop_requested = 1;
}

void cmd_catch_stop_signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
