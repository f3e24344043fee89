/* compare_print.c - the compare table as text (a header naming the
 * drives, one titled block per kind with a column group per drive and
 * each drive's % against A, a count line per block) and as JSON (the same
 * content, one object per block). */
#include "report/compare/compare_parts.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "util/error.h"

#define DIFF_WIDTH 8

struct kind_text {
	const char *col1, *col2;   /* the key columns' heads; col2 NULL: none */
	const char *noun;          /* of the count line: "shared point(s)" */
	const char *units;         /* what the figures are */
};

static const struct kind_text kind_texts[COMPARE_KINDS] = {
	[COMPARE_POINTS] = { "test", "QD/jobs", "shared point(s)",
			     "latencies in us, MB/s = 10^6 bytes/s" },
	[COMPARE_CHECKPOINTS] = { "pass", NULL, "shared pass(es)",
				  "ckpts = checkpoints in the pass, s/ckpt = mean seconds per "
				  "checkpoint (lower is better), GB/s = 10^9 bytes/s" },
	[COMPARE_GDS] = { "test", "threads", "shared GDS point(s)",
			  "GiB/s = 2^30 bytes/s, mean latency in us" },
	[COMPARE_STEADY] = { "step", "unit", "shared steady step(s)",
			     "rounds = rounds run, steady = steady state reached in them, "
			     "mean = the mean of the last window (unit: IOPS, MB/s = 10^6 "
			     "bytes/s, or us)" },
};

static bool plain_rw(const char *rw)
{
	return !strcmp(rw, "read") || !strcmp(rw, "write") || !strcmp(rw, "randread") ||
	       !strcmp(rw, "randwrite");
}

/* a point of the block with r's name but another size split (object
 * tests of two splits are two tests: each is then named by its split) */
static bool split_shares_name(const struct compare_block *b, const struct compare_row *r,
			      const char *name)
{
	char other[256];

	for (unsigned i = 0; i < b->nr_rows; i++) {
		const struct compare_key *k = &b->rows[i].key;
		struct report_point p = { .rw = k->rw, .bs = k->bs, .dir = k->dir,
					  .section = k->section, .iodepth = k->iodepth,
					  .numjobs = k->numjobs };

		if (!k->mix[0] || !r->key.mix[0] || !strcmp(k->mix, r->key.mix))
			continue;
		snprintf(p.mix, sizeof(p.mix), "%s", k->mix);
		snprintf(p.group, sizeof(p.group), "%s", k->group);
		report_test_name(&p, other, sizeof(other));
		if (!strcmp(other, name))
			return true;
	}
	return false;
}

void compare_row_name(const struct compare_block *b, const struct compare_row *r,
		      char *name, size_t name_len, char *where, size_t where_len)
{
	const struct compare_key *k = &r->key;
	const char *dir = k->dir == DIR_READ ? "read" : "write";
	char bs[32];

	where[0] = '\0';
	if (b->kind == COMPARE_POINTS) {
		struct report_point p = { .rw = k->rw, .bs = k->bs, .dir = k->dir,
					  .section = k->section, .iodepth = k->iodepth,
					  .numjobs = k->numjobs };

		snprintf(p.mix, sizeof(p.mix), "%s", k->mix);
		snprintf(p.group, sizeof(p.group), "%s", k->group);
		report_test_name(&p, name, name_len);
		if (split_shares_name(b, r, name)) {
			p.name_split = true;
			report_test_name(&p, name, name_len);
		}
		snprintf(where, where_len, "%u/%u", k->iodepth, k->numjobs);
	} else if (b->kind == COMPARE_CHECKPOINTS) {
		if (k->pass)
			snprintf(name, name_len, "pass %u", k->pass);
		else
			snprintf(name, name_len, "read-back");
	} else if (b->kind == COMPARE_GDS) {
		report_bs_name(k->bs, bs, sizeof(bs));
		snprintf(name, name_len, "%s %s%s%s (%s)", bs, k->rw, plain_rw(k->rw) ? "" : " ",
			 plain_rw(k->rw) ? "" : dir, k->xfer);
		snprintf(where, where_len, "%u", k->numjobs);
	} else {
		snprintf(name, name_len, "%s", k->step);
		snprintf(where, where_len, "%s", compare_steady_unit(k->metric));
	}
}

