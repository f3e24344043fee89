/* html_counters.c - the drive's own count of each result's I/O, beside
 * ours: for a drive measured on an NVMe namespace, the health log's host
 * read and write commands and data units (512,000 bytes each, rounded up
 * by the drive) over every result, against the I/Os and bytes the job
 * counted. Agreement says the drive saw what drivebench says it did; the
 * health log is the controller's, so I/O to a sibling namespace during
 * the job adds to it (docs/report.md). A modelled drive's counters are
 * the model's own and are not repeated here. */
#include "report/review/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/error.h"

#define COUNTERS_MAX_ROWS 40

static bool on_nvme(const struct result_record *rec)
{
	cJSON *before = rec->drive_before ? cJSON_Parse(rec->drive_before) : NULL;
	const cJSON *kind = cJSON_GetObjectItemCaseSensitive(before, "kind");
	bool nvme = cJSON_IsString(kind) && !strcmp(kind->valuestring, "nvme");

	cJSON_Delete(before);
	return nvme;
}

struct counter_row {
	double cmds[DIR_COUNT], bytes[DIR_COUNT];   /* the drive's */
};

static bool row_of(const struct result_record *rec, struct counter_row *row)
{
	cJSON *delta;
	bool have;

	if (!rec->drive_delta || !on_nvme(rec) || !(delta = cJSON_Parse(rec->drive_delta)))
		return false;
	row->cmds[DIR_READ] = html_delta_counter(delta, "host_read_commands");
	row->cmds[DIR_WRITE] = html_delta_counter(delta, "host_write_commands");
	row->bytes[DIR_READ] = html_delta_counter(delta, "host_bytes_read");
	row->bytes[DIR_WRITE] = html_delta_counter(delta, "host_bytes_written");
	cJSON_Delete(delta);
	have = !isnan(row->cmds[DIR_READ]) || !isnan(row->cmds[DIR_WRITE]) ||
	       !isnan(row->bytes[DIR_READ]) || !isnan(row->bytes[DIR_WRITE]);
	return have;
}

static void count_cell(FILE *out, double v)
{
	if (isnan(v))
		fputs("<td>-</td>", out);
	else
		fprintf(out, "<td>%.0f</td>", v);
}

static void mb_cell(FILE *out, double bytes)
{
	if (isnan(bytes))
		fputs("<td>-</td>", out);
	else
		fprintf(out, "<td>%.2f</td>", bytes / 1e6);
}

/* One drive's table, each record's delta parsed once: -1 out of memory. */
static int drive_table(FILE *out, const struct report_drive *d, bool *heading)
{
	struct counter_row *rows = calloc(d->nr ? d->nr : 1, sizeof(*rows));
	bool *have = calloc(d->nr ? d->nr : 1, sizeof(*have));
	unsigned shown = 0, n = 0;

	if (!rows || !have) {
		free(rows);
		free(have);
		return err_set("report: out of memory");
	}
	for (unsigned i = 0; i < d->nr; i++)
		n += have[i] = row_of(&d->recs[i], &rows[i]);
	if (n && !*heading) {
		fputs("<section class=\"counters\">\n<h2>The drive's own count</h2>\n"
		      "<p class=\"note\">For each result on an NVMe namespace: the I/Os and bytes the "
		      "job counted, beside the host read and write commands and data units (512,000 "
		      "bytes each, rounded up by the drive) its health log counted over the job. The "
		      "log is the controller's: I/O to another namespace of it during the job counts "
		      "too. MB = 10^6 bytes.</p>\n", out);
		*heading = true;
	}
	if (n) {
		fputs("<h3>", out);
		html_esc(out, d->label);
		fputs("</h3>\n<table><tr><th class=\"l\">test</th><th>reads counted</th>"
		      "<th>read commands</th><th>MB read</th><th>drive's MB read</th>"
		      "<th>writes counted</th><th>write commands</th><th>MB written</th>"
		      "<th>drive's MB written</th></tr>\n", out);
	}
	for (unsigned i = 0; i < d->nr && shown < COUNTERS_MAX_ROWS; i++) {
		const struct result_record *rec = &d->recs[i];

		if (!have[i])
			continue;
		fputs("<tr><td class=\"l\">", out);
		html_esc(out, rec->job_name);
		fputs("</td>", out);
		for (int dir = DIR_READ; dir <= DIR_WRITE; dir++) {
			count_cell(out, (double)rec->dir[dir].ios);
			count_cell(out, rows[i].cmds[dir]);
			mb_cell(out, (double)rec->dir[dir].bytes);
			mb_cell(out, rows[i].bytes[dir]);
		}
		fputs("</tr>\n", out);
		shown++;
	}
	if (n)
		fputs("</table>\n", out);
	if (shown < n)
		fprintf(out, "<p class=\"note\">The first %u of %u results.</p>\n", shown, n);
	free(rows);
	free(have);
	return 0;
}

int html_counters_section(FILE *out, const struct report_drive *drives, unsigned nr)
{
	bool heading = false;

	for (unsigned d = 0; d < nr; d++)
		if (drive_table(out, &drives[d], &heading) < 0)
			return -1;
	if (heading)
		fputs("</section>\n", out);
	return 0;
}
