/* options.c - the table of fio option names drivebench accepts, each with
 * its range (docs/options.md), and what each one sets in a job_spec: bs,
 * null latency, verify and fault options. The value parsers and bounds
 * are values.c's, bssplit is bssplit.c's, random_distribution and
 * percentile_list are distribution.c's. */
#include "job/options.h"
#include "job/option_table.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "job/engine_catalog.h"
#include "job/gds_transfer.h"
#include "util/error.h"
#include "util/text.h"
#include "job/bssplit.h"
#include "job/buffering_options.h"
#include "job/check_option_table.h"
#include "job/distribution.h"
#include "job/job_output_table.h"
#include "job/measure_options.h"
#include "job/pacing_options.h"
#include "job/expr.h"
#include "job/file_option_table.h"
#include "job/engine_opts_table.h"
#include "job/values.h"

#define EXPR_VALUE_MAX (JOB_PATH_MAX + 64)

static int copy_string(char *dst, size_t size, const char *value)
{
	size_t len = strlen(value);

	if (len >= size)
		return err_set("value longer than %zu characters", size - 1);
	memcpy(dst, value, len + 1);
	return 0;
}

static int set_name(struct job_spec *spec, const char *value)
{
	if (!*value)
		return err_set("empty name");
	return copy_string(spec->name, sizeof(spec->name), value);
}

/* A size, or "NN%" of the target within [lo, hi] (an end excluded when
 * its open flag is set). Returns 1 for a percentage (*pct), 0 for a size
 * (*bytes), -1 with err_msg naming what for anything else. */
static int size_or_percent(const struct job_spec *spec, const char *value,
			   const char *what, bool lo_open, bool hi_open,
			   uint64_t *bytes, double *pct)
{
	size_t len = strlen(value);
	char number[64];

	if (len <= 1 || value[len - 1] != '%') {
		if (parse_size(value, spec->kb_base, bytes) ||
		    units_check_range(*bytes, 0, SIZE_LIMIT, UNITS_BYTES, value))
			return -1;
		return 0;
	}
	if (len >= sizeof(number))
		return err_set("bad %s '%s'", what, value);
	memcpy(number, value, len - 1);
	number[len - 1] = '\0';
	if (units_parse_double(number, pct) ||
	    !(lo_open ? *pct > 0 : *pct >= 0) || !(hi_open ? *pct < 100 : *pct <= 100))
		return err_set("bad percentage '%s' (0 %s NN%% %s 100)", value,
			       lo_open ? "<" : "<=", hi_open ? "<" : "<=");
	return 1;
}

static int set_size(struct job_spec *spec, const char *value)
{
	uint64_t bytes = 0;
	double pct = 0;
	int kind = size_or_percent(spec, value, "size", true, false, &bytes, &pct);

	if (kind < 0)
		return -1;
	spec->size = bytes;
	spec->size_pct = kind ? pct : 0;
	return 0;
}

static int set_offset(struct job_spec *spec, const char *value)
{
	uint64_t bytes = 0;
	double pct = 0;
	int kind = size_or_percent(spec, value, "offset", false, true, &bytes, &pct);

	if (kind < 0)
		return -1;
	spec->offset = bytes;
	spec->offset_pct = kind ? pct : 0;
	return 0;
}

static int set_rw(struct job_spec *spec, const char *value)
{
	static const struct { const char *name; enum rw_mode mode; } modes[] = {
		{ "read", RW_READ }, { "write", RW_WRITE },
		{ "randread", RW_RANDREAD }, { "randwrite", RW_RANDWRITE },
		{ "rw", RW_READWRITE }, { "readwrite", RW_READWRITE },
		{ "randrw", RW_RANDRW },
		{ "trim", RW_TRIM }, { "randtrim", RW_RANDTRIM },
		{ "trimwrite", RW_TRIMWRITE }, { "randtrimwrite", RW_RANDTRIMWRITE },
	};
	const char *colon = strchr(value, ':');
	size_t len = colon ? (size_t)(colon - value) : strlen(value);

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strlen(modes[i].name) == len && !strncmp(value, modes[i].name, len)) {
			spec->rw = modes[i].mode;
			/* the offset modifier (pacing_options.c) */
			return pacing_rw_modifier(spec, colon ? colon + 1 : NULL);
		}
	}
	return err_set("unknown mode '%s'", value);
}

