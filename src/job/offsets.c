/* offsets.c - random offset generators (uniform, full-period permutation,
 * zipf, pareto, normal, zoned, zoned_abs) over block indexes, the keyed
 * Feistel bijection behind the permutation and the hot-block scatter, and
 * the bssplit block-size picker. No allocation; O(1) per call. */
#include "job/offsets.h"
#include "job/sprandom_job.h"

#include <math.h>
#include <string.h>

#include "util/error.h"

#define TWO_POW_53 (1ULL << 53)
/* Shares must add up to 100 within this (percent points). */
#define PCT_SUM_SLACK 0.01
/* Keys of the scatter bijection: fixed, so the hot set of a distribution
 * depends only on nr_blocks, the same for every clone and every run. */
#define SCATTER_SEED 0x5ca77e2b10c5ULL

/* ---- keyed Feistel bijection ------------------------------------------
 * [0, n) is laid out as a rows x cols grid (x = row * cols + col, both
 * about sqrt(n), rows * cols - n < cols). Each round adds a keyed hash of
 * one coordinate to the other, modulo its size: every step can be undone
 * by subtracting, so the whole is a bijection of the grid (a Feistel
 * network over Z_rows x Z_cols, as in format-preserving encryption). The
 * few grid cells past n are skipped by cycle walking, which is rare: under
 * 1 / rows of the cells. No division except to split a rank into a cell. */

static void feistel_rekey(struct feistel *f, struct rng *key_source)
{
	for (int i = 0; i < FEISTEL_ROUNDS; i++)
		f->keys[i] = rng_next(key_source);
}

static void feistel_init(struct feistel *f, uint64_t n, struct rng *key_source)
{
	uint64_t cols = (uint64_t)sqrt((double)n);

	/* exact ceil(sqrt(n)), at most 2^32 */
	while ((unsigned __int128)cols * cols < n)
		cols++;
	while (cols > 1 && (unsigned __int128)(cols - 1) * (cols - 1) >= n)
		cols--;
	f->n = n;
	f->cols = cols;
	f->rows = n / cols + (n % cols != 0);
	f->last_row_len = n - (f->rows - 1) * cols;
	feistel_rekey(f, key_source);
}

/* A keyed hash of one coordinate (< 2^32), reduced to [0, size) by
 * multiply-shift (Lemire) instead of a modulo. */
static inline uint64_t feistel_round(uint64_t coordinate, uint64_t key, uint64_t size)
{
	uint64_t hash = (coordinate ^ key) * 0x9e3779b97f4a7c15ULL;

	hash ^= hash >> 32;
	hash = (hash * 0xd6e8feb86659fd93ULL) >> 32;

	return (hash * size) >> 32;
}

static inline void feistel_permute(const struct feistel *f, uint64_t *row, uint64_t *col)
{
	uint64_t r = *row, c = *col;

	for (int i = 0; i < FEISTEL_ROUNDS; i += 2) {
		r += feistel_round(c, f->keys[i], f->rows);
		if (r >= f->rows)
			r -= f->rows;
		c += feistel_round(r, f->keys[i + 1], f->cols);
		if (c >= f->cols)
			c -= f->cols;
	}
	*row = r;
	*col = c;
}

/* The image of grid cell (row, col), which must lie in [0, n). Cycle
 * walking: re-applying the bijection until the cell is back inside [0, n)
 * restricts it to a bijection of [0, n). */
static inline uint64_t feistel_map_cell(const struct feistel *f, uint64_t row, uint64_t col)
{
	do
		feistel_permute(f, &row, &col);
	while (row == f->rows - 1 && col >= f->last_row_len);
	return row * f->cols + col;
}

static inline uint64_t feistel_map(const struct feistel *f, uint64_t x)
{
	return feistel_map_cell(f, x / f->cols, x % f->cols);
}

/* ---- zipf: rejection-inversion (Hoermann & Derflinger 1996) ------------
 * Samples k in [1, n] with P(k) ~ k^-theta, any theta > 0, in O(1); the
 * formulation follows Apache Commons RNG's RejectionInversionZipfSampler. */

/* log(1 + x) / x, stable near 0 */
static double zipf_helper1(double x)
{
	if (fabs(x) > 1e-8)
		return log1p(x) / x;
	return 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
}

