/* html.c - the review page: one self-contained HTML file (inline CSS, inline
 * SVG, no scripts or network assets): the page and its order, the drives
 * and their ratings, each test's results table, and the helpers the
 * sections share (html_parts.h); the sections themselves are
 * html_sweeps.c, html_steady.c, html_gds.c and html_waf.c. A modelled
 * drive carries its mark (report/analysis/measured.h) by its label in the Drives
 * table and in the name every section shows it under. */
#include "report/analysis/report.h"
#include "report/review/html_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/review/html_bench.h"
#include "report/analysis/measured.h"
#include "report/analysis/standing.h"
#include "report/svg/svg.h"
#include "util/error.h"
#include "job/job_spec.h"

static const char page_css[] =
	"body{font-family:sans-serif;margin:24px auto;max-width:1360px;color:#222}"
	"h1{font-size:24px}h2{font-size:19px;border-bottom:1px solid #ccc;padding-top:12px}"
	"table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}"
	"th,td{border:1px solid #ccc;padding:3px 8px;text-align:right}"
	"th{background:#f0f0f0}td.l,th.l{text-align:left}"
	"svg.chart{display:inline-block;vertical-align:top;margin:6px 0;width:49.5%;height:auto}"
	"div.heatwrap{overflow-x:auto;max-width:100%}svg.chart.heat{width:auto;max-width:none}"
	"details.values summary{cursor:pointer;color:#446;font-size:13px}"
	"p.say{background:#f7f7fb;padding:6px 10px;border-left:3px solid #88a}"
	".note{color:#666;font-size:13px}"
	"div.warn{background:#fff3e0;border:2px solid #e65100;padding:6px 12px;margin:10px 0}"
	"span.warn{background:#e65100;color:#fff;font-size:12px;padding:1px 6px;"
	"border-radius:3px;margin-left:6px}"
	"nav.toc{background:#fafafa;border:1px solid #ddd;padding:6px 12px;font-size:14px}"
	"nav.toc ol{margin:4px 0;columns:2}h3{font-size:16px;margin:18px 0 4px}"
	"ul.findings{font-size:14px}ul.findings li{margin:3px 0}"
	"form.pick{font-size:14px;margin:4px 0 10px}form.pick select{margin-right:10px}"
	"@media print{nav.toc,form.pick{display:none}svg.chart{page-break-inside:avoid}details.values>*{display:block}}"
	".legend-item{cursor:pointer}.legend-item.off{opacity:.35}path.off,circle.off,g.bar.off{display:none}"
	"span.model{background:#4a148c;color:#fff;font-size:12px;padding:1px 6px;"
	"border-radius:3px;margin-left:6px;white-space:nowrap}";

void html_esc(FILE *out, const char *s)
{
	svg_escape(out, s);
}

void html_point_name(const struct report_point *p, char *buf, size_t len)
{
	snprintf(buf, len, "%u/%u", p->iodepth, p->numjobs);
}

void html_cell_number(FILE *out, double v, bool compact)
{
	char buf[48];

	report_format_number(v, compact, buf, sizeof(buf));
	fprintf(out, "<td>%s</td>", buf);
}

void html_review_open(FILE *out, unsigned k, unsigned reviewed, unsigned nr)
{
	if (nr >= 2)
		fprintf(out, "<div class=\"by-review\" data-review=\"%u\"%s>\n", k,
			k == reviewed ? "" : " hidden");
}

void html_review_close(FILE *out, unsigned nr)
{
	if (nr >= 2)
		fputs("</div>\n", out);
}

/* The page's one script, small and optional. A click on a legend entry
 * hides that series (in charts whose marks are drives, data-drives: that
 * drive's lines, dots and bars in every one of them), a second click
 * shows it again. The drive selector
 * (shown by the script) moves the summary, the findings and the emphasis
 * to another drive, and redraws every heatmap for the pair picked, from
 * the values beside it (report/review/html_heat.c; the colours as svg_heat_color
 * makes them). With scripts off the page reads the same for the default
 * drives; hover values are SVG titles and need no script. */
