/* suitefile.c - suite files (suites/NAME.suite): INI like fio job files.
 * [suite] names the suite, [global] holds fio options for the steps after
 * it, every other section is a step in file order with its step parameters
 * and fio options. ${VAR} expands from the environment; include is not
 * supported. Every error names "file:line". docs/suites.md is the format;
 * the step parameters' values and ranges are stepparams.c's. */
#include "suite/suite.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "device/model_target.h"
#include "util/env_expand.h"
#include "util/error.h"
#include "util/text.h"
#include "suite/stepparams.h"
#include "suite/steadyround.h"
#include "job/options.h"

/* One "key[=value]" line of the open section, or a --set override. */
struct entry {
	char *key;
	char *value;      /* NULL for a bare key */
	unsigned line;
	const char *set;  /* the --set text it came from; NULL: the file's */
};

/* A --set override: [NAME.]KEY[=VALUE]. */
struct override {
	const char *text;
	char name[SUITE_NAME_MAX];   /* "" every step */
	char key[64];
	const char *value;           /* into text; NULL for a bare key */
	bool named_seen, used;
};

struct parser {
	const char *file;
	struct suite *suite;
	struct job_spec global;
	unsigned cap_steps;
	bool seen_suite_section;
	/* the open section */
	enum { SECTION_NONE, SECTION_SUITE, SECTION_GLOBAL, SECTION_STEP } section;
	char section_name[SUITE_NAME_MAX];
	unsigned section_line;
	struct entry *entries;
	unsigned nr_entries, cap_entries;
	struct override *sets;
	unsigned nr_sets;
	const char *model_target;    /* the vssd: target the steps run on; NULL: none */
};

/* Where an entry came from, for messages: "FILE:LINE" or "--set TEXT". */
static const char *entry_where(const struct parser *p, const struct entry *e, char *buf,
			       size_t len)
{
	if (e->set)
		snprintf(buf, len, "--set %s", e->set);
	else
		snprintf(buf, len, "%s:%u", p->file, e->line);
	return buf;
}

const char *step_kind_name(enum step_kind kind)
{
	switch (kind) {
	case STEP_PURGE: return "purge";
	case STEP_PRECONDITION: return "precondition";
	case STEP_STEADY: return "steady";
	case STEP_MEASURE: return "measure";
	case STEP_SWEEP: return "sweep";
	case STEP_IDLE: return "idle";
	case STEP_CHECKPOINT: return "checkpoint";
	}
	return "unknown";
}

void suite_free(struct suite *s)
{
	if (!s)
		return;
	free(s->steps);
	s->steps = NULL;
	s->nr_steps = 0;
}

static void clear_entries(struct parser *p)
{
	for (unsigned i = 0; i < p->nr_entries; i++) {
		free(p->entries[i].key);
		free(p->entries[i].value);
	}
	p->nr_entries = 0;
}

static int add_entry(struct parser *p, unsigned line, const char *key, const char *value,
		     const char *set)
{
	struct entry *e;

	if (p->nr_entries == p->cap_entries) {
		unsigned cap = p->cap_entries ? p->cap_entries * 2 : 32;
		struct entry *grown = realloc(p->entries, cap * sizeof(*grown));

		if (!grown)
			return err_set("%s:%u: out of memory", p->file, line);
		p->entries = grown;
		p->cap_entries = cap;
	}
	e = &p->entries[p->nr_entries];
	e->key = strdup(key);
	e->value = value ? strdup(value) : NULL;
	e->line = line;
	e->set = set;
	if (!e->key || (value && !e->value)) {
		free(e->key);
		free(e->value);
		return err_set("%s:%u: out of memory", p->file, line);
	}
	p->nr_entries++;
	return 0;
}

/* ---- sections ----------------------------------------------------------- */