static int set_rwmixread(struct job_spec *spec, const char *value)
{
	return parse_percent_uint(value, &spec->rwmixread);
}

static int set_rwmixwrite(struct job_spec *spec, const char *value)
{
	unsigned pct = 0;

	if (parse_percent_uint(value, &pct))
		return -1;
	spec->rwmixread = 100 - pct;
	return 0;
}

/* "R[,W[,T]]" per direction (read, write, trim): an empty part keeps
 * that direction's value, and a value not followed by a comma also applies
 * to the directions after it, as in fio (bs=8k,32k: trims 32k too). */
static int parse_per_direction(struct job_spec *spec, const char *value,
			       const char *what, bool zero_allowed,
			       uint64_t result[DIR_ALL])
{
	char parts[4][256];
	int count = split_text(value, ',', parts, 4);

	if (count < 0 || count > DIR_ALL)
		return err_set("bad %s '%s' (at most read,write,trim)", what, value);
	if (strchr(value, '-'))
		return err_set("%s ranges ('%s') are not supported; use bsrange or bssplit",
			       what, value);
	for (int i = 0; i < count; i++) {
		uint64_t bytes;

		if (!parts[i][0] && count > 1)
			continue;
		if (parse_size(parts[i], spec->kb_base, &bytes) ||
		    units_check_range(bytes, zero_allowed ? 0 : 1, BS_LIMIT, UNITS_BYTES, parts[i]))
			return -1;
		for (int d = i; d < (i == count - 1 ? DIR_ALL : i + 1); d++)
			result[d] = bytes;
	}
	return 0;
}

static int set_bs(struct job_spec *spec, const char *value)
{
	uint64_t bs[DIR_ALL] = { spec->bs[DIR_READ], spec->bs[DIR_WRITE], spec->bs[DIR_TRIM] };

	if (parse_per_direction(spec, value, "block size", false, bs))
		return -1;
	memcpy(spec->bs, bs, sizeof(bs));
	return 0;
}

static int set_blockalign(struct job_spec *spec, const char *value)
{
	uint64_t align[DIR_ALL] = { spec->blockalign[DIR_READ],
				    spec->blockalign[DIR_WRITE], spec->blockalign[DIR_TRIM] };

	if (parse_per_direction(spec, value, "block alignment", true, align))
		return -1;
	memcpy(spec->blockalign, align, sizeof(align));
	return 0;
}

/* offset_increment=SIZE or NN% of the target (fio accepts both): clone i
 * starts at offset + i x increment, e.g. 4 jobs each on its quarter. */
static int set_offset_increment(struct job_spec *spec, const char *value)
{
	uint64_t bytes = 0;
	double pct = 0;
	int kind = size_or_percent(spec, value, "offset increment", false, false,
				   &bytes, &pct);

	if (kind < 0)
		return -1;
	spec->offset_increment = bytes;
	spec->offset_increment_pct = kind ? pct : 0;
	return 0;
}

static int set_sync(struct job_spec *spec, const char *value)
{
	bool on;

	if (value && (!strcmp(value, "sync") || !strcmp(value, "dsync"))) {
		spec->sync_io = true;
		return 0;
	}
	if (value && !strcmp(value, "none")) {
		spec->sync_io = false;
		return 0;
	}
	if (!units_parse_bool(value, &on))
		return err_set("bad value '%s' (0, 1, none, sync or dsync)", value);
	spec->sync_io = on;
	return 0;
}

static int set_ioengine(struct job_spec *spec, const char *value)
{
	char name[sizeof(spec->ioengine)];
	size_t len = strlen(value);

	if (len == 0)
		return err_set("empty engine name");
	if (len >= sizeof(name))
		return err_set("engine name '%s' too long", value);
	for (size_t i = 0; i <= len; i++)
		name[i] = (char)tolower((unsigned char)value[i]);
	memcpy(spec->ioengine, name, len + 1);
	spec->ioengine_given = true;
	return 0;
}

