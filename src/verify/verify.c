/* verify.c - verify units: building a unit (header, the method's digest,
 * a payload from a fast PRNG keyed by seed, offset and sequence, or from
 * verify_pattern), checking one read back and naming what is wrong with
 * it. crc32c with a generated payload, the header first, keeps its own
 * path (fill_default, verify_check_unit): its cost is what it always was. The
 * per-clone map, the options and the kept failures are verify_ctx.c's. */
#include "verify/verify.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "verify/crc32c.h"
#include "verify/digest.h"
#include "job/random.h"

#define GOLDEN 0x9E3779B97F4A7C15ull
#define HEADER_CRC_BYTES offsetof(struct verify_header, header_crc)
#define OFFSET_FIELD_BYTES 8   /* a %o field */

static const char *const verdict_names[VERIFY_VERDICTS] = {
	[VERIFY_OK] = "ok",
	[VERIFY_NEVER_WRITTEN] = "never written",
	[VERIFY_HEADER_CORRUPT] = "header corrupt",
	[VERIFY_STALE] = "stale",
	[VERIFY_MISDIRECTED] = "misdirected",
	[VERIFY_LOST_WRITE] = "lost write",
	[VERIFY_TORN] = "torn",
	[VERIFY_CORRUPT] = "corrupt",
	[VERIFY_MISSING] = "missing",
};

const char *verify_verdict_name(enum verify_verdict v)
{
	return (unsigned)v < VERIFY_VERDICTS ? verdict_names[v] : "unknown";
}

int verify_verdict_parse(const char *name)
{
	for (int v = 0; name && v < VERIFY_VERDICTS; v++)
		if (!strcmp(name, verdict_names[v]))
			return v;
	return -1;
}

const struct verify_format verify_format_default = {
	.method = VERIFY_CRC32C, .header_len = VERIFY_HEADER_BYTES, .digest_len = 4,
	.check_seq = true, .check_seed = true, .plain = true,
};

uint32_t verify_header_len(enum verify_kind method)
{
	if (method == VERIFY_PATTERN)
		return 0;
	if (method == VERIFY_CRC32C)
		return VERIFY_HEADER_BYTES;
	return VERIFY_HEADER_BYTES + (digest_len(method) + 7) / 8 * 8;
}

void verify_format_of(const struct job_spec *spec, struct verify_format *f)
{
	const struct job_checks *c = &spec->checks;

	*f = verify_format_default;
	f->method = spec->verify == VERIFY_NONE ? VERIFY_CRC32C : spec->verify;
	f->header_len = verify_header_len(f->method);
	f->digest_len = digest_len(f->method);
	f->header_at = (uint32_t)c->verify_offset;
	if (c->pattern_len) {
		f->pattern = c->pattern;
		f->pattern_len = c->pattern_len;
		f->pattern_fmt = c->pattern_fmt;
		f->nr_fmt = c->nr_pattern_fmt;
	}
	f->check_seq = c->verify_write_sequence;
	f->check_seed = c->verify_header_seed;
	/* what was always checked: the defaults take the crc32c path */
	f->plain = f->method == VERIFY_CRC32C && !f->pattern && !f->header_at &&
		   f->check_seq && f->check_seed;
}

static bool format_is_default(const struct verify_format *f)
{
	return f->method == VERIFY_CRC32C && !f->pattern && !f->header_at;
}

/* ---- the payload --------------------------------------------------------- */

/* One key per written unit: a payload written for another seed, offset or
 * write differs from this one everywhere. */
static uint64_t payload_key(uint64_t seed, uint64_t offset, uint64_t seq)
{
	return mix64(seed ^ mix64(offset + GOLDEN) ^ mix64(seq * GOLDEN + 1));
}

/* Payload word i (bytes 8i .. 8i+7 after the header): splitmix64, which
 * can start at any word. */
static inline uint64_t payload_word(uint64_t key, uint64_t i)
{
	return mix64(key + (i + 1) * GOLDEN);
}