/* --- text --------------------------------------------------------------- */

static void format_value(const struct compare_metric *m, const struct compare_cell *c,
			 unsigned metric, char *buf, size_t len)
{
	double v = c->v[metric];

	if (!c->present)
		snprintf(buf, len, "-");
	else if (isnan(v))
		snprintf(buf, len, "n/a");
	else if (m->flag)
		snprintf(buf, len, "%s", v != 0 ? "yes" : "no");
	else
		snprintf(buf, len, m->fmt, v);
}

/* +38.3%, or past twice A's figure the ratio: 11.8x */
static void format_diff(double pct, char *buf, size_t len)
{
	if (isnan(pct))
		snprintf(buf, len, "-");
	else
		report_format_margin(pct, buf, len);
}

struct widths {
	int col1, col2;
};

static struct widths key_widths(const struct compare_block *b)
{
	const struct kind_text *kt = &kind_texts[b->kind];
	struct widths w = { (int)strlen(kt->col1), kt->col2 ? (int)strlen(kt->col2) : 0 };
	char name[256], where[64];

	for (unsigned i = 0; i < b->nr_rows; i++) {
		compare_row_name(b, &b->rows[i], name, sizeof(name), where, sizeof(where));
		if ((int)strlen(name) > w.col1)
			w.col1 = (int)strlen(name);
		if (kt->col2 && (int)strlen(where) > w.col2)
			w.col2 = (int)strlen(where);
	}
	return w;
}

/* A row every drive has. */
static bool row_shared(const struct compare_table *t, const struct compare_row *r)
{
	for (unsigned d = 0; d < t->nr_drives; d++)
		if (!r->cells[d].present)
			return false;
	return true;
}

/* The columns of a panel: drives [d0, d1) (and A, always first) of
 * metrics [m0, m1); the width of one drive's group of them. */
struct panel {
	unsigned m0, m1;
	unsigned d0, d1;
};

static int group_width(const struct compare_block *b, unsigned d, unsigned m0, unsigned m1)
{
	int w = 0;

	for (unsigned m = m0; m < m1; m++)
		w += 1 + b->metrics[m].width + (d > 0 && b->metrics[m].diff ? 1 + DIFF_WIDTH : 0);
	return w;
}

static void print_panel_head(FILE *out, const struct compare_table *t,
			     const struct compare_block *b, struct widths w, struct panel p)
{
	const struct kind_text *kt = &kind_texts[b->kind];

	fprintf(out, "%-*s", w.col1, kt->col1);
	if (kt->col2)
		fprintf(out, " %-*s", w.col2, kt->col2);
	for (unsigned d = 0; d < p.d1; d = d ? d + 1 : (p.d0 ? p.d0 : 1))
		for (unsigned m = p.m0; m < p.m1; m++) {
			char head[64];

			snprintf(head, sizeof(head), "%s %s", t->names[d], b->metrics[m].head);
			fprintf(out, " %*s", b->metrics[m].width, head);
			if (d > 0 && b->metrics[m].diff)
				fprintf(out, " %*s", DIFF_WIDTH, "vs A");
		}
	fputc('\n', out);
}

static void print_row(FILE *out, const struct compare_block *b, const struct compare_row *r,
		      struct widths w, struct panel p)
{
	char name[256], where[64], value[64];

	compare_row_name(b, r, name, sizeof(name), where, sizeof(where));
	fprintf(out, "%-*s", w.col1, name);
	if (kind_texts[b->kind].col2)
		fprintf(out, " %-*s", w.col2, where);
	for (unsigned d = 0; d < p.d1; d = d ? d + 1 : (p.d0 ? p.d0 : 1))
		for (unsigned m = p.m0; m < p.m1; m++) {
			format_value(&b->metrics[m], &r->cells[d], m, value, sizeof(value));
			fprintf(out, " %*s", b->metrics[m].width, value);
			if (d > 0 && b->metrics[m].diff) {
				format_diff(compare_diff(b, r, d, m), value, sizeof(value));
				fprintf(out, " %*s", DIFF_WIDTH, value);
			}
		}
	fputc('\n', out);
}

