/* cmd_plan.c - `drivebench plan`: what a suite will cost on a drive before
 * it runs: per step bytes written and read, duration and how each figure
 * was reached, the totals, and what sprandom would save over the suite's
 * full fills. Only the target's size is probed; no I/O. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/args.h"
#include "cmd/commands.h"
#include "cmd/parse_options.h"
#include "device/model_target.h"
#include "device/target.h"
#include "report/analysis/spec.h"
#include "suite/plan.h"
#include "suite/suite.h"
#include "util/error.h"
#include "util/units.h"

/* The ranges of plan's inputs: every estimate stays a finite number of
 * seconds that prints (a drive of 1 MB .. 1 EB at 0.01 .. 10^6 MB/s). */
#define CAPACITY_MIN 1e6
#define CAPACITY_MAX 1e18
#define RATE_MIN_MBPS 0.01
#define RATE_MAX_MBPS 1e6

/* "245.76TB" -> bytes; decimal units (K M G T P, optional B), binary with
 * "iB"; a plain number is bytes. */
static int parse_capacity(const char *text, uint64_t *out)
{
	static const struct {
		const char *suffix;
		double factor;
	} units[] = {
		{ "", 1 }, { "b", 1 },
		{ "k", 1e3 }, { "kb", 1e3 }, { "kib", 1024.0 },
		{ "m", 1e6 }, { "mb", 1e6 }, { "mib", 1048576.0 },
		{ "g", 1e9 }, { "gb", 1e9 }, { "gib", 1073741824.0 },
		{ "t", 1e12 }, { "tb", 1e12 }, { "tib", 1099511627776.0 },
		{ "p", 1e15 }, { "pb", 1e15 }, { "pib", 1125899906842624.0 },
	};
	char *end;
	double value;

	errno = 0;
	value = strtod(text, &end);
	if (end == text || errno || !isfinite(value) || value <= 0)
		return err_set("--capacity: bad size '%s'", text);
	while (*end == ' ')
		end++;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].suffix))
			continue;
		value *= units[i].factor;
		if (value < CAPACITY_MIN || value > CAPACITY_MAX)
			return err_set("--capacity: %s is too %s, the range is 1MB..1000PB", text,
				       value < CAPACITY_MIN ? "small" : "large");
		*out = (uint64_t)value;
		return 0;
	}
	return err_set("--capacity: unknown unit in '%s' (B, KB, MB, GB, TB, PB or KiB .. PiB)",
		       text);
}

/* A suite of tests (PTS): each test's steps summed, in suite order. */
static void print_tests(const struct suite *s, const struct plan_step *steps)
{
	bool any = false;

	for (unsigned i = 0; i < s->nr_steps; i++) {
		const char *test = s->steps[i].test;
		double seconds = 0;
		uint64_t written = 0;
		unsigned n = 0;
		char w[32], d[32];
		bool seen = false;

		for (unsigned k = 0; k < i && !seen; k++)
			seen = !strcmp(s->steps[k].test, test);
		if (!test[0] || seen)
			continue;
		for (unsigned k = i; k < s->nr_steps; k++)
			if (!strcmp(s->steps[k].test, test)) {
				seconds += steps[k].seconds;
				written += steps[k].bytes_written;
				n++;
			}
		if (!any)
			printf("\n%-12s %6s %12s %10s %8s\n", "test", "steps", "written", "duration",
			       "hours");
		any = true;
		printf("%-12s %6u %12s %10s %8.1f\n", test, n,
		       units_format_bytes(written, UNITS_SI, 0, w, sizeof(w)),
		       units_format_clock(seconds, d, sizeof(d)), seconds / 3600);
	}
}