/* Payload bytes [from, from + len) (payload-relative) into dst. */
static void payload_bytes(unsigned char *dst, uint64_t key, uint64_t from, uint64_t len)
{
	uint64_t word_index = from / 8;
	unsigned skip = (unsigned)(from % 8);

	while (len) {
		uint64_t word = payload_word(key, word_index++);
		unsigned take = 8 - skip;

		if (take > len)
			take = (unsigned)len;
		memcpy(dst, (unsigned char *)&word + skip, take);
		dst += take;
		len -= take;
		skip = 0;
	}
}

static uint32_t payload_crc_of(uint64_t key, uint64_t len)
{
	unsigned char chunk[512];
	uint32_t crc = 0;

	for (uint64_t at = 0; at < len; at += sizeof(chunk)) {
		uint64_t n = len - at < sizeof(chunk) ? len - at : sizeof(chunk);

		payload_bytes(chunk, key, at, n);
		crc = crc32c(crc, chunk, n);
	}
	return crc;
}

/* Where a unit's payload comes from: the generator's key, or the pattern
 * made for the unit's offset, laid from the unit's first byte (the header
 * covers its start). */
struct payload_src {
	uint64_t key;
	const unsigned char *pattern;
	unsigned pattern_len;
	uint32_t start;              /* unit position of payload byte 0 */
	unsigned char instance[VERIFY_PATTERN_MAX];
};

static void src_init(struct payload_src *s, const struct verify_format *fmt,
		     uint32_t start, uint64_t offset, uint64_t seed, uint64_t seq)
{
	s->start = start;
	s->pattern = NULL;
	s->pattern_len = 0;
	s->key = payload_key(seed, offset, seq);
	if (!fmt->pattern)
		return;
	memcpy(s->instance, fmt->pattern, fmt->pattern_len);
	for (unsigned i = 0; i < fmt->nr_fmt; i++) {
		unsigned at = fmt->pattern_fmt[i];
		unsigned n = fmt->pattern_len - at < OFFSET_FIELD_BYTES ?
			fmt->pattern_len - at : OFFSET_FIELD_BYTES;

		memcpy(s->instance + at, &offset, n);   /* little-endian */
	}
	s->pattern = s->instance;
	s->pattern_len = fmt->pattern_len;
}

static void src_bytes(const struct payload_src *s, unsigned char *dst, uint64_t from,
		      uint64_t len)
{
	uint64_t pos;

	if (!s->pattern) {
		payload_bytes(dst, s->key, from, len);
		return;
	}
	pos = (s->start + from) % s->pattern_len;
	while (len) {
		uint64_t n = s->pattern_len - pos < len ? s->pattern_len - pos : len;

		memcpy(dst, s->pattern + pos, n);
		dst += n;
		len -= n;
		pos = 0;
	}
}

/* ---- the header ----------------------------------------------------------- */

static void header_make(struct verify_header *h, enum verify_kind method, uint32_t unit,
			uint64_t offset, uint64_t seed, uint64_t seq, uint32_t payload_crc)
{
	memset(h, 0, sizeof(*h));
	h->magic = VERIFY_MAGIC;
	h->version = method == VERIFY_CRC32C ? VERIFY_HEADER_VERSION :
		VERIFY_HEADER_VERSION_METHOD;
	h->header_len = (uint16_t)verify_header_len(method);
	h->unit_len = unit;
	h->payload_crc = method == VERIFY_CRC32C ? payload_crc : 0;
	h->offset = offset;
	h->seed = seed;
	h->seq = seq;
	h->reserved = method == VERIFY_CRC32C ? 0 : (uint32_t)method;
	h->header_crc = crc32c(0, h, HEADER_CRC_BYTES);
}

/* The method a valid header names, or -1 when its version, method or
 * length do not fit together (or the unit). */
static int header_method(const struct verify_header *h, uint32_t unit)
{
	if (h->version == VERIFY_HEADER_VERSION && h->header_len == VERIFY_HEADER_BYTES &&
	    h->reserved == 0)
		return VERIFY_CRC32C;
	if (h->version != VERIFY_HEADER_VERSION_METHOD || h->reserved == VERIFY_CRC32C ||
	    h->reserved == VERIFY_PATTERN || h->reserved == VERIFY_NONE ||
	    h->reserved >= VERIFY_KINDS)
		return -1;
	if (h->header_len != verify_header_len((enum verify_kind)h->reserved) ||
	    h->header_len >= unit)
		return -1;
	return (int)h->reserved;
}