static const struct entry *find_entry(const struct parser *p, const char *key)
{
	const struct entry *found = NULL;

	for (unsigned i = 0; i < p->nr_entries; i++)
		if (!strcmp(p->entries[i].key, key))
			found = &p->entries[i];   /* the last one wins, as in fio */
	return found;
}

static int close_suite_section(struct parser *p)
{
	for (unsigned i = 0; i < p->nr_entries; i++) {
		const struct entry *e = &p->entries[i];
		const char *value = e->value ? e->value : "";

		if (!strcmp(e->key, "name")) {
			if (!*value || strlen(value) >= sizeof(p->suite->name))
				return err_set("%s:%u: name: empty or longer than %d characters",
					       p->file, e->line, SUITE_NAME_MAX - 1);
			strcpy(p->suite->name, value);
		} else if (!strcmp(e->key, "description")) {
			snprintf(p->suite->description, sizeof(p->suite->description), "%s", value);
		} else {
			return err_set("%s:%u: unknown key '%s' in [suite] (name, description)",
				       p->file, e->line, e->key);
		}
	}
	return 0;
}

/* Applies the fio options of the section to spec, kb_base first (fio gives
 * it priority); step parameters are skipped. */
static bool is_step_parameter(const char *key, bool has_iodepths);

static int apply_fio_options(struct parser *p, struct job_spec *spec, bool is_step,
			     bool has_iodepths)
{
	char where[320];

	for (int pass = 0; pass < 2; pass++) {
		for (unsigned i = 0; i < p->nr_entries; i++) {
			const struct entry *e = &p->entries[i];

			if ((strcmp(e->key, "kb_base") == 0) != (pass == 0))
				continue;
			if (is_step && is_step_parameter(e->key, has_iodepths))
				continue;
			entry_where(p, e, where, sizeof(where));
			if (!strcmp(e->key, "name"))
				return err_set("%s: key 'name': a step's job name is its section name",
					       where);
			/* every step runs on the suite's one target; a file named
			 * here would be silently replaced by it */
			if (!strcmp(e->key, "filename") || !strcmp(e->key, "directory"))
				return err_set("%s: key '%s': a suite runs every step on its target; "
					       "give it on the command line (drivebench suite ... TARGET)",
					       where, e->key);
			if (!is_step && is_step_parameter(e->key, false) &&
			    !job_option_known(e->key))
				return err_set("%s: key '%s': step parameters belong in a step section",
					       where, e->key);
			if (job_option_set(spec, e->key, e->value))
				return err_prefix("%s", where);
		}
	}
	return 0;
}

/* A step parameter, not an fio option (stepparams.c's table). */
static bool is_step_parameter(const char *key, bool has_iodepths)
{
	return step_parameter_find(key, has_iodepths) != NULL;
}

static int parse_kind(const char *value, enum step_kind *kind)
{
	static const enum step_kind kinds[] = {
		STEP_PURGE, STEP_PRECONDITION, STEP_STEADY, STEP_MEASURE, STEP_SWEEP, STEP_IDLE,
		STEP_CHECKPOINT,
	};

	for (size_t i = 0; value && i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(value, step_kind_name(kinds[i]))) {
			*kind = kinds[i];
			return 0;
		}
	return err_set("unknown step kind '%s' (purge, precondition, steady, measure, sweep, idle, checkpoint)",
		       value ? value : "");
}

static bool step_sets(const struct parser *p, const char *key)
{
	return find_entry(p, key) != NULL;
}

/* operating_point = max|mid|min with from = an earlier step that has
 * QD/jobs points (a sweep, or a steady step whose rounds have them). */