/* (exp(x) - 1) / x, stable near 0 */
static double zipf_helper2(double x)
{
	if (fabs(x) > 1e-8)
		return expm1(x) / x;
	return 1 + x * 0.5 * (1 + x / 3 * (1 + 0.25 * x));
}

static double zipf_h(double theta, double x)
{
	return exp(-theta * log(x));
}

static double zipf_h_integral(double theta, double x)
{
	double log_x = log(x);

	return zipf_helper2((1 - theta) * log_x) * log_x;
}

static double zipf_h_integral_inverse(double theta, double x)
{
	double t = x * (1 - theta);

	if (t < -1)
		t = -1;
	return exp(zipf_helper1(t) * x);
}

static void zipf_init(struct offset_gen *g, double theta)
{
	g->zipf_theta = theta;
	g->zipf_h_x1 = zipf_h_integral(theta, 1.5) - 1;
	g->zipf_h_n = zipf_h_integral(theta, (double)g->nr_blocks + 0.5);
	g->zipf_s = 2 - zipf_h_integral_inverse(theta,
			zipf_h_integral(theta, 2.5) - zipf_h(theta, 2));
}

/* rank in [0, nr_blocks), 0 the most frequent */
static uint64_t zipf_next_rank(struct offset_gen *g)
{
	double theta = g->zipf_theta, n = (double)g->nr_blocks;

	for (;;) {
		double u = g->zipf_h_n + rng_unit(&g->rng) * (g->zipf_h_x1 - g->zipf_h_n);
		double x = zipf_h_integral_inverse(theta, u);
		double k = floor(x + 0.5);

		if (k < 1)
			k = 1;
		else if (k > n)
			k = n;
		if (k - x <= g->zipf_s ||
		    u >= zipf_h_integral(theta, k + 0.5) - zipf_h(theta, k)) {
			uint64_t rank = (uint64_t)k - 1;
			/* n near 2^64 rounds in double; keep the result in range */
			return rank < g->nr_blocks ? rank : g->nr_blocks - 1;
		}
	}
}

/* ---- pareto and normal ------------------------------------------------- */

/* fio's pareto: (N - 1) * u^(log h / log(1 - h)) */
static uint64_t pareto_next_rank(struct offset_gen *g)
{
	double value = (double)(g->nr_blocks - 1) * pow(rng_unit(&g->rng), g->pareto_power);
	uint64_t rank = (uint64_t)value;

	return rank < g->nr_blocks ? rank : g->nr_blocks - 1;
}