/* ---- building units --------------------------------------------------------- */

static void fill_default(void *buf, uint32_t unit, uint64_t offset, uint64_t seed,
			 uint64_t seq)
{
	unsigned char *p = buf;
	uint64_t key = payload_key(seed, offset, seq);
	uint32_t payload_len = unit - VERIFY_HEADER_BYTES;
	struct verify_header h;

	payload_bytes(p + VERIFY_HEADER_BYTES, key, 0, payload_len);
	header_make(&h, VERIFY_CRC32C, unit, offset, seed, seq,
		    crc32c(0, p + VERIFY_HEADER_BYTES, payload_len));
	memcpy(p, &h, sizeof(h));
}

static void swap_header(const struct verify_format *fmt, unsigned char *p)
{
	unsigned char keep[VERIFY_HEADER_BYTES + DIGEST_MAX];

	memcpy(keep, p, fmt->header_len);
	memcpy(p, p + fmt->header_at, fmt->header_len);
	memcpy(p + fmt->header_at, keep, fmt->header_len);
}

/* The unit header first: header, digest, payload. */
static void build_logical(const struct verify_format *fmt, unsigned char *p, uint32_t unit,
			  uint64_t offset, uint64_t seed, uint64_t seq)
{
	uint32_t hl = fmt->header_len;
	struct payload_src s;
	struct verify_header h;
	uint32_t crc = 0;

	if (format_is_default(fmt)) {
		fill_default(p, unit, offset, seed, seq);
		return;
	}
	src_init(&s, fmt, hl, offset, seed, seq);
	src_bytes(&s, p + hl, 0, unit - hl);
	if (!hl)
		return;
	if (fmt->method == VERIFY_CRC32C)
		crc = crc32c(0, p + hl, unit - hl);
	header_make(&h, fmt->method, unit, offset, seed, seq, crc);
	memcpy(p, &h, sizeof(h));
	if (hl > VERIFY_HEADER_BYTES) {
		memset(p + VERIFY_HEADER_BYTES, 0, hl - VERIFY_HEADER_BYTES);
		/* a libcrypto failure leaves zeros: the check then fails */
		(void)digest_compute(fmt->method, p + hl, unit - hl, p + VERIFY_HEADER_BYTES);
	}
}

void verify_fill_unit_fmt(const struct verify_format *fmt, void *buf, uint32_t unit,
			  uint64_t offset, uint64_t seed, uint64_t seq)
{
	build_logical(fmt, buf, unit, offset, seed, seq);
	if (fmt->header_at)
		swap_header(fmt, buf);
}

void verify_fill_unit(void *buf, uint32_t unit, uint64_t offset,
		      uint64_t seed, uint64_t seq)
{
	fill_default(buf, unit, offset, seed, seq);
}

void verify_expected_unit(const struct verify_format *fmt, void *buf, uint32_t unit,
			  uint64_t offset, uint64_t seed, uint64_t seq)
{
	build_logical(fmt, buf, unit, offset, seed, seq);
}

void verify_logical_copy(const struct verify_format *fmt, void *dst, const void *src,
			 uint32_t unit)
{
	memcpy(dst, src, unit);
	if (fmt->header_at)
		swap_header(fmt, dst);
}

/* Bytes [from, to) of a default unit (unit-relative) into dst. */
static void unit_slice(unsigned char *dst, uint32_t unit, uint64_t offset,
		       uint64_t seed, uint64_t seq, uint64_t from, uint64_t to)
{
	uint64_t key = payload_key(seed, offset, seq);
	struct verify_header h;

	header_make(&h, VERIFY_CRC32C, unit, offset, seed, seq,
		    payload_crc_of(key, unit - VERIFY_HEADER_BYTES));
	if (from < VERIFY_HEADER_BYTES) {
		uint64_t end = to < VERIFY_HEADER_BYTES ? to : VERIFY_HEADER_BYTES;

		memcpy(dst, (unsigned char *)&h + from, end - from);
		dst += end - from;
		from = end;
	}
	if (from < to)
		payload_bytes(dst, key, from - VERIFY_HEADER_BYTES, to - from);
}

