/* review_page.c - the review page of stored runs (see the header): the
 * selection, the drives with their warnings and sheets, the page. */
#include "cmd/review_page.h"

#include <stdlib.h>
#include <string.h>

#include "util/error.h"

/* The warning lines of a drive's runs that are not whole, printed on say
 * and given to the page; its mark. */
static int drive_warnings(const struct report_group *g, struct report_drive *d,
			  char ***lines, FILE *say)
{
	*lines = calloc(g->nr_not_whole + 1, sizeof(**lines));
	if (!*lines)
		return err_set("out of memory");
	for (unsigned i = 0; i < g->nr_not_whole; i++) {
		char text[1024];

		report_run_warning(&g->not_whole[i], text, sizeof(text));
		if (say)
			fprintf(say, "drivebench report: warning: %s\n", text);
		if (!((*lines)[i] = strdup(text)))
			return err_set("out of memory");
		if (stored_run_incomplete(&g->not_whole[i]))
			d->state = "incomplete";
		else if (!d->state)
			d->state = "partial";
	}
	d->warnings = (const char *const *)*lines;
	d->nr_warnings = g->nr_not_whole;
	return 0;
}

int review_select(struct store *db, const struct selector *sels, unsigned nr,
		  struct review_input *in)
{
	unsigned groups;

	if (report_select(db, sels, nr, &in->sel) < 0)
		return in->sel.unknown ? EXIT_BAD_INPUT : EXIT_RUN_FAILED;
	groups = in->sel.nr_groups + 1;
	in->drives = calloc(groups, sizeof(*in->drives));
	in->specs = calloc(groups, sizeof(*in->specs));
	in->warnings = calloc(groups, sizeof(*in->warnings));
	in->hosts = calloc(groups, sizeof(*in->hosts));
	if (!in->drives || !in->specs || !in->warnings || !in->hosts) {
		err_set("out of memory");
		return EXIT_RUN_FAILED;
	}
	return 0;
}

int review_fill(struct review_input *in, FILE *say)
{
	for (unsigned g = 0; g < in->sel.nr_groups; g++) {
		const struct report_group *group = &in->sel.groups[g];
		struct report_drive *d = &in->drives[g];
		char name[200];

		d->label = group->label;
		d->recs = group->recs;
		d->nr = group->nr;
		d->steady = group->steady;
		d->nr_steady = group->nr_steady;
		d->measured_on = (const char *const *)group->measured_on;
		d->nr_measured_on = group->nr_measured_on;
		d->ran = (const char *const *)group->ran;
		d->nr_ran = group->nr_ran;
		d->steps = group->steps;
		d->nr_steps = group->nr_steps;
		if (group->has_host) {
			in->hosts[g] = (struct report_host){ group->host_run.host_name,
				group->host_run.host_kernel, group->host_run.host_cpu,
				group->host_run.host_cores, group->host_run.host_memory_bytes,
				group->host_run.host_os, group->host_run.host_server };
			d->host = &in->hosts[g];
		}
		if (drive_warnings(group, d, &in->warnings[g], say))
			return EXIT_RUN_FAILED;
		/* a --spec sheet says nothing of the model file's */
		if (!d->spec && group->spec_note[0])
			d->spec_note = group->spec_note;
		if (!d->spec && group->spec_warning[0]) {
			d->spec_warning = group->spec_warning;
			if (say)
				fprintf(say, "drivebench report: warning: %s: %s\n", group->label,
					group->spec_warning);
		}
		if (d->spec || !group->spec_text)
			continue;
		snprintf(name, sizeof(name), "spec sheet of %s", group->label);
		if (spec_parse(group->spec_text, name, &in->specs[g]) == 0)
			d->spec = &in->specs[g];
		else if (say)
			fprintf(say, "drivebench report: warning: %s (shown without ratings)\n",
				err_msg());
	}
	return 0;
}

int review_write(FILE *out, const struct review_input *in, const char *db_path,
		 const struct report_options *opt)
{
	char subtitle[1200];
	struct report_options o = *opt;

	snprintf(subtitle, sizeof(subtitle), "%u run(s) from %s", in->sel.nr_runs, db_path);
	o.subtitle = subtitle;
	return report_html(out, in->drives, in->sel.nr_groups, &o);
}

void review_free(struct review_input *in)
{
	for (unsigned g = 0; in->warnings && g < in->sel.nr_groups; g++) {
		for (unsigned i = 0; in->warnings[g] && in->warnings[g][i]; i++)
			free(in->warnings[g][i]);
		free(in->warnings[g]);
	}
	free(in->warnings);
	report_selection_free(&in->sel);
	free(in->drives);
	free(in->specs);
	free(in->hosts);
	memset(in, 0, sizeof(*in));
}
