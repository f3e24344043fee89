/* window.h - the figures of a window of samples that steady-state tests
 * judge: mean, least-squares slope per sample (x = 0, 1, ...), largest
 * distance from the mean and range. fio's steadystate (run/ss_monitor.c)
 * and SNIA PTS's (suite/steady.c) both use it. */
#ifndef DRIVEBENCH_WINDOW_H
#define DRIVEBENCH_WINDOW_H

struct window_fit {
	double mean;
	double slope;       /* 0 for one sample */
	double max_dev;     /* max |v - mean| (fio's "max_deviation") */
	double range;       /* max - min (PTS's data excursion) */
};

void window_fit(const double *v, unsigned n, struct window_fit *out);

#endif