/* A slice of a unit in another format: the whole unit is built and cut
 * (slices are rare: the rest of a short transfer). */
static void unit_slice_fmt(const struct verify_format *fmt, unsigned char *dst, uint32_t unit,
			   uint64_t offset, uint64_t seed, uint64_t seq, uint64_t from,
			   uint64_t to)
{
	unsigned char *whole;

	if (format_is_default(fmt)) {
		unit_slice(dst, unit, offset, seed, seq, from, to);
		return;
	}
	whole = malloc(unit);
	if (!whole) {   /* the check of this unit will fail */
		memset(dst, 0, to - from);
		return;
	}
	verify_fill_unit_fmt(fmt, whole, unit, offset, seed, seq);
	memcpy(dst, whole + from, to - from);
	free(whole);
}

void verify_fill_range_fmt(const struct verify_format *fmt, void *buf, uint64_t offset,
			   uint64_t len, uint64_t base, uint32_t unit, uint64_t seed,
			   uint64_t seq)
{
	unsigned char *out = buf;
	uint64_t end = offset + len, at = offset;

	while (at < end) {
		uint64_t unit_start = base + (at - base) / unit * unit;
		uint64_t unit_end = unit_start + unit;
		uint64_t stop = unit_end < end ? unit_end : end;

		if (at == unit_start && stop == unit_end)
			verify_fill_unit_fmt(fmt, out + (at - offset), unit, unit_start, seed, seq);
		else
			unit_slice_fmt(fmt, out + (at - offset), unit, unit_start, seed, seq,
				       at - unit_start, stop - unit_start);
		at = stop;
	}
}

void verify_fill_range(void *buf, uint64_t offset, uint64_t len, uint64_t base,
		       uint32_t unit, uint64_t seed, uint64_t seq)
{
	unsigned char *out = buf;
	uint64_t end = offset + len, at = offset;

	while (at < end) {
		uint64_t unit_start = base + (at - base) / unit * unit;
		uint64_t unit_end = unit_start + unit;
		uint64_t stop = unit_end < end ? unit_end : end;

		if (at == unit_start && stop == unit_end)
			fill_default(out + (at - offset), unit, unit_start, seed, seq);
		else
			unit_slice(out + (at - offset), unit, unit_start, seed, seq,
				   at - unit_start, stop - unit_start);
		at = stop;
	}
}

/* ---- checking a unit ------------------------------------------------------ */

/* Payload-relative index of the first byte that differs from what s
 * makes, or len when none does. */
static uint64_t first_difference(const unsigned char *payload, const struct payload_src *s,
				 uint64_t len)
{
	unsigned char expect[512];

	for (uint64_t at = 0; at < len; at += sizeof(expect)) {
		uint64_t n = len - at < sizeof(expect) ? len - at : sizeof(expect);

		src_bytes(s, expect, at, n);
		if (memcmp(payload + at, expect, n))
			for (uint64_t b = 0; b < n; b++)
				if (payload[at + b] != expect[b])
					return at + b;
	}
	return len;
}

/* A torn write leaves the old data from a sector boundary on: every sector
 * from there to the end differs from what was written in most of its
 * bytes (a flipped bit or byte differs in one). Positions are unit-relative;
 * the payload starts at s->start. */
static bool looks_torn(const unsigned char *unit_buf, uint32_t unit,
		       const struct payload_src *s, uint64_t first_bad)
{
	unsigned char expect[VERIFY_SECTOR];

	if (first_bad % VERIFY_SECTOR || first_bad == 0)
		return false;
	for (uint64_t at = first_bad; at < unit; at += VERIFY_SECTOR) {
		uint64_t n = unit - at < VERIFY_SECTOR ? unit - at : VERIFY_SECTOR;
		uint64_t differing = 0;

		src_bytes(s, expect, at - s->start, n);
		for (uint64_t b = 0; b < n; b++)
			differing += unit_buf[at + b] != expect[b];
		if (differing * 2 <= n)
			return false;
	}
	return true;
}

static enum verify_verdict verdict(struct verify_failure *f, enum verify_verdict v)
{
	f->verdict = v;
	return v;
}

