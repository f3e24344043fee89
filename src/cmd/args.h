/* args.h - the one option reader every subcommand shares. */
#ifndef DRIVEBENCH_ARGS_H
#define DRIVEBENCH_ARGS_H

/* Takes "--name VALUE" or "--name=VALUE" at argv[*i] (advancing *i past a
 * separate value). Returns the value, or NULL when argv[*i] is another
 * argument. A missing value sets err_msg ("--name needs a value") and
 * returns "", so callers test err_msg()[0] after a non-NULL result. */
const char *cmd_option(const char *name, int argc, char **argv, int *i);

#include <signal.h>

/* Set by SIGINT / SIGTERM once cmd_catch_stop_signals ran: the commands
 * that run I/O hand it to the runner, which stops within a second. */
extern volatile sig_atomic_t cmd_stop_requested;
void cmd_catch_stop_signals(void);

#endif