/* Standard normal deviate, Marsaglia's polar method (pairs). */
static double normal_deviate(struct offset_gen *g)
{
	double u, v, s;

	if (g->normal_has_spare) {
		g->normal_has_spare = 0;
		return g->normal_spare;
	}
	do {
		u = 2 * rng_unit(&g->rng) - 1;
		v = 2 * rng_unit(&g->rng) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	double scale = sqrt(-2 * log(s) / s);

	g->normal_spare = v * scale;
	g->normal_has_spare = 1;
	return u * scale;
}

/* Gaussian around the middle of the range; a value that falls outside is
 * folded back in (reflected at the ends), so one draw always suffices. */
static uint64_t normal_next_rank(struct offset_gen *g)
{
	double n = (double)g->nr_blocks, period = 2 * n;
	double x = g->normal_centre + g->normal_sigma * normal_deviate(g);

	if (x < 0 || x >= n) {
		x = fmod(x, period);
		if (x < 0)
			x += period;
		if (x >= n)
			x = period - x;
	}
	uint64_t rank = (uint64_t)x;

	return rank < g->nr_blocks ? rank : g->nr_blocks - 1;
}

/* ---- zoned -------------------------------------------------------------- */

/* Turns cumulative access shares into 53-bit thresholds; the last zone
 * that has accesses ends at 2^53 so rounding never leaves a gap. */
static void zones_set_thresholds(struct offset_gen *g, const double *access, double total)
{
	double cumulative = 0;

	for (unsigned i = 0; i < g->nr_zones; i++) {
		cumulative += access[i];
		g->zone_threshold[i] = (uint64_t)(cumulative / total * (double)TWO_POW_53);
	}
	g->zone_threshold[g->nr_zones - 1] = TWO_POW_53;
}

static int check_pct(const char *what, unsigned zone, double pct)
{
	if (!(pct >= 0 && pct <= 100))   /* also rejects NaN */
		return err_set("random_distribution: zone %u: %s %g%% is not in 0..100",
			       zone + 1, what, pct);
	return 0;
}

static int check_sum(const char *what, double sum)
{
	if (fabs(sum - 100) > PCT_SUM_SLACK)
		return err_set("random_distribution: zone %s shares add up to %g%%, not 100%%",
			       what, sum);
	return 0;
}

static int zoned_init(struct offset_gen *g, const struct distribution *d,
		      uint64_t block_bytes)
{
	double access[ZONES_MAX];
	double access_sum = 0, range_sum = 0, range_before = 0;
	uint64_t bytes_before = 0;
	int absolute = d->kind == DIST_ZONED_ABS;

	if (d->nr_zones == 0 || d->nr_zones > ZONES_MAX)
		return err_set("random_distribution: %s needs 1 to %d zones, got %u",
			       absolute ? "zoned_abs" : "zoned", ZONES_MAX, d->nr_zones);
	if (absolute && block_bytes == 0)
		return err_set("random_distribution: zoned_abs needs the block size");
	for (unsigned i = 0; i < d->nr_zones; i++) {
		if (check_pct("access", i, d->zones[i].access_pct) ||
		    (!absolute && check_pct("range", i, d->zones[i].range_pct)))
			return -1;
		access_sum += d->zones[i].access_pct;
		range_sum += d->zones[i].range_pct;
	}
	if (check_sum("access", access_sum) || (!absolute && check_sum("range", range_sum)))
		return -1;

	g->nr_zones = 0;
	for (unsigned i = 0; i < d->nr_zones; i++) {
		const struct zone *z = &d->zones[i];
		uint64_t start, end;

		if (absolute) {
			if (z->access_pct > 0 && z->size < block_bytes)
				return err_set("random_distribution: zoned_abs zone %u (%llu bytes) "
					       "is smaller than a block (%llu bytes)", i + 1,
					       (unsigned long long)z->size,
					       (unsigned long long)block_bytes);
			if (z->size > UINT64_MAX - bytes_before)
				return err_set("random_distribution: zoned_abs zone sizes overflow");
			uint64_t end_bytes = bytes_before + z->size;

			/* the range is nr_blocks whole blocks; a zone may not reach
			 * past its last byte */
			if (end_bytes / block_bytes > g->nr_blocks ||
			    (end_bytes / block_bytes == g->nr_blocks && end_bytes % block_bytes))
				return err_set("random_distribution: zoned_abs zones end at byte "
					       "%llu, past the range (%llu blocks of %llu bytes)",
					       (unsigned long long)end_bytes,
					       (unsigned long long)g->nr_blocks,
					       (unsigned long long)block_bytes);
			start = bytes_before / block_bytes;
			end = end_bytes / block_bytes;
			bytes_before = end_bytes;
		} else {
			double before = range_before;

			range_before += z->range_pct;
			if (z->access_pct > 0 && z->range_pct == 0)
				return err_set("random_distribution: zone %u has accesses "
					       "but no range", i + 1);
			start = (uint64_t)(before / 100 * (double)g->nr_blocks);
			end = i + 1 == d->nr_zones ? g->nr_blocks :
				(uint64_t)(range_before / 100 * (double)g->nr_blocks);
			if (start >= g->nr_blocks)
				start = g->nr_blocks - 1;
			if (end > g->nr_blocks)
				end = g->nr_blocks;
			/* a zone too small for a whole block still gets one, so
			 * its accesses go where the user put them */
			if (end <= start)
				end = start + 1;
		}
		if (z->access_pct <= 0)
			continue;
		access[g->nr_zones] = z->access_pct;
		g->zone_start[g->nr_zones] = start;
		g->zone_len[g->nr_zones] = end - start;
		g->nr_zones++;
	}
	zones_set_thresholds(g, access, access_sum);
	return 0;
}

/* ---- the generator ------------------------------------------------------ */

static uint64_t direction_unit(const struct job_spec *spec, int dir)
{
	uint64_t unit = 0;

	if (spec->blockalign[dir])
		return spec->blockalign[dir];
	for (unsigned i = 0; i < spec->bssplit_nr[dir] && i < BSSPLIT_MAX; i++)
		if (spec->bssplit[dir][i].bs && (!unit || spec->bssplit[dir][i].bs < unit))
			unit = spec->bssplit[dir][i].bs;
	return unit ? unit : spec->bs[dir];
}

uint64_t offset_block_bytes(const struct job_spec *spec)
{
	int reads = spec->rw != RW_WRITE && spec->rw != RW_RANDWRITE;
	int writes = spec->rw != RW_READ && spec->rw != RW_RANDREAD;
	uint64_t read_unit = reads ? direction_unit(spec, DIR_READ) : 0;
	uint64_t write_unit = writes ? direction_unit(spec, DIR_WRITE) : 0;

	if (!read_unit)
		return write_unit;
	if (!write_unit)
		return read_unit;
	return read_unit < write_unit ? read_unit : write_unit;
}

int offset_gen_init(struct offset_gen *g, const struct job_spec *spec,
		    uint64_t nr_blocks, uint64_t seed)
{
	return offset_gen_init_unit(g, spec, nr_blocks, offset_block_bytes(spec), seed);
}

int offset_gen_init_unit(struct offset_gen *g, const struct job_spec *spec,
			 uint64_t nr_blocks, uint64_t block_bytes, uint64_t seed)
{
	const struct distribution *d = &spec->distribution;
	struct rng scatter_keys;

	memset(g, 0, sizeof(*g));
	if (nr_blocks == 0)
		return err_set("random offsets: the range holds no whole block");
	g->nr_blocks = nr_blocks;
	rng_seed(&g->rng, seed);
	rng_seed(&scatter_keys, SCATTER_SEED);
	feistel_init(&g->scatter, nr_blocks, &scatter_keys);

	switch (d->kind) {
	case DIST_RANDOM:
		/* fio keeps a map of blocks done unless norandommap; lfsr is
		 * full-period by construction. Both mean: every block once. */
		if (spec->norandommap && spec->random_generator != RANDGEN_LFSR) {
			g->kind = OFFSET_UNIFORM;
		} else {
			g->kind = OFFSET_PERMUTATION;
			feistel_init(&g->pass_order, nr_blocks, &g->rng);
		}
		return 0;
	case DIST_ZIPF:
		if (!(d->param > 0) || !isfinite(d->param))
			return err_set("random_distribution: zipf theta must be > 0, got %g", d->param);
		g->kind = OFFSET_ZIPF;
		zipf_init(g, d->param);
		return 0;
	case DIST_PARETO:
		if (!(d->param > 0 && d->param < 1))
			return err_set("random_distribution: pareto h must be between 0 and 1 "
				       "(exclusive), got %g", d->param);
		g->kind = OFFSET_PARETO;
		g->pareto_power = log(d->param) / log(1 - d->param);
		return 0;
	case DIST_NORMAL:
		if (!(d->param > 0) || !isfinite(d->param))
			return err_set("random_distribution: normal sigma must be > 0%% of the "
				       "range, got %g", d->param);
		g->kind = OFFSET_NORMAL;
		g->normal_centre = (double)nr_blocks / 2;
		g->normal_sigma = d->param / 100 * (double)nr_blocks;
		return 0;
	case DIST_ZONED:
	case DIST_ZONED_ABS:
		g->kind = OFFSET_ZONED;
		return zoned_init(g, d, block_bytes);
	case DIST_SEQUENCE:
		g->kind = OFFSET_SEQUENCE;
		g->sequence = spec->pacing.sequence;
		g->nr_sequence = spec->pacing.nr_sequence;
		g->sequence_stride = spec->pacing.sequence_stride;
		if (!g->nr_sequence)
			return err_set("random_distribution: sequence needs block indices");
		/* fio's check: a base index past the range is an error */
		for (unsigned i = 0; i < g->nr_sequence; i++)
			if (g->sequence[i] >= nr_blocks)
				return err_set("random_distribution: sequence block %u is out of "
					       "bounds (the range holds %llu blocks)",
					       g->sequence[i], (unsigned long long)nr_blocks);
		return 0;
	}
	return err_set("random_distribution: unknown kind %d", (int)d->kind);
}

uint64_t offset_gen_scatter(const struct offset_gen *g, uint64_t rank)
{
	return feistel_map(&g->scatter, rank);
}

void offset_gen_on_pass_end(struct offset_gen *g, void (*fn)(void *), void *arg)
{
	g->on_pass_end = fn;
	g->on_pass_arg = arg;
}

uint64_t offset_gen_next(struct offset_gen *g)
{
	switch (g->kind) {
	case OFFSET_UNIFORM:
		return rng_below(&g->rng, g->nr_blocks);
	case OFFSET_PERMUTATION:
		if (g->pass_position == g->nr_blocks) {
			g->pass_position = g->pass_row = g->pass_col = 0;
			g->passes++;
			feistel_rekey(&g->pass_order, &g->rng);
			if (g->on_pass_end)
				g->on_pass_end(g->on_pass_arg);
		}
		/* the pass position kept as a grid cell: no division */
		uint64_t row = g->pass_row, col = g->pass_col;

		g->pass_position++;
		if (++g->pass_col == g->pass_order.cols) {
			g->pass_col = 0;
			g->pass_row++;
		}
		return feistel_map_cell(&g->pass_order, row, col);
	case OFFSET_ZIPF:
		return feistel_map(&g->scatter, zipf_next_rank(g));
	case OFFSET_PARETO:
		return feistel_map(&g->scatter, pareto_next_rank(g));
	case OFFSET_NORMAL:
		return feistel_map(&g->scatter, normal_next_rank(g));
	case OFFSET_ZONED: {
		uint64_t draw = rng_next(&g->rng) >> 11;
		unsigned i = 0;

		while (draw >= g->zone_threshold[i])
			i++;
		return g->zone_start[i] + rng_below(&g->rng, g->zone_len[i]);
	}
	case OFFSET_SPRANDOM:
		return spr_gen_next(g->spr);
	case OFFSET_SEQUENCE: {
		/* fio: the I/O count picks the element; with stride each pass
		 * over the list is a group of nr_sequence blocks further on */
		uint64_t n = g->sequence_count++, at = n % g->nr_sequence;
		uint64_t block = g->sequence[at];

		if (g->sequence_stride)
			block += n / g->nr_sequence * g->nr_sequence;
		return block < g->nr_blocks ? block : OFFSET_SEQUENCE_END;
	}
	}
	return 0;
}

uint64_t offset_gen_next_rank(struct offset_gen *g)
{
	switch (g->kind) {
	case OFFSET_ZIPF:
		return zipf_next_rank(g);
	case OFFSET_PARETO:
		return pareto_next_rank(g);
	case OFFSET_NORMAL:
		return normal_next_rank(g);
	default:
		return offset_gen_next(g);
	}
}

bool offset_gen_pass_done(const struct offset_gen *g)
{
	return g->kind == OFFSET_PERMUTATION && g->pass_position == g->nr_blocks;
}

/* ---- block sizes -------------------------------------------------------- */

int bs_picker_init(struct bs_picker *p, const struct bssplit_entry *e,
		   unsigned nr, uint64_t fixed_bs)
{
	struct bssplit_entry sorted[BSSPLIT_MAX];
	unsigned used = 0;
	double total = 0, cumulative = 0;

	memset(p, 0, sizeof(*p));
	if (nr == 0) {
		if (fixed_bs == 0)
			return err_set("bs: block size must be > 0");
		p->nr = 1;
		p->bs[0] = fixed_bs;
		p->threshold[0] = TWO_POW_53;
		return 0;
	}
	if (nr > BSSPLIT_MAX)
		return err_set("bssplit: %u entries, at most %d", nr, BSSPLIT_MAX);
	for (unsigned i = 0; i < nr; i++) {
		if (e[i].bs == 0)
			return err_set("bssplit: entry %u has block size 0", i + 1);
		if (!(e[i].pct >= 0 && e[i].pct <= 100))
			return err_set("bssplit: entry %u: %g%% is not in 0..100", i + 1, e[i].pct);
		total += e[i].pct;
		if (e[i].pct == 0)
			continue;   /* never chosen */
		/* insertion sort by descending share keeps the common scan short */
		unsigned at = used++;
		while (at > 0 && sorted[at - 1].pct < e[i].pct) {
			sorted[at] = sorted[at - 1];
			at--;
		}
		sorted[at] = e[i];
	}
	if (fabs(total - 100) > PCT_SUM_SLACK)
		return err_set("bssplit: percentages add up to %g%%, not 100%%", total);
	p->nr = used;
	for (unsigned i = 0; i < used; i++) {
		cumulative += sorted[i].pct;
		p->bs[i] = sorted[i].bs;
		p->threshold[i] = (uint64_t)(cumulative / total * (double)TWO_POW_53);
	}
	p->threshold[used - 1] = TWO_POW_53;
	return 0;
}
