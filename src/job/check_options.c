/* check_options.c - the option table of job/checks.h: verify and its
 * method names, verify_pattern and the header's placement, fio's steady
 * state (steadystate=METRIC[_slope]:LIMIT[%], ss_dur, ss_ramp,
 * ss_interval), sprandom and the reporting switches, with fio's defaults
 * (docs/options.md, docs/verify.md). */
#include "job/checks.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/error.h"
#include "job/check_options.h"
#include "job/options.h"
#include "job/pattern.h"
#include "job/values.h"

#define NS_PER_S 1000000000ull

void job_checks_defaults(struct job_checks *c)
{
	memset(c, 0, sizeof(*c));
	c->verify_write_sequence = true;
	c->verify_header_seed = true;
	c->ss_metric = SS_IOPS;          /* fio: iops_slope:0.01% */
	c->ss_slope = true;
	c->ss_pct = true;
	c->ss_limit = 0.01;
	c->ss_interval_ns = NS_PER_S;
	c->spr_op = 0.15;
	c->spr_num_regions = 100;
	c->clat_percentiles = true;
	c->sig_figs = 4;
}

/* ---- verify ------------------------------------------------------------- */

static const struct { const char *name; enum verify_kind kind; } methods[] = {
	{ "0", VERIFY_NONE }, { "none", VERIFY_NONE },
	{ "crc32c", VERIFY_CRC32C }, { "crc32c-intel", VERIFY_CRC32C },
	{ "md5", VERIFY_MD5 }, { "crc64", VERIFY_CRC64 }, { "crc32", VERIFY_CRC32 },
	{ "crc16", VERIFY_CRC16 }, { "crc7", VERIFY_CRC7 }, { "sha1", VERIFY_SHA1 },
	{ "sha256", VERIFY_SHA256 }, { "sha512", VERIFY_SHA512 },
	{ "sha3-224", VERIFY_SHA3_224 }, { "sha3-256", VERIFY_SHA3_256 },
	{ "sha3-384", VERIFY_SHA3_384 }, { "sha3-512", VERIFY_SHA3_512 },
	{ "xxhash", VERIFY_XXHASH }, { "meta", VERIFY_META },
	{ "pattern", VERIFY_PATTERN }, { "pattern_hdr", VERIFY_PATTERN_HDR },
};

#define NR_METHODS (sizeof(methods) / sizeof(methods[0]))

const char *verify_method_name(enum verify_kind kind)
{
	/* the first name of each kind is the one shown ("none", "crc32c") */
	for (size_t i = 1; i < NR_METHODS; i++)
		if (methods[i].kind == kind)
			return methods[i].name;
	return "unknown";
}

static int set_verify(struct job_spec *spec, const char *value)
{
	for (size_t i = 0; i < NR_METHODS; i++)
		if (!strcmp(value, methods[i].name)) {
			spec->verify = methods[i].kind;
			spec->checks.verify_set = true;
			return 0;
		}
	if (!strcmp(value, "null"))
		return err_set("verify=null (pretend to verify) is not supported");
	return err_set("verify=%s: unknown method (md5, crc64, crc32, crc32c, crc16, crc7, "
		       "sha1, sha256, sha512, sha3-224, sha3-256, sha3-384, sha3-512, "
		       "xxhash, meta, pattern, pattern_hdr, or 0/none)", value);
}

/* fio: a pattern without verify= verifies the pattern with a header. */
static int set_verify_pattern(struct job_spec *spec, const char *value)
{
	struct job_checks *c = &spec->checks;
	int len = pattern_parse_fmt(value, c->pattern, sizeof(c->pattern), c->pattern_fmt,
				    VERIFY_PATTERN_FMT_MAX, &c->nr_pattern_fmt);

	if (len < 0) {
		c->pattern_len = 0;
		return -1;
	}
	c->pattern_len = (unsigned)len;
	if (!c->verify_set)
		spec->verify = VERIFY_PATTERN_HDR;
	return 0;
}

/* drivebench keeps no state file: the seed is stored with the run. */
static int set_verify_state_save(struct job_spec *spec, const char *value)
{
	bool on;

	(void)spec;
	if (!units_parse_bool(value, &on))
		return err_set("bad boolean '%s'", value);
	if (on)
		return err_set("verify_state_save=1 is not supported: drivebench writes no "
			       "verify state file (the seed is stored with the run: "
			       "drivebench verify --run ID)");
	return 0;
}

/* ---- steady state ----------------------------------------------------------- */

