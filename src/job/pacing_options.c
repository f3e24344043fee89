/* pacing_options.c - the setters of the pacing, shape and job-control
 * options (the table is pacing_options.h's), their defaults and their
 * cross-checks against the rest of a job: per-direction rates, startdelay
 * ranges, bsrange, rw offset modifiers, the sequence distribution,
 * strided zones and wait_for. fio's value syntax throughout. */
#include "job/pacing_options.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/job_spec.h"
#include "job/options.h"

#define DEFAULT_RATE_CYCLE_NS NS_PER_SEC

void pacing_defaults(struct job_pacing *p)
{
	memset(p, 0, sizeof(*p));
	p->loops = 1;
	p->zone_reset_threshold = 1.0;
	p->thinktime_blocks = 1;
	p->rate_cycle_ns = DEFAULT_RATE_CYCLE_NS;
	p->latency_percentile = 100.0;
	p->rand_seq_nr = 1;
}

/* "A[,B[,C]]" for read, write and trim, fio's blocksize rule: an empty
 * part keeps that direction, and a value not followed by a comma applies
 * to the directions after it. parse_one turns one part into a number. */
static int per_direction(struct job_spec *spec, const char *value, uint64_t out[DIR_ALL],
			 int (*parse_one)(struct job_spec *, const char *, uint64_t *))
{
	char parts[4][256];
	int count = split_text(value, ',', parts, 4);
	uint64_t result[DIR_ALL];

	if (count < 1 || count > DIR_ALL)
		return err_set("bad value '%s' (want READ[,WRITE[,TRIM]])", value);
	memcpy(result, out, sizeof(result));
	for (int i = 0; i < count; i++) {
		uint64_t v;

		if (!parts[i][0] && count > 1)
			continue;
		if (parse_one(spec, parts[i], &v))
			return -1;
		for (int d = i; d < (i == count - 1 ? DIR_ALL : i + 1); d++)
			result[d] = v;
	}
	memcpy(out, result, sizeof(result));
	return 0;
}

/* bytes per second: a size with fio's suffixes (rate=1m is 1 MiB/s) */
static int parse_rate_bytes(struct job_spec *spec, const char *text, uint64_t *out)
{
	if (parse_size(text, spec->kb_base, out))
		return -1;
	return units_check_range(*out, 0, SIZE_LIMIT, UNITS_BYTES, text);
}

static int parse_rate_iops(struct job_spec *spec, const char *text, uint64_t *out)
{
	(void)spec;
	if (parse_u64_plain(text, out))
		return err_set("bad number '%s'", text);
	return units_check_range(*out, 0, UINT32_MAX, UNITS_COUNT, text);
}

int pacing_set_rate(struct job_spec *spec, const char *value)
{
	return per_direction(spec, value, spec->pacing.rate, parse_rate_bytes);
}

int pacing_set_rate_min(struct job_spec *spec, const char *value)
{
	return per_direction(spec, value, spec->pacing.rate_min, parse_rate_bytes);
}

int pacing_set_rate_iops(struct job_spec *spec, const char *value)
{
	return per_direction(spec, value, spec->pacing.rate_iops, parse_rate_iops);
}

int pacing_set_rate_iops_min(struct job_spec *spec, const char *value)
{
	return per_direction(spec, value, spec->pacing.rate_iops_min, parse_rate_iops);
}

/* fio's named values; on a match *out is set, else the error lists them */
static int pick_name(const char *value, const char *const *names, unsigned nr,
		     unsigned *out)
{
	char list[256] = "";
	size_t used = 0;

	for (unsigned i = 0; i < nr; i++) {
		if (!strcmp(value, names[i])) {
			*out = i;
			return 0;
		}
		used += (size_t)snprintf(list + used, sizeof(list) - used, "%s%s",
					 i ? ", " : "", names[i]);
	}
	return err_set("bad value '%s' (%s)", value, list);
}

#define PICK(value, names, out) pick_name(value, names, sizeof(names) / sizeof(names[0]), out)

int pacing_set_rate_process(struct job_spec *spec, const char *value)
{
	static const char *const names[] = { "linear", "poisson" };
	unsigned i;

	if (PICK(value, names, &i))
		return -1;
	spec->pacing.rate_process = (enum rate_process)i;
	return 0;
}