static const char page_script[] =
	"(function(){var D=document;function Q(s,r){return Array.prototype.slice.call("
	"(r||D).querySelectorAll(s))}"
	"D.addEventListener('click',function(e){"
	"var g=e.target.closest&&e.target.closest('.legend-item');if(!g)return;"
	"var k=g.getAttribute('data-legend'),svg=g.closest('svg'),on=!g.classList.contains('off');"
	"var scope=svg.hasAttribute('data-drives')?Q('svg[data-drives]'):[svg];"
	"scope.forEach(function(s){"
	"Q('[data-series=\"'+k+'\"]',s).forEach(function(x){x.classList.toggle('off',on)});"
	"Q('.legend-item[data-legend=\"'+k+'\"]',s).forEach(function(x){"
	"x.classList.toggle('off',on)})})});"
	"function hex(p){var t=Math.min(Math.abs(p)/50,1),c=p<0?[215,48,39]:[26,152,80];"
	"return '#'+c.map(function(x){var v=Math.round(255+(x-255)*t);"
	"return (v<16?'0':'')+v.toString(16)}).join('')}"
	"function sign(v,d){return (v>=0?'+':'')+v.toFixed(d)}"
	"function margin(p){return p>100?(1+p/100).toFixed(1)+'x':sign(p,1)+'%'}"
	"function heat(a,b){Q('script[data-heat-of]').forEach(function(s){"
	"var h=JSON.parse(s.textContent),g=D.querySelector('g[data-heat=\"'+"
	"s.getAttribute('data-heat-of')+'\"]');if(!g||!h.v[a]||!h.v[b])return;"
	"var svg=g.closest('svg'),t=h.drives[a]+' vs '+h.drives[b]+': '+h.what,nc=h.cols.length;"
	"svg.querySelector('title').textContent=t;svg.querySelector('.ctitle').textContent=t;"
	"h.v[a].forEach(function(va,k){var vb=h.v[b][k],ok=va!=null&&vb!=null&&vb!=0,"
	"r=g.querySelector('rect[data-k=\"'+k+'\"]'),x=g.querySelector('text[data-k=\"'+k+'\"]'),"
	"p=ok?(va-vb)/vb*100:0,sc=h.lower?-p:p;"
	"r.setAttribute('fill',ok?hex(sc):'#f4f4f4');x.textContent=ok?sign(va-vb,h.dec):'';"
	"if(ok&&Math.abs(sc)>=30)x.setAttribute('fill','#fff');else x.removeAttribute('fill');"
	"r.querySelector('title').textContent=ok?h.rows[Math.floor(k/nc)]+', '+h.cols[k%nc]+"
	"': '+h.drives[a]+' '+va.toFixed(h.dec)+', '+h.drives[b]+' '+vb.toFixed(h.dec)+' '+"
	"h.unit+' ('+margin(p)+')':'not measured by both drives'})})}"
	"function review(k){Q('[data-review]').forEach(function(e){"
	"e.hidden=e.getAttribute('data-review')!=k});"
	"Q('svg[data-emph] path.line').forEach(function(p){"
	"p.setAttribute('stroke-width',p.getAttribute('data-series')==k?'3.5':'1.5')})}"
	"var f=D.querySelector('form.pick');if(!f)return;f.hidden=false;"
	"var R=D.getElementById('pick-review'),A=D.getElementById('pick-a'),"
	"B=D.getElementById('pick-b');"
	"R.onchange=function(){review(R.value);A.value=R.value;"
	"if(B.value==R.value)B.value=R.value=='0'?'1':'0';heat(+A.value,+B.value)};"
	"A.onchange=B.onchange=function(){heat(+A.value,+B.value)};"
	"window.drivebenchPick={review:review,heat:heat}})();";

static void spec_cell(FILE *out, double v, const char *suffix)
{
	char buf[48];

	if (v > 0) {
		report_format_rating(v, false, buf, sizeof(buf));
		fprintf(out, "<td>%s%s</td>", buf, suffix);
	} else {
		fputs("<td>-</td>", out);
	}
}

static void rated_iops_cell(FILE *out, double iops, uint64_t bs)
{
	char v[48], b[32];

	if (iops <= 0) {
		fputs("<td>-</td>", out);
		return;
	}
	report_format_rating(iops, true, v, sizeof(v));
	report_bs_name(bs ? bs : 4096, b, sizeof(b));
	fprintf(out, "<td>%s (%s)</td>", v, b);
}

/* "a / b" of two rated figures, "-" for one not rated */
static void pair_cell(FILE *out, double a, double b)
{
	char va[48] = "-", vb[48] = "-";

	if (a > 0)
		report_format_rating(a, false, va, sizeof(va));
	if (b > 0)
		report_format_rating(b, false, vb, sizeof(vb));
	fprintf(out, "<td>%s / %s</td>", va, vb);
}

/* The three charts of a test section, in values[] order: MB/s, IOPS, mean
 * latency. */
