/* html_bench.c - the "Bench and drives" fragment of the review page (see
 * the header): tables written with the page's escaping (html_esc) and
 * number formats (report_format_*), "-" for whatever is not known. */
#include "report/review/html_bench.h"
#include "report/review/html_parts.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "report/analysis/endurance.h"
#include "report/analysis/report.h"
#include "util/error.h"

static bool known(const char *s)
{
	return s && *s;
}

static void text_cell(FILE *out, const char *s)
{
	fputs("<td class=\"l\">", out);
	if (known(s))
		html_esc(out, s);
	else
		fputs("-", out);
	fputs("</td>", out);
}

/* a figure as the sheet gives it: 0.075, 0.6, 3, 4.98, 122.88 */
static void plain_number(double v, char *buf, size_t len)
{
	snprintf(buf, len, "%.6g", v);
}

static void number_cell(FILE *out, double v, bool plain)
{
	char buf[48];

	if (!isfinite(v) || v <= 0) {
		fputs("<td>-</td>", out);
		return;
	}
	if (plain)
		plain_number(v, buf, sizeof(buf));
	else
		report_format_rating(v, false, buf, sizeof(buf));
	fprintf(out, "<td>%s</td>", buf);
}

/* --- identity from the snapshot --------------------------------------- */

static void copy_string(const cJSON *obj, const char *key, char *out, size_t len)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!out[0] && cJSON_IsString(v) && v->valuestring[0])
		snprintf(out, len, "%s", v->valuestring);
}

bool bench_drive_id_from_snapshot(const char *json, struct bench_drive_id *id)
{
	cJSON *j = json ? cJSON_Parse(json) : NULL;
	const cJSON *nvme, *ctrl;

	memset(id, 0, sizeof(*id));
	if (!cJSON_IsObject(j)) {
		cJSON_Delete(j);
		return false;
	}
	nvme = cJSON_GetObjectItemCaseSensitive(j, "nvme");
	ctrl = cJSON_GetObjectItemCaseSensitive(nvme, "identify_controller");
	for (int pass = 0; pass < 2; pass++) {
		const cJSON *from = pass ? ctrl : j;

		copy_string(from, "model", id->model, sizeof(id->model));
		copy_string(from, "firmware", id->firmware, sizeof(id->firmware));
		copy_string(from, "serial", id->serial, sizeof(id->serial));
	}
	cJSON_Delete(j);
	return id->model[0] || id->firmware[0] || id->serial[0];
}

bool bench_drive_id_from_results(const struct result_record *recs, unsigned nr,
				 struct bench_drive_id *id)
{
	memset(id, 0, sizeof(*id));
	for (unsigned i = 0; i < nr; i++)
		if (bench_drive_id_from_snapshot(recs[i].drive_before, id))
			return true;
	return false;
}

void bench_mask_serial(const char *serial, char *buf, size_t len)
{
	size_t n = serial ? strlen(serial) : 0, shown = n > 4 ? 4 : 0, o = 0;

	if (!len)
		return;
	for (size_t i = 0; i < n && o + 1 < len; i++)
		buf[o++] = i < n - shown ? '*' : serial[i];
	buf[o] = '\0';
}

/* --- the tables --------------------------------------------------------- */