int pacing_set_thinktime_blocks_type(struct job_spec *spec, const char *value)
{
	static const char *const names[] = { "complete", "issue" };
	unsigned i;

	if (PICK(value, names, &i))
		return -1;
	spec->pacing.thinktime_blocks_type = (enum think_blocks)i;
	return 0;
}

int pacing_set_submit_mode(struct job_spec *spec, const char *value)
{
	static const char *const names[] = { "inline", "offload" };
	unsigned i;

	if (PICK(value, names, &i))
		return -1;
	spec->pacing.submit_mode = (enum submit_mode)i;
	return 0;
}

int pacing_set_rw_sequencer(struct job_spec *spec, const char *value)
{
	static const char *const names[] = { "sequential", "identical" };
	unsigned i;

	if (PICK(value, names, &i))
		return -1;
	spec->pacing.rw_sequencer = (enum rw_sequencer)i;
	return 0;
}

int pacing_set_exit_what(struct job_spec *spec, const char *value)
{
	static const char *const names[] = { "group", "stonewall", "all" };
	unsigned i;

	if (PICK(value, names, &i))
		return -1;
	spec->pacing.exit_what = (enum exit_what)i;
	return 0;
}

/* zonemode=zbd: writes at the zones' write pointers of a zoned block
 * device (run/zbd.h) */
int pacing_set_zonemode(struct job_spec *spec, const char *value)
{
	static const char *const names[] = { "none", "strided", "zbd" };
	static const enum zone_mode modes[] = { ZONE_MODE_NONE, ZONE_MODE_STRIDED,
						ZONE_MODE_ZBD };
	unsigned i;

	if (PICK(value, names, &i))
		return -1;
	spec->pacing.zonemode = modes[i];
	return 0;
}

/* a ratio 0..1 (zone_reset_threshold, zone_reset_frequency) */
static int set_ratio(double *out, const char *value)
{
	char *end;
	double v = strtod(value, &end);

	if (end == value || *end || !(v >= 0 && v <= 1))
		return err_set("'%s' is not a number from 0 to 1", value);
	*out = v;
	return 0;
}

/* fio's other zonemode=zbd options: an error, never ignored */
int pacing_zbd_unsupported(struct job_spec *spec, const char *value)
{
	(void)spec;
	(void)value;
	return err_set("fio's zonemode=zbd option is not supported here (supported: "
		       "max_open_zones, zone_reset_threshold, zone_reset_frequency)");
}

int pacing_set_zone_reset_threshold(struct job_spec *spec, const char *value)
{
	return set_ratio(&spec->pacing.zone_reset_threshold, value);
}

int pacing_set_zone_reset_frequency(struct job_spec *spec, const char *value)
{
	return set_ratio(&spec->pacing.zone_reset_frequency, value);
}

/* startdelay=T or T1-T2 (seconds unless a unit is given) */
int pacing_set_startdelay(struct job_spec *spec, const char *value)
{
	char parts[3][256];
	int count = split_text(value, '-', parts, 3);
	uint64_t lo, hi;

	if (count < 1 || count > 2)
		return err_set("bad delay '%s' (want TIME or MIN-MAX, e.g. 2 or 1s-5s)", value);
	if (parse_time_ns(parts[0], NS_PER_SEC, &lo) ||
	    units_check_range(lo, 0, TIME_LIMIT, UNITS_NS, parts[0]))
		return -1;
	hi = lo;
	if (count == 2 && (parse_time_ns(parts[1], NS_PER_SEC, &hi) ||
			   units_check_range(hi, 0, TIME_LIMIT, UNITS_NS, parts[1])))
		return -1;
	if (lo > hi)
		return err_set("minimum %s is above maximum %s", parts[0], parts[1]);
	spec->pacing.startdelay_ns = lo;
	spec->pacing.startdelay_max_ns = count == 2 ? hi : 0;
	return 0;
}

/* a count with fio's size suffixes (number_ios=1k is 1024 I/Os) */
int pacing_set_number_ios(struct job_spec *spec, const char *value)
{
	uint64_t n;

	if (parse_size(value, spec->kb_base, &n) ||
	    units_check_range(n, 0, SIZE_LIMIT, UNITS_COUNT, value))
		return -1;
	spec->pacing.number_ios = n;
	return 0;
}

