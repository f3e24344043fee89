/* model.c - reading a virtual SSD's [model] section and scaling it (see
 * the header; the keys and their defaults are in docs/vssd.md). */
#include "vssd/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "util/text.h"
#include "util/units.h"

#define MODEL_MEMORY_LIMIT (2ull << 30)   /* the FTL's maps, at most */
#define BLOCKS_PER_DIE_MIN 8              /* GC's watermarks need room */
#define GC_LOW_BLOCKS 3                   /* free blocks per die GC keeps */
/* per die, the blocks that hold no data in steady state: the gc_low free
 * ones and about one more for the open blocks, partly filled */
#define GC_RESERVE_BLOCKS (GC_LOW_BLOCKS + 1)


struct raw_model {
	double capacity_tb;
	uint64_t capacity;
	double op;
	unsigned bits;
	uint64_t channels, dies, planes, page, pages_per_block, iu, slc_cache, slc_dynamic, write_buffer;
	uint64_t read_ns, program_ns, erase_ns, slc_read_ns, slc_program_ns, command_ns, decode_ns;
	uint64_t suspend_ns, write_ack_ns, write_ack_queued_ns, queue_ns, erase_slices;
	double channel_mbs, controller_kiops, pcie_efficiency;
	double program_jitter;     /* 0: every program takes program_us */
	double read_retry_rate;    /* per 4 KiB read; 0: no retries */
	uint64_t read_retry_ns;
	double queue_write_mbs;    /* 0: no per-queue write limit */
	double write_intake_mbs;   /* 0: no drive-wide write limit */
	uint64_t pcie_gen, pcie_lanes;
};

static void raw_defaults(struct raw_model *r)
{
	/* a generic TLC datacenter drive; a spec file's [model] says more */
	*r = (struct raw_model){
		.op = 0.07, .bits = 3, .channels = 16, .dies = 4, .planes = 1, .page = 16384,
		.pages_per_block = 1536, .iu = 4096, .write_buffer = 8ull << 20,
		.read_ns = 50000, .program_ns = 600000, .erase_ns = 3000000,
		.slc_read_ns = 20000, .slc_program_ns = 150000, .command_ns = 5000,
		.channel_mbs = 1600, .controller_kiops = 2500, .pcie_gen = 4,
		.pcie_lanes = 4, .pcie_efficiency = 1, .suspend_ns = 5000,
	};
}

static int set_cell(struct raw_model *r, const char *v)
{
	static const char *const names[] = { "slc", "mlc", "tlc", "qlc" };

	for (unsigned i = 0; i < 4; i++)
		if (!strcmp(v, names[i])) {
			r->bits = i + 1;
			return 0;
		}
	return err_set("'%s' is not a cell type (slc, mlc, tlc, qlc)", v);
}

static int set_fraction(const char *v, double *out)
{
	double f;
	size_t len = strlen(v);

	if (len && v[len - 1] == '%') {
		char buf[32];

		if (len >= sizeof(buf))
			return err_set("bad fraction '%s'", v);
		memcpy(buf, v, len - 1);
		buf[len - 1] = '\0';
		if (units_parse_double(buf, &f) || f <= 0 || f >= 100)
			return err_set("bad percentage '%s' (0%% < OP < 100%%)", v);
		*out = f / 100;
		return 0;
	}
	if (units_parse_double(v, &f) || f <= 0 || f >= 1)
		return err_set("bad fraction '%s' (0 < OP < 1, or a percentage)", v);
	*out = f;
	return 0;
}

static int set_count(const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
	int rc = units_parse_count(v, lo, hi, out);

	return rc ? -1 : 0;
}

static int set_time(const char *v, uint64_t unit_ns, uint64_t *out)
{
	if (units_parse_duration(v, unit_ns, out) || *out == 0)
		return err_set("bad time '%s' (above 0; a bare number is in the key's unit)", v);
	return 0;
}

