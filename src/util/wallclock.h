/* wallclock.h - the wall clock in milliseconds since the Unix epoch, for
 * timestamps that are stored or shown (measurement uses the monotonic
 * clock_now_ns in run/runner.h). */
#ifndef DRIVEBENCH_WALLCLOCK_H
#define DRIVEBENCH_WALLCLOCK_H

#include <stdint.h>

/* CLOCK_REALTIME in ms; 0 if the clock cannot be read. */
uint64_t wallclock_ms(void);

#endif