static int check_operating_point(const struct parser *p, const struct suite_step *step)
{
	const struct suite_step *from = NULL;

	if (!step->operating_point) {
		if (step->operating_from[0])
			return err_set("from needs operating_point = max, mid or min");
		if (step->lat_ceiling_ns)
			return err_set("lat_ceiling needs operating_point = max");
		return 0;
	}
	if (!step->operating_from[0])
		return err_set("operating_point needs from = STEP (an earlier step with QD/jobs points)");
	if (step->lat_ceiling_ns && step->operating_point != OPERATING_MAX)
		return err_set("lat_ceiling applies to operating_point = max only");
	for (unsigned i = 0; i < p->suite->nr_steps && !from; i++)
		if (!strcmp(p->suite->steps[i].name, step->operating_from))
			from = &p->suite->steps[i];
	if (!from)
		return err_set("from = %s: no step of that name before this one",
			       step->operating_from);
	if ((from->kind != STEP_SWEEP && from->kind != STEP_STEADY) || !from->nr_points)
		return err_set("from = %s: a %s step without QD/jobs points (a sweep, or a steady "
			       "step with points or iodepths)", from->name, step_kind_name(from->kind));
	return 0;
}

/* The step's job checked as it will run: on a modelled drive aimed at it
 * (suite_step_spec), so the options of ioengine=vssd (vssd_state=) are
 * the step's whatever engine it names. A copy: the run aims the step. */
static int validate_spec(const struct parser *p, struct job_spec *spec)
{
	struct job_spec *aimed;
	int rc;

	if (!p->model_target)
		return job_spec_validate(spec);
	if (!(aimed = malloc(sizeof(*aimed))))
		return err_set("out of memory");
	*aimed = *spec;
	rc = model_target_aim(aimed, p->model_target) || job_spec_validate(aimed) ? -1 : 0;
	free(aimed);
	return rc;
}

/* Checks that the step can run as written; the message has no prefix. */
static int validate_step(const struct parser *p, struct suite_step *step)
{
	struct job_spec *spec = &step->spec;

	switch (step->kind) {
	case STEP_PRECONDITION:
		if (!step_sets(p, "precondition"))
			return err_set("a precondition step needs precondition = sequential, random or sprandom");
		if (step->iu == 0)
			step->iu = spec->bs[DIR_WRITE];
		if (!job_spec_writes(spec))
			return err_set("a precondition step must write (rw=%s)",
				       job_spec_rw_name(spec->rw));
		break;
	case STEP_STEADY:
		if (!spec->time_based || spec->runtime_ns == 0)
			return err_set("a steady step needs a time_based runtime (one round)");
		if (step->max_rounds < step->window)
			return err_set("max_rounds (%u) is below the window (%u)",
				       step->max_rounds, step->window);
		if (steady_round_check(step))
			return -1;
		break;
	case STEP_SWEEP:
		if (step->nr_points == 0)
			return err_set("a sweep step needs points (points = 1/1 4/1 ... or iodepths = and numjobs =)");
		break;
	case STEP_MEASURE:
		if (check_operating_point(p, step))
			return -1;
		break;
	case STEP_IDLE:
		if (step->idle_ns == 0)
			return err_set("an idle step needs idle = DURATION (e.g. 180s)");
		break;
	case STEP_PURGE:
		break;
	case STEP_CHECKPOINT:
		if (!step->checkpoint_model[0] && !step->checkpoint_size)
			return err_set("a checkpoint step needs model = NAME or checkpoint_size = SIZE (with ranks =)");
		if (step->checkpoint_model[0] && step->checkpoint_size)
			return err_set("a checkpoint step takes model or checkpoint_size, not both");
		if (!step->checkpoint_size != !step->checkpoint_ranks)
			return err_set("checkpoint_size and ranks go together");
		if (!(step->checkpoint_fill > 0))
			return err_set("fill must be above 0");
		break;
	}
	if (validate_spec(p, spec))
		return -1;
	/* run and verify turn verify_only jobs into reads; a suite step would
	 * run the job as written, so it is refused rather than ignored */
	if (spec->verify_only)
		return err_set("option 'verify_only': not in a suite (use drivebench verify)");
	return 0;
}

/* The section's step parameters (stepparams.c's table); iodepths x
 * numjobs become the step's points in the reviews' order: every QD for
 * jobs 1, then for jobs 4, ... */
