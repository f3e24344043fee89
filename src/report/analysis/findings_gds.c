/* findings_gds.c - what the reviews read out of a GDS sweep: each block
 * size's peak and where it is, and throughput that falls as threads are
 * added past that peak (the reviews' "128K writes dropping past 32
 * threads"). */
#include "report/analysis/findings.h"

#include <math.h>
#include <stdio.h>

/* the index of the highest finite value, or n when there is none */
static unsigned peak_of(const double *v, unsigned n)
{
	unsigned best = n;

	for (unsigned i = 0; i < n; i++)
		if (isfinite(v[i]) && (best == n || v[i] > v[best]))
			best = i;
	return best;
}

bool finding_gds_peak(const char *bs_name, const unsigned *threads, const double *gibs,
		      unsigned n, char *buf, size_t len)
{
	unsigned p = peak_of(gibs, n);

	if (len)
		buf[0] = '\0';
	if (p == n)
		return false;
	snprintf(buf, len, "%s peaks at %.2f GiB/s with %u thread%s.", bs_name, gibs[p],
		 threads[p], threads[p] == 1 ? "" : "s");
	return true;
}

bool finding_gds_scaling(const char *bs_name, const unsigned *threads, const double *gibs,
			 unsigned n, char *buf, size_t len)
{
	unsigned p = peak_of(gibs, n), low = n;

	if (len)
		buf[0] = '\0';
	if (p == n)
		return false;
	for (unsigned i = p + 1; i < n; i++)
		if (isfinite(gibs[i]) && (low == n || gibs[i] < gibs[low]))
			low = i;
	if (low == n || gibs[low] >= (1 - FINDING_GDS_DROP_SHARE) * gibs[p])
		return false;
	snprintf(buf, len, "%s drops %.0f%% past its %u-thread peak: %.2f GiB/s at %u threads "
		 "against %.2f GiB/s.", bs_name, 100 * (1 - gibs[low] / gibs[p]), threads[p],
		 gibs[low], threads[low], gibs[p]);
	return true;
}