static void failure_start(struct verify_failure *f, uint32_t unit, uint64_t offset,
			  uint64_t expected_seq)
{
	memset(f, 0, sizeof(*f));
	f->offset = offset;
	f->len = unit;
	f->units = 1;
	f->expected_seq = expected_seq;
	f->bad_offset = offset;
	f->expected_byte = f->found_byte = -1;
}

/* The payload of a unit whose header checked out is wrong from payload
 * byte bad on: torn or corrupt, with the bytes at that place. */
static enum verify_verdict payload_verdict(const unsigned char *p, uint32_t unit,
					   uint64_t offset, const struct payload_src *s,
					   uint64_t bad, struct verify_failure *f)
{
	unsigned char expect;

	if (bad == unit - s->start)   /* the payload is right; its digest is not */
		return verdict(f, VERIFY_CORRUPT);
	f->bad_offset = offset + s->start + bad;
	f->found_byte = p[s->start + bad];
	src_bytes(s, &expect, bad, 1);
	f->expected_byte = (int16_t)expect;
	if (looks_torn(p, unit, s, s->start + bad))
		return verdict(f, VERIFY_TORN);
	return verdict(f, VERIFY_CORRUPT);
}

static enum verify_verdict check_logical(const struct verify_format *fmt, const unsigned char *p,
					 uint32_t unit, uint64_t offset, uint64_t seed,
					 uint64_t expected_seq, struct verify_failure *f);

/* crc32c, generated, header first: the path every crc32c job takes. */
enum verify_verdict verify_check_unit(const void *buf, uint32_t unit,
				      uint64_t offset, uint64_t seed,
				      uint64_t expected_seq, struct verify_failure *f)
{
	const unsigned char *p = buf;
	const unsigned char *payload = p + VERIFY_HEADER_BYTES;
	uint32_t payload_len = unit - VERIFY_HEADER_BYTES;
	struct verify_header h;
	struct payload_src s;

	failure_start(f, unit, offset, expected_seq);
	memcpy(&h, p, sizeof(h));
	if (h.magic != VERIFY_MAGIC)
		return verdict(f, VERIFY_NEVER_WRITTEN);
	if (crc32c(0, &h, HEADER_CRC_BYTES) != h.header_crc)
		return verdict(f, VERIFY_HEADER_CORRUPT);
	if (h.version != VERIFY_HEADER_VERSION)   /* another method's unit */
		return check_logical(&verify_format_default, p, unit, offset, seed,
				     expected_seq, f);
	if (h.header_len != VERIFY_HEADER_BYTES)
		return verdict(f, VERIFY_HEADER_CORRUPT);
	f->found_seq = h.seq;
	f->found_offset = h.offset;
	f->found_seed = h.seed;
	if (h.seed != seed)
		return verdict(f, VERIFY_STALE);
	/* a unit of another length was laid out for other offsets */
	if (h.offset != offset || h.unit_len != unit)
		return verdict(f, VERIFY_MISDIRECTED);
	if (expected_seq && h.seq < expected_seq)
		return verdict(f, VERIFY_LOST_WRITE);
	if (crc32c(0, payload, payload_len) == h.payload_crc)
		return verdict(f, VERIFY_OK);
	src_init(&s, &verify_format_default, VERIFY_HEADER_BYTES, offset, seed, h.seq);
	return payload_verdict(p, unit, offset, &s, first_difference(payload, &s, payload_len), f);
}

/* Whether the payload holds what the header's method says it does: the
 * digest, or (meta, pattern_hdr: no digest) the expected bytes. */
static bool payload_ok(int method, const unsigned char *p, uint32_t hl, uint32_t unit,
		       const struct verify_header *h, const struct payload_src *s)
{
	unsigned char digest[DIGEST_MAX];
	unsigned dl = digest_len((enum verify_kind)method);

	if (method == VERIFY_CRC32C)
		return crc32c(0, p + hl, unit - hl) == h->payload_crc;
	if (!dl)
		return first_difference(p + hl, s, unit - hl) == unit - hl;
	if (digest_compute((enum verify_kind)method, p + hl, unit - hl, digest))
		return false;
	return !memcmp(digest, p + VERIFY_HEADER_BYTES, dl);
}

