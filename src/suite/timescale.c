/* timescale.c - `suite --time-scale F`: every timed part of a suite (a
 * point's runtime and ramp, the pause after a sweep point, an idle step)
 * multiplied by F, so a whole suite can run in a fraction of its time (a
 * look at a new drive, the tests). Size-based work (fills, the CDN fill,
 * checkpoints) is the same bytes. The stored options say what ran. */
#include "suite/suite.h"

#include <stdio.h>
#include <string.h>

#include "util/error.h"

#define TIME_SCALE_MIN 0.01
#define TIME_SCALE_MAX 100.0

static uint64_t scaled(uint64_t ns, double f)
{
	uint64_t v = (uint64_t)((double)ns * f + 0.5);

	return ns && !v ? 1 : v;   /* a timed part stays timed */
}

/* Appends "key=Nus" so the stored options (last value wins) say what ran. */
static int note(struct suite_step *st, const char *key, uint64_t ns)
{
	char *text = st->spec.options_text;
	size_t used = strlen(text);
	int n = snprintf(text + used, sizeof(st->spec.options_text) - used, "%s%s=%lluus\n",
			 used && text[used - 1] != '\n' ? "\n" : "", key,
			 (unsigned long long)((ns + 500) / 1000));

	if (n < 0 || (size_t)n >= sizeof(st->spec.options_text) - used)
		return err_set("step '%s': its options and the scaled times do not fit in %zu bytes",
			       st->name, sizeof(st->spec.options_text));
	return 0;
}

int suite_scale_time(struct suite *s, double factor)
{
	if (!(factor >= TIME_SCALE_MIN && factor <= TIME_SCALE_MAX))
		return err_set("--time-scale: %g is not in [%g, %g]", factor, TIME_SCALE_MIN,
			       TIME_SCALE_MAX);
	for (unsigned i = 0; i < s->nr_steps; i++) {
		struct suite_step *st = &s->steps[i];

		st->pause_ns = scaled(st->pause_ns, factor);
		st->idle_ns = scaled(st->idle_ns, factor);
		if (st->spec.runtime_ns) {
			st->spec.runtime_ns = scaled(st->spec.runtime_ns, factor);
			if (note(st, "runtime", st->spec.runtime_ns))
				return -1;
		}
		if (st->spec.ramp_ns) {
			st->spec.ramp_ns = scaled(st->spec.ramp_ns, factor);
			if (note(st, "ramp_time", st->spec.ramp_ns))
				return -1;
		}
	}
	return 0;
}