static int ss_limit(struct job_checks *c, const char *text, unsigned kb_base)
{
	size_t len = strlen(text);
	uint64_t n;

	if (len > 1 && text[len - 1] == '%') {
		char number[64];

		if (len >= sizeof(number))
			return err_set("bad limit '%s'", text);
		memcpy(number, text, len - 1);
		number[len - 1] = '\0';
		c->ss_pct = true;
		if (units_parse_double(number, &c->ss_limit) || !(c->ss_limit >= 0))
			return err_set("bad percentage '%s' (a number >= 0, then %%)", text);
		return 0;
	}
	c->ss_pct = false;
	switch (c->ss_metric) {
	case SS_IOPS:
		if (units_parse_double(text, &c->ss_limit) || !(c->ss_limit >= 0))
			return err_set("bad IOPS limit '%s' (a number >= 0, or NN%%)", text);
		return 0;
	case SS_BW:   /* bytes per second, with size suffixes */
		if (parse_size(text, kb_base, &n) ||
		    units_check_range(n, 0, SIZE_LIMIT, UNITS_BYTES, text))
			return -1;
		c->ss_limit = (double)n;
		return 0;
	case SS_LAT:  /* a time, microseconds without a unit */
		if (parse_time_ns(text, NS_PER_US, &n) ||
		    units_check_range(n, 0, TIME_LIMIT, UNITS_NS, text))
			return -1;
		c->ss_limit = (double)n;
		return 0;
	}
	return err_set("internal error: metric");
}

static int set_steadystate(struct job_spec *spec, const char *value)
{
	static const struct { const char *name; enum ss_metric m; bool slope; } kinds[] = {
		{ "iops", SS_IOPS, false }, { "iops_slope", SS_IOPS, true },
		{ "bw", SS_BW, false }, { "bw_slope", SS_BW, true },
		{ "lat", SS_LAT, false }, { "lat_slope", SS_LAT, true },
	};
	struct job_checks *c = &spec->checks;
	const char *colon = strchr(value, ':');
	size_t n = colon ? (size_t)(colon - value) : strlen(value);

	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (strlen(kinds[i].name) != n || strncmp(value, kinds[i].name, n))
			continue;
		if (!colon || !colon[1])
			return err_set("'%s': the limit must follow the criterion (e.g. %s:0.1%%)",
				       value, kinds[i].name);
		c->ss_metric = kinds[i].m;
		c->ss_slope = kinds[i].slope;
		return ss_limit(c, colon + 1, spec->kb_base);
	}
	return err_set("unknown criterion in '%s' (iops, iops_slope, bw, bw_slope, lat, lat_slope)",
		       value);
}

/* ---- sprandom and reporting --------------------------------------------------- */

static int set_spr_op(struct job_spec *spec, const char *value)
{
	double op;

	if (units_parse_double(value, &op) || !(op > 0 && op < 1))
		return err_set("bad over-provisioning '%s' (0 < spr_op < 1)", value);
	spec->checks.spr_op = op;
	return 0;
}

static int set_unified_rw_reporting(struct job_spec *spec, const char *value)
{
	static const struct { const char *name; enum unified_rw u; } names[] = {
		{ "none", UNIFIED_NONE }, { "0", UNIFIED_NONE },
		{ "mixed", UNIFIED_MIXED }, { "1", UNIFIED_MIXED },
		{ "both", UNIFIED_BOTH }, { "2", UNIFIED_BOTH },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(value, names[i].name)) {
			spec->checks.unified_rw = names[i].u;
			return 0;
		}
	return err_set("bad value '%s' (none, mixed, both, 0, 1 or 2)", value);
}

#define CFIELD(f) offsetof(struct job_spec, checks.f), sizeof(((struct job_spec *)0)->checks.f)

const struct option_def check_options[] = {
	FUNC("verify", NULL, set_verify),
	FUNC("verify_pattern", NULL, set_verify_pattern),
	{ "verify_offset", NULL, OPT_SIZE, CFIELD(verify_offset), 0, BS_LIMIT, 0, NULL, false },
	{ "verify_dump", NULL, OPT_BOOL, CFIELD(verify_dump), 0, 0, 0, NULL, true },
	{ "verify_write_sequence", NULL, OPT_BOOL, CFIELD(verify_write_sequence), 0, 0, 0, NULL, true },
	{ "verify_header_seed", NULL, OPT_BOOL, CFIELD(verify_header_seed), 0, 0, 0, NULL, true },
	FLAG_FUNC("verify_state_save", NULL, set_verify_state_save),
	FUNC("steadystate", "ss", set_steadystate),
	{ "steadystate_duration", "ss_dur", OPT_TIME, CFIELD(ss_dur_ns), 0, TIME_LIMIT,
	  NS_PER_SEC, NULL, false },
	{ "steadystate_ramp_time", "ss_ramp", OPT_TIME, CFIELD(ss_ramp_ns), 0, TIME_LIMIT,
	  NS_PER_SEC, NULL, false },
	{ "steadystate_check_interval", "ss_interval", OPT_TIME, CFIELD(ss_interval_ns),
	  NS_PER_MS, NS_PER_DAY, NS_PER_SEC, NULL, false },
	{ "sprandom", NULL, OPT_BOOL, CFIELD(sprandom), 0, 0, 0, NULL, true },
	FUNC("spr_op", NULL, set_spr_op),
	{ "spr_num_regions", NULL, OPT_UINT, CFIELD(spr_num_regions), 1, SPR_REGIONS_LIMIT,
	  0, NULL, false },
	{ "spr_cs", NULL, OPT_SIZE, CFIELD(spr_cs), 0, SIZE_LIMIT, 0, NULL, false },
	{ "clat_percentiles", NULL, OPT_BOOL, CFIELD(clat_percentiles), 0, 0, 0, NULL, true },
	{ "lat_percentiles", NULL, OPT_BOOL, CFIELD(lat_percentiles), 0, 0, 0, NULL, true },
	{ "slat_percentiles", NULL, OPT_BOOL, CFIELD(slat_percentiles), 0, 0, 0, NULL, true },
	FUNC("unified_rw_reporting", NULL, set_unified_rw_reporting),
	{ "significant_figures", NULL, OPT_UINT, CFIELD(sig_figs), 1, 10, 0, NULL, false },
};