static int apply_step_parameters(struct parser *p, struct suite_step *step,
				 const struct entry *iodepths_entry)
{
	unsigned iodepths[SUITE_POINTS_MAX], jobs[SUITE_POINTS_MAX];
	unsigned nr_iodepths = 0, nr_jobs = 0;
	bool has_iodepths = iodepths_entry != NULL;

	char where[320];

	for (unsigned i = 0; i < p->nr_entries; i++) {
		const struct entry *e = &p->entries[i];
		const struct step_parameter *param = step_parameter_find(e->key, has_iodepths);
		struct step_lists lists = { iodepths, &nr_iodepths, jobs, &nr_jobs };

		if (!param || !param->set)   /* an fio option, or "step" */
			continue;
		entry_where(p, e, where, sizeof(where));
		if (!(param->kinds & (1u << step->kind)))
			return err_set("%s: key '%s' does not apply to a %s step",
				       where, e->key, step_kind_name(step->kind));
		if (!strcmp(e->key, "points") && has_iodepths)
			return err_set("%s: key 'points': give points or iodepths/numjobs, not both",
				       where);
		/* points given again (--set) replace the file's */
		if (!strcmp(e->key, "points"))
			step->nr_points = 0;
		if (param->set(step, &lists, e->value))
			return err_prefix("%s: key '%s'", where, e->key);
	}
	if (has_iodepths) {
		if (nr_jobs == 0)
			jobs[nr_jobs++] = 1;
		for (unsigned j = 0; j < nr_jobs; j++)
			for (unsigned q = 0; q < nr_iodepths; q++)
				if (step_point_add(step, iodepths[q], jobs[j]))
					return err_prefix("%s: key 'iodepths'",
							  entry_where(p, iodepths_entry, where,
								      sizeof(where)));
	}
	return 0;
}

/* The --set overrides that reach this step, added after its own lines:
 * one named by the step (or its test) always (a parameter that does not
 * apply to a step it names is that step's error), an unnamed one or one
 * named by the test only where it applies. */
static int add_overrides(struct parser *p, enum step_kind kind)
{
	const struct entry *test = find_entry(p, "test");
	bool has_iodepths = find_entry(p, "iodepths") != NULL;

	for (unsigned i = 0; i < p->nr_sets; i++)
		if (!strcmp(p->sets[i].key, "iodepths"))
			has_iodepths = true;
	for (unsigned i = 0; i < p->nr_sets; i++) {
		struct override *o = &p->sets[i];
		bool by_step = o->name[0] && !strcmp(o->name, p->section_name);
		bool by_test = o->name[0] && test && test->value && !strcmp(o->name, test->value);
		const struct step_parameter *param;

		if (o->name[0] && !by_step && !by_test)
			continue;
		o->named_seen = true;
		param = step_parameter_find(o->key, has_iodepths);
		if (param && !(param->kinds & (1u << kind)) && !by_step)
			continue;
		o->used = true;
		if (add_entry(p, 0, o->key, o->value, o->text))
			return -1;
	}
	return 0;
}