/* A unit in any format with a header, header first. The header names its
 * own method: a unit is checked with the method it was written with. */
static enum verify_verdict check_logical(const struct verify_format *fmt, const unsigned char *p,
					 uint32_t unit, uint64_t offset, uint64_t seed,
					 uint64_t expected_seq, struct verify_failure *f)
{
	struct verify_header h;
	struct payload_src s;
	int method;

	failure_start(f, unit, offset, expected_seq);
	memcpy(&h, p, sizeof(h));
	if (h.magic != VERIFY_MAGIC)
		return verdict(f, VERIFY_NEVER_WRITTEN);
	if (crc32c(0, &h, HEADER_CRC_BYTES) != h.header_crc ||
	    (method = header_method(&h, unit)) < 0)
		return verdict(f, VERIFY_HEADER_CORRUPT);
	f->found_seq = h.seq;
	f->found_offset = h.offset;
	f->found_seed = h.seed;
	if (h.seed != seed && fmt->check_seed)
		return verdict(f, VERIFY_STALE);
	if (h.offset != offset || h.unit_len != unit)
		return verdict(f, VERIFY_MISDIRECTED);
	if (fmt->check_seq && expected_seq && h.seq < expected_seq)
		return verdict(f, VERIFY_LOST_WRITE);
	src_init(&s, fmt, h.header_len, offset, h.seed, h.seq);
	if (payload_ok(method, p, h.header_len, unit, &h, &s))
		return verdict(f, VERIFY_OK);
	return payload_verdict(p, unit, offset, &s,
			       first_difference(p + h.header_len, &s, unit - h.header_len), f);
}

/* verify=pattern: no header, the whole unit is the pattern. A unit that
 * holds the pattern of another offset (%o) is misdirected. */
static enum verify_verdict check_pattern(const struct verify_format *fmt, const unsigned char *p,
					 uint32_t unit, uint64_t offset, struct verify_failure *f)
{
	struct payload_src s;
	uint64_t bad;

	failure_start(f, unit, offset, 0);
	src_init(&s, fmt, 0, offset, 0, 0);
	bad = first_difference(p, &s, unit);
	if (bad == unit)
		return verdict(f, VERIFY_OK);
	if (fmt->nr_fmt && fmt->pattern_fmt[0] + OFFSET_FIELD_BYTES <= unit) {
		uint64_t named;
		struct payload_src other;

		memcpy(&named, p + fmt->pattern_fmt[0], sizeof(named));
		src_init(&other, fmt, 0, named, 0, 0);
		if (named != offset && first_difference(p, &other, unit) == unit) {
			f->found_offset = named;
			return verdict(f, VERIFY_MISDIRECTED);
		}
	}
	return payload_verdict(p, unit, offset, &s, bad, f);
}

/* A bad byte found in the header-first order, where it lies as stored. */
static uint64_t stored_position(const struct verify_format *fmt, uint64_t offset, uint64_t at)
{
	uint64_t pos = at - offset;

	if (pos < fmt->header_len)
		return offset + fmt->header_at + pos;
	if (pos >= fmt->header_at && pos < (uint64_t)fmt->header_at + fmt->header_len)
		return offset + pos - fmt->header_at;
	return at;
}

enum verify_verdict verify_check_unit_fmt(const struct verify_format *fmt, void *buf,
					  uint32_t unit, uint64_t offset, uint64_t seed,
					  uint64_t expected_seq, struct verify_failure *f)
{
	enum verify_verdict v;

	if (format_is_default(fmt))
		return verify_check_unit(buf, unit, offset, seed, expected_seq, f);
	if (!fmt->header_len)
		return check_pattern(fmt, buf, unit, offset, f);
	if (!fmt->header_at)
		return check_logical(fmt, buf, unit, offset, seed, expected_seq, f);
	swap_header(fmt, buf);
	v = check_logical(fmt, buf, unit, offset, seed, expected_seq, f);
	swap_header(fmt, buf);
	if (f->found_byte >= 0)
		f->bad_offset = stored_position(fmt, offset, f->bad_offset);
	return v;
}