int pacing_set_thinktime_blocks(struct job_spec *spec, const char *value)
{
	uint64_t n;

	if (parse_u64_plain(value, &n))
		return err_set("bad number '%s'", value);
	if (units_check_range(n, 1, UINT32_MAX, UNITS_COUNT, value))
		return -1;
	spec->pacing.thinktime_blocks = n;
	spec->pacing.thinktime_blocks_set = true;
	return 0;
}

int pacing_set_latency_percentile(struct job_spec *spec, const char *value)
{
	double pct;

	if (units_parse_double(value, &pct) || !(pct >= 0 && pct <= 100))
		return err_set("bad percentage '%s' (0 <= p <= 100)", value);
	spec->pacing.latency_percentile = pct;
	return 0;
}

/* fio keeps flow_watermark as a deprecated option that does nothing */
int pacing_set_flow_watermark(struct job_spec *spec, const char *value)
{
	uint64_t n;

	(void)spec;
	if (value && parse_u64_plain(value, &n))
		return err_set("bad number '%s'", value);
	return 0;
}

int pacing_set_wait_for(struct job_spec *spec, const char *value)
{
	size_t len = strlen(value);

	if (len == 0)
		return err_set("empty job name");
	if (len >= sizeof(spec->pacing.wait_for))
		return err_set("value longer than %zu characters",
			       sizeof(spec->pacing.wait_for) - 1);
	memcpy(spec->pacing.wait_for, value, len + 1);
	return 0;
}

/* One "MIN-MAX" (or "MIN:MAX") block size range. */
static int parse_bs_range(struct job_spec *spec, const char *text, uint64_t *lo,
			  uint64_t *hi)
{
	char parts[3][256];
	int count = split_text(text, strchr(text, ':') ? ':' : '-', parts, 3);

	if (count != 2 && count != 1)
		return err_set("bad range '%s' (want MIN-MAX, e.g. 4k-64k)", text);
	if (parse_size(parts[0], spec->kb_base, lo) ||
	    units_check_range(*lo, 1, BS_LIMIT, UNITS_BYTES, parts[0]))
		return -1;
	*hi = *lo;
	if (count == 2 && (parse_size(parts[1], spec->kb_base, hi) ||
			   units_check_range(*hi, 1, BS_LIMIT, UNITS_BYTES, parts[1])))
		return -1;
	if (*lo > *hi)
		return err_set("range '%s': minimum above maximum", text);
	return 0;
}

/* bsrange=R[,W[,T]], each MIN-MAX; fio's per-direction rule */
int pacing_set_bsrange(struct job_spec *spec, const char *value)
{
	char parts[4][256];
	int count = split_text(value, ',', parts, 4);
	uint64_t lo[DIR_ALL], hi[DIR_ALL], bs[DIR_ALL];

	if (count < 1 || count > DIR_ALL)
		return err_set("bad bsrange '%s' (want R[,W[,T]], each MIN-MAX)", value);
	memcpy(lo, spec->pacing.bs_min, sizeof(lo));
	memcpy(hi, spec->pacing.bs_max, sizeof(hi));
	memcpy(bs, spec->bs, sizeof(bs));
	for (int i = 0; i < count; i++) {
		uint64_t a, b;

		if (!parts[i][0] && count > 1)
			continue;
		if (parse_bs_range(spec, parts[i], &a, &b))
			return -1;
		for (int d = i; d < (i == count - 1 ? DIR_ALL : i + 1); d++) {
			/* a range of one size is that block size */
			lo[d] = a == b ? 0 : a;
			hi[d] = a == b ? 0 : b;
			bs[d] = a;
		}
	}
	memcpy(spec->pacing.bs_min, lo, sizeof(lo));
	memcpy(spec->pacing.bs_max, hi, sizeof(hi));
	memcpy(spec->bs, bs, sizeof(bs));
	return 0;
}

/* A signed size: "8k", "-8k". */
static int parse_signed_size(const struct job_spec *spec, const char *text, int64_t *out)
{
	bool negative = text[0] == '-';
	uint64_t v;

	if (parse_size(text + negative, spec->kb_base, &v))
		return -1;
	if (units_check_range(v, 0, SIZE_LIMIT, UNITS_BYTES, text + negative))
		return -1;
	*out = negative ? -(int64_t)v : (int64_t)v;
	return 0;
}

