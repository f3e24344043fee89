/* output_gate.h - the write gate for everything drivebench writes that is
 * not a job's target: results and report files, the results database (and
 * SQLite's -wal, -shm and -journal files beside it), and the directories
 * checkpoints are written in. Job targets pass safety_check (safety.h);
 * docs/safety.md lists every path and its rule. */
#ifndef DRIVEBENCH_OUTPUT_GATE_H
#define DRIVEBENCH_OUTPUT_GATE_H

#include <stdio.h>

/* What the command promises about an existing file at the path. */
enum output_use {
	/* results, a report: a regular file (replaced), a pipe, a terminal
	 * or /dev/null */
	OUTPUT_FILE,
	/* the results database: a regular file opened, or created, never
	 * truncated or replaced */
	OUTPUT_DATABASE,
	/* a directory drivebench creates, or creates files in */
	OUTPUT_DIRECTORY,
};

/* Whether path may be opened for writing as use says. Returns 0, or -1
 * with err_msg naming what (an option, "--db") and path; a refusal to
 * protect data (a block device, a kernel setting, a loop device's backing
 * file, a filesystem image, a results database an output would replace) is
 * marked err_refused() (exit 3), a path that cannot be used (a directory, a
 * missing parent) is not (exit 2). */
int output_gate_check(const char *what, const char *path, enum output_use use);

/* Opens an OUTPUT_FILE for writing through the gate: "/dev/stdout" and
 * "/dev/stderr" are the process's own streams (never reopened, so a shell's
 * >> keeps appending); otherwise the file is opened without truncation,
 * checked again as opened (the same object, still allowed), then
 * truncated. Returns the stream or NULL with err_msg as output_gate_check.
 * Close it with output_gate_close. */
FILE *output_gate_open(const char *what, const char *path);

/* Closes a stream from output_gate_open (standard streams are flushed, not
 * closed). Returns 0, or -1 with err_msg naming what and path. */
int output_gate_close(FILE *f, const char *what, const char *path);

#endif