const char *const html_metric_title[] = { "bandwidth", "IOPS", "mean latency" };
const char *const html_metric_unit[] = { "MB/s (10^6 bytes/s)", "IOPS",
					   "mean latency (\u00b5s)" };

/* The drives its runs were measured on, one per line: a model's name
 * with its mark ("NAME \u2014 model, scale 1/1000"), a real drive's model
 * as stored; "-" when not known (imported results). */
static void measured_cell(FILE *out, const struct report_drive *d)
{
	char name[128], scale[64];

	fputs("<td class=\"l\">", out);
	if (!d->nr_measured_on)
		fputs("-", out);
	for (unsigned i = 0; i < d->nr_measured_on; i++) {
		if (i)
			fputs("<br>", out);
		if (measured_model_split(d->measured_on[i], name, sizeof(name), scale,
					 sizeof(scale))) {
			html_esc(out, name);
			fputs(" &mdash; <b>model, scale ", out);
			html_esc(out, scale);
			fputs("</b>", out);
		} else {
			html_esc(out, d->measured_on[i]);
		}
	}
	fputs("</td>", out);
}

/* What its runs ran, one line each (suite, time scale, target). */
static void ran_cell(FILE *out, const struct report_drive *d)
{
	fputs("<td class=\"l\">", out);
	if (!d->nr_ran)
		fputs("-", out);
	for (unsigned i = 0; i < d->nr_ran; i++) {
		if (i)
			fputs("<br>", out);
		html_esc(out, d->ran[i]);
	}
	fputs("</td>", out);
}

static void drives_table(FILE *out, const struct report_drive *drives, unsigned nr)
{
	fputs("<h2>Drives and test bench</h2>\n<table><tr><th class=\"l\">label</th><th class=\"l\">measured on</th>"
	      "<th class=\"l\">ran</th>"
	      "<th class=\"l\">model</th>"
	      "<th>capacity TB</th><th class=\"l\">interface</th><th>IU KiB</th>"
	      "<th>seq read MB/s</th><th>seq write MB/s</th><th>rand read IOPS</th>"
	      "<th>rand write IOPS</th><th>read / write lat &micro;s</th>"
	      "<th>power active / idle W</th><th>DWPD / PBW</th><th>results</th></tr>\n", out);
	for (unsigned i = 0; i < nr; i++) {
		const struct drive_spec *s = drives[i].spec;
		char mark[200];
		bool model = measured_model_mark(drives[i].measured_on, drives[i].nr_measured_on,
						 mark, sizeof(mark));

		fputs("<tr><td class=\"l\">", out);
		html_esc(out, drives[i].label);
		if (drives[i].state) {
			fputs("<span class=\"warn\">", out);
			html_esc(out, drives[i].state);
			fputs("</span>", out);
		}
		if (model) {
			fputs("<span class=\"model\">", out);
			html_esc(out, mark);
			fputs("</span>", out);
		}
		fputs("</td>", out);
		measured_cell(out, &drives[i]);
		ran_cell(out, &drives[i]);
		if (!s) {
			fprintf(out, "<td class=\"l\" colspan=\"11\">no spec sheet</td><td>%u</td></tr>\n",
				drives[i].nr);
			continue;
		}
		fputs("<td class=\"l\">", out);
		html_esc(out, s->model);
		/* a sheet names the drive the model stands for: not what ran */
		if (model) {
			fputs(" &mdash; ", out);
			html_esc(out, mark);
		}
		fputs("</td>", out);
		spec_cell(out, s->capacity_tb, "");
		fputs("<td class=\"l\">", out);
		html_esc(out, s->interface);
		fputs("</td>", out);
		spec_cell(out, s->iu_kib, "");
		spec_cell(out, s->seq_read_mbs, "");
		spec_cell(out, s->seq_write_mbs, "");
		rated_iops_cell(out, s->rand_read_iops, s->rand_read_bs);
		rated_iops_cell(out, s->rand_write_iops, s->rand_write_bs);
		pair_cell(out, s->read_latency_us, s->write_latency_us);
		pair_cell(out, s->power_active_w, s->power_idle_w);
		pair_cell(out, s->dwpd, s->pbw);
		fprintf(out, "<td>%u</td></tr>\n", drives[i].nr);
	}
	fputs("</table>\n", out);
	/* where a sheet not stored with the label came from, or why none */
	for (unsigned i = 0; i < nr; i++) {
		const char *line = drives[i].spec_warning ? drives[i].spec_warning :
				   drives[i].spec_note;

		if (!line)
			continue;
		fputs(drives[i].spec_warning ? "<div class=\"warn\">" : "<p class=\"note\">", out);
		html_esc(out, drives[i].label);
		fputs(": ", out);
		html_esc(out, line);
		fputs(drives[i].spec_warning ? "</div>\n" : "</p>\n", out);
	}
}

