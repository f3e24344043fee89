/* wallclock.c - the wall clock in milliseconds (wallclock.h). */
#include "util/wallclock.h"

#include <time.h>

uint64_t wallclock_ms(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_REALTIME, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
