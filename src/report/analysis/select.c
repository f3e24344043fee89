/* select.c - resolves run ids and labels for report and compare, loads the
 * results from the store and groups them by drive label, in the order the
 * names were given. */
#include "report/analysis/select.h"
#include "report/analysis/target_detail.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/analysis/model_sheet.h"
#include "util/error.h"

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static struct report_group *group_for(struct report_selection *sel, const char *label)
{
	struct report_group *g;

	for (unsigned i = 0; i < sel->nr_groups; i++)
		if (!strcmp(sel->groups[i].label, label))
			return &sel->groups[i];
	g = realloc(sel->groups, (sel->nr_groups + 1) * sizeof(*g));
	if (!g) {
		err_set("out of memory");
		return NULL;
	}
	sel->groups = g;
	g = &sel->groups[sel->nr_groups++];
	memset(g, 0, sizeof(*g));
	snprintf(g->label, sizeof(g->label), "%s", label);
	return g;
}

static double json_number(const cJSON *obj, const char *key)
{
	const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsNumber(item) ? item->valuedouble : 0.0;
}

/* A steady step's stored detail (suiterun.c writes it) as report data; a
 * detail that does not parse is skipped: the report shows what it can. */
static int add_steady(struct report_group *g, const struct stored_step *step,
		      const char *detail)
{
	cJSON *j = cJSON_Parse(detail);
	const cJSON *rounds = cJSON_GetObjectItemCaseSensitive(j, "rounds");
	const cJSON *metric = cJSON_GetObjectItemCaseSensitive(j, "metric");
	struct report_steady *grown, *st;
	const cJSON *item;
	unsigned n = 0;

	if (!cJSON_IsArray(rounds)) {
		cJSON_Delete(j);
		return 0;
	}
	grown = realloc(g->steady, (g->nr_steady + 1) * sizeof(*grown));
	if (!grown) {
		cJSON_Delete(j);
		return err_set("out of memory");
	}
	g->steady = grown;
	st = &g->steady[g->nr_steady];
	memset(st, 0, sizeof(*st));
	st->rounds = calloc((size_t)cJSON_GetArraySize(rounds) + 1, sizeof(double));
	if (!st->rounds) {
		cJSON_Delete(j);
		return err_set("out of memory");
	}
	cJSON_ArrayForEach(item, rounds)
		st->rounds[n++] = cJSON_IsNumber(item) ? item->valuedouble : 0.0;
	st->nr_rounds = n;
	snprintf(st->step, sizeof(st->step), "%s", step->name);
	snprintf(st->metric, sizeof(st->metric), "%s",
		 cJSON_IsString(metric) ? metric->valuestring : "iops");
	st->reached = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(j, "reached"));
	st->window = (unsigned)json_number(j, "window");
	st->max_rounds = (unsigned)json_number(j, "max_rounds");
	st->mean = json_number(j, "mean");
	st->range = json_number(j, "range");
	st->slope_excursion = json_number(j, "slope_excursion");
	st->range_limit = json_number(j, "range_limit");
	st->slope_limit = json_number(j, "slope_limit");
	g->nr_steady++;
	cJSON_Delete(j);
	return 0;
}

/* The run's steps: every one's name, and the steady steps' rounds. */
static int add_steps(struct store *s, struct report_group *g, int64_t run_id)
{
	struct stored_step *steps;
	struct report_step_name *names;
	unsigned nr;
	int rc = 0;

	if (store_steps_list(s, run_id, &steps, &nr) < 0)
		return -1;
	names = realloc(g->steps, (g->nr_steps + nr + 1) * sizeof(*names));
	if (!names) {
		free(steps);
		return err_set("out of memory");
	}
	g->steps = names;
	/* in run order: each step after a steady step that did not reach
	 * steady state carries that step's name */
	char unsteady[128] = "";
	for (unsigned i = 0; rc == 0 && i < nr; i++) {
		struct report_step_name *n = &g->steps[g->nr_steps++];
		char *detail = NULL;

		n->id = steps[i].id;
		snprintf(n->name, sizeof(n->name), "%s", steps[i].name);
		snprintf(n->unsteady, sizeof(n->unsteady), "%s", unsteady);
		if (strcmp(steps[i].kind, "steady"))
			continue;
		unsigned before = g->nr_steady;
		rc = store_step_detail_get(s, steps[i].id, &detail);
		if (rc == 0 && detail)
			rc = add_steady(g, &steps[i], detail);
		free(detail);
		n->unsteady[0] = '\0';
		if (rc == 0 && g->nr_steady > before)
			snprintf(unsteady, sizeof(unsteady), "%s",
				 g->steady[before].reached ? "" : steps[i].name);
	}
	free(steps);
	return rc;
}