_Static_assert(sizeof(check_options) / sizeof(check_options[0]) == CHECK_OPTIONS_NR,
	       "CHECK_OPTIONS_NR must be the table's length");


/* ---- cross-checks ------------------------------------------------------------ */

/* Whether the job's own text set key (fio's fio_option_is_set). */
static bool option_given(const struct job_spec *spec, const char *key)
{
	size_t klen = strlen(key);

	for (const char *line = spec->options_text; line && *line;) {
		const char *next = strchr(line, '\n');

		if (!strncmp(line, key, klen) && (line[klen] == '=' || line[klen] == '\n' ||
						  line[klen] == '\0'))
			return true;
		line = next ? next + 1 : NULL;
	}
	return false;
}

static int check_steady(const struct job_spec *spec)
{
	const struct job_checks *c = &spec->checks;
	uint64_t intervals;

	if (!c->ss_dur_ns)
		return 0;
	if (c->ss_dur_ns % c->ss_interval_ns)
		return err_set("option 'ss_dur': %llu ms is not a whole number of ss_interval (%llu ms)",
			       (unsigned long long)(c->ss_dur_ns / NS_PER_MS),
			       (unsigned long long)(c->ss_interval_ns / NS_PER_MS));
	intervals = c->ss_dur_ns / c->ss_interval_ns;
	if (c->ss_slope && intervals < 2)
		return err_set("option 'ss_dur': a slope needs at least 2 intervals of ss_interval in the window");
	if (intervals > SS_INTERVALS_LIMIT)
		return err_set("option 'ss_dur': %llu intervals in the window, at most %u",
			       (unsigned long long)intervals, SS_INTERVALS_LIMIT);
	return 0;
}

/* fio's rules: random writes, the lfsr generator and no random map (set
 * when not given, an error when given otherwise). */
static int check_sprandom(const struct job_spec *spec)
{
	if (!spec->checks.sprandom)
		return 0;
	/* fio takes randrw too (its reads random as ever); here the one
	 * offset sequence of a job would be shared: randwrite only */
	if (spec->rw != RW_RANDWRITE)
		return err_set("option 'sprandom': needs random writes (rw=randwrite)");
	if (option_given(spec, "random_generator") && spec->random_generator != RANDGEN_LFSR)
		return err_set("option 'sprandom': requires random_generator=lfsr");
	if (option_given(spec, "norandommap") && !spec->norandommap)
		return err_set("option 'sprandom': requires norandommap=1");
	if (spec->bssplit_nr[DIR_WRITE])
		return err_set("option 'sprandom': needs one write block size (no bssplit)");
	return 0;
}

static int check_verify_layout(const struct job_spec *spec)
{
	const struct job_checks *c = &spec->checks;

	if (spec->verify == VERIFY_NONE)
		return 0;
	if ((spec->verify == VERIFY_PATTERN || spec->verify == VERIFY_PATTERN_HDR) &&
	    !c->pattern_len)
		return err_set("option 'verify': verify=%s needs verify_pattern",
			       verify_method_name(spec->verify));
	if (c->verify_offset && spec->verify == VERIFY_PATTERN)
		return err_set("option 'verify_offset': verify=pattern has no header to move");
	return 0;
}

int job_checks_validate(const struct job_spec *spec)
{
	if (check_verify_layout(spec) || check_steady(spec) || check_sprandom(spec))
		return -1;
	return 0;
}

bool job_checks_option_given(const struct job_spec *spec, const char *key)
{
	return option_given(spec, key);
}