static int set_stonewall(struct job_spec *spec, const char *value)
{
	bool on;

	if (!units_parse_bool(value, &on))
		return err_set("bad boolean '%s'", value);
	spec->stonewall = on;
	if (on)
		spec->new_group = true;   /* fio: a stonewall starts a new group */
	return 0;
}

static int set_randseed(struct job_spec *spec, const char *value)
{
	uint64_t seed;

	if (parse_u64_plain(value, &seed))
		return err_set("bad number '%s'", value);
	spec->randseed = seed;
	spec->randseed_set = true;
	return 0;
}

static int set_random_generator(struct job_spec *spec, const char *value)
{
	if (!strcmp(value, "tausworthe"))
		spec->random_generator = RANDGEN_TAUSWORTHE;
	else if (!strcmp(value, "tausworthe64"))
		spec->random_generator = RANDGEN_TAUSWORTHE64;
	else if (!strcmp(value, "lfsr"))
		spec->random_generator = RANDGEN_LFSR;
	else
		return err_set("unknown generator '%s' (tausworthe, tausworthe64, lfsr)", value);
	return 0;
}

static int set_kb_base(struct job_spec *spec, const char *value)
{
	if (!strcmp(value, "1000"))
		spec->kb_base = 1000;
	else if (!strcmp(value, "1024"))
		spec->kb_base = 1024;
	else
		return err_set("must be 1000 or 1024");
	return 0;
}

static int set_cpus_allowed(struct job_spec *spec, const char *value)
{
	if (parse_cpu_list(value, NULL) < 0)
		return -1;
	return copy_string(spec->cpus_allowed, sizeof(spec->cpus_allowed), value);
}

/* "MIN-MAX" (or one value for both), bare numbers in microseconds. */
static int set_null_latency(struct job_spec *spec, const char *value)
{
	char parts[3][256];
	int count = split_text(value, '-', parts, 3);
	uint64_t min_ns, max_ns;

	if (count < 1 || count > 2)
		return err_set("bad latency range '%s' (want MIN-MAX, e.g. 10us-2ms)", value);
	if (parse_time_ns(parts[0], NS_PER_US, &min_ns) ||
	    units_check_range(min_ns, 0, TIME_LIMIT, UNITS_NS, parts[0]))
		return -1;
	max_ns = min_ns;
	if (count == 2 && (parse_time_ns(parts[1], NS_PER_US, &max_ns) ||
			   units_check_range(max_ns, 0, TIME_LIMIT, UNITS_NS, parts[1])))
		return -1;
	if (min_ns > max_ns)
		return err_set("minimum %s is above maximum %s", parts[0], parts[1]);
	spec->null_latency_min_ns = min_ns;
	spec->null_latency_max_ns = max_ns;
	return 0;
}

/* gdsio's transfer types (-x): 0 GPUD, 1 CPUONLY, 2 CPU_GPU, 5 GPUD_ASYNC. */
static int set_gds_transfer(struct job_spec *spec, const char *value)
{
	uint64_t number;

	if (parse_u64_plain(value, &number) || number > INT_MAX ||
	    !gds_xfer_valid((int)number))
		return err_set("bad transfer type '%s' (0 GPUD, 1 CPUONLY, "
			       "2 CPU_GPU, 5 GPUD_ASYNC)", value);
	spec->gds_transfer = (int)number;
	return 0;
}

/* ---- data verification (verify/verify.c) ------------------------------ */

static int set_verify_seed(struct job_spec *spec, const char *value)
{
	uint64_t seed;

	if (parse_u64_plain(value, &seed))
		return err_set("bad number '%s'", value);
	spec->verify_seed = seed;
	spec->verify_seed_set = true;
	return 0;
}

/* ---- fault injection and continue_on_error (io/fault.c) -------------- */