/* The drives as the sections name them: a modelled one with its mark, so
 * no chart legend or heading passes it for a real drive. names is the
 * caller's room, 160 bytes a drive. */
static void shown_drives(const struct report_drive *drives, unsigned nr,
			 struct report_drive *shown, char (*names)[160])
{
	for (unsigned d = 0; d < nr; d++) {
		shown[d] = drives[d];
		measured_shown_label(drives[d].label, drives[d].measured_on,
				     drives[d].nr_measured_on, names[d], sizeof(names[d]));
		shown[d].label = names[d];
	}
}

/* Runs that are not whole, named above everything: their results are
 * shown, but they are not the whole measurement. */
static void warnings_box(FILE *out, const struct report_drive *drives, unsigned nr)
{
	unsigned n = 0;

	for (unsigned d = 0; d < nr; d++)
		n += drives[d].nr_warnings;
	if (!n)
		return;
	fputs("<div class=\"warn\"><b>Warning: not every run shown is whole.</b><ul>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < drives[d].nr_warnings; i++) {
			fputs("<li>", out);
			html_esc(out, drives[d].warnings[i]);
			fputs("</li>\n", out);
		}
	fputs("</ul></div>\n", out);
}

static void results_table(FILE *out, const struct report_drive *drives,
			  const struct slice *slices, unsigned nr)
{
	char name[POINT_NAME_MAX];

	/* folded (no script): the charts carry the story, the table the values */
	fputs("<details class=\"values\"><summary>values and percentiles per point</summary>\n", out);
	fputs("<table><tr><th class=\"l\">drive</th><th>QD/jobs</th><th>MB/s</th><th>IOPS</th>"
	      "<th>mean &micro;s</th><th>p99 &micro;s</th><th>p99.9 &micro;s</th>"
	      "<th>p99.99 &micro;s</th></tr>\n", out);
	for (unsigned d = 0; d < nr; d++)
		for (unsigned i = 0; i < slices[d].n; i++) {
			const struct report_point *p = &slices[d].pts[i];
			html_point_name(p, name, sizeof(name));
			fputs("<tr><td class=\"l\">", out);
			html_esc(out, drives[d].label);
			fprintf(out, "</td><td>%s</td>", name);
			html_cell_number(out, p->mbs, false);
			fprintf(out, "<td>%.0f</td>", p->iops);
			html_cell_number(out, p->lat_mean_us, false);
			html_cell_number(out, p->p99_us, false);
			html_cell_number(out, p->p999_us, false);
			html_cell_number(out, p->p9999_us, false);
			fputs("</tr>\n", out);
		}
	fputs("</table>\n</details>\n", out);
}

/* The page's body is drawn first (into memory), so that the summary and
 * the table of contents above it name only what it holds. */
#define TOC_MAX 32

struct page {
	FILE *out;                         /* the body */
	const struct report_drive *drives; /* as the sections name them */
	const struct report_drive *given;  /* as given: the Drives table marks them */
	unsigned nr, reviewed;
	const struct report_point **tests; /* each distinct test once, in order */
	unsigned nt;
	struct slice *slices;              /* nr per test, test after test */
	const struct drive_points *dp;     /* every drive's points */
	struct { char anchor[24], title[96]; } toc[TOC_MAX];
	unsigned ntoc;
};

static void toc_add(struct page *pg, const char *anchor, const char *title)
{
	if (pg->ntoc == TOC_MAX)
		return;
	snprintf(pg->toc[pg->ntoc].anchor, sizeof(pg->toc[0].anchor), "%s", anchor);
	snprintf(pg->toc[pg->ntoc].title, sizeof(pg->toc[0].title), "%s", title);
	pg->ntoc++;
}

static int by_test_order(const void *a, const void *b)
{
	return report_test_order(*(const struct report_point *const *)a,
				 *(const struct report_point *const *)b);
}

/* Every distinct test of every drive, in the reviews' order, with each
 * drive's points of it. */
