/* export_fio.h - `export --format fio --dir DIR` (export_fio.c): each
 * stored point as the fio JSON document `run` wrote for it, in fio-plot's
 * folder layout (docs/output.md). */
#ifndef DRIVEBENCH_EXPORT_FIO_H
#define DRIVEBENCH_EXPORT_FIO_H

#include "cmd/export_select.h"
#include "store/store.h"

/* Writes the points of runs[0..nr_runs) (of the steps named, when any) under dir (new, or an empty
 * directory; every path through the output gate, each file atomically).
 * Returns the exit code: 0, or another with err_msg set. */
int export_fio(struct store *s, const char *dir, const struct stored_run *runs,
	       unsigned nr_runs, const struct export_steps *steps);

#endif