static void print_plan(const struct suite *s, const struct plan_inputs *in,
		       const struct plan_step *steps, uint64_t total_written,
		       double total_seconds, const struct plan_fill_saving *saving)
{
	char cap[32], w[32], r[32], d[32];
	uint64_t total_read = 0;
	double least = 0;

	printf("suite %s (%s): %u steps on %s, write %.0f MB/s, read %.0f MB/s",
	       s->name, s->path, s->nr_steps,
	       units_format_bytes(in->capacity, UNITS_SI, 0, cap, sizeof(cap)),
	       in->write_bps / 1e6, in->read_bps / 1e6);
	if (in->random_write_bps > 0)
		printf(", random write %.0f MB/s", in->random_write_bps / 1e6);
	printf("\n\n%3s  %-20s %-12s %12s %12s %10s  %s\n", "#", "step", "kind", "written",
	       "read", "duration", "basis");
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const struct plan_step *p = &steps[i];

		total_read += p->bytes_read;
		printf("%3u  %-20s %-12s %12s %12s %10s  %s\n", i + 1, p->step->name,
		       step_kind_name(p->step->kind),
		       units_format_bytes(p->bytes_written, UNITS_SI, 0, w, sizeof(w)),
		       units_format_bytes(p->bytes_read, UNITS_SI, 0, r, sizeof(r)),
		       units_format_clock(p->seconds, d, sizeof(d)), p->basis);
	}
	print_tests(s, steps);
	printf("\ntotal: %s written, %s read, %s (%.1f hours, %.1f days)\n",
	       units_format_bytes(total_written, UNITS_SI, 0, w, sizeof(w)),
	       units_format_bytes(total_read, UNITS_SI, 0, r, sizeof(r)),
	       units_format_clock(total_seconds, d, sizeof(d)), total_seconds / 3600,
	       total_seconds / 86400);
	for (unsigned i = 0; i < s->nr_steps; i++)
		least += steps[i].least_seconds;
	if (least < total_seconds - 0.5)
		printf("at least %s (%.1f hours) when every steady step is steady after its "
		       "first window of rounds\n", units_format_clock(least, d, sizeof(d)),
		       least / 3600);
	if (saving->nr_fills) {
		printf("full fills: %u step%s writing %s in %s (%.1f hours)\n", saving->nr_fills,
		       saving->nr_fills == 1 ? "" : "s",
		       units_format_bytes(saving->fill_bytes, UNITS_SI, 0, w, sizeof(w)),
		       units_format_clock(saving->fill_seconds, d, sizeof(d)),
		       saving->fill_seconds / 3600);
		printf("sprandom would write %s instead of %s (saving %.1f hours)\n",
		       units_format_bytes(saving->sprandom_bytes, UNITS_SI, 0, r, sizeof(r)),
		       units_format_bytes(saving->fill_bytes, UNITS_SI, 0, w, sizeof(w)),
		       (saving->fill_seconds - saving->sprandom_seconds) / 3600);
	}
}

struct plan_args {
	const char *suite_name, *capacity_text, *target_path;
	const char *time_scale;               /* --time-scale F, NULL = 1 */
	struct plan_inputs in;
	bool have_write, have_read, have_random_write;
	const char **only, **skip, **sets;    /* as given, NULL-terminated */
	unsigned nr_only, nr_skip, nr_sets;
	/* suite's options that change nothing planned: taken, so that a
	 * suite command line plans as it is */
	const char *db_path, **labels, **destroy_ids;
	unsigned nr_labels, nr_destroy_ids;
	uint64_t max_buffer_mem;
};

static int set_rated_write(void *args, const struct cmdopt *o, const char *v)
{
	struct plan_args *a = args;

	if (units_parse_rate_mbps(o->name, v, RATE_MIN_MBPS, RATE_MAX_MBPS, &a->in.write_bps))
		return -1;
	a->have_write = true;
	return 0;
}

static int set_rated_read(void *args, const struct cmdopt *o, const char *v)
{
	struct plan_args *a = args;

	if (units_parse_rate_mbps(o->name, v, RATE_MIN_MBPS, RATE_MAX_MBPS, &a->in.read_bps))
		return -1;
	a->have_read = true;
	return 0;
}