static int collect_tests(struct page *pg, const struct drive_points *dp)
{
	unsigned total = 0;

	for (unsigned d = 0; d < pg->nr; d++)
		total += dp[d].n;
	pg->tests = calloc(total ? total : 1, sizeof(*pg->tests));
	struct report_point **own = calloc(total ? total : 1, sizeof(*own));
	if (!pg->tests || !own) {
		free(own);
		return err_set("report: out of memory");
	}
	for (unsigned d = 0; d < pg->nr; d++)
		for (unsigned i = 0; i < dp[d].n; i++) {
			unsigned t = 0;
			while (t < pg->nt && !report_same_test(pg->tests[t], &dp[d].pts[i]))
				t++;
			if (t == pg->nt) {
				own[pg->nt] = &dp[d].pts[i];
				pg->tests[pg->nt++] = &dp[d].pts[i];
			}
		}
	/* two tests of one name but different size splits: each named by
	 * its split */
	for (unsigned a = 0; a < pg->nt; a++)
		for (unsigned b = a + 1; b < pg->nt; b++) {
			char na[128], nb[128];
			if (!own[a]->mix[0] || !own[b]->mix[0] || !strcmp(own[a]->mix, own[b]->mix))
				continue;
			report_test_name(own[a], na, sizeof(na));
			report_test_name(own[b], nb, sizeof(nb));
			if (!strcmp(na, nb))
				own[a]->name_split = own[b]->name_split = true;
		}
	free(own);
	qsort(pg->tests, pg->nt, sizeof(*pg->tests), by_test_order);
	pg->slices = calloc((size_t)(pg->nt ? pg->nt : 1) * pg->nr, sizeof(*pg->slices));
	if (!pg->slices)
		return err_set("report: out of memory");
	for (unsigned t = 0; t < pg->nt; t++)
		for (unsigned d = 0; d < pg->nr; d++)
			pg->slices[(size_t)t * pg->nr + d] = report_test_slice(&dp[d], pg->tests[t]);
	return 0;
}

static const struct slice *slices_of(const struct page *pg, unsigned t)
{
	return &pg->slices[(size_t)t * pg->nr];
}

static void test_anchor(unsigned t, char *buf, size_t len)
{
	snprintf(buf, len, "t%u", t + 1);
}

static int test_section(struct page *pg, unsigned t)
{
	const struct report_point *test = pg->tests[t];
	const struct slice *slices = slices_of(pg, t);
	bool sweep = false;
	char tname[128], anchor[16];
	unsigned fired = 0;

	for (unsigned d = 0; d < pg->nr; d++)
		sweep = sweep || slices[d].n > 1;
	report_test_name(test, tname, sizeof(tname));
	test_anchor(t, anchor, sizeof(anchor));
	fprintf(pg->out, "<section class=\"test\" id=\"%s\">\n<h3>", anchor);
	html_esc(pg->out, tname);
	fputs("</h3>\n", pg->out);
	for (unsigned k = 0; k < pg->nr; k++) {
		html_review_open(pg->out, k, pg->reviewed, pg->nr);
		if (html_test_findings(pg->out, pg->drives, slices, pg->nr, k, test, false,
				       &fired) < 0)
			return -1;
		html_review_close(pg->out, pg->nr);
	}
	if (sweep) {
		if (html_sweep_section(pg->out, pg->drives, slices, pg->nr, pg->reviewed, test) < 0)
			return -1;
	} else if (html_single_section(pg->out, pg->drives, slices, pg->nr, test) < 0) {
		return -1;
	}
	if (sweep)
		html_peak_percentiles(pg->out, pg->drives, slices, pg->nr, test);
	results_table(pg->out, pg->drives, slices, pg->nr);
	html_buffer_note(pg->out, pg->drives, slices, 1, pg->nr);
	fputs("</section>\n", pg->out);
	return 0;
}

/* The object-storage tests as one table, as the reviews show them: a row
 * per test, per drive MB/s, IOPS and mean latency in ms. */
