/* args.h - the one option reader every subcommand shares. */
#ifndef DRIVEBENCH_ARGS_H
#define DRIVEBENCH_ARGS_H

/* Takes "--name VALUE" or "--name=VALUE" at argv[*i] (advancing *i past a
 * separate value). Returns the value, or NULL when argv[*i] is another
 * argument. A missing value sets err_msg ("--name needs a value") and
 * returns "", so callers test err_msg()[0] after a non-NULL result. */
const char *cmd_option(const char *name, int argc, char **argv, int *i);

#endif
