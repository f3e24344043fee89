/* window.c - mean, least-squares slope, largest deviation and range of a
 * window of samples (window.h). The slope is the centred form of fio's
 * (sum_xy - sum_x sum_y / n) / (sum_x2 - sum_x^2 / n): the same value. */
#include "measure/window.h"

#include <math.h>

void window_fit(const double *v, unsigned n, struct window_fit *out)
{
	double sum = 0, lo, hi, x_mean, sxy = 0, sxx = 0;

	*out = (struct window_fit){ 0 };
	if (!n)
		return;
	lo = hi = v[0];
	for (unsigned i = 0; i < n; i++) {
		sum += v[i];
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	out->mean = sum / n;
	out->range = hi - lo;
	for (unsigned i = 0; i < n; i++) {
		double d = fabs(v[i] - out->mean);

		if (d > out->max_dev)
			out->max_dev = d;
	}
	if (n < 2)
		return;
	x_mean = (n - 1) / 2.0;
	for (unsigned i = 0; i < n; i++) {
		double dx = i - x_mean;

		sxy += dx * (v[i] - out->mean);
		sxx += dx * dx;
	}
	out->slope = sxy / sxx;
}