static void object_table(struct page *pg, unsigned first, unsigned last)
{
	char name[128], v[48];
	bool has[STANDING_MAX_DRIVES] = { false };

	/* a column group only for the drives with an object test */
	for (unsigned t = first; t < last; t++)
		for (unsigned d = 0; d < pg->nr && d < STANDING_MAX_DRIVES; d++)
			has[d] = has[d] || slices_of(pg, t)[d].n;
	fputs("<table class=\"object\"><tr><th class=\"l\">test</th>", pg->out);
	for (unsigned d = 0; d < pg->nr; d++) {
		if (d < STANDING_MAX_DRIVES && !has[d])
			continue;
		fputs("<th colspan=\"3\">", pg->out);
		html_esc(pg->out, pg->drives[d].label);
		fputs("</th>", pg->out);
	}
	fputs("</tr>\n<tr><th></th>", pg->out);
	for (unsigned d = 0; d < pg->nr; d++)
		if (d >= STANDING_MAX_DRIVES || has[d])
			fputs("<th>MB/s</th><th>IOPS</th><th>mean ms</th>", pg->out);
	fputs("</tr>\n", pg->out);
	for (unsigned t = first; t < last; t++) {
		const struct slice *slices = slices_of(pg, t);
		char anchor[16];

		report_test_name(pg->tests[t], name, sizeof(name));
		test_anchor(t, anchor, sizeof(anchor));
		fprintf(pg->out, "<tr id=\"%s\"><td class=\"l\">", anchor);
		html_esc(pg->out, name);
		fputs("</td>", pg->out);
		for (unsigned d = 0; d < pg->nr; d++) {
			if (d < STANDING_MAX_DRIVES && !has[d])
				continue;
			if (!slices[d].n) {
				fputs("<td>-</td><td>-</td><td>-</td>", pg->out);
				continue;
			}
			const struct report_point *p = &slices[d].pts[slices[d].n - 1];
			html_cell_number(pg->out, p->mbs, false);
			report_format_number(p->iops, false, v, sizeof(v));
			fprintf(pg->out, "<td>%s</td>", v);
			html_cell_number(pg->out, p->lat_mean_us / 1000.0, false);
		}
		fputs("</tr>\n", pg->out);
	}
	fputs("</table>\n", pg->out);
	html_buffer_note(pg->out, pg->drives, slices_of(pg, first), last - first, pg->nr);
}

/* One of the reviews' sections: its heading, its two-line summary and its
 * tests [first, last). */
static int review_section(struct page *pg, enum report_section s, unsigned first,
			  unsigned last)
{
	const char *anchor = report_section_anchor(s), *title = report_section_title(s);

	toc_add(pg, anchor, title);
	fprintf(pg->out, "<h2 id=\"%s\">", anchor);
	html_esc(pg->out, title);
	fputs("</h2>\n", pg->out);
	for (unsigned k = 0; k < pg->nr; k++) {
		html_review_open(pg->out, k, pg->reviewed, pg->nr);
		html_section_summary(pg->out, pg->drives, slices_of(pg, first), pg->tests + first,
				     last - first, pg->nr, k);
		html_review_close(pg->out, pg->nr);
	}
	if (s == SECTION_OBJECT) {
		object_table(pg, first, last);
		return 0;
	}
	for (unsigned t = first; t < last; t++)
		if (test_section(pg, t) < 0)
			return -1;
	return 0;
}

/* A section drawn by its own file (steady state, checkpoints, GDS, WAF,
 * heatmaps): in the contents when it drew anything. */
static int own_section(struct page *pg, const char *anchor, const char *title,
		       int (*draw)(const struct page *))
{
	long before = ftell(pg->out);

	fprintf(pg->out, "<div id=\"%s\"></div>\n", anchor);
	long start = ftell(pg->out);
	if (draw(pg) < 0)
		return -1;
	if (ftell(pg->out) > start)
		toc_add(pg, anchor, title);
	else
		fseek(pg->out, before, SEEK_SET);
	return 0;
}

static int draw_steady(const struct page *pg)
{
	return html_steady_section(pg->out, pg->drives, pg->nr);
}

static int draw_checkpoints(const struct page *pg)
{
	return html_checkpoint_section(pg->out, pg->drives, pg->nr);
}

static int draw_gds(const struct page *pg)
{
	return html_gds_section(pg->out, pg->drives, pg->nr, pg->reviewed);
}

static int draw_heatmaps(const struct page *pg)
{
	return pg->nr >= 2 ? html_heatmaps(pg->out, pg->drives, pg->dp, pg->nr, pg->reviewed) : 0;
}

static int draw_waf(const struct page *pg)
{
	return html_waf_section(pg->out, pg->drives, pg->nr);
}

static int draw_counters(const struct page *pg)
{
	return html_counters_section(pg->out, pg->drives, pg->nr);
}

/* The hosts (each distinct one once) and the drives' identity, record,
 * endurance and density (html_bench.c). */