bool report_run_warning(const struct stored_run *run, char *buf, size_t len)
{
	char who[256];

	buf[0] = '\0';
	if (!stored_run_incomplete(run) && !run->partial)
		return false;
	if (run->label[0])
		snprintf(who, sizeof(who), "run %lld (%s, label '%s')", (long long)run->id,
			 run->source, run->label);
	else
		snprintf(who, sizeof(who), "run %lld (%s)", (long long)run->id, run->source);
	if (stored_run_incomplete(run))
		snprintf(buf, len, "%s is incomplete: it never finished (killed, failed or still"
			 " running); its %u stored result%s are only part of it%s", who,
			 run->nr_results, run->nr_results == 1 ? "" : "s",
			 strcmp(run->source, "suite") ? "" :
			 " (drivebench suite --resume continues it)");
	else
		snprintf(buf, len, "%s is partial: it was stopped before it completed"
			 " (Ctrl-C, SIGTERM or a failed job)", who);
	return true;
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* "--time-scale X" or "--time-scale=X" in a stored command line */
static void time_scale_of(const char *command, char *buf, size_t len)
{
	const char *p = strstr(command, "--time-scale");

	snprintf(buf, len, "1");
	if (!p)
		return;
	p += strlen("--time-scale");
	while (*p == '=' || *p == ' ')
		p++;
	size_t n = strcspn(p, " ");
	if (n)
		snprintf(buf, len, "%.*s", (int)n, p);
}

/* a target as a reader names it: a model file and its scale, or the path */
static void target_name(const char *target, char *buf, size_t len)
{
	char file[1024];
	const char *at;

	if (strncmp(target, "vssd:", 5)) {
		snprintf(buf, len, "%s", target);
		return;
	}
	snprintf(file, sizeof(file), "%s", target + 5);
	at = strrchr(target, '@');
	if (strrchr(file, '@'))
		*strrchr(file, '@') = '\0';
	if (at)
		snprintf(buf, len, "model %s at scale %s", base_name(file), at + 1);
	else
		snprintf(buf, len, "model %s", base_name(file));
}

void report_provenance(const struct stored_run *run, const char *detail, char *buf,
			size_t len)
{
	char target[1400], scale[32];

	target_name(run->target, target, sizeof(target));
	if (detail && detail[0]) {
		size_t n = strlen(target);
		snprintf(target + n, sizeof(target) - n, " (%s)", detail);
	}
	if (!strcmp(run->source, "import")) {
		snprintf(buf, len, "fio JSON imported from %s", base_name(run->command));
		return;
	}
	time_scale_of(run->command, scale, sizeof(scale));
	if (!strcmp(run->source, "suite")) {
		char suite[256] = "";
		const char *p = strstr(run->command, "--suite");
		if (p) {
			p += strlen("--suite");
			while (*p == '=' || *p == ' ')
				p++;
			snprintf(suite, sizeof(suite), "%.*s", (int)strcspn(p, " "), p);
		}
		snprintf(buf, len, "suite %s, time scale %s, on %s",
			 suite[0] ? base_name(suite) : "?", scale, target);
		return;
	}
	snprintf(buf, len, "%s on %s", run->source, target);
}

static int add_ran(struct report_group *g, const struct stored_run *run, const char *detail)
{
	char line[1800], **grown;

	report_provenance(run, detail, line, sizeof(line));
	for (unsigned i = 0; i < g->nr_ran; i++)
		if (!strcmp(g->ran[i], line))
			return 0;
	grown = realloc(g->ran, (g->nr_ran + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	g->ran = grown;
	if (!(g->ran[g->nr_ran] = strdup(line)))
		return err_set("out of memory");
	g->nr_ran++;
	return 0;
}

/* The drive the run was measured on, once per group: its stored model, or
 * for a suite or run on a target with none stored (a loop device, a file)
 * the target's path. */
static int add_measured_on(struct report_group *g, const struct stored_run *run,
			   const char *detail)
{
	char **grown, with_detail[2300];
	/* (a GDS sweep's file is named in what it ran, not here: it says
	 * nothing of the drive) */
	bool target_only = !strcmp(run->source, "import") || !strcmp(run->source, "gds");
	const char *what = run->drive_model[0] ? run->drive_model : target_only ? "" : run->target;

	if (!what[0])
		return 0;   /* imported: not known */
	if (what == run->target && detail[0]) {
		snprintf(with_detail, sizeof(with_detail), "%s (%s)", run->target, detail);
		what = with_detail;
	}
	for (unsigned i = 0; i < g->nr_measured_on; i++)
		if (!strcmp(g->measured_on[i], what))
			return 0;
	grown = realloc(g->measured_on, (g->nr_measured_on + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	g->measured_on = grown;
	if (!(g->measured_on[g->nr_measured_on] = strdup(what)))
		return err_set("out of memory");
	g->nr_measured_on++;
	return 0;
}

/* No sheet stored for the label: the model file's, from the group's first
 * run on a model (read now, not when it was recorded: model_sheet.h). */
static void add_model_sheet(struct report_group *g, const struct stored_run *run,
			    const struct result_record *recs, unsigned nr)
{
	if (g->spec_text || g->model_sheet_tried)
		return;
	model_sheet_load(run, recs, nr, &g->spec_text, g->spec_note, sizeof(g->spec_note),
			 g->spec_warning, sizeof(g->spec_warning));
	g->model_sheet_tried = g->spec_text || g->spec_warning[0];
}

static int add_not_whole(struct report_group *g, const struct stored_run *run)
{
	struct stored_run *grown = realloc(g->not_whole, (g->nr_not_whole + 1) * sizeof(*grown));

	if (!grown)
		return err_set("out of memory");
	g->not_whole = grown;
	g->not_whole[g->nr_not_whole++] = *run;
	return 0;
}

/* loads one run's results and appends them to the group of its label */
static int add_run(struct store *s, struct report_selection *sel, int64_t id)
{
	struct stored_run run;
	struct result_record *recs, **loaded, *grown;
	unsigned nr, *nr_loaded;
	char label[160];
	struct report_group *g;

	if (store_run_get(s, id, &run) < 0) {
		sel->unknown = true;
		return -1;
	}
	if (run.label[0])
		snprintf(label, sizeof(label), "%s", run.label);
	else
		snprintf(label, sizeof(label), "run %lld", (long long)id);
	if (store_results_load(s, id, &recs, &nr) < 0)
		return -1;
	loaded = realloc(sel->loaded, (sel->nr_runs + 1) * sizeof(*loaded));
	if (loaded)
		sel->loaded = loaded;
	nr_loaded = realloc(sel->nr_loaded, (sel->nr_runs + 1) * sizeof(*nr_loaded));
	if (nr_loaded)
		sel->nr_loaded = nr_loaded;
	if (!loaded || !nr_loaded) {
		store_results_free(recs, nr);
		return err_set("out of memory");
	}
	sel->loaded[sel->nr_runs] = recs;
	sel->nr_loaded[sel->nr_runs] = nr;
	sel->nr_runs++;
	g = group_for(sel, label);
	if (!g || ((stored_run_incomplete(&run) || run.partial) && add_not_whole(g, &run)))
		return -1;
	if (nr) {
		grown = realloc(g->recs, (g->nr + nr) * sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		g->recs = grown;
		memcpy(&g->recs[g->nr], recs, nr * sizeof(*recs));
		g->nr += nr;
	}
	if (run.label[0] && !g->spec_text && store_spec_get(s, run.label, &g->spec_text) < 0)
		return -1;
	add_model_sheet(g, &run, recs, nr);
	if (!g->has_host && run.host_name[0]) {
		g->host_run = run;
		g->has_host = true;
	}
	char *drive_json = NULL, detail[1200];
	if (store_run_drive_json(s, id, &drive_json) < 0)
		return -1;
	report_target_detail(drive_json, detail, sizeof(detail));
	if (!run.target[0])   /* a job on the vssd engine: the model it ran on */
		report_target_path(drive_json, run.target, sizeof(run.target));
	free(drive_json);
	if (add_measured_on(g, &run, detail) < 0 || add_ran(g, &run, detail) < 0)
		return -1;
	return add_steps(s, g, id);
}

int report_select(struct store *s, const struct selector *list, unsigned nr,
		  struct report_selection *sel)
{
	memset(sel, 0, sizeof(*sel));
	if (nr == 0) {
		struct stored_run *runs;
		unsigned n;
		if (store_runs_list(s, &runs, &n) < 0)
			return -1;
		for (unsigned i = 0; i < n; i++)
			if (add_run(s, sel, runs[i].id) < 0) {
				free(runs);
				return -1;
			}
		free(runs);
		return 0;
	}
	for (unsigned i = 0; i < nr; i++) {
		int64_t *ids = NULL;
		unsigned n = 0;

		if (!list[i].label_only && all_digits(list[i].text)) {
			errno = 0;
			long long id = strtoll(list[i].text, NULL, 10);
			if (errno)
				return err_set("run id '%s' out of range", list[i].text);
			if (add_run(s, sel, id) < 0)
				return -1;
			continue;
		}
		if (store_runs_by_label(s, list[i].text, &ids, &n) < 0)
			return -1;
		if (n == 0) {
			free(ids);
			sel->unknown = true;
			return err_set("no run with label '%s'", list[i].text);
		}
		for (unsigned k = 0; k < n; k++)
			if (add_run(s, sel, ids[k]) < 0) {
				free(ids);
				return -1;
			}
		free(ids);
	}
	return 0;
}

void report_selection_free(struct report_selection *sel)
{
	for (unsigned i = 0; i < sel->nr_groups; i++) {
		free(sel->groups[i].recs);
		free(sel->groups[i].spec_text);
		for (unsigned k = 0; k < sel->groups[i].nr_steady; k++)
			free(sel->groups[i].steady[k].rounds);
		free(sel->groups[i].steady);
		free(sel->groups[i].not_whole);
		for (unsigned k = 0; k < sel->groups[i].nr_measured_on; k++)
			free(sel->groups[i].measured_on[k]);
		for (unsigned k = 0; k < sel->groups[i].nr_ran; k++)
			free(sel->groups[i].ran[k]);
		free(sel->groups[i].ran);
		free(sel->groups[i].measured_on);
		free(sel->groups[i].steps);
	}
	free(sel->groups);
	for (unsigned i = 0; i < sel->nr_runs; i++)
		store_results_free(sel->loaded[i], sel->nr_loaded[i]);
	free(sel->loaded);
	free(sel->nr_loaded);
	memset(sel, 0, sizeof(*sel));
}