static int close_step_section(struct parser *p)
{
	struct suite_step *step;
	const struct entry *kind_entry = find_entry(p, "step");
	const struct entry *iodepths_entry;
	bool has_iodepths;

	if (!kind_entry)
		return err_set("%s:%u: step [%s] needs step = purge|precondition|steady|measure|sweep|idle|checkpoint",
			       p->file, p->section_line, p->section_name);
	for (unsigned i = 0; i < p->suite->nr_steps; i++)
		if (!strcmp(p->suite->steps[i].name, p->section_name))
			return err_set("%s:%u: step name '%s' used twice (first at line %u)",
				       p->file, p->section_line, p->section_name,
				       p->suite->steps[i].line);
	if (p->suite->nr_steps == p->cap_steps) {
		unsigned cap = p->cap_steps ? p->cap_steps * 2 : 16;
		struct suite_step *grown = realloc(p->suite->steps, cap * sizeof(*grown));

		if (!grown)
			return err_set("%s:%u: out of memory", p->file, p->section_line);
		p->suite->steps = grown;
		p->cap_steps = cap;
	}
	step = &p->suite->steps[p->suite->nr_steps];
	memset(step, 0, sizeof(*step));
	step_parameter_defaults(step);
	strcpy(step->name, p->section_name);
	step->line = p->section_line;
	if (parse_kind(kind_entry->value, &step->kind))
		return err_prefix("%s:%u: key 'step'", p->file, kind_entry->line);
	if (add_overrides(p, step->kind))
		return -1;
	iodepths_entry = find_entry(p, "iodepths");
	has_iodepths = iodepths_entry != NULL;

	/* fio defaults, then [global], then the step's own options */
	step->spec = p->global;
	snprintf(step->spec.name, sizeof(step->spec.name), "%s", step->name);
	snprintf(step->spec.source, sizeof(step->spec.source), "%s", p->file);
	step->spec.source_line = p->section_line;
	if (step->kind == STEP_PRECONDITION) {
		/* A fill is bounded by bytes, not time, and has no ramp, unless
		 * the step itself says otherwise. */
		step->spec.time_based = false;
		step->spec.runtime_ns = 0;
		step->spec.ramp_ns = 0;
	}
	if (apply_fio_options(p, &step->spec, true, has_iodepths))
		return -1;

	if (apply_step_parameters(p, step, iodepths_entry))
		return -1;
	if (step->kind == STEP_PRECONDITION && !step_sets(p, "rw") && !step_sets(p, "readwrite"))
		step->spec.rw = step->precondition == PRECOND_SEQUENTIAL ? RW_WRITE : RW_RANDWRITE;
	if (validate_step(p, step))
		return err_prefix("%s:%u: step [%s]", p->file, p->section_line, step->name);
	p->suite->nr_steps++;
	return 0;
}

static int close_section(struct parser *p)
{
	int rc = 0;

	switch (p->section) {
	case SECTION_NONE:
		break;
	case SECTION_SUITE:
		rc = close_suite_section(p);
		break;
	case SECTION_GLOBAL:
		rc = apply_fio_options(p, &p->global, false, false);
		break;
	case SECTION_STEP:
		rc = close_step_section(p);
		break;
	}
	clear_entries(p);
	p->section = SECTION_NONE;
	return rc;
}

static int open_section(struct parser *p, unsigned line, const char *name)
{
	if (close_section(p))
		return -1;
	if (!*name)
		return err_set("%s:%u: empty section name", p->file, line);
	if (strlen(name) >= sizeof(p->section_name))
		return err_set("%s:%u: section name longer than %d characters", p->file,
			       line, SUITE_NAME_MAX - 1);
	strcpy(p->section_name, name);
	p->section_line = line;
	if (!strcmp(name, "suite")) {
		if (p->seen_suite_section)
			return err_set("%s:%u: a second [suite] section", p->file, line);
		p->seen_suite_section = true;
		p->section = SECTION_SUITE;
	} else if (!strcmp(name, "global")) {
		p->section = SECTION_GLOBAL;
	} else {
		/* bounded as read: 100,000 sections must not take gigabytes */
		if (p->suite->nr_steps >= SUITE_STEPS_MAX)
			return err_set("%s:%u: more than %d steps in the suite file", p->file,
				       line, SUITE_STEPS_MAX);
		p->section = SECTION_STEP;
	}
	return 0;
}

/* ---- lines -------------------------------------------------------------- */