/* A time that may be 0 (a mechanism switched off). */
static int set_time_or_off(const char *v, uint64_t unit_ns, uint64_t *out)
{
	if (units_parse_duration(v, unit_ns, out))
		return err_set("bad time '%s' (0 or more; a bare number is in the key's unit)", v);
	return 0;
}

static int set_positive(const char *v, double *out)
{
	if (units_parse_double(v, out) || !(*out > 0) || !isfinite(*out))
		return err_set("'%s' is not a number above 0", v);
	return 0;
}

/* A rate that may be 0 (a limit switched off). */
static int set_rate_or_off(const char *v, double *out)
{
	if (units_parse_double(v, out) || !(*out >= 0) || !isfinite(*out))
		return err_set("'%s' is not a number of 0 or more", v);
	return 0;
}

/* The share of the link's bytes that is payload (TLP headers take the
 * rest): in (0, 1]. */
static int set_efficiency(const char *v, double *out)
{
	if (units_parse_double(v, out) || !(*out > 0) || *out > 1)
		return err_set("'%s' is not a fraction in (0, 1]", v);
	return 0;
}

/* A share that may be 0 (a mechanism off): a number in [0, 1) or a
 * percentage below 100% (a spread, a probability). */
static int set_share_or_off(const char *v, double *out)
{
	if (!strcmp(v, "0") || !strcmp(v, "0%")) {
		*out = 0;
		return 0;
	}
	if (set_fraction(v, out))
		return err_set("bad share '%s' (0 <= share < 1, or a percentage)", v);
	return 0;
}

static int set_size(const char *v, uint64_t *out)
{
	return units_parse_size(v, 1024, out);
}

/* A page or a mapping unit: a NAND page is KiBs, so below a sector or
 * above 1 MiB is a typo (and 0 would divide by zero in build()). */
#define UNIT_MIN 512
#define UNIT_MAX (1u << 20)

static int set_unit_size(const char *v, uint64_t *out)
{
	if (set_size(v, out))
		return -1;
	if (*out < UNIT_MIN || *out > UNIT_MAX)
		return err_set("'%s' is outside %u bytes .. 1 MiB", v, UNIT_MIN);
	return 0;
}

