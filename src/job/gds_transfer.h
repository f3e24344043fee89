/* gds_transfer.h - the transfer types of a GDS job (gds_transfer=, the
 * gds command's -x), in gdsio's numbering; the cufile engine (io/cufile.c)
 * moves the data each way. */
#ifndef DRIVEBENCH_JOB_GDS_TRANSFER_H
#define DRIVEBENCH_JOB_GDS_TRANSFER_H

#include <stdbool.h>

/* gdsio's numbering (-x). */
enum gds_xfer {
	GDS_XFER_GPUD = 0,        /* cuFile into GPU memory */
	GDS_XFER_CPUONLY = 1,     /* O_DIRECT into aligned host memory */
	GDS_XFER_CPU_GPU = 2,     /* O_DIRECT into host memory, then a copy to the GPU */
	GDS_XFER_GPUD_ASYNC = 5,  /* cuFile stream API, where the library has it */
};

/* Whether x is a valid gdsio transfer type drivebench supports. */
static inline bool gds_xfer_valid(int x)
{
	return x == GDS_XFER_GPUD || x == GDS_XFER_CPUONLY ||
	       x == GDS_XFER_CPU_GPU || x == GDS_XFER_GPUD_ASYNC;
}

#endif