/* fault_<kind>_rate=PCT: 0..100, fraction allowed, an optional '%'. */
static int set_fault_rate(struct job_spec *spec, enum fault_kind kind, const char *value)
{
	char number[64];
	size_t len = strlen(value);
	double pct;

	if (len && value[len - 1] == '%')
		len--;
	if (len == 0 || len >= sizeof(number))
		return err_set("bad rate '%s' (a percentage from 0 to 100, e.g. 0.5)", value);
	memcpy(number, value, len);
	number[len] = '\0';
	if (units_parse_double(number, &pct) || !(pct >= 0 && pct <= 100))
		return err_set("bad rate '%s' (a percentage from 0 to 100, e.g. 0.5)", value);
	spec->fault.rule[kind].rate_pct = pct;
	return 0;
}

/* fault_<kind>_offsets=O1:O2:...: byte offsets (sizes with k/m/g). */
static int set_fault_offsets(struct job_spec *spec, enum fault_kind kind, const char *value)
{
	struct fault_rule *rule = &spec->fault.rule[kind];
	uint64_t offsets[FAULT_OFFSETS_MAX];
	unsigned count = 0;
	const char *start = value;

	for (;;) {
		const char *end = strchr(start, ':');
		size_t len = end ? (size_t)(end - start) : strlen(start);
		char text[64];

		if (count == FAULT_OFFSETS_MAX)
			return err_set("more than %d offsets", FAULT_OFFSETS_MAX);
		if (len == 0 || len >= sizeof(text))
			return err_set("bad offset list '%s' (want O1:O2:..., e.g. 4k:1m)", value);
		memcpy(text, start, len);
		text[len] = '\0';
		if (parse_size(text, spec->kb_base, &offsets[count]) ||
		    units_check_range(offsets[count], 0, SIZE_LIMIT, UNITS_BYTES, text))
			return -1;
		count++;
		if (!end)
			break;
		start = end + 1;
	}
	memcpy(rule->offsets, offsets, count * sizeof(offsets[0]));
	rule->nr_offsets = count;
	return 0;
}

#define FAULT_RULE_SETTERS(kind, word)                                              \
	static int set_fault_##word##_rate(struct job_spec *spec, const char *value)    \
	{ return set_fault_rate(spec, kind, value); }                                   \
	static int set_fault_##word##_offsets(struct job_spec *spec, const char *value) \
	{ return set_fault_offsets(spec, kind, value); }
FAULT_RULE_SETTERS(FAULT_EIO, eio)
FAULT_RULE_SETTERS(FAULT_SHORT, short)
FAULT_RULE_SETTERS(FAULT_DELAY, delay)
FAULT_RULE_SETTERS(FAULT_DROP, drop)
FAULT_RULE_SETTERS(FAULT_FLIP, flip)
#undef FAULT_RULE_SETTERS

static int set_fault_skip(struct job_spec *spec, const char *value)
{
	if (parse_u64_plain(value, &spec->fault.skip_ios))
		return err_set("bad number '%s'", value);
	return 0;
}

static int set_fault_seed(struct job_spec *spec, const char *value)
{
	if (parse_u64_plain(value, &spec->fault.seed))
		return err_set("bad number '%s'", value);
	return 0;
}

static int set_fault_dir(struct job_spec *spec, const char *value)
{
	if (!strcmp(value, "read"))
		spec->fault.dirs = 1u << DIR_READ;
	else if (!strcmp(value, "write"))
		spec->fault.dirs = 1u << DIR_WRITE;
	else if (!strcmp(value, "rw") || !strcmp(value, "readwrite"))
		spec->fault.dirs = (1u << DIR_READ) | (1u << DIR_WRITE);
	else
		return err_set("bad direction '%s' (read, write or rw)", value);
	return 0;
}

