/* record_kind.h - what a stored result is, for the report's sections,
 * from what the store keeps: its step's kind and pass (a checkpoint), or
 * its job's GDS options (a GDS point) - never from job names. */
#ifndef DRIVEBENCH_REPORT_RECORD_KIND_H
#define DRIVEBENCH_REPORT_RECORD_KIND_H

#include <stdbool.h>
#include <stddef.h>

#include "store/record.h"

/* A checkpoint result (a step of kind "checkpoint" or "checkpoint-read"
 * with its pass stored): its pass (0 = the read-back) and index. */
bool record_checkpoint(const struct result_record *rec, unsigned *pass, unsigned *index);

/* A GDS point (its job had gds_xfer, from `drivebench gds` or a cufile
 * job): its XferType label and path mode ("gds", "compat", "host"). */
bool record_gds(const struct result_record *rec, char *xfer, size_t xfer_len,
		char *mode, size_t mode_len);

#endif
