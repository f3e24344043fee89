/* verify_dump.h - private to src/run/: fio's verify_dump, the failed units
 * of a read written to FILE.OFFSET.received / .expected / .hdr_fail. */
#ifndef DRIVEBENCH_VERIFY_DUMP_H
#define DRIVEBENCH_VERIFY_DUMP_H

#include "run/worker.h"

/* Dumps the failures w's result keeps from index first on that lie in the
 * completed read io. 0, or -1 with err_msg (the gate refused a file, a
 * write failed). */
int verify_dump_failures(const struct worker *w, const struct io *io, unsigned first);

#endif