static void hosts_table(FILE *out, const struct bench_host *hosts, unsigned nr)
{
	static const struct bench_host none;

	fputs("<h3>Host</h3>\n<table><tr><th class=\"l\">host</th><th class=\"l\">server</th>"
	      "<th class=\"l\">CPU</th>"
	      "<th>CPUs online</th><th>memory GiB</th><th class=\"l\">OS</th>"
	      "<th class=\"l\">kernel</th></tr>\n", out);
	for (unsigned i = 0; i < (nr ? nr : 1); i++) {
		const struct bench_host *h = nr ? &hosts[i] : &none;

		fputs("<tr>", out);
		text_cell(out, h->hostname);
		text_cell(out, h->server);
		text_cell(out, h->cpu);
		if (h->cores)
			fprintf(out, "<td>%u</td>", h->cores);
		else
			fputs("<td>-</td>", out);
		if (h->memory_bytes)
			fprintf(out, "<td>%.0f</td>", (double)h->memory_bytes / (1024.0 * 1024 * 1024));
		else
			fputs("<td>-</td>", out);
		text_cell(out, h->os);
		text_cell(out, h->kernel);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void nand_cell(FILE *out, const struct drive_spec *s)
{
	fputs("<td class=\"l\">", out);
	if (known(s->nand))
		html_esc(out, s->nand);
	if (s->nand_layers)
		fprintf(out, "%s%u layers", known(s->nand) ? ", " : "", s->nand_layers);
	if (!known(s->nand) && !s->nand_layers)
		fputs("-", out);
	fputs("</td>", out);
}

/* 1e-17 -> "1 sector per 10<sup>17</sup> bits read"; 2e-17 -> "2e-17 sectors per bit read" */
static void uber_cell(FILE *out, double uber)
{
	double e = uber > 0 ? -log10(uber) : 0;

	if (!(uber > 0))
		fputs("<td>-</td>", out);
	else if (fabs(e - round(e)) < 1e-9)
		fprintf(out, "<td>1 sector per 10<sup>%.0f</sup> bits read</td>", round(e));
	else
		fprintf(out, "<td>%.3g sectors per bit read</td>", uber);
}

static void drives_table(FILE *out, const struct bench_drive *drives, unsigned nr)
{
	fputs("<h3>Drives</h3>\n<table><tr><th class=\"l\">drive</th><th class=\"l\">model</th>"
	      "<th class=\"l\">firmware</th><th class=\"l\">serial</th>"
	      "<th class=\"l\">spec sheet</th><th>capacity TB</th><th class=\"l\">form factor</th>"
	      "<th class=\"l\">interface</th><th class=\"l\">NAND</th><th>MTBF hours</th>"
	      "<th>UBER</th><th>warranty years</th></tr>\n", out);
	for (unsigned i = 0; i < nr; i++) {
		const struct bench_drive *d = &drives[i];
		const struct drive_spec *s = d->spec;
		char serial[sizeof(d->id.serial)];

		bench_mask_serial(d->id.serial, serial, sizeof(serial));
		fputs("<tr>", out);
		text_cell(out, d->label);
		text_cell(out, d->id.model);
		text_cell(out, d->id.firmware);
		text_cell(out, serial);
		if (!s) {
			fputs("<td class=\"l\" colspan=\"8\">no spec sheet</td></tr>\n", out);
			continue;
		}
		text_cell(out, s->model);
		number_cell(out, s->capacity_tb, true);
		text_cell(out, s->form_factor);
		text_cell(out, s->interface);
		nand_cell(out, s);
		number_cell(out, s->mtbf_hours, false);
		uber_cell(out, s->uber);
		number_cell(out, s->warranty_years, true);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

static void endurance_table(FILE *out, const struct bench_drive *drives, unsigned nr)
{
	fputs("<h3>Endurance</h3>\n<table><tr><th class=\"l\">drive</th><th>DWPD</th>"
	      "<th class=\"l\">workload</th><th>term years</th><th>PBW derived</th>"
	      "<th>PBW rated</th></tr>\n", out);
	for (unsigned i = 0; i < nr; i++) {
		const struct drive_spec *s = drives[i].spec;
		struct endurance_sheet e;

		if (s)
			endurance_of_sheet(s, &e);
		if (!s || !e.nr_ratings) {
			fputs("<tr>", out);
			text_cell(out, drives[i].label);
			fputs("<td>-</td><td class=\"l\">-</td><td>-</td><td>-</td>", out);
			number_cell(out, s ? s->pbw : 0, true);
			fputs("</tr>\n", out);
			continue;
		}
		for (unsigned r = 0; r < e.nr_ratings; r++) {
			const struct endurance_rating *er = &e.ratings[r];
			char workload[96], years[32];

			spec_workload_name(&er->rating.workload, workload, sizeof(workload));
			fputs("<tr>", out);
			text_cell(out, drives[i].label);
			number_cell(out, er->rating.dwpd, true);
			text_cell(out, workload);
			plain_number(er->years, years, sizeof(years));
			fprintf(out, "<td>%s%s</td>", years, er->years_assumed ? " (assumed)" : "");
			number_cell(out, er->pbw, false);
			/* the sheet's PBW is the headline rating's */
			number_cell(out, r == 0 && s->dwpd > 0 ? s->pbw : 0, true);
			fputs("</tr>\n", out);
		}
	}
	fputs("</table>\n", out);
}

static void density_table(FILE *out, const struct bench_drive *drives, unsigned nr)
{
	fputs("<h3>Density and power</h3>\n<table><tr><th class=\"l\">drive</th>"
	      "<th>TB per watt</th><th class=\"l\">counted as</th><th>drives per U</th>"
	      "<th>PB per U</th></tr>\n", out);
	for (unsigned i = 0; i < nr; i++) {
		const struct drive_spec *s = drives[i].spec;
		struct endurance_sheet e;

		fputs("<tr>", out);
		text_cell(out, drives[i].label);
		if (!s) {
			fputs("<td>-</td><td class=\"l\">-</td><td>-</td><td>-</td></tr>\n", out);
			continue;
		}
		endurance_of_sheet(s, &e);
		number_cell(out, e.tb_per_watt, false);
		text_cell(out, e.chassis ? e.chassis->chassis : NULL);
		number_cell(out, e.chassis ? (double)e.chassis->drives / e.chassis->units : 0, true);
		number_cell(out, e.pb_per_u, false);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
}

int html_bench_section(FILE *out, const struct bench_host *hosts, unsigned nr_hosts,
		       const struct bench_drive *drives, unsigned nr_drives)
{
	fputs("<section id=\"bench\" class=\"bench\">\n<h2>Bench and drives</h2>\n", out);
	hosts_table(out, hosts, nr_hosts);
	drives_table(out, drives, nr_drives);
	endurance_table(out, drives, nr_drives);
	density_table(out, drives, nr_drives);
	fprintf(out, "<p class=\"note\">Model, firmware and serial (masked but for its last 4 "
		"characters) from the drive snapshot stored with the results; the rest from "
		"the spec sheet. PBW = DWPD &times; capacity TB &times; 365 &times; term years "
		"/ 1000, the term a rating's own, else the warranty, else %.0f years "
		"(assumed). TB per watt = capacity / active power. PB per U = capacity "
		"&times; the drives the chassis holds / 1000 / its height in U, the chassis "
		"counted for the first form factor the sheet names. TB = 10^12 bytes, "
		"PB = 10^15.</p>\n</section>\n", ENDURANCE_DEFAULT_YEARS);
	if (fflush(out) != 0 || ferror(out))
		return err_set("report: writing the bench and drives section failed");
	return 0;
}
