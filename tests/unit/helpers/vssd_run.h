/* vssd_run.h - one closed-loop job on a modelled drive in virtual time
 * (vssd/sim.h), for the tests that check the model against figures: the
 * job's size as capacities of the drive, a failed run fails the test. */
#ifndef DRIVEBENCH_TEST_VSSD_RUN_H
#define DRIVEBENCH_TEST_VSSD_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "vssd/sim.h"

/* jobs jobs of depth outstanding each; stops after ios I/Os or
 * capacities x the drive's bytes (whichever is set and first); untimed:
 * writes through the FTL alone (sim_job.untimed). */
struct sim_result vssd_run(struct vdrive *d, enum sim_rw rw, uint32_t bs, uint32_t depth,
			   uint32_t jobs, uint64_t ios, double capacities, bool untimed);

#endif