static int set_rated_random_write(void *args, const struct cmdopt *o, const char *v)
{
	struct plan_args *a = args;

	if (units_parse_rate_mbps(o->name, v, RATE_MIN_MBPS, RATE_MAX_MBPS,
				  &a->in.random_write_bps))
		return -1;
	a->have_random_write = true;
	return 0;
}

static int set_target(void *args, const char *v)
{
	struct plan_args *a = args;

	if (a->target_path)
		return err_set("one TARGET only ('%s'): plan the targets one at a time", v);
	a->target_path = v;
	return 0;
}

static int set_target_option(void *args, const struct cmdopt *o, const char *v)
{
	(void)o;
	return set_target(args, v);
}

static const struct cmdopt plan_options[] = {
	CMDOPT_STRING("--suite", 0, struct plan_args, suite_name, "NAME|FILE",
		      "suites/NAME.suite or a suite file (default " SUITE_DEFAULT ",\n"
		      "as suite's)"),
	CMDOPT_STRING("--capacity", 0, struct plan_args, capacity_text, "SIZE",
		      "drive capacity instead of a TARGET; decimal units\n"
		      "as reviews use them: 245.76TB, 3.84T, 960GB\n"
		      "(KiB MiB GiB TiB PiB are binary)"),
	CMDOPT_VALUE_FN("--rated-write", 0, set_rated_write, "MB/s",
			"sequential write throughput (10^6 bytes/s)"),
	CMDOPT_VALUE_FN("--rated-read", 0, set_rated_read, "MB/s",
			"sequential read throughput"),
	CMDOPT_VALUE_FN("--rated-random-write", 0, set_rated_random_write, "MB/s",
			"random write throughput for random fills\n"
			"(default: the sequential write figure)"),
	CMDOPT_APPEND("--only", struct plan_args, only, nr_only, "STEP[,STEP...]",
		      "plan only these steps or tests (repeatable)"),
	CMDOPT_APPEND("--skip", struct plan_args, skip, nr_skip, "STEP[,STEP...]",
		      "leave these steps or tests out (repeatable)"),
	CMDOPT_APPEND("--set", struct plan_args, sets, nr_sets, "[NAME.]KEY=VALUE",
		      "as suite --set: an option or step parameter"),
	CMDOPT_STRING("--time-scale", 0, struct plan_args, time_scale, "F",
		      "as suite --time-scale: every step's runtime, ramp,\n"
		      "pause and idle x F (0.01-100)"),
	CMDOPT_VALUE_FN("--target", 0, set_target_option, "TARGET", "the target, as TARGET"),
	CMDOPT_STRING("--db", 0, struct plan_args, db_path, "FILE",
		      "as suite's; nothing is stored (taken so that a suite\n"
		      "command line plans as it is, as --label, --destroy-data\n"
		      "and --max-buffer-mem are)"),
	CMDOPT_APPEND("--label", struct plan_args, labels, nr_labels, "LABEL", "as suite's"),
	CMDOPT_APPEND("--destroy-data", struct plan_args, destroy_ids, nr_destroy_ids, "ID",
		      "as suite's; plan writes nothing"),
	CMDOPT_SIZE("--max-buffer-mem", struct plan_args, max_buffer_mem, "as suite's"),
};

static const struct cmdopt_spec plan_spec = {
	.command = "plan",
	.synopsis = "plan [--suite NAME|FILE] --rated-write MB/s --rated-read MB/s TARGET\n"
		    "plan [--suite NAME|FILE] vssd:MODEL[@SCALE]\n"
		    "plan [--suite NAME|FILE] --capacity SIZE --rated-write MB/s --rated-read MB/s",
	.about =
	"Lists every step of a suite (default: " SUITE_DEFAULT ", as suite's) with the bytes it writes and\n"
	"reads and its estimated duration on a drive of TARGET's size (or SIZE),\n"
	"then the totals and, when the suite fills the drive, what sprandom\n"
	"preconditioning would write instead. Nothing is written or read: only\n"
	"TARGET's size is looked up. It takes suite's options (--only, --skip,\n"
	"--set, --time-scale ...) and plans what suite would run with them. On a\n"
	"modelled drive (vssd:MODEL) the rated figures are the model file's\n"
	"[rated] seq_write_mbs, seq_read_mbs and rand_write_iops x rand_write_bs\n"
	"unless --rated-* say otherwise. See docs/suites.md.\n",
	.options = plan_options,
	.nr_options = CMDOPT_COUNT(plan_options),
	.positional = set_target,
};