/* fio's continue_on_error: none, read, write, io, verify, all, 0, 1. */
static int set_continue_on_error(struct job_spec *spec, const char *value)
{
	static const struct { const char *name; unsigned mask; } classes[] = {
		{ "none", 0 }, { "0", 0 },
		{ "read", ERROR_CLASS_READ }, { "write", ERROR_CLASS_WRITE },
		{ "io", ERROR_CLASS_IO }, { "verify", ERROR_CLASS_VERIFY },
		{ "all", ERROR_CLASS_ALL }, { "1", ERROR_CLASS_ALL },
	};

	for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (!strcmp(value, classes[i].name)) {
			spec->continue_on_error = classes[i].mask;
			return 0;
		}
	return err_set("bad value '%s' (none, read, write, io, verify, all, 0 or 1)", value);
}

/* ---- the table -------------------------------------------------------- */

static const struct option_def option_table[] = {
	FUNC("name", NULL, set_name),
	STRING("description", description),
	STRING("directory", directory),
	FUNC("size", NULL, set_size),
	SIZE("io_size", "io_limit", io_size, 0, SIZE_LIMIT),
	FUNC("offset", "fileoffset", set_offset),
	FUNC("offset_increment", NULL, set_offset_increment),
	FUNC("bssplit_file", NULL, bssplit_file_option_set),
	FUNC("rw", "readwrite", set_rw),
	FUNC("rwmixread", NULL, set_rwmixread),
	FUNC("rwmixwrite", NULL, set_rwmixwrite),
	FUNC("bs", "blocksize", set_bs),
	FUNC("bssplit", NULL, bssplit_option_set),
	FUNC("blockalign", "ba", set_blockalign),
	UINT("iodepth", NULL, iodepth, 1, IODEPTH_LIMIT),
	UINT("iodepth_batch_submit", "iodepth_batch", iodepth_batch_submit, 0, IODEPTH_LIMIT),
	UINT("iodepth_batch_complete_min", "iodepth_batch_complete",
	     iodepth_batch_complete_min, 0, IODEPTH_LIMIT),
	UINT("iodepth_batch_complete_max", NULL, iodepth_batch_complete_max, 0, IODEPTH_LIMIT),
	UINT("numjobs", NULL, numjobs, 1, NUMJOBS_LIMIT),
	BOOL("thread", thread),
	BOOL("direct", direct),
	{ "buffered", NULL, OPT_BOOL_INVERSE, FIELD(direct), 0, 0, 0, NULL, true },
	FLAG_FUNC("sync", NULL, set_sync),
	FUNC("ioengine", NULL, set_ioengine),
	TIME("runtime", "timeout", runtime_ns, NS_PER_SEC, 0, TIME_LIMIT),
	BOOL("time_based", time_based),
	TIME("ramp_time", NULL, ramp_ns, NS_PER_SEC, 0, RAMP_LIMIT),
	BOOL("group_reporting", group_reporting),
	BOOL("randrepeat", randrepeat),
	FUNC("randseed", NULL, set_randseed),
	BOOL("norandommap", norandommap),
	FUNC("random_generator", NULL, set_random_generator),
	FUNC("random_distribution", NULL, distribution_option_set),
	FUNC("percentile_list", NULL, percentile_option_set),
	UINT("fsync", NULL, fsync_every, 0, UINT_MAX),
	BOOL("end_fsync", end_fsync),
	FUNC("cpus_allowed", NULL, set_cpus_allowed),
	BOOL("fixedbufs", fixedbufs),
	BOOL("registerfiles", registerfiles),
	BOOL("sqthread_poll", sqthread_poll),
	BOOL("hipri", hipri),
	FLAG_FUNC("stonewall", "wait_for_previous", set_stonewall),
	BOOL("new_group", new_group),
	FUNC("kb_base", NULL, set_kb_base),
	SIZE("chunk_size", NULL, chunk_size, CHUNK_MIN, CHUNK_LIMIT),
	TIME("series_interval", NULL, series_interval_ns, NS_PER_MS, SERIES_INTERVAL_MIN,
	     SERIES_INTERVAL_LIMIT),
	FUNC("null_latency", NULL, set_null_latency),
	FUNC("gds_transfer", NULL, set_gds_transfer),
	UINT("gpu_dev_id", NULL, gpu_device, 0, 1023),
	BOOL("do_verify", do_verify),
	{ "fill_device", "fill_fs", OPT_BOOL, FIELD(fill_device), 0, 0, 0, NULL, true },
	BOOL("create_serialize", create_serialize),
	UINT("verify_backlog", NULL, verify_backlog, 0, VERIFY_BACKLOG_LIMIT),
	FUNC("verify_seed", NULL, set_verify_seed),
	SIZE("verify_interval", NULL, verify_interval, VERIFY_UNIT_MIN, BS_LIMIT),
	BOOL("verify_only", verify_only),
	BOOL("verify_fatal", verify_fatal),
	FUNC("continue_on_error", NULL, set_continue_on_error),
	FUNC("fault_eio_rate", NULL, set_fault_eio_rate),
	FUNC("fault_eio_offsets", NULL, set_fault_eio_offsets),
	FUNC("fault_short_rate", NULL, set_fault_short_rate),
	FUNC("fault_short_offsets", NULL, set_fault_short_offsets),
	FUNC("fault_delay_rate", NULL, set_fault_delay_rate),
	FUNC("fault_delay_offsets", NULL, set_fault_delay_offsets),
	FUNC("fault_drop_rate", NULL, set_fault_drop_rate),
	FUNC("fault_drop_offsets", NULL, set_fault_drop_offsets),
	FUNC("fault_flip_rate", NULL, set_fault_flip_rate),
	FUNC("fault_flip_offsets", NULL, set_fault_flip_offsets),
	TIME("fault_delay", NULL, fault.delay_ns, NS_PER_US, 1, TIME_LIMIT),
	FUNC("fault_skip", NULL, set_fault_skip),
	FUNC("fault_seed", NULL, set_fault_seed),
	FUNC("fault_dir", NULL, set_fault_dir),
};