static int bench_section(const struct page *pg)
{
	struct bench_host *hosts = calloc(pg->nr ? pg->nr : 1, sizeof(*hosts));
	struct bench_drive *bd = calloc(pg->nr ? pg->nr : 1, sizeof(*bd));
	unsigned nh = 0;
	int rc = -1;

	if (!hosts || !bd) {
		err_set("report: out of memory");
		goto out;
	}
	for (unsigned d = 0; d < pg->nr; d++) {
		const struct report_host *h = pg->given[d].host;
		bd[d].label = pg->drives[d].label;
		bd[d].spec = pg->given[d].spec;
		bench_drive_id_from_results(pg->given[d].recs, pg->given[d].nr, &bd[d].id);
		if (!h)
			continue;
		unsigned k = 0;
		while (k < nh && !(!strcmp(hosts[k].hostname, h->name) &&
				   !strcmp(hosts[k].kernel, h->kernel)))
			k++;
		if (k == nh)
			hosts[nh++] = (struct bench_host){ .hostname = h->name, .server = h->server,
				.cpu = h->cpu, .cores = h->cores, .memory_bytes = h->memory_bytes,
				.os = h->os, .kernel = h->kernel };
	}
	rc = html_bench_section(pg->out, hosts, nh, bd, pg->nr);
out:
	free(hosts);
	free(bd);
	return rc;
}

static int draw_body(struct page *pg)
{
	toc_add(pg, "drives", "Drives and test bench");
	fputs("<div id=\"drives\"></div>\n", pg->out);
	drives_table(pg->out, pg->given, pg->nr);
	if (bench_section(pg) < 0)
		return -1;
	toc_add(pg, "bench", "Bench, endurance and density");
	for (unsigned t = 0; t < pg->nt;) {
		enum report_section s = pg->tests[t]->section;
		unsigned last = t;

		while (last < pg->nt && pg->tests[last]->section == s)
			last++;
		if (review_section(pg, s, t, last) < 0)
			return -1;
		if (s == SECTION_FILL &&
		    own_section(pg, "steady", "Steady state", draw_steady) < 0)
			return -1;
		t = last;
	}
	if (!pg->nt) {
		fputs("<p class=\"note\">No results to show.</p>\n", pg->out);
	}
	if ((!pg->nt || pg->tests[0]->section != SECTION_FILL) &&
	    own_section(pg, "steady", "Steady state", draw_steady) < 0)
		return -1;
	if (own_section(pg, "checkpoints", "DLIO checkpoints", draw_checkpoints) < 0 ||
	    own_section(pg, "gds", "GPU Direct Storage (gdsio)", draw_gds) < 0 ||
	    own_section(pg, "heatmaps", "Differential heatmaps", draw_heatmaps) < 0 ||
	    own_section(pg, "endurance", "Endurance and write amplification", draw_waf) < 0 ||
	    own_section(pg, "counters", "The drive's own count", draw_counters) < 0)
		return -1;
	return 0;
}

/* The drive selector: which drive the summary, the findings and the
 * emphasis tell of, and the two drives every heatmap compares. Hidden
 * until the script shows it (with scripts off it would do nothing). */
static void draw_picker(FILE *out, const struct page *pg)
{
	static const char *const what[3] = { "pick-review", "pick-a", "pick-b" };
	static const char *const says[3] = { "Reviewed drive ", " Heatmaps: ", " against " };
	unsigned chosen[3] = { pg->reviewed, pg->reviewed, pg->reviewed ? 0 : 1 };

	if (pg->nr < 2)
		return;
	fputs("<form class=\"pick\" hidden>", out);
	for (unsigned s = 0; s < 3; s++) {
		fprintf(out, "<label>%s<select id=\"%s\">", says[s], what[s]);
		for (unsigned d = 0; d < pg->nr; d++) {
			fprintf(out, "<option value=\"%u\"%s>", d, d == chosen[s] ? " selected" : "");
			html_esc(out, pg->drives[d].label);
			fputs("</option>", out);
		}
		fputs("</select></label>", out);
	}
	fputs("</form>\n", out);
}

/* One drive's summary: its table and its findings. */
static int draw_summary_of(FILE *out, const struct page *pg, unsigned k)
{
	unsigned fired = 0;
	char anchor[16];

	html_summary_head(out, pg->drives, k, pg->nr);
	for (unsigned t = 0; t < pg->nt; t++) {
		test_anchor(t, anchor, sizeof(anchor));
		html_summary_row(out, pg->drives, slices_of(pg, t), pg->nr, k, pg->tests[t], anchor);
	}
	fputs("</table>\n<h3>Findings</h3>\n<ul class=\"findings\">\n", out);
	for (unsigned t = 0; t < pg->nt; t++)
		if (html_test_findings(out, pg->drives, slices_of(pg, t), pg->nr, k,
				       pg->tests[t], true, &fired) < 0)
			return -1;
	if (html_gds_findings(out, pg->drives, pg->nr, k, true) < 0)
		return -1;
	fputs("</ul>\n", out);
	html_conclusion(out, pg->drives, pg->slices, pg->tests, pg->nt, pg->nr, k);
	return 0;
}