/* One key of [model]; the unit of a bare time is the key's (_us, _ms). */
static int model_key(struct raw_model *r, const char *k, const char *v)
{
	if (!strcmp(k, "capacity"))
		return units_parse_size(v, 1000, &r->capacity);
	if (!strcmp(k, "op"))
		return set_fraction(v, &r->op);
	if (!strcmp(k, "cell"))
		return set_cell(r, v);
	if (!strcmp(k, "channels"))
		return set_count(v, 1, 256, &r->channels);
	if (!strcmp(k, "dies_per_channel"))
		return set_count(v, 1, 256, &r->dies);
	if (!strcmp(k, "planes"))
		return set_count(v, 1, 16, &r->planes);
	if (!strcmp(k, "page"))
		return set_unit_size(v, &r->page);
	if (!strcmp(k, "pages_per_block"))
		return set_count(v, 16, 65536, &r->pages_per_block);
	if (!strcmp(k, "iu"))
		return set_unit_size(v, &r->iu);
	if (!strcmp(k, "slc_cache"))
		return units_parse_size(v, 1000, &r->slc_cache);
	if (!strcmp(k, "slc_cache_dynamic"))
		return units_parse_size(v, 1000, &r->slc_dynamic);
	if (!strcmp(k, "write_buffer"))
		return set_size(v, &r->write_buffer);
	if (!strcmp(k, "read_us"))
		return set_time(v, 1000, &r->read_ns);
	if (!strcmp(k, "program_us"))
		return set_time(v, 1000, &r->program_ns);
	if (!strcmp(k, "program_jitter"))
		return set_share_or_off(v, &r->program_jitter);
	if (!strcmp(k, "erase_ms"))
		return set_time(v, 1000000, &r->erase_ns);
	if (!strcmp(k, "slc_read_us"))
		return set_time(v, 1000, &r->slc_read_ns);
	if (!strcmp(k, "slc_program_us"))
		return set_time(v, 1000, &r->slc_program_ns);
	if (!strcmp(k, "command_us"))
		return set_time(v, 1000, &r->command_ns);
	if (!strcmp(k, "read_retry_rate"))
		return set_share_or_off(v, &r->read_retry_rate);
	if (!strcmp(k, "read_retry_us"))
		return set_time_or_off(v, 1000, &r->read_retry_ns);
	if (!strcmp(k, "decode_us"))
		return set_time_or_off(v, 1000, &r->decode_ns);
	if (!strcmp(k, "write_ack_us"))
		return set_time_or_off(v, 1000, &r->write_ack_ns);
	if (!strcmp(k, "write_ack_queued_ns"))
		return set_time_or_off(v, 1, &r->write_ack_queued_ns);
	if (!strcmp(k, "queue_write_mbs"))
		return set_rate_or_off(v, &r->queue_write_mbs);
	if (!strcmp(k, "write_intake_mbs"))
		return set_rate_or_off(v, &r->write_intake_mbs);
	if (!strcmp(k, "queue_us"))
		return set_time_or_off(v, 1000, &r->queue_ns);
	if (!strcmp(k, "suspend_us"))
		return set_time_or_off(v, 1000, &r->suspend_ns);
	if (!strcmp(k, "erase_slices"))
		return set_count(v, 1, 4096, &r->erase_slices);
	if (!strcmp(k, "channel_mbs"))
		return set_positive(v, &r->channel_mbs);
	if (!strcmp(k, "controller_kiops"))
		return set_positive(v, &r->controller_kiops);
	if (!strcmp(k, "pcie_gen"))
		return set_count(v, 1, 6, &r->pcie_gen);
	if (!strcmp(k, "pcie_lanes"))
		return set_count(v, 1, 32, &r->pcie_lanes);
	if (!strcmp(k, "pcie_efficiency"))
		return set_efficiency(v, &r->pcie_efficiency);
	return err_set("unknown key (see docs/vssd.md)");
}

#define CAPACITY_TB_MAX 1e6

static int drive_key(struct raw_model *r, struct vssd_model *m, const char *k, const char *v)
{
	if (!strcmp(k, "model"))
		snprintf(m->name, sizeof(m->name), "%s", v);
	else if (!strcmp(k, "capacity_tb")) {
		if (units_parse_double(v, &r->capacity_tb))
			return err_set("'%s' is not a capacity in TB", v);
		/* an exabyte: far past any drive, and its bytes fit 64 bits */
		if (!(r->capacity_tb > 0 && r->capacity_tb <= CAPACITY_TB_MAX))
			return err_set("'%s' is out of range: a capacity in TB above "
				       "0 and at most %.0f", v, CAPACITY_TB_MAX);
	}
	return 0;
}

static int read_file(const char *path, struct raw_model *r, struct vssd_model *m)
{
	struct text_reader tr;
	char *line, section[32] = "";
	bool any_model = false;
	int rc;

	if (text_reader_open(&tr, path, "vssd model"))
		return -1;
	while ((rc = text_reader_next(&tr, &line)) > 0) {
		char *key = text_trim(line), *value;

		if (!*key || *key == '#' || *key == ';')
			continue;
		if (*key == '[') {
			char *end = strchr(key, ']');

			if (!end || end[1]) {
				rc = err_set("%s:%u: bad section line", path, tr.line);
				break;
			}
			*end = '\0';
			snprintf(section, sizeof(section), "%s", key + 1);
			/* a spec sheet's sections ([drive] and [rated] are the spec
			 * sheet reader's, [fit] the fit's notes); any other is a
			 * typo whose keys would be dropped unseen */
			if (strcmp(section, "model") && strcmp(section, "drive") &&
			    strcmp(section, "rated") && strcmp(section, "fit")) {
				rc = err_set("%s:%u: unknown section [%s] (known: drive, rated, "
					     "model, fit)", path, tr.line, section);
				break;
			}
			any_model |= !strcmp(section, "model");
			continue;
		}
		key = text_split_option(key, &value);
		if (!*section) {
			rc = err_set("%s:%u: key '%s' outside a section", path, tr.line, key);
			break;
		}
		if (!value || !*value) {
			rc = err_set("%s:%u: key '%s' needs a value", path, tr.line, key);
			break;
		}
		if ((!strcmp(section, "model") && model_key(r, key, value)) ||
		    (!strcmp(section, "drive") && drive_key(r, m, key, value))) {
			rc = err_prefix("%s:%u: key '%s'", path, tr.line, key);
			break;
		}
	}
	text_reader_close(&tr);
	if (rc < 0)
		return -1;
	if (!any_model)
		return err_set("%s: no [model] section (docs/vssd.md)", path);
	return 0;
}

