/* steady.c - the SNIA PTS steady-state test over a series of rounds: the
 * window's mean, range (data excursion) and least-squares slope (slope
 * excursion across the window), judged against limits given as fractions
 * of the mean. Pure arithmetic; the suite runner feeds it one value per
 * round. */
#include "suite/steady.h"

#include <math.h>
#include <stddef.h>

#include "measure/window.h"
#include "util/error.h"

/* Relative slack on the limit comparisons so that a series exactly at a
 * limit (range == 20% of mean) passes despite rounding in the sums. */
#define LIMIT_SLACK 1e-12

static int check_arguments(const double *values, unsigned n, unsigned window,
			   double range_limit, double slope_limit,
			   const struct steady_verdict *v)
{
	if (!v)
		return err_set("steady: no verdict to fill");
	if (n > 0 && !values)
		return err_set("steady: no values");
	if (window < 2)
		return err_set("steady: window must be at least 2 rounds, got %u",
			       window);
	if (!(range_limit > 0) || !isfinite(range_limit))
		return err_set("steady: range limit must be a positive fraction, got %g",
			       range_limit);
	if (!(slope_limit > 0) || !isfinite(slope_limit))
		return err_set("steady: slope limit must be a positive fraction, got %g",
			       slope_limit);
	for (unsigned i = 0; i < n; i++) {
		if (!isfinite(values[i]))
			return err_set("steady: round %u value is not finite", i + 1);
		if (values[i] < 0)
			return err_set("steady: round %u value is negative (%g)",
				       i + 1, values[i]);
	}
	return 0;
}

/* Mean, range and least-squares slope (x = 0, 1, ...) of count values:
 * the window figures fio's steadystate uses too (measure/window.h). */
static void window_figures(const double *w, unsigned count,
			   struct steady_verdict *v)
{
	struct window_fit fit;

	window_fit(w, count, &fit);
	v->mean = fit.mean;
	v->range = fit.range;
	v->slope = fit.slope;
	v->slope_excursion = fabs(v->slope) * (count - 1);
}

int steady_check(const double *values, unsigned n, unsigned window,
		 double range_limit, double slope_limit,
		 struct steady_verdict *v)
{
	if (check_arguments(values, n, window, range_limit, slope_limit, v))
		return -1;
	*v = (struct steady_verdict){ .rounds = n };
	if (n == 0)
		return 0;

	/* Before the window is full the figures describe what there is, for
	 * progress display, but the verdict stays "not reached". */
	unsigned count = n < window ? n : window;
	window_figures(values + (n - count), count, v);
	if (n < window)
		return 0;

	double range_max = range_limit * v->mean * (1 + LIMIT_SLACK);
	double slope_max = slope_limit * v->mean * (1 + LIMIT_SLACK);
	v->reached = v->range <= range_max && v->slope_excursion <= slope_max;
	return 0;
}
