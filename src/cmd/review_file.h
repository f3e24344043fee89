/* review_file.h - the review page of one stored run written to a path
 * atomically: a new file in the same folder (".NAME.PID.tmp", through the
 * output gate) renamed over it, so a reader sees the old page or the new,
 * never half of one. For `suite --report` (suite_report.c); without the
 * report's types, which a suite's translation unit cannot hold beside its
 * own. */
#ifndef DRIVEBENCH_REVIEW_FILE_H
#define DRIVEBENCH_REVIEW_FILE_H

#include <stdint.h>

/* Whether path may take the page: it passes the output gate as an
 * OUTPUT_FILE, is a regular file or a new name (never a device, a pipe or
 * /dev/null: it is replaced by a rename), an existing one is an HTML page
 * (or empty), and a new file can be made beside it. 0, or -1 with err_msg
 * naming what (err_refused() for the gate's refusals to protect data). */
int review_file_check(const char *what, const char *path);

/* The most runs one page is written of. */
#define REVIEW_FILE_MAX_RUNS 256

/* Writes the page of the runs from db_path (opened read-only) to path, as
 * `report --db DB_PATH RUN...` writes it, the runs in that order;
 * in_progress, when not NULL, is a line under the title and the page asks
 * a browser to reload it every refresh_s seconds. What is at path is
 * checked again first. 0, or -1 with err_msg. */
int review_file_write(const char *what, const char *path, const char *db_path,
		      const int64_t *run_ids, unsigned nr_runs, const char *in_progress,
		      unsigned refresh_s);

#endif
