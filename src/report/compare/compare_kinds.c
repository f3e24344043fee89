/* compare_kinds.c - the compare rows of the kinds that are not points:
 * checkpoint passes (the mean seconds per checkpoint and GB/s of each
 * pass), GDS points (GiB/s, IOPS, mean latency per transfer type, block
 * size, threads and direction) and steady-state steps (rounds run, steady
 * or not, the mean of the last window). What a result is comes from what
 * the store keeps (report/analysis/record_kind.h), as in the report; stopped
 * (partial) checkpoints and GDS points are left out, as there. */
#include "report/compare/compare_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/analysis/record_kind.h"
#include "util/error.h"

const struct compare_metric compare_checkpoint_metrics[3] = {
	{ "checkpoints", "ckpts", "%.0f", 7, false, false },
	{ "mean_s", "s/ckpt", "%.3f", 10, true, false },
	{ "gb_per_s", "GB/s", "%.3f", 9, true, false },
};

const struct compare_metric compare_gds_metrics[3] = {
	{ "gib_per_s", "GiB/s", "%.3f", 9, true, false },
	{ "iops", "IOPS", "%.0f", 10, true, false },
	{ "lat_mean_us", "mean", "%.1f", 9, true, false },
};

const struct compare_metric compare_steady_metrics[3] = {
	{ "rounds", "rounds", "%.0f", 8, false, false },
	{ "reached", "steady", "", 8, false, true },
	{ "mean", "mean", "%.1f", 12, true, false },
};

/* --- checkpoints -------------------------------------------------------- */

static bool checkpoint_of(const struct result_record *rec, unsigned *pass, unsigned *index)
{
	return record_checkpoint(rec, pass, index) && *index > 0 && !rec->partial;
}

/* A later result of the same pass and checkpoint replaces this one. */
static bool replaced_later(const struct compare_drive *drive, unsigned r, unsigned pass,
			   unsigned index)
{
	unsigned p, i;

	for (unsigned k = r + 1; k < drive->nr; k++)
		if (checkpoint_of(&drive->recs[k], &p, &i) && p == pass && i == index)
			return true;
	return false;
}

struct pass_sum {
	unsigned pass, count;
	double seconds, bytes;
};

static int add_to_pass(struct pass_sum **sums, unsigned *n, unsigned pass,
		       const struct result_record *rec)
{
	unsigned i;

	for (i = 0; i < *n && (*sums)[i].pass != pass; i++)
		;
	if (i == *n) {
		struct pass_sum *grown = realloc(*sums, (*n + 1) * sizeof(*grown));

		if (!grown)
			return err_set("compare: out of memory");
		*sums = grown;
		grown[(*n)++] = (struct pass_sum){ .pass = pass };
	}
	(*sums)[i].count++;
	(*sums)[i].seconds += (double)rec->runtime_ns / 1e9;
	(*sums)[i].bytes += (double)(rec->dir[DIR_READ].bytes + rec->dir[DIR_WRITE].bytes);
	return 0;
}

int compare_add_checkpoints(struct compare_block *b, unsigned d,
			    const struct compare_drive *drive)
{
	struct pass_sum *sums = NULL;
	unsigned n = 0, pass, index;
	int rc = 0;

	for (unsigned r = 0; rc == 0 && r < drive->nr; r++)
		if (checkpoint_of(&drive->recs[r], &pass, &index) &&
		    !replaced_later(drive, r, pass, index))
			rc = add_to_pass(&sums, &n, pass, &drive->recs[r]);
	for (unsigned i = 0; rc == 0 && i < n; i++) {
		struct compare_key k = { .pass = sums[i].pass };
		struct compare_row *row = compare_block_row(b, &k);
		double v[3] = { sums[i].count, sums[i].seconds / sums[i].count,
				sums[i].seconds > 0 ? sums[i].bytes / 1e9 / sums[i].seconds : NAN };

		if (!row)
			rc = -1;
		else
			compare_cell_set(row, d, v, 3);
	}
	free(sums);
	return rc;
}

/* --- GDS points --------------------------------------------------------- */

int compare_add_gds(struct compare_block *b, unsigned d, const struct compare_drive *drive)
{
	char xfer[16], mode[16];

	for (unsigned r = 0; r < drive->nr; r++) {
		const struct result_record *rec = &drive->recs[r];

		if (rec->partial || !record_gds(rec, xfer, sizeof(xfer), mode, sizeof(mode)))
			continue;
		for (int dir = 0; dir < DIR_COUNT; dir++) {
			const struct dir_record *dr = &rec->dir[dir];
			struct compare_key k = { .bs = rec->bs, .dir = dir,
						 .numjobs = rec->numjobs ? rec->numjobs : 1 };
			double v[3] = { dr->bw_bytes / (double)(1ull << 30), dr->iops,
					dr->lat.n ? dr->lat.mean / 1000.0 : NAN };
			struct compare_row *row;

			if (dr->ios == 0 && dr->bytes == 0)
				continue;
			snprintf(k.rw, sizeof(k.rw), "%s", rec->rw);
			snprintf(k.xfer, sizeof(k.xfer), "%s", xfer);
			if (!(row = compare_block_row(b, &k)))
				return -1;
			compare_cell_set(row, d, v, 3);   /* a later point replaces */
		}
	}
	return 0;
}

/* --- steady state ------------------------------------------------------- */

const char *compare_steady_unit(const char *metric)
{
	if (!strcmp(metric, "bw_bytes"))
		return "MB/s";
	if (!strcmp(metric, "lat_mean_ns"))
		return "us";
	return "IOPS";
}

static double steady_scale(const char *metric)
{
	if (!strcmp(metric, "bw_bytes"))
		return 1e-6;
	if (!strcmp(metric, "lat_mean_ns"))
		return 1e-3;
	return 1.0;
}

int compare_add_steady(struct compare_block *b, unsigned d, const struct compare_drive *drive)
{
	for (unsigned i = 0; i < drive->nr_steady; i++) {
		const struct report_steady *st = &drive->steady[i];
		struct compare_key k = { 0 };
		double v[3] = { st->nr_rounds, st->reached ? 1 : 0,
				st->nr_rounds ? st->mean * steady_scale(st->metric) : NAN };
		struct compare_row *row;

		snprintf(k.step, sizeof(k.step), "%s", st->step);
		snprintf(k.metric, sizeof(k.metric), "%s", st->metric);
		if (!(row = compare_block_row(b, &k)))
			return -1;
		compare_cell_set(row, d, v, 3);   /* a later run's step replaces */
	}
	return 0;
}