int pacing_rw_modifier(struct job_spec *spec, const char *modifier)
{
	/* fio resets both on every rw= */
	spec->pacing.seq_add = 0;
	spec->pacing.rand_seq_nr = 1;
	if (!modifier)
		return 0;
	if (!*modifier)
		return err_set("empty offset modifier after ':'");
	if (job_spec_random(spec)) {
		uint64_t n;

		if (parse_size(modifier, spec->kb_base, &n))
			return err_prefix("offset modifier");
		if (units_check_range(n, 1, UINT32_MAX, UNITS_COUNT, modifier))
			return err_prefix("offset modifier");
		spec->pacing.rand_seq_nr = n;
		return 0;
	}
	if (parse_signed_size(spec, modifier, &spec->pacing.seq_add))
		return err_prefix("offset modifier");
	return 0;
}

int pacing_sequence_set(struct job_spec *spec, const char *list)
{
	struct job_pacing *p = &spec->pacing;
	uint32_t seq[SEQUENCE_MAX];
	unsigned nr = 0;
	const char *start = list;

	if (!list || !*list)
		return err_set("'sequence' needs block indices (e.g. sequence:2,0,1)");
	for (;;) {
		const char *end = strchr(start, ',');
		size_t len = end ? (size_t)(end - start) : strlen(start);
		char text[32];
		uint64_t v;

		if (nr == SEQUENCE_MAX)
			return err_set("more than %d sequence elements", SEQUENCE_MAX);
		if (len == 0 || len >= sizeof(text))
			return err_set("bad sequence element in '%s'", list);
		memcpy(text, start, len);
		text[len] = '\0';
		if (strspn(text, "0123456789") != len || parse_u64_plain(text, &v))
			return err_set("bad sequence element '%s' (a block index)", text);
		if (units_check_range(v, 0, UINT32_MAX, UNITS_COUNT, text))
			return err_prefix("sequence element");
		seq[nr++] = (uint32_t)v;
		if (!end)
			break;
		start = end + 1;
	}
	memcpy(p->sequence, seq, nr * sizeof(seq[0]));
	p->nr_sequence = nr;
	return 0;
}

static bool any_set(const uint64_t *v)
{
	for (int d = 0; d < DIR_ALL; d++)
		if (v[d])
			return true;
	return false;
}

bool pacing_shaped(const struct job_spec *spec)
{
	const struct job_pacing *p = &spec->pacing;

	return p->seq_add || p->rand_seq_nr > 1 || pacing_zone_strided(spec) ||
	       p->zonemode == ZONE_MODE_ZBD ||
	       spec->rw == RW_TRIMWRITE || spec->rw == RW_RANDTRIMWRITE;
}

bool pacing_active(const struct job_spec *spec)
{
	const struct job_pacing *p = &spec->pacing;

	return any_set(p->rate) || any_set(p->rate_iops) || any_set(p->rate_min) ||
	       any_set(p->rate_iops_min) || p->thinktime_ns || p->thinktime_spin_ns ||
	       p->latency_target_ns || p->flow || p->number_ios ||
	       (p->iodepth_low && p->iodepth_low < spec->iodepth) || p->loops > 1;
}

static int check_rates(const struct job_spec *spec)
{
	const struct job_pacing *p = &spec->pacing;

	if ((spec->rw == RW_TRIMWRITE || spec->rw == RW_RANDTRIMWRITE) &&
	    (any_set(p->rate) || any_set(p->rate_iops)))
		return err_set("option 'rate': not supported with trimwrite (its trim and "
			       "write go in pairs)");
	/* fio refuses both kinds at once */
	if ((any_set(p->rate) && any_set(p->rate_iops)) ||
	    (any_set(p->rate_min) && any_set(p->rate_iops_min)))
		return err_set("option 'rate_iops': rate and rate_iops (or rate_min and "
			       "rate_iops_min) cannot be combined");
	for (int d = 0; d < DIR_ALL; d++) {
		uint64_t bps = p->rate[d] ? p->rate[d] : p->rate_iops[d] * spec->bs[d];

		if ((p->rate_min[d] && p->rate[d] && p->rate_min[d] > p->rate[d]) ||
		    (p->rate_iops_min[d] && p->rate_iops[d] &&
		     p->rate_iops_min[d] > p->rate_iops[d]))
			return err_set("option 'rate_min': minimum rate is above the rate");
		if (p->rate_process == RATE_POISSON && bps && bps < spec->bs[d])
			return err_set("option 'rate_process': poisson needs at least one I/O "
				       "a second (rate below the block size)");
	}
	return 0;
}

