/* compare_parts.h - what the compare_*.c files share: finding or adding a
 * block's row, and the builders of each kind's rows. Not for other
 * callers; they use compare_table.h. */
#ifndef DRIVEBENCH_COMPARE_PARTS_H
#define DRIVEBENCH_COMPARE_PARTS_H

#include "report/compare/compare_table.h"

extern const struct compare_metric compare_point_metrics[4];
extern const struct compare_metric compare_checkpoint_metrics[3];
extern const struct compare_metric compare_gds_metrics[3];
extern const struct compare_metric compare_steady_metrics[3];

/* Rows of one kind: <0, 0 (the same row), >0, in the order shown. */
int compare_key_cmp(enum compare_kind kind, const struct compare_key *a,
		    const struct compare_key *b);

/* The row of key k, added (no drive present) when the block has none;
 * NULL with err_msg when out of memory. */
struct compare_row *compare_block_row(struct compare_block *b, const struct compare_key *k);

/* Sets drive d's values of a row (a later one replaces an earlier). */
void compare_cell_set(struct compare_row *r, unsigned d, const double *v, unsigned n);

/* Each adds drive d's rows of its kind to b. -1 with err_msg. */
int compare_add_points(struct compare_block *b, unsigned d, const struct compare_drive *drive);
int compare_add_checkpoints(struct compare_block *b, unsigned d,
			    const struct compare_drive *drive);
int compare_add_gds(struct compare_block *b, unsigned d, const struct compare_drive *drive);
int compare_add_steady(struct compare_block *b, unsigned d, const struct compare_drive *drive);

/* The unit a steady step's metric is shown in: "IOPS", "MB/s", "us". */
const char *compare_steady_unit(const char *metric);

#endif
