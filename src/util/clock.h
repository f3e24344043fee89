/* clock.h - the two clocks: the monotonic one every measurement uses, and
 * the wall clock for timestamps that are stored or shown. */
#ifndef DRIVEBENCH_CLOCK_H
#define DRIVEBENCH_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in ns: I/O timestamps, deadlines, intervals. */
uint64_t clock_now_ns(void);

/* Sleeps until the monotonic clock reads when (ns), through signals: the
 * modelled engines' wait for a due completion. */
void clock_sleep_until_ns(uint64_t when);

/* CLOCK_REALTIME in ms since the Unix epoch; 0 if it cannot be read. */
uint64_t wallclock_ms(void);

#endif