static void print_panel(FILE *out, const struct compare_table *t, const struct compare_block *b,
			struct widths w, struct panel p, bool all)
{
	print_panel_head(out, t, b, w, p);
	for (unsigned i = 0; i < b->nr_rows; i++)
		if (all || row_shared(t, &b->rows[i]))
			print_row(out, b, &b->rows[i], w, p);
}

/* Prints text (one line) wrapped at spaces to COMPARE_TEXT_WIDTH columns,
 * later lines indented by two. */
static void print_wrapped(FILE *out, const char *text)
{
	int col = 0;

	while (*text) {
		const char *sp = strchr(text, ' ');
		int word = sp ? (int)(sp - text) : (int)strlen(text);
		if (col && col + 1 + word > COMPARE_TEXT_WIDTH) {
			fputs("\n  ", out);
			col = 2;
		} else if (col) {
			fputc(' ', out);
			col++;
		}
		fprintf(out, "%.*s", word, text);
		col += word;
		text += word;
		while (*text == ' ')
			text++;
	}
	fputc('\n', out);
}

/* The count line: shared rows, and how many each drive has that not every
 * drive has (listed with --all). */
static void print_count(FILE *out, const struct compare_table *t, const struct compare_block *b,
			bool all)
{
	const struct kind_text *kt = &kind_texts[b->kind];
	char line[1024];
	size_t used;

	if (t->nr_drives == 2)
		used = (size_t)snprintf(line, sizeof(line), "%u %s (in both drives)", b->shared,
					kt->noun);
	else
		used = (size_t)snprintf(line, sizeof(line), "%u %s (in all %u drives)", b->shared,
					kt->noun, t->nr_drives);
	if (b->shared < b->nr_rows && used < sizeof(line)) {
		used += (size_t)snprintf(line + used, sizeof(line) - used, ", %u more in only some (",
					 b->nr_rows - b->shared);
		for (unsigned d = 0; d < t->nr_drives && used < sizeof(line); d++) {
			unsigned n = 0;
			for (unsigned i = 0; i < b->nr_rows; i++)
				n += b->rows[i].cells[d].present && !row_shared(t, &b->rows[i]);
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s has %u",
						 d ? ", " : "", t->names[d], n);
		}
		if (used < sizeof(line))
			used += (size_t)snprintf(line + used, sizeof(line) - used, "%s",
						 all ? "; - where a drive has none)"
						     : "; --all lists them)");
	}
	if (used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "; %s", kt->units);
	print_wrapped(out, line);
}

static void print_block(FILE *out, const struct compare_table *t, const struct compare_block *b,
			bool all)
{
	struct widths w = key_widths(b);
	int key = w.col1 + (kind_texts[b->kind].col2 ? 1 + w.col2 : 0), whole = key;

	fprintf(out, "\n== %s ==\n", compare_kind_title(b->kind));
	for (unsigned d = 0; d < t->nr_drives; d++)
		whole += group_width(b, d, 0, b->nr_metrics);
	if (whole <= COMPARE_TEXT_WIDTH) {
		print_panel(out, t, b, w, (struct panel){ 0, b->nr_metrics, 1, t->nr_drives }, all);
	} else {
		/* too wide: a panel per figure, each with A and as many other
		 * drives as fit (at least one) */
		for (unsigned m = 0; m < b->nr_metrics; m++)
			for (unsigned d0 = 1; d0 < t->nr_drives;) {
				int used = key + group_width(b, 0, m, m + 1);
				unsigned d1 = d0;
				while (d1 < t->nr_drives &&
				       (d1 == d0 || used + group_width(b, d1, m, m + 1) <=
							    COMPARE_TEXT_WIDTH))
					used += group_width(b, d1++, m, m + 1);
				if (m || d0 > 1)
					fputc('\n', out);
				print_panel(out, t, b, w, (struct panel){ m, m + 1, d0, d1 }, all);
				d0 = d1;
			}
	}
	print_count(out, t, b, all);
}

static void upper(const char *s, char *buf, size_t len)
{
	size_t i;

	for (i = 0; s[i] && i + 1 < len; i++)
		buf[i] = (char)toupper((unsigned char)s[i]);
	buf[i] = '\0';
}