/* fio options people often carry in job files; named explicitly so the
 * error says "not supported" rather than "unknown". */
static const char *const unsupported_options[] = {
	"bs_unaligned",
	"overwrite",
	"trim_percentage",
	"trim_verify_zero",
	"trim_backlog",
	"trim_backlog_batch",
	"log_compression",
	"log_compression_cpus",
	"log_store_compressed",
	"log_unix_epoch",
	"log_alternate_epoch",
	"log_alternate_epoch_clock_id",
	"log_entries",
};

/* Every area's table: the core options above, then each area's own. */
static const struct option_group option_groups[] = {
	OPTION_GROUP(option_table),
	OPTION_GROUP(buffering_options),
	OPTION_GROUP(job_output_table),
	OPTION_GROUP(measure_options),
	OPTION_GROUP(check_options),
	pacing_option_group,
	OPTION_GROUP(file_options),
	OPTION_GROUP(engine_opts_table),
};

#define NR_GROUPS (sizeof(option_groups) / sizeof(option_groups[0]))

static bool option_named(const struct option_def *o, const char *key)
{
	return !strcmp(key, o->name) || (o->alias && !strcmp(key, o->alias));
}

static const struct option_def *find_core_option(const char *key)
{
	for (size_t g = 0; g < NR_GROUPS; g++)
		for (size_t i = 0; i < option_groups[g].nr; i++)
			if (option_named(&option_groups[g].defs[i], key))
				return &option_groups[g].defs[i];
	return NULL;
}

/* An engine's own option (engine_ops.options); one several engines share
 * (cmdprio_*) is found in the first that declares it. */
static const struct option_def *find_engine_option(const char *key)
{
	const struct engine_catalog *catalog = engine_catalog();
	const struct option_def *options;
	const char *engine;

	for (unsigned e = 0; catalog->engine_options(e, &engine, &options); e++)
		for (const struct option_def *o = options; o && o->name; o++)
			if (option_named(o, key))
				return o;
	return NULL;
}

static const struct option_def *find_option(const char *key, bool *engine_option)
{
	const struct option_def *o = find_core_option(key);

	*engine_option = false;
	if (o)
		return o;
	o = find_engine_option(key);
	*engine_option = o != NULL;
	return o;
}

