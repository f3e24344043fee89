/* operating.h - the operating points of the PTS DIRTH and CBW tests
 * (operating.c): from the mean IOPS and latency of each QD/jobs point of
 * an earlier step, the MaxIOPS point (the most IOPS, its mean latency
 * under a ceiling when one is given), the MinIOPS point (the fewest
 * outstanding I/Os: TC1/QD1) and the MidIOPS point (IOPS nearest halfway
 * between the two). */
#ifndef DRIVEBENCH_OPERATING_H
#define DRIVEBENCH_OPERATING_H

#include <stdint.h>

#include "suite/suite.h"

struct operating_candidate {
	unsigned iodepth, numjobs;
	double iops, lat_mean_ns;     /* means over the window's rounds */
	unsigned samples;             /* results averaged */
};

/* The candidate `which` picks; lat_ceiling_ns 0 = none. 0 with *index,
 * or -1 with err_msg (no candidates; none under the ceiling). */
int operating_choose(const struct operating_candidate *c, unsigned n,
		     enum operating_point which, uint64_t lat_ceiling_ns, unsigned *index);

const char *operating_point_name(enum operating_point which);

#endif