static void print_header(FILE *out, const struct compare_table *t, const struct compare_who *who)
{
	char line[4096];
	size_t used = 0;

	line[0] = '\0';
	for (unsigned d = 0; d < t->nr_drives && used < sizeof(line); d++) {
		char mark[32] = "";

		if (who[d].state)
			upper(who[d].state, mark, sizeof(mark));
		used += (size_t)snprintf(line + used, sizeof(line) - used, "%s%s = %s (%s%s%s)",
					 d ? ", " : "", t->names[d], who[d].selector, who[d].label,
					 mark[0] ? ", " : "", mark);
	}
	if (used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "; vs A = (drive - A) / A");
	print_wrapped(out, line);
}

/* "warning: B holds a run that is not whole ..." naming every such drive. */
static void print_not_whole(FILE *out, const struct compare_table *t,
			    const struct compare_who *who)
{
	unsigned n = 0, seen = 0;

	for (unsigned d = 0; d < t->nr_drives; d++)
		n += who[d].state != NULL;
	if (!n)
		return;
	fputs("warning: ", out);
	for (unsigned d = 0; d < t->nr_drives; d++) {
		if (!who[d].state)
			continue;
		seen++;
		fprintf(out, "%s%s", seen == 1 ? "" : seen == n ? " and " : ", ", t->names[d]);
	}
	fprintf(out, " %s not whole (see the warnings above); %s results are not the whole"
		" measurement\n", n == 1 ? "holds a run that is" : "hold runs that are",
		n == 1 ? "its" : "their");
}

static int write_done(FILE *out)
{
	if (fflush(out) != 0 || ferror(out))
		return err_set("compare: write error");
	return 0;
}

int compare_print_text(FILE *out, const struct compare_table *t, const struct compare_who *who,
		       bool all)
{
	print_header(out, t, who);
	for (unsigned i = 0; i < t->nr_blocks; i++)
		print_block(out, t, &t->blocks[i], all);
	if (!t->nr_blocks)
		fputs("no results to compare: no drive has points, checkpoints, GDS points or "
		      "steady-state steps\n", out);
	print_not_whole(out, t, who);
	return write_done(out);
}

/* --- JSON --------------------------------------------------------------- */

static cJSON *json_drives(const struct compare_table *t, const struct compare_who *who)
{
	cJSON *arr = cJSON_CreateArray();

	for (unsigned d = 0; arr && d < t->nr_drives; d++) {
		cJSON *o = cJSON_CreateObject(), *warn = cJSON_CreateArray();

		cJSON_AddItemToArray(arr, o);
		cJSON_AddStringToObject(o, "name", t->names[d]);
		cJSON_AddStringToObject(o, "selector", who[d].selector);
		cJSON_AddStringToObject(o, "label", who[d].label);
		if (who[d].state)
			cJSON_AddStringToObject(o, "state", who[d].state);
		else
			cJSON_AddNullToObject(o, "state");
		for (unsigned i = 0; i < who[d].nr_warnings; i++)
			cJSON_AddItemToArray(warn, cJSON_CreateString(who[d].warnings[i]));
		cJSON_AddItemToObject(o, "warnings", warn);
	}
	return arr;
}

