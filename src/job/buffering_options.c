/* buffering_options.c - the options of job/buffering.h: their table
 * and setters, fio's defaults, and the checks between them. Each setter
 * does what fio's option callback does at parse time (buffer_pattern turns
 * scrambling and zeroing off, buffer_compress_percentage and
 * dedupe_percentage mark the buffers as shaped); what depends on the whole
 * job (refill by default, which of them wins) is run/buffers.c's. */
#include "job/buffering.h"
#include "job/buffering_options.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"
#include "job/job_spec.h"
#include "job/pattern.h"
#include "job/values.h"

void buffering_defaults(struct job_buffering *b)
{
	memset(b, 0, sizeof(*b));
	b->scramble_buffers = true;
	b->compress_chunk = 512;
	b->dedupe_mode = DEDUPE_REPEAT;
	b->dedupe_ws_pct = 5;
	b->invalidate = true;
	b->fadvise = FADVISE_TYPE;
}

static int parse_flag(const char *value, bool *out)
{
	if (!units_parse_bool(value, out))
		return err_set("bad boolean '%s'", value);
	return 0;
}

static int set_zero_buffers(struct job_spec *spec, const char *value)
{
	if (parse_flag(value, &spec->buffering.zero_buffers))
		return -1;
	spec->buffering.zero_set = true;
	return 0;
}

static int set_refill_buffers(struct job_spec *spec, const char *value)
{
	if (parse_flag(value, &spec->buffering.refill_buffers))
		return -1;
	spec->buffering.refill_set = true;
	return 0;
}

static int set_scramble_buffers(struct job_spec *spec, const char *value)
{
	if (parse_flag(value, &spec->buffering.scramble_buffers))
		return -1;
	spec->buffering.scramble_set = true;
	return 0;
}

/* fio: the buffers are shaped from now on, so they are not scrambled */
static int set_compress_percentage(struct job_spec *spec, const char *value)
{
	if (parse_percent_uint(value, &spec->buffering.compress_pct))
		return -1;
	spec->buffering.compress_given = true;
	return 0;
}

/* fio: shaped buffers, refilled for every write */
static int set_dedupe_percentage(struct job_spec *spec, const char *value)
{
	if (parse_percent_uint(value, &spec->buffering.dedupe_pct))
		return -1;
	spec->buffering.compress_given = true;
	spec->buffering.dedupe_refill = true;
	return 0;
}

static int set_dedupe_mode(struct job_spec *spec, const char *value)
{
	if (!strcmp(value, "repeat"))
		spec->buffering.dedupe_mode = DEDUPE_REPEAT;
	else if (!strcmp(value, "working_set"))
		spec->buffering.dedupe_mode = DEDUPE_WORKING_SET;
	else
		return err_set("bad mode '%s' (repeat or working_set)", value);
	return 0;
}

/* fio: a pattern replaces scrambling and zeroing */
static int set_buffer_pattern(struct job_spec *spec, const char *value)
{
	struct job_buffering *b = &spec->buffering;
	size_t len;

	if (pattern_parse(value, b->pattern, sizeof(b->pattern), &len))
		return -1;
	b->pattern_len = (unsigned)len;
	b->scramble_buffers = false;
	b->zero_buffers = false;
	return 0;
}

static int set_fadvise_hint(struct job_spec *spec, const char *value)
{
	static const struct { const char *name; enum fadvise_hint hint; } hints[] = {
		{ "0", FADVISE_NONE }, { "1", FADVISE_TYPE },
		{ "random", FADVISE_RANDOM }, { "sequential", FADVISE_SEQUENTIAL },
		{ "noreuse", FADVISE_NOREUSE },
	};

	for (size_t i = 0; i < sizeof(hints) / sizeof(hints[0]); i++)
		if (!strcmp(value, hints[i].name)) {
			spec->buffering.fadvise = hints[i].hint;
			return 0;
		}
	return err_set("bad hint '%s' (0, 1, random, sequential or noreuse)", value);
}

const struct option_def buffering_options[] = {
	FLAG_FUNC("zero_buffers", NULL, set_zero_buffers),
	FLAG_FUNC("refill_buffers", NULL, set_refill_buffers),
	FLAG_FUNC("scramble_buffers", NULL, set_scramble_buffers),
	FUNC("buffer_pattern", NULL, set_buffer_pattern),
	FUNC("buffer_compress_percentage", NULL, set_compress_percentage),
	SIZE("buffer_compress_chunk", NULL, buffering.compress_chunk, 0, BS_LIMIT),
	FUNC("dedupe_percentage", NULL, set_dedupe_percentage),
	FUNC("dedupe_mode", NULL, set_dedupe_mode),
	UINT("dedupe_working_set_percentage", NULL, buffering.dedupe_ws_pct, 0, 100),
	BOOL("dedupe_global", buffering.dedupe_global),
	UINT("fdatasync", NULL, buffering.fdatasync_every, 0, UINT32_MAX),
	BOOL("fsync_on_close", buffering.fsync_on_close),
	BOOL("invalidate", buffering.invalidate),
	FUNC("fadvise_hint", NULL, set_fadvise_hint),
};

int buffering_check(const struct job_spec *spec)
{
	const struct job_buffering *b = &spec->buffering;

	if (b->compress_pct > 100 || b->dedupe_pct > 100 || b->dedupe_ws_pct > 100)
		return err_set("option 'buffer_compress_percentage', 'dedupe_percentage' or "
			       "'dedupe_working_set_percentage': over 100");
	if (b->pattern_len > BUFFER_PATTERN_MAX)
		return err_set("option 'buffer_pattern': longer than %d bytes", BUFFER_PATTERN_MAX);
	if (!b->dedupe_pct || b->dedupe_mode != DEDUPE_WORKING_SET)
		return 0;
	/* fio's checks of the working set: it is a share of the size */
	if (!spec->size && !(spec->size_pct > 0))
		return err_set("option 'dedupe_mode': working_set needs size= (the working "
			       "set is dedupe_working_set_percentage of it)");
	if (b->dedupe_ws_pct + b->dedupe_pct > 100)
		return err_set("option 'dedupe_working_set_percentage': %u%% of the size is kept "
			       "for the working set's unique blocks, so dedupe_percentage=%u "
			       "cannot be reached (their sum must be at most 100)",
			       b->dedupe_ws_pct, b->dedupe_pct);
	return 0;
}