/* The "a,b" values of --only / --skip as one NULL-terminated list of
 * names; *text holds them (free both). */
static char **split_names(const char *const *values, unsigned nr, const char *option,
			  char **text)
{
	size_t len = 1;
	char **names, *at, *save = NULL;
	unsigned n = 0;

	for (unsigned i = 0; i < nr; i++)
		len += strlen(values[i]) + 1;
	names = calloc(len + 1, sizeof(*names));
	*text = at = calloc(len, 1);
	if (!names || !at) {
		free(names);
		err_set("out of memory");
		return NULL;
	}
	for (unsigned i = 0; i < nr; i++) {
		strcat(at, values[i]);
		strcat(at, ",");
	}
	for (char *t = strtok_r(at, ",", &save); t; t = strtok_r(NULL, ",", &save))
		names[n++] = t;
	if (!n) {
		free(names);
		err_set("%s needs step or test names", option);
		return NULL;
	}
	return names;
}

/* --only / --skip: the suite cut to the steps they leave. */
static int select_steps(const struct plan_args *a, struct suite *s)
{
	char *only_text = NULL, *skip_text = NULL;
	char **only = a->nr_only ? split_names(a->only, a->nr_only, "--only", &only_text) : NULL;
	char **skip = a->nr_skip ? split_names(a->skip, a->nr_skip, "--skip", &skip_text) : NULL;
	unsigned *selected = calloc(s->nr_steps + 1, sizeof(*selected)), nr = 0;
	int rc = -1;

	if ((a->nr_only && !only) || (a->nr_skip && !skip))
		goto out;
	if (!selected) {
		err_set("out of memory");
		goto out;
	}
	if (suite_select(s, (const char *const *)only, (const char *const *)skip, selected, &nr))
		goto out;
	suite_keep_steps(s, selected, nr);
	rc = 0;
out:
	free(only);
	free(skip);
	free(only_text);
	free(skip_text);
	free(selected);
	return rc;
}

static void free_args(struct plan_args *a)
{
	free(a->only);
	free(a->skip);
	free(a->sets);
	free(a->labels);
	free(a->destroy_ids);
}

/* A modelled drive's rated figures from its model file's [rated]
 * section, each unless an option gave it. */
static int model_rates(struct plan_args *a)
{
	char model[JOB_PATH_MAX], scale[64];
	struct drive_spec spec;

	if (model_target_parse(a->target_path, model, sizeof(model), scale, sizeof(scale)) ||
	    spec_load(model, &spec, NULL))
		return -1;
	if (!a->have_write && !(spec.seq_write_mbs > 0))
		return err_set("%s: no [rated] seq_write_mbs to plan with: give --rated-write MB/s",
			       model);
	if (!a->have_read && !(spec.seq_read_mbs > 0))
		return err_set("%s: no [rated] seq_read_mbs to plan with: give --rated-read MB/s",
			       model);
	if (!a->have_write)
		a->in.write_bps = spec.seq_write_mbs * 1e6;
	if (!a->have_read)
		a->in.read_bps = spec.seq_read_mbs * 1e6;
	if (!a->have_random_write && spec.rand_write_iops > 0)
		a->in.random_write_bps = spec.rand_write_iops *
			(double)(spec.rand_write_bs ? spec.rand_write_bs : 4096);
	a->have_write = a->have_read = true;
	return 0;
}