int vssd_scale_parse(const char *text, double *fraction, uint64_t *capacity)
{
	const char *slash = strchr(text, '/');
	double num, den;

	*fraction = 0;
	*capacity = 0;
	if (slash) {
		char top[32];

		if ((size_t)(slash - text) >= sizeof(top))
			return err_set("option 'vssd_scale': bad scale '%s'", text);
		memcpy(top, text, (size_t)(slash - text));
		top[slash - text] = '\0';
		if (units_parse_double(top, &num) || units_parse_double(slash + 1, &den) ||
		    !(num > 0) || !(den > 0) || num > den)
			return err_set("option 'vssd_scale': bad scale '%s' (a fraction such as "
				       "1/1000, or a capacity such as 8g)", text);
		*fraction = num / den;
		return 0;
	}
	if (units_parse_double(text, &num) == 0 && strspn(text, "0123456789.eE-+") == strlen(text)) {
		if (!(num > 0) || num > 1)
			return err_set("option 'vssd_scale': %s is not a fraction in (0, 1]", text);
		*fraction = num;
		return 0;
	}
	if (units_parse_size(text, 1024, capacity) || *capacity == 0)
		return err_set("option 'vssd_scale': bad scale '%s' (a fraction such as 1/1000, "
			       "or a capacity such as 8g)", text);
	return 0;
}

void vssd_scale_key(const char *text, char *key, size_t len)
{
	double fraction;
	uint64_t capacity;

	if (vssd_scale_parse(text, &fraction, &capacity)) {
		err_clear();
		snprintf(key, len, "%s", text);
	} else if (capacity) {
		snprintf(key, len, "c%llu", (unsigned long long)capacity);
	} else {
		snprintf(key, len, "f%.17g", fraction);
	}
}

/* Blocks that hold bytes of host data in SLC mode at scale, whole per die. */
static uint64_t slc_cache_blocks(uint64_t bytes, double scale, unsigned bits,
				 uint64_t block_bytes, uint64_t dies)
{
	uint64_t blocks = (uint64_t)((double)bytes * scale) * bits / block_bytes;

	return blocks / dies * dies;
}

/* The geometry and clock of r at scale: the dies stay (parallelism is the
 * drive's), the blocks per die shrink with the capacity. */
static int build(const struct raw_model *r, double fraction, uint64_t want,
		 struct vssd_model *m)
{
	uint64_t dies = r->channels * r->dies, block_bytes = r->page * r->pages_per_block;
	uint64_t physical, blocks, slc_blocks, dynamic_blocks;
	struct ftl_geometry *g = &m->geometry;