bool pacing_zone_strided(const struct job_spec *spec)
{
	const struct job_pacing *p = &spec->pacing;

	/* fio: zonesize without a zonemode means strided */
	return p->zonemode == ZONE_MODE_STRIDED ||
	       (p->zonemode == ZONE_MODE_DEFAULT && p->zonesize);
}

bool pacing_zone_zbd(const struct job_spec *spec)
{
	return spec->pacing.zonemode == ZONE_MODE_ZBD;
}

/* zonemode=zbd: the device's own zones, written at their pointers */
static int check_zbd(const struct job_spec *spec)
{
	const struct job_pacing *p = &spec->pacing;

	if (p->zonesize || p->zonerange || p->zoneskip)
		return err_set("option '%s': not with zonemode=zbd, which uses the "
			       "device's own zones", p->zonesize ? "zonesize" :
			       p->zonerange ? "zonerange" : "zoneskip");
	if (job_spec_writes(spec) && !spec->direct)
		return err_set("option 'zonemode': zbd writes need direct=1 (the "
			       "page cache does not keep a zone's write order)");
	if (spec->verify != VERIFY_NONE)
		return err_set("option 'zonemode': zbd with verify is not supported");
	if (p->seq_add || p->rand_seq_nr > 1 || spec->rw == RW_TRIMWRITE ||
	    spec->rw == RW_RANDTRIMWRITE || spec->rw == RW_TRIM || spec->rw == RW_RANDTRIM)
		return err_set("option 'zonemode': zbd takes read, write and their "
			       "random and mixed modes only (no trims, no rw=MODE:N)");
	for (int d = 0; d < DIR_ALL; d++)
		if (p->bs_max[d])
			return err_set("option 'zonemode': zbd with bsrange is not supported");
	return 0;
}

static int check_shapes(const struct job_spec *spec)
{
	const struct job_pacing *p = &spec->pacing;

	for (int d = 0; d < DIR_COUNT; d++)
		if (p->bs_max[d] && spec->bssplit_nr[d])
			return err_set("option 'bsrange': cannot be combined with bssplit "
				       "for the same direction");
	if (p->zonemode == ZONE_MODE_STRIDED && !p->zonesize)
		return err_set("option 'zonemode': strided needs zonesize");
	if (p->zonemode == ZONE_MODE_ZBD && check_zbd(spec))
		return -1;
	if (p->zonemode != ZONE_MODE_ZBD &&
	    (p->max_open_zones || p->zone_reset_frequency > 0))
		return err_set("option '%s': needs zonemode=zbd", p->max_open_zones ?
			       "max_open_zones" : "zone_reset_frequency");
	if (spec->distribution.kind == DIST_SEQUENCE && !p->nr_sequence)
		return err_set("option 'random_distribution': sequence needs block indices");
	if (p->rand_seq_nr > 1 && !job_spec_random(spec))
		return err_set("option 'rw': the ':N' modifier of a sequential mode is bytes");
	if (p->wait_for[0] && !strcmp(p->wait_for, spec->name))
		return err_set("option 'wait_for': a job cannot wait for itself (wait_for=%s)",
			       p->wait_for);
	return 0;
}

int pacing_spec_check(const struct job_spec *spec)
{
	const struct job_pacing *p = &spec->pacing;

	if (check_rates(spec) || check_shapes(spec))
		return -1;
	if (p->loops < 1)
		return err_set("option 'loops': must be at least 1");
	/* fio keeps these in microseconds */
	if ((p->latency_target_ns && p->latency_target_ns < 1000) ||
	    (p->latency_window_ns && p->latency_window_ns < 1000))
		return err_set("option '%s': below 1us, fio's unit for it",
			       p->latency_target_ns && p->latency_target_ns < 1000 ?
			       "latency_target" : "latency_window");
	if (job_spec_trims(spec) && spec->verify != VERIFY_NONE)
		return err_set("option 'verify': trims are not verified (trim_verify_zero "
			       "is not supported)");
	return 0;
}