static int draw_summary(FILE *out, const struct page *pg)
{
	if (!pg->nt || !pg->nr)
		return 0;
	fputs("<section id=\"summary\">\n<h2>Summary</h2>\n", out);
	for (unsigned k = 0; k < pg->nr; k++) {
		html_review_open(out, k, pg->reviewed, pg->nr);
		if (draw_summary_of(out, pg, k) < 0)
			return -1;
		html_review_close(out, pg->nr);
	}
	fputs("</section>\n", out);
	return 0;
}

static void draw_toc(FILE *out, const struct page *pg)
{
	fputs("<nav class=\"toc\"><b>Contents</b><ol>\n", out);
	if (pg->nt)
		fputs("<li><a href=\"#summary\">Summary</a></li>\n", out);
	for (unsigned i = 0; i < pg->ntoc; i++) {
		fprintf(out, "<li><a href=\"#%s\">", pg->toc[i].anchor);
		html_esc(out, pg->toc[i].title);
		fputs("</a></li>\n", out);
	}
	fputs("</ol></nav>\n", out);
}

int report_html(FILE *out, const struct report_drive *drives, unsigned nr,
		const struct report_options *opt)
{
	struct drive_points *dp = calloc(nr ? nr : 1, sizeof(*dp));
	struct report_drive *shown = calloc(nr ? nr : 1, sizeof(*shown));
	char (*names)[160] = calloc(nr ? nr : 1, sizeof(*names));
	const char *title = opt && opt->title ? opt->title : "drivebench report";
	struct page pg = { .nr = nr, .reviewed = opt && opt->reviewed < nr ? opt->reviewed : 0 };
	char *body = NULL;
	size_t body_len = 0;
	int rc = -1;

	if (!dp || !shown || !names) {
		err_set("report: out of memory");
		goto out;
	}
	shown_drives(drives, nr, shown, names);
	pg.drives = shown;
	pg.given = drives;
	for (unsigned d = 0; d < nr; d++)
		if (report_points(drives[d].recs, drives[d].nr, &dp[d].pts, &dp[d].n) < 0)
			goto out;
	if (collect_tests(&pg, dp) < 0)
		goto out;
	if (!(pg.out = open_memstream(&body, &body_len))) {
		err_set("report: out of memory");
		goto out;
	}
	pg.dp = dp;
	int drawn = draw_body(&pg);
	if (fclose(pg.out) != 0 || drawn < 0) {
		if (drawn >= 0)
			err_set("report: out of memory");
		goto out;
	}

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n", out);
	if (opt && opt->in_progress && opt->refresh_s)
		fprintf(out, "<meta http-equiv=\"refresh\" content=\"%u\">\n", opt->refresh_s);
	fputs("<title>", out);
	html_esc(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head><body>\n<h1>", page_css);
	html_esc(out, title);
	fputs("</h1>\n", out);
	if (opt && opt->subtitle) {
		fputs("<p class=\"note\">", out);
		html_esc(out, opt->subtitle);
		fputs("</p>\n", out);
	}
	if (opt && opt->in_progress) {
		fputs("<p class=\"in-progress\" style=\"border:1px solid #c90;background:#fff6e0;"
		      "padding:.4em .6em\"><b>", out);
		html_esc(out, opt->in_progress);
		fputs("</b></p>\n", out);
	}
	warnings_box(out, drives, nr);
	draw_picker(out, &pg);
	if (draw_summary(out, &pg) < 0)
		goto out;
	draw_toc(out, &pg);
	fwrite(body, 1, body_len, out);
	fputs("<p class=\"note\">Generated by drivebench. MB/s = 10^6 bytes/s; latencies in "
	      "&micro;s; QD/jobs = iodepth / numjobs. Hover a point for its values; click a "
	      "legend entry to hide that drive.</p>\n", out);
	fprintf(out, "<script>%s</script>\n</body></html>\n", page_script);
	if (fflush(out) != 0 || ferror(out)) {
		err_set("report: write error");
		goto out;
	}
	rc = 0;
out:
	for (unsigned d = 0; dp && d < nr; d++)
		free(dp[d].pts);
	free(dp);
	free(pg.tests);
	free(pg.slices);
	free(body);
	free(shown);
	free(names);
	return rc;
}