static int handle_line(struct parser *p, unsigned lineno, char *raw)
{
	char *expanded, *line;
	int rc;

	text_strip_comment(raw);
	if (!*text_trim(raw))
		return 0;
	/* strict: a suite names its target and database with ${VAR}s */
	expanded = env_expand(raw, p->file, lineno, true);
	if (!expanded)
		return -1;
	line = text_trim(expanded);
	if (line[0] == '[') {
		size_t len = strlen(line);

		if (line[len - 1] != ']') {
			rc = err_set("%s:%u: bad section header '%s'", p->file, lineno, line);
		} else {
			line[len - 1] = '\0';
			rc = open_section(p, lineno, text_trim(line + 1));
		}
	} else if (!strncmp(line, "include", 7) &&
		   (line[7] == '\0' || isspace((unsigned char)line[7]))) {
		rc = err_set("%s:%u: include is not supported in suite files", p->file, lineno);
	} else {
		char *value, *key = text_split_option(line, &value);

		if (!*key)
			rc = err_set("%s:%u: missing key", p->file, lineno);
		else if (p->section == SECTION_NONE)
			rc = err_set("%s:%u: key '%s' outside any section", p->file, lineno, key);
		else
			rc = add_entry(p, lineno, key, value, NULL);
	}
	free(expanded);
	return rc;
}

static int parse_file(struct parser *p)
{
	struct text_reader r;
	char *line;
	int got;

	if (text_reader_open(&r, p->file, "suite file"))
		return -1;
	while ((got = text_reader_next(&r, &line)) > 0)
		if (handle_line(p, r.line, line)) {
			got = -1;
			break;
		}
	text_reader_close(&r);
	return got < 0 ? -1 : 0;
}

/* ---- finding the file ---------------------------------------------------- */

static bool readable(const char *path)
{
	return access(path, R_OK) == 0;
}

static bool looks_like_path(const char *name)
{
	size_t len = strlen(name);

	return strchr(name, '/') || (len > 6 && !strcmp(name + len - 6, ".suite")) ||
	       readable(name);
}

/* $DRIVEBENCH_SUITES, ./suites, then <executable's directory>/../suites. */
static int find_suite(const char *name, char *path, size_t size)
{
	const char *env = getenv("DRIVEBENCH_SUITES");
	char exe[JOB_PATH_MAX];
	ssize_t len;

	for (const char *c = name; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
			return err_set("bad suite name '%s'", name);
	if (env && *env) {
		snprintf(path, size, "%s/%s.suite", env, name);
		if (readable(path))
			return 0;
	}
	snprintf(path, size, "suites/%s.suite", name);
	if (readable(path))
		return 0;
	len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (len > 0) {
		char *slash;

		exe[len] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			if ((size_t)snprintf(path, size, "%s/../suites/%s.suite", exe, name) < size &&
			    readable(path))
				return 0;
		}
	}
	return err_set("no suite named '%s' (looked in $DRIVEBENCH_SUITES, ./suites and "
		       "the executable's ../suites)", name);
}

/* "[NAME.]KEY[=VALUE]" -> o; the key is an option's or a parameter's
 * name (no dot), so NAME ends at the last dot before '='. */
static int parse_override(const char *text, struct override *o)
{
	const char *eq = text ? strchr(text, '=') : NULL;
	size_t keylen = text ? (eq ? (size_t)(eq - text) : strlen(text)) : 0;
	const char *dot = NULL;

	memset(o, 0, sizeof(*o));
	o->text = text;
	for (size_t i = 0; i < keylen; i++)
		if (text[i] == '.')
			dot = &text[i];
	if (dot) {
		size_t n = (size_t)(dot - text);

		if (!n || n >= sizeof(o->name))
			return err_set("--set %s: bad step or test name", text);
		memcpy(o->name, text, n);
		o->name[n] = '\0';
		keylen -= n + 1;
		text = dot + 1;
	}
	if (!keylen || keylen >= sizeof(o->key))
		return err_set("--set %s: write KEY=VALUE or NAME.KEY=VALUE", o->text);
	memcpy(o->key, text, keylen);
	o->key[keylen] = '\0';
	o->value = eq ? eq + 1 : NULL;
	if (!strcmp(o->key, "step") || !strcmp(o->key, "test"))
		return err_set("--set %s: a step's '%s' is the suite file's", o->text, o->key);
	return 0;
}