/* NAN becomes null (cJSON prints non-finite numbers so). */
static void add_number(cJSON *o, const char *key, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static void json_key_fields(cJSON *o, const struct compare_block *b, const struct compare_row *r)
{
	const struct compare_key *k = &r->key;
	const char *dir = k->dir == DIR_READ ? "read" : "write";

	switch (b->kind) {
	case COMPARE_POINTS:
		cJSON_AddStringToObject(o, "rw", k->rw);
		cJSON_AddNumberToObject(o, "bs", (double)k->bs);
		cJSON_AddStringToObject(o, "mix", k->mix);
		cJSON_AddStringToObject(o, "direction", dir);
		cJSON_AddNumberToObject(o, "iodepth", k->iodepth);
		cJSON_AddNumberToObject(o, "numjobs", k->numjobs);
		break;
	case COMPARE_CHECKPOINTS:
		cJSON_AddNumberToObject(o, "pass", k->pass);
		cJSON_AddBoolToObject(o, "read_back", k->pass == 0);
		break;
	case COMPARE_GDS:
		cJSON_AddStringToObject(o, "rw", k->rw);
		cJSON_AddStringToObject(o, "xfer", k->xfer);
		cJSON_AddNumberToObject(o, "bs", (double)k->bs);
		cJSON_AddNumberToObject(o, "threads", k->numjobs);
		cJSON_AddStringToObject(o, "direction", dir);
		break;
	default:
		cJSON_AddStringToObject(o, "step", k->step);
		cJSON_AddStringToObject(o, "metric", k->metric);
		cJSON_AddStringToObject(o, "unit", compare_steady_unit(k->metric));
		break;
	}
}

static cJSON *json_cell(const struct compare_block *b, const struct compare_row *r, unsigned d)
{
	const struct compare_cell *c = &r->cells[d];
	cJSON *o, *vs;

	if (!c->present)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	for (unsigned m = 0; m < b->nr_metrics; m++) {
		if (b->metrics[m].flag)
			cJSON_AddBoolToObject(o, b->metrics[m].key, c->v[m] != 0);
		else
			add_number(o, b->metrics[m].key, c->v[m]);
	}
	if (d == 0)
		return o;
	vs = cJSON_AddObjectToObject(o, "vs_a_pct");
	for (unsigned m = 0; vs && m < b->nr_metrics; m++)
		if (b->metrics[m].diff)
			add_number(vs, b->metrics[m].key, compare_diff(b, r, d, m));
	return o;
}

static cJSON *json_row(const struct compare_table *t, const struct compare_block *b,
		       const struct compare_row *r)
{
	cJSON *o = cJSON_CreateObject(), *cells = cJSON_CreateArray();
	char name[256], where[64];

	compare_row_name(b, r, name, sizeof(name), where, sizeof(where));
	cJSON_AddStringToObject(o, "name", name);
	cJSON_AddStringToObject(o, "where", where);
	json_key_fields(o, b, r);
	for (unsigned d = 0; d < t->nr_drives; d++)
		cJSON_AddItemToArray(cells, json_cell(b, r, d));
	cJSON_AddItemToObject(o, "drives", cells);
	return o;
}

static cJSON *json_block(const struct compare_table *t, const struct compare_block *b)
{
	cJSON *o = cJSON_CreateObject(), *metrics = cJSON_CreateArray(), *rows = cJSON_CreateArray();

	cJSON_AddStringToObject(o, "kind", compare_kind_key(b->kind));
	cJSON_AddStringToObject(o, "title", compare_kind_title(b->kind));
	cJSON_AddStringToObject(o, "units", kind_texts[b->kind].units);
	for (unsigned m = 0; m < b->nr_metrics; m++) {
		cJSON *mo = cJSON_CreateObject();

		cJSON_AddStringToObject(mo, "key", b->metrics[m].key);
		cJSON_AddStringToObject(mo, "head", b->metrics[m].head);
		cJSON_AddBoolToObject(mo, "diff", b->metrics[m].diff);
		cJSON_AddItemToArray(metrics, mo);
	}
	cJSON_AddItemToObject(o, "metrics", metrics);
	for (unsigned i = 0; i < b->nr_rows; i++)
		cJSON_AddItemToArray(rows, json_row(t, b, &b->rows[i]));
	cJSON_AddItemToObject(o, "rows", rows);
	cJSON_AddNumberToObject(o, "nr_rows", b->nr_rows);
	cJSON_AddNumberToObject(o, "shared", b->shared);
	return o;
}

int compare_print_json(FILE *out, const struct compare_table *t, const struct compare_who *who)
{
	cJSON *root = cJSON_CreateObject(), *blocks = cJSON_CreateArray();
	char *text = NULL;
	int rc = 0;

	if (root && blocks) {
		cJSON_AddItemToObject(root, "drives", json_drives(t, who));
		cJSON_AddStringToObject(root, "diff", "vs_a_pct = (drive - A) / A * 100, each drive "
					"against the first (A)");
		for (unsigned i = 0; i < t->nr_blocks; i++)
			cJSON_AddItemToArray(blocks, json_block(t, &t->blocks[i]));
		cJSON_AddItemToObject(root, "blocks", blocks);
		blocks = NULL;
		text = cJSON_Print(root);
	}
	if (!text)
		rc = err_set("compare: out of memory");
	else if (fputs(text, out) < 0 || fputc('\n', out) == EOF)
		rc = err_set("compare: write error");
	free(text);
	cJSON_Delete(blocks);
	cJSON_Delete(root);
	return rc ? rc : write_done(out);
}
