/* compare_table.c - the compare table: the blocks of every result kind,
 * their rows in order, the rows every drive has, the % against A; and
 * the points block (report_points' view, as report shows it). */
#include "report/compare/compare_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"

const struct compare_metric compare_point_metrics[4] = {
	{ "mbs", "MB/s", "%.1f", 10, true, false },
	{ "iops", "IOPS", "%.0f", 10, true, false },
	{ "lat_mean_us", "mean", "%.1f", 9, true, false },
	{ "p99_us", "p99", "%.1f", 9, true, false },
};

static int cmp_uint(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/* The read-back (pass 0) after every pass. */
static int cmp_pass(unsigned a, unsigned b)
{
	if (a == b)
		return 0;
	if (!a || !b)
		return a ? -1 : 1;
	return a < b ? -1 : 1;
}

/* in the report's order of tests, then the reviews' point order */
static int cmp_points(const struct compare_key *a, const struct compare_key *b)
{
	struct report_point pa = { .rw = a->rw, .bs = a->bs, .dir = a->dir, .section = a->section };
	struct report_point pb = { .rw = b->rw, .bs = b->bs, .dir = b->dir, .section = b->section };
	int c;

	snprintf(pa.mix, sizeof(pa.mix), "%s", a->mix);
	snprintf(pb.mix, sizeof(pb.mix), "%s", b->mix);
	snprintf(pa.group, sizeof(pa.group), "%s", a->group);
	snprintf(pb.group, sizeof(pb.group), "%s", b->group);
	pa.numjobs = a->numjobs;
	pb.numjobs = b->numjobs;
	if ((c = report_test_order(&pa, &pb)))
		return c;
	return report_point_order(a->iodepth, a->numjobs, b->iodepth, b->numjobs);
}

static int cmp_gds(const struct compare_key *a, const struct compare_key *b)
{
	int c = strcmp(a->rw, b->rw);

	if (c || (c = strcmp(a->xfer, b->xfer)) || (c = cmp_uint(a->bs, b->bs)) ||
	    (c = cmp_uint(a->numjobs, b->numjobs)))
		return c;
	return a->dir - b->dir;
}

int compare_key_cmp(enum compare_kind kind, const struct compare_key *a,
		    const struct compare_key *b)
{
	int c;

	switch (kind) {
	case COMPARE_POINTS:
		return cmp_points(a, b);
	case COMPARE_CHECKPOINTS:
		return cmp_pass(a->pass, b->pass);
	case COMPARE_GDS:
		return cmp_gds(a, b);
	default:
		c = strcmp(a->step, b->step);
		return c ? c : strcmp(a->metric, b->metric);
	}
}

/* Where key k is or belongs: rows of every kind but steady steps are kept
 * in order; steady steps stay in the order the drives ran them. */
static unsigned row_slot(const struct compare_block *b, const struct compare_key *k,
			 bool *found)
{
	unsigned i;

	for (i = 0; i < b->nr_rows; i++) {
		int c = compare_key_cmp(b->kind, &b->rows[i].key, k);

		if (!c || (c > 0 && b->kind != COMPARE_STEADY))
			break;
	}
	*found = i < b->nr_rows && !compare_key_cmp(b->kind, &b->rows[i].key, k);
	return i;
}

struct compare_row *compare_block_row(struct compare_block *b, const struct compare_key *k)
{
	struct compare_row *rows;
	bool found;
	unsigned i = row_slot(b, k, &found);

	if (found)
		return &b->rows[i];
	rows = realloc(b->rows, (b->nr_rows + 1) * sizeof(*rows));
	if (!rows) {
		err_set("compare: out of memory");
		return NULL;
	}
	b->rows = rows;
	memmove(&rows[i + 1], &rows[i], (b->nr_rows - i) * sizeof(rows[0]));
	memset(&rows[i], 0, sizeof(rows[0]));
	rows[i].key = *k;
	b->nr_rows++;
	return &rows[i];
}

void compare_cell_set(struct compare_row *r, unsigned d, const double *v, unsigned n)
{
	struct compare_cell *c = &r->cells[d];

	c->present = true;
	for (unsigned m = 0; m < COMPARE_MAX_METRICS; m++)
		c->v[m] = m < n ? v[m] : NAN;
}

/* Steady-state rounds have their own block: they are not points. */
static bool steady_round(const struct result_record *rec)
{
	return !strcmp(rec->step_kind, "steady");
}

int compare_add_points(struct compare_block *b, unsigned d, const struct compare_drive *drive)
{
	struct result_record *recs = calloc(drive->nr + 1, sizeof(*recs));
	struct report_point *pts = NULL;
	unsigned nr = 0, n = 0;
	int rc = -1;

	if (!recs)
		return err_set("compare: out of memory");
	for (unsigned r = 0; r < drive->nr; r++)
		if (!steady_round(&drive->recs[r]))
			recs[nr++] = drive->recs[r];   /* shallow: only read */
	if (report_points(recs, nr, &pts, &n) < 0)
		goto done;
	for (unsigned i = 0; i < n; i++) {
		const struct report_point *p = &pts[i];
		struct compare_key k = { .bs = p->bs, .dir = p->dir, .iodepth = p->iodepth,
					 .numjobs = p->numjobs };
		double v[4] = { p->mbs, p->iops, p->lat_mean_us, p->p99_us };
		struct compare_row *row;

		snprintf(k.rw, sizeof(k.rw), "%s", p->rw);
		snprintf(k.mix, sizeof(k.mix), "%s", p->mix);
		k.section = p->section;
		snprintf(k.group, sizeof(k.group), "%s", p->group);
		if (!(row = compare_block_row(b, &k)))
			goto done;
		compare_cell_set(row, d, v, 4);
	}
	rc = 0;
done:
	free(pts);
	free(recs);
	return rc;
}

/* The rows every drive has. */
static unsigned shared_rows(const struct compare_block *b, unsigned nr_drives)
{
	unsigned shared = 0;

	for (unsigned i = 0; i < b->nr_rows; i++) {
		unsigned d = 0;

		while (d < nr_drives && b->rows[i].cells[d].present)
			d++;
		shared += d == nr_drives;
	}
	return shared;
}

typedef int (*add_fn)(struct compare_block *, unsigned, const struct compare_drive *);

static const struct {
	add_fn add;
	const struct compare_metric *metrics;
	unsigned nr_metrics;
} kinds[COMPARE_KINDS] = {
	[COMPARE_POINTS] = { compare_add_points, compare_point_metrics, 4 },
	[COMPARE_CHECKPOINTS] = { compare_add_checkpoints, compare_checkpoint_metrics, 3 },
	[COMPARE_GDS] = { compare_add_gds, compare_gds_metrics, 3 },
	[COMPARE_STEADY] = { compare_add_steady, compare_steady_metrics, 3 },
};

int compare_table_build(const struct compare_drive *drives, unsigned nr,
			struct compare_table *t)
{
	memset(t, 0, sizeof(*t));
	if (nr < COMPARE_MIN_DRIVES || nr > COMPARE_MAX_DRIVES)
		return err_set("compare takes %d to %d drives, not %u", COMPARE_MIN_DRIVES,
			       COMPARE_MAX_DRIVES, nr);
	t->nr_drives = nr;
	for (unsigned d = 0; d < nr; d++)
		snprintf(t->names[d], sizeof(t->names[d]), "%s", drives[d].name);
	for (unsigned k = 0; k < COMPARE_KINDS; k++) {
		struct compare_block *b = &t->blocks[t->nr_blocks];

		b->kind = (enum compare_kind)k;
		b->metrics = kinds[k].metrics;
		b->nr_metrics = kinds[k].nr_metrics;
		for (unsigned d = 0; d < nr; d++)
			if (kinds[k].add(b, d, &drives[d]) < 0) {
				t->nr_blocks++;   /* freed with the others */
				return -1;
			}
		if (!b->nr_rows) {
			free(b->rows);
			memset(b, 0, sizeof(*b));
			continue;
		}
		b->shared = shared_rows(b, nr);
		t->nr_blocks++;
	}
	return 0;
}

void compare_table_free(struct compare_table *t)
{
	for (unsigned i = 0; i < t->nr_blocks; i++)
		free(t->blocks[i].rows);
	memset(t, 0, sizeof(*t));
}

const struct compare_block *compare_table_block(const struct compare_table *t,
						enum compare_kind kind)
{
	for (unsigned i = 0; i < t->nr_blocks; i++)
		if (t->blocks[i].kind == kind)
			return &t->blocks[i];
	return NULL;
}

double compare_diff(const struct compare_block *b, const struct compare_row *r,
		    unsigned drive, unsigned metric)
{
	const struct compare_cell *a = &r->cells[0], *x = &r->cells[drive];

	if (metric >= b->nr_metrics || !b->metrics[metric].diff || !a->present ||
	    !x->present)
		return NAN;
	return report_pct_diff(x->v[metric], a->v[metric]);
}

const char *compare_kind_key(enum compare_kind kind)
{
	static const char *const keys[COMPARE_KINDS] = { "points", "checkpoints", "gds",
							 "steady" };

	return kind < COMPARE_KINDS ? keys[kind] : "";
}

const char *compare_kind_title(enum compare_kind kind)
{
	static const char *const titles[COMPARE_KINDS] = {
		"Points: sweeps and single points",
		"Checkpoints: DLIO checkpoint passes",
		"GDS points: gdsio-style sweeps",
		"Steady state: SNIA PTS steady-state steps",
	};

	return kind < COMPARE_KINDS ? titles[kind] : "";
}