/* Every override must have reached a step. */
static int check_overrides(const struct parser *p)
{
	for (unsigned i = 0; i < p->nr_sets; i++) {
		const struct override *o = &p->sets[i];

		if (o->name[0] && !o->named_seen)
			return err_set("--set %s: suite has no step or test '%s'", o->text, o->name);
		if (!o->used)
			return err_set("--set %s: no step%s%s takes '%s'", o->text,
				       o->name[0] ? " of " : "", o->name, o->key);
	}
	return 0;
}

int suite_load(const char *name_or_path, struct suite *out)
{
	return suite_load_set(name_or_path, NULL, 0, out);
}

int suite_load_set(const char *name_or_path, const char *const *sets, unsigned nr_sets,
		   struct suite *out)
{
	return suite_load_on(name_or_path, sets, nr_sets, NULL, out);
}

int suite_vssd_state(const struct suite *s, const char **state)
{
	const struct suite_step *first = NULL;

	*state = "";
	for (unsigned i = 0; i < s->nr_steps; i++) {
		const char *named = s->steps[i].spec.eng.vssd.state;

		if (!named[0])
			continue;
		if (first && strcmp(named, *state))
			return err_set("steps '%s' and '%s' name different vssd_state files (%s, %s): "
				       "the suite's steps share one drive, so one file (--set "
				       "vssd_state=FILE)", first->name, s->steps[i].name, *state, named);
		if (!first) {
			first = &s->steps[i];
			*state = named;
		}
	}
	return 0;
}

int suite_load_on(const char *name_or_path, const char *const *sets, unsigned nr_sets,
		  const char *target, struct suite *out)
{
	struct target model;
	struct parser *p;
	const char *base, *dot;
	int rc = -1;

	memset(out, 0, sizeof(*out));
	if (!name_or_path || !*name_or_path)
		return err_set("no suite given");
	/* a bad model is the target's error, not each step's */
	if (model_target_is(target) && model_target_probe(target, &model))
		return -1;
	if (looks_like_path(name_or_path)) {
		if (strlen(name_or_path) >= sizeof(out->path))
			return err_set("suite path too long");
		strcpy(out->path, name_or_path);
	} else if (find_suite(name_or_path, out->path, sizeof(out->path))) {
		return -1;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return err_set("out of memory");
	p->file = out->path;
	p->suite = out;
	p->model_target = model_target_is(target) ? target : NULL;
	job_spec_defaults(&p->global);
	/* [global] options that name files (bssplit_file) find them next to the suite */
	snprintf(p->global.source, sizeof(p->global.source), "%s", p->file);
	if (nr_sets && !(p->sets = calloc(nr_sets, sizeof(*p->sets)))) {
		err_set("out of memory");
		goto out;
	}
	for (p->nr_sets = 0; p->nr_sets < nr_sets; p->nr_sets++)
		if (parse_override(sets[p->nr_sets], &p->sets[p->nr_sets]))
			goto out;
	if (parse_file(p) || close_section(p) || check_overrides(p))
		goto out;
	if (out->nr_steps == 0) {
		err_set("%s: no steps", out->path);
		goto out;
	}
	if (!out->name[0]) {
		/* the file's name without .suite */
		base = strrchr(out->path, '/');
		base = base ? base + 1 : out->path;
		dot = strrchr(base, '.');
		snprintf(out->name, sizeof(out->name), "%.*s",
			 (int)(dot && dot != base ? (size_t)(dot - base) : strlen(base)), base);
	}
	rc = 0;
out:
	clear_entries(p);
	free(p->entries);
	free(p->sets);
	free(p);
	if (rc)
		suite_free(out);
	return rc;
}
