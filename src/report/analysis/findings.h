/* findings.h - the findings a reviewer reads out of the data, each a
 * sentence with the numbers (issue 16, docs/report.md "Findings"). Pure
 * functions on plain points: each returns whether it fires and writes its
 * sentence into buf ("" when it does not). Thresholds are the defines. */
#ifndef DRIVEBENCH_REPORT_FINDINGS_H
#define DRIVEBENCH_REPORT_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>

/* within this share of the peak a point is on the plateau */
#define FINDING_PLATEAU_SHARE 0.95
/* the plateau needs this many points to be called saturation */
#define FINDING_PLATEAU_MIN 3
/* a peak at or above this share of the link is "at the bus ceiling" */
#define FINDING_BUS_SHARE 0.80
/* Little's law holds when every plateau point's mean latency is within
 * this share of outstanding I/O / IOPS */
#define FINDING_LITTLE_TOLERANCE 0.15
/* a point this far below both neighbours (or its lower-QD neighbour at the
 * end of a jobs group) is an anomaly */
#define FINDING_DROP_SHARE 0.20

/* a GDS point this far below the block size's peak at fewer threads is a
 * scaling drop */
#define FINDING_GDS_DROP_SHARE 0.10

struct finding_point {
	unsigned iodepth, numjobs;
	double value;          /* the headline figure: IOPS or MB/s */
	double iops, lat_mean_us;
};

/* "Saturates from 4/1: 3,090-3,156 MB/s over 16 points (within 95% of the
 * 3,156 MB/s peak)." Points in the reviews' order. */
bool finding_plateau(const struct finding_point *pts, unsigned n, const char *unit,
		     char *buf, size_t len);
/* The link's payload ceiling from a spec sheet's interface ("PCIe 4.0 x4",
 * "PCIe Gen5 x4", "Gen4 x4"): MB/s, 0 when the text names no link. */
double finding_link_mbs(const char *interface, unsigned *gen, unsigned *lanes);
/* "The 7,010 MB/s peak is 89% of the PCIe 4.0 x4 link (7,880 MB/s)." */
bool finding_bus(double peak_mbs, const char *interface, char *buf, size_t len);
/* "Little's law: throughput is flat from 4/1 while mean latency grows with
 * outstanding I/O, 80 to 620 µs (outstanding / IOPS predicts 79 to 610)." */
bool finding_littles_law(const struct finding_point *pts, unsigned n, char *buf, size_t len);
/* "Anomaly: 64/1 (120K IOPS) is 35% below its neighbours." The first. */
bool finding_drop(const struct finding_point *pts, unsigned n, const char *unit,
		  char *buf, size_t len);
/* "At or above its 120K IOPS rating in 9 of 18 points, all at 16
 * outstanding I/O or more." / "Below its ... rating at every point (best
 * 93% of it)." false when no rating applies. */
bool finding_rating(const struct finding_point *pts, unsigned n, const char *unit,
		    double rating, char *buf, size_t len);
/* "Ranks 2 of 5 (at the 4 points all 5 ran, best of each): 1.02M IOPS,
 * 8.1% behind the leader, X (1.11M IOPS)." or "Leads the 5 drives by 3.2%
 * over the next (at the ...)." value and the leader's: each drive's best
 * of the shared points. not_ranked (may be NULL or ""): the drives left
 * out, appended as " Not ranked (ran a different matrix): A, B." false
 * with fewer than 2 ranked or no shared point. */
bool finding_rank(unsigned rank, unsigned of, unsigned shared, double value, const char *unit,
		  const char *leader, double leader_value, double runner_up_pct,
		  const char *not_ranked, char *buf, size_t len);
/* Checkpoint passes: pass means (seconds per checkpoint) and each pass's
 * range: "Pass 2 is 2.3% slower than pass 1 (0.080 s vs 0.078 s per
 * checkpoint); pass 1 ranges 0.075-0.081 s." plus, with a sequential
 * write figure, "its 3.28 GB/s is 104% of its own 128K sequential write
 * (3.15 GB/s)". bytes: one checkpoint's size. */
bool finding_checkpoint(const double *pass_mean, const double *pass_min,
			const double *pass_max, unsigned passes, double bytes,
			double seq_write_mbs, char *buf, size_t len);

/* GDS, one block size's points by thread count, ascending (findings_gds.c):
 * "16K peaks at 1.23 GiB/s with 64 threads." */
bool finding_gds_peak(const char *bs_name, const unsigned *threads, const double *gibs,
		      unsigned n, char *buf, size_t len);
/* "128K drops 18% past its 32-thread peak: 4.61 GiB/s at 128 threads
 * against 5.62 GiB/s." The lowest point beyond the peak. */
bool finding_gds_scaling(const char *bs_name, const unsigned *threads, const double *gibs,
			 unsigned n, char *buf, size_t len);

#endif