	if (r->iu > r->page || r->page % r->iu)
		return err_set("vssd model: iu %llu must divide page %llu",
			       (unsigned long long)r->iu, (unsigned long long)r->page);
	m->rated_capacity = r->capacity ? r->capacity : (uint64_t)(r->capacity_tb * 1e12);
	if (!m->rated_capacity)
		return err_set("vssd model: no capacity ([model] capacity or [drive] capacity_tb)");
	if (want > m->rated_capacity)
		return err_set("option 'vssd_scale': %llu bytes is more than the drive's %llu",
			       (unsigned long long)want, (unsigned long long)m->rated_capacity);
	m->capacity = want ? want : (uint64_t)((double)m->rated_capacity * fraction);
	m->capacity -= m->capacity % r->page;
	m->scale = (double)m->capacity / (double)m->rated_capacity;
	physical = (uint64_t)((double)m->capacity * (1 + r->op));
	/* whole blocks per die, the nearest to the OP (rounding up would add
	 * up to a block of spare per die: at a small scale a large share) */
	blocks = (uint64_t)((double)physical / (double)block_bytes / (double)dies + 0.5) * dies;
	if (blocks < dies * BLOCKS_PER_DIE_MIN)
		return err_set("vssd model: at this scale each of the %llu dies gets %llu blocks, "
			       "fewer than the %u garbage collection needs", (unsigned long long)dies,
			       (unsigned long long)(blocks / dies), BLOCKS_PER_DIE_MIN);
	/* the blocks GC keeps free and the open blocks of each die hold no
	 * data: on the real drive a negligible share, at a small scale a
	 * large one, so they come on top of the OP (else the scaled drive's
	 * effective OP, and so its WAF, would fall with the scale) */
	blocks += dies * (GC_RESERVE_BLOCKS + (r->slc_cache || r->slc_dynamic ? 1 : 0));
	slc_blocks = slc_cache_blocks(r->slc_cache, m->scale, r->bits, block_bytes, dies);
	dynamic_blocks = slc_cache_blocks(r->slc_dynamic, m->scale, r->bits, block_bytes, dies);
	if (dynamic_blocks > (uint64_t)m->capacity / block_bytes)
		return err_set("vssd model: slc_cache_dynamic %llu bytes needs more blocks than the "
			       "drive's user capacity can lend (at most capacity / %u bits per cell)",
			       (unsigned long long)r->slc_dynamic, r->bits);
	*g = (struct ftl_geometry){
		.logical_ius = m->capacity / r->iu, .iu_bytes = (uint32_t)r->iu,
		.blocks = (uint32_t)blocks, .pages_per_block = (uint32_t)r->pages_per_block,
		.ius_per_page = (uint32_t)(r->page / r->iu), .channels = (uint32_t)r->channels,
		.dies_per_channel = (uint32_t)r->dies, .bits_per_cell = r->bits,
		.slc_cache_blocks = (uint32_t)slc_blocks,
		.slc_dynamic_blocks = (uint32_t)dynamic_blocks, .memory_limit = MODEL_MEMORY_LIMIT,
		/* idle-time GC works up to gc_low too: a higher mark would hold
		 * back more blocks than the reserve above adds */
		.gc_low = GC_LOW_BLOCKS, .gc_high = GC_LOW_BLOCKS,
	};
	m->timing = (struct timing_params){
		.channels = (uint32_t)r->channels, .dies_per_channel = (uint32_t)r->dies,
		.planes = (uint32_t)r->planes, .page_bytes = (uint32_t)r->page,
		.read_ns = { r->read_ns, r->slc_read_ns },
		.program_ns = { r->program_ns, r->slc_program_ns },
		.erase_ns = r->erase_ns,
		.program_jitter = r->program_jitter,
		.read_retry_rate = r->read_retry_rate,
		.read_retry_ns = r->read_retry_ns,
		.channel_bytes_per_ns = r->channel_mbs / 1000.0,
		.link_bytes_per_ns = units_pcie_lane_mbs((unsigned)r->pcie_gen) * (double)r->pcie_lanes *
				     r->pcie_efficiency / 1000.0,
		.command_ns = r->command_ns,
		.decode_ns = r->decode_ns,
		.commands_per_ns = r->controller_kiops / 1e6,
		.write_buffer_bytes = r->write_buffer,
		.suspend_ns = r->suspend_ns,
		.erase_slices = (uint32_t)r->erase_slices,
		.write_ack_ns = r->write_ack_ns,
		.write_ack_queued_ns = r->write_ack_queued_ns,
		.queue_write_bytes_per_ns = r->queue_write_mbs / 1000.0,   /* MB/s: 10^6 B/s */
		.write_intake_bytes_per_ns = r->write_intake_mbs / 1000.0,
		.queue_ns = r->queue_ns,
	};
	if (blocks > UINT32_MAX)
		return err_set("vssd model: too many blocks at this scale");
	return 0;
}