const char *job_option_name(unsigned i)
{
	const struct engine_catalog *catalog = engine_catalog();
	const struct option_def *options;
	const char *engine;

	for (size_t g = 0; g < NR_GROUPS; g++) {
		if (i < option_groups[g].nr)
			return option_groups[g].defs[i].name;
		i -= (unsigned)option_groups[g].nr;
	}
	/* then each engine option once, where it is first declared */
	for (unsigned e = 0; catalog->engine_options(e, &engine, &options); e++)
		for (const struct option_def *o = options; o && o->name; o++) {
			if (find_engine_option(o->name) != o)
				continue;
			if (i-- == 0)
				return o->name;
		}
	return NULL;
}

bool job_option_known(const char *key)
{
	bool engine_option;

	return key && find_option(key, &engine_option) != NULL;
}

static int apply_option(struct job_spec *spec, const struct option_def *o,
			const char *value)
{
	char *field = (char *)spec + o->offset;
	uint64_t number;
	bool on;

	if (!value && !o->bare_ok)
		return err_set("needs a value");
	switch (o->type) {
	case OPT_BOOL:
	case OPT_BOOL_INVERSE:
		if (!units_parse_bool(value, &on))
			return err_set("bad boolean '%s'", value);
		*(bool *)field = o->type == OPT_BOOL ? on : !on;
		return 0;
	case OPT_UINT:
		if (parse_u64_plain(value, &number))
			return err_set("bad number '%s'", value);
		if (units_check_range(number, o->min, o->max, UNITS_COUNT, value))
			return -1;
		*(unsigned *)field = (unsigned)number;
		return 0;
	case OPT_SIZE:
		if (parse_size(value, spec->kb_base, &number) ||
		    units_check_range(number, o->min, o->max, UNITS_BYTES, value))
			return -1;
		*(uint64_t *)field = number;
		return 0;
	case OPT_TIME:
		if (parse_time_ns(value, o->unit_ns, &number) ||
		    units_check_range(number, o->min, o->max, UNITS_NS, value))
			return -1;
		*(uint64_t *)field = number;
		return 0;
	case OPT_STRING:
		return copy_string(field, o->size, value);
	case OPT_FUNC:
		return o->fn(spec, value);
	}
	return err_set("internal error: bad option type");
}

/* Appends "key=value" (or "key") as one line; once the buffer is full the
 * text is cut there and later options are not recorded. */
static void record_option(struct job_spec *spec, const char *key, const char *value)
{
	size_t used = strnlen(spec->options_text, sizeof(spec->options_text));
	size_t room;
	int n;

	if (used >= sizeof(spec->options_text) - 1)
		return;
	room = sizeof(spec->options_text) - used;
	n = snprintf(spec->options_text + used, room, "%s%s%s%s", used ? "\n" : "", key,
		     value ? "=" : "", value ? value : "");
	if (n < 0 || (size_t)n >= room)   /* cut there (snprintf ended it) */
		spec->options_text[sizeof(spec->options_text) - 1] = '\0';
}

int job_option_set(struct job_spec *spec, const char *key, const char *value)
{
	const struct option_def *o;
	char computed[EXPR_VALUE_MAX];
	bool engine_option;
	int kw;

	if (!key || !*key)
		return err_set("empty option name");
	/* fio's $pagesize, $mb_memory, $ncpus and the arithmetic after them */
	kw = value ? expr_keywords(value, computed, sizeof(computed)) : 0;
	if (kw < 0)
		return err_prefix("option '%s'", key);
	if (kw > 0)
		value = computed;
	o = find_option(key, &engine_option);
	if (!o) {
		for (size_t i = 0; i < sizeof(unsupported_options) / sizeof(unsupported_options[0]); i++)
			if (!strcmp(key, unsupported_options[i]))
				return err_set("option '%s': not supported by drivebench", key);
		return err_set("unknown option '%s'", key);
	}
	if (apply_option(spec, o, value))
		return err_prefix("option '%s'", key);
	if (engine_option && engine_opts_note(spec, o))
		return err_prefix("option '%s'", key);
	record_option(spec, key, value);
	return 0;
}
