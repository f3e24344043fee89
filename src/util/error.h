/* error.h - how library code reports failure.
 * Library functions return a negative value and leave a message in a
 * thread-local buffer (err_set); only the command layer prints it and picks
 * the exit code. Library code never calls exit(). */
#ifndef DRIVEBENCH_ERROR_H
#define DRIVEBENCH_ERROR_H

#include <stdbool.h>

/* Process exit codes, shared by every subcommand. */
enum exit_code {
	EXIT_OK = 0,
	EXIT_RUN_FAILED = 1,  /* I/O error, verification failure, partial run */
	EXIT_BAD_INPUT = 2,   /* bad option, job file, target or size */
	EXIT_UNSAFE = 3,      /* refused to write: data would be destroyed */
};

/* Sets the thread's last error message (printf format); returns -1. */
int err_set(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* As err_set, naming the exit code the failure calls for wherever it is
 * reported (a full disk while storing is EXIT_RUN_FAILED even where the
 * caller would say bad input). A later err_set or err_clear forgets the
 * code; err_prefix keeps it. */
int err_fail(enum exit_code code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* err_fail(EXIT_UNSAFE, ...): a refusal to write (the safety gate). */
int err_refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
bool err_refused(void);
/* The code the current error named with err_fail, else otherwise. */
int err_exit_code(int otherwise);
/* Prefixes the current message: "prefix: old message"; returns -1. A
 * message that already starts with "prefix: " is left as it is, so layers
 * that each name the job (or file) never say it twice. */
int err_prefix(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The thread's last error message ("" when none). */
const char *err_msg(void);
void err_clear(void);

/* What a job's error code (errno, either sign) means, for people:
 * strerror, except EILSEQ, the code of a failed verification (as in
 * fio), which reads "verify failed". */
const char *err_errno_text(int error);

#endif
