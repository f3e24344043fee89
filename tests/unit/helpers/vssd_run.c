/* vssd_run.c - see the header. */
#include "vssd_run.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "util/error.h"
#include "vssd/drive.h"

struct sim_result vssd_run(struct vdrive *d, enum sim_rw rw, uint32_t bs, uint32_t depth,
			   uint32_t jobs, uint64_t ios, double capacities, bool untimed)
{
	struct sim_job j = { .rw = rw, .bs = bs, .depth = depth, .jobs = jobs, .ios = ios,
			     .bytes = (uint64_t)(capacities * (double)vdrive_model(d)->capacity),
			     .untimed = untimed };
	struct sim_result r;

	if (sim_run(d, &j, &r))
		fail_msg("sim: %s", err_msg());
	return r;
}
