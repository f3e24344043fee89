/* steady.h - steady state as SNIA's Performance Test Specification defines
 * it: over a window of the last rounds (default 5) of the tracked figure,
 * the range (max - min) is at most 20% of the window's mean, and the
 * excursion of the least-squares line across the window (|slope| x
 * (window - 1)) is at most 10% of the mean. */
#ifndef DRIVEBENCH_STEADY_H
#define DRIVEBENCH_STEADY_H

#include <stdbool.h>

struct steady_verdict {
	bool reached;
	unsigned rounds;           /* values examined so far */
	double mean;               /* of the window */
	double range;              /* max - min in the window */
	double slope;              /* least-squares slope per round */
	double slope_excursion;    /* |slope| x (window - 1) */
};

/* Judges the last `window` of values[0..n). Not reached while n < window.
 * range_limit and slope_limit are fractions of the mean (0.20, 0.10).
 * Returns 0, or -1 with err_msg for bad arguments (window < 2, limits <= 0,
 * a negative or non-finite value). */
int steady_check(const double *values, unsigned n, unsigned window,
		 double range_limit, double slope_limit,
		 struct steady_verdict *v);

#endif