/* As suite --time-scale: the same function scales the same steps. */
static int scale_time(struct suite *s, const char *text)
{
	double f;

	if (units_parse_double(text, &f))
		return err_set("--time-scale: '%s' is not a number", text);
	return suite_scale_time(s, f);
}

static int plan_with(struct plan_args args)
{
	const char *suite_name, *capacity_text, *target_path;
	struct plan_inputs in;
	bool have_write, have_read;
	struct suite s;
	struct plan_step *steps;
	struct plan_fill_saving saving;
	uint64_t total_written;
	double total_seconds;
	int rc = EXIT_BAD_INPUT;

	suite_name = args.suite_name;
	capacity_text = args.capacity_text;
	target_path = args.target_path;
	if (!!target_path == !!capacity_text) {
		fprintf(stderr, "drivebench plan: give a TARGET or --capacity SIZE (one of them; see "
			"'drivebench plan --help')\n");
		return EXIT_BAD_INPUT;
	}
	if (target_path && model_target_is(target_path) && model_rates(&args)) {
		fprintf(stderr, "drivebench plan: %s\n", err_msg());
		return EXIT_BAD_INPUT;
	}
	in = args.in;
	have_write = args.have_write;
	have_read = args.have_read;
	if (!have_write || !have_read) {
		fprintf(stderr, "drivebench plan: needs --rated-write and --rated-read (MB/s; see "
			"'drivebench plan --help')\n");
		return EXIT_BAD_INPUT;
	}
	if (capacity_text) {
		if (parse_capacity(capacity_text, &in.capacity)) {
			fprintf(stderr, "drivebench plan: %s\n", err_msg());
			return EXIT_BAD_INPUT;
		}
	} else {
		struct target t;

		if (target_probe(target_path, &t)) {
			fprintf(stderr, "drivebench plan: %s\n", err_msg());
			return EXIT_BAD_INPUT;
		}
		if (!t.exists || t.size == 0) {
			fprintf(stderr, "drivebench plan: %s: no size to plan for (missing or empty; "
				"use --capacity)\n", target_path);
			return EXIT_BAD_INPUT;
		}
		in.capacity = t.size;
		/* a file's purge punches a hole, a model's formats it: no
		 * device-wide discard to wait for */
		in.purge_instant = !t.is_block;
	}
	/* the steps as a suite on the target runs them (--set vssd_state= on a model) */
	if (suite_load_on(suite_name, args.sets, args.nr_sets, target_path, &s) ||
	    select_steps(&args, &s) ||
	    (args.time_scale && scale_time(&s, args.time_scale))) {
		fprintf(stderr, "drivebench plan: %s\n", err_msg());
		suite_free(&s);
		return EXIT_BAD_INPUT;
	}
	steps = calloc(s.nr_steps, sizeof(*steps));
	if (!steps) {
		fprintf(stderr, "drivebench plan: out of memory\n");
		rc = EXIT_RUN_FAILED;
	} else if (suite_plan(&s, &in, steps, &total_written, &total_seconds)) {
		fprintf(stderr, "drivebench plan: %s\n", err_msg());
	} else {
		/* the comparison is extra: a drive too small for sprandom's
		 * regions still gets its plan */
		bool compared = plan_sprandom_saving(&s, &in, steps, &saving) == 0;

		if (!compared)
			memset(&saving, 0, sizeof(saving));
		print_plan(&s, &in, steps, total_written, total_seconds, &saving);
		if (!compared)
			printf("no sprandom comparison: %s\n", err_msg());
		rc = EXIT_OK;
	}
	free(steps);
	suite_free(&s);
	return rc;
}

int cmd_plan(int argc, char **argv)
{
	struct plan_args args = { .suite_name = SUITE_DEFAULT };
	int rc = EXIT_BAD_INPUT;

	if (cmd_parse(&plan_spec, argc, argv, &args, &rc) == 0)
		rc = plan_with(args);
	free_args(&args);
	return rc;
}