/* Whether r builds into a geometry the FTL takes at capacity bytes. */
static bool works_at(const struct raw_model *r, uint64_t capacity, const struct vssd_model *m)
{
	struct vssd_model t = *m;
	uint64_t bytes;

	return build(r, 0, capacity, &t) == 0 && ftl_memory_bytes(&t.geometry, &bytes) == 0;
}

/* The first capacity in MiB in [from, to] at which r works, or 0. A
 * linear scan: whether r works is not monotonic in the capacity (the
 * blocks per die are rounded to the nearest and the SLC cache's blocks
 * down, so a scale just below a rounding step has less spare than one
 * smaller still), so a bisection can miss the smallest. Each try is
 * arithmetic (no drive is made): a few microseconds. */
static uint64_t first_working(const struct raw_model *r, const struct vssd_model *m,
			      uint64_t from, uint64_t to)
{
	for (uint64_t mib = from ? from : 1; mib <= to; mib++)
		if (works_at(r, mib << 20, m))
			return mib;
	return 0;
}

/* A scale r's geometry refuses: the message (err_msg) goes on to name the
 * smallest scale, in MiB, that works, and when the scale asked for is
 * above that (a scale just below a rounding step), the nearest above it
 * that works. A scale that works is found by doubling from the one that
 * failed (a large drive at its full capacity fails the memory check, so
 * the full capacity is no bound); the smallest by a scan up to it. A
 * model that builds at no scale keeps its message. Returns -1. */
static int name_smallest_scale(const struct raw_model *r, const struct vssd_model *m)
{
	char why[512], above[160] = "";
	uint64_t full = m->rated_capacity >> 20;
	uint64_t asked = m->capacity >> 20, hi, least;    /* MiB */

	snprintf(why, sizeof(why), "%s", err_msg());
	if (!full)
		return err_set("%s", why);
	for (hi = asked ? asked * 2 : 1; hi < full && !works_at(r, hi << 20, m); hi *= 2)
		;
	if (hi >= full) {
		hi = full;
		if (!works_at(r, hi << 20, m))
			return err_set("%s", why);
	}
	least = first_working(r, m, 1, hi);
	if (least && least < asked) {
		uint64_t next = first_working(r, m, asked + 1, hi);

		if (next)
			snprintf(above, sizeof(above), "; the nearest above %llum that works is "
				 "%llum (vssd_scale=%llum)", (unsigned long long)asked,
				 (unsigned long long)next, (unsigned long long)next);
	}
	return err_set("%s; the smallest scale this model works at is %llum (%llu bytes, 1/%.0f "
		       "of the drive): vssd_scale=%llum or vssd:MODEL@%llum%s", why,
		       (unsigned long long)least, (unsigned long long)(least << 20),
		       floor((double)m->rated_capacity / (double)(least << 20)),
		       (unsigned long long)least, (unsigned long long)least, above);
}

int vssd_model_load(const char *path, const char *scale_text, struct vssd_model *m)
{
	struct raw_model r;
	double fraction = 0.001;
	uint64_t want = 0, bytes;

	memset(m, 0, sizeof(*m));
	raw_defaults(&r);
	if (scale_text && vssd_scale_parse(scale_text, &fraction, &want))
		return -1;
	if (read_file(path, &r, m))
		return -1;
	if (build(&r, fraction, want, m) || ftl_memory_bytes(&m->geometry, &bytes)) {
		if (m->rated_capacity && m->capacity)
			name_smallest_scale(&r, m);
		return err_prefix("vssd model %s", path);
	}
	return 0;
}
