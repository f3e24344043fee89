/* svg.c - inline SVG drawing for the report: scales and ticks, line, bar and
 * heatmap charts. Output is plain SVG elements (no scripts, no external
 * fonts), so the page renders offline in any browser. */
#include "report/svg/svg.h"

#include <math.h>
#include <string.h>

#include "util/error.h"

#define CHART_W 760
#define CHART_H 350
#define MARGIN_L 78
#define MARGIN_R 170
#define MARGIN_T 36
#define MARGIN_B 72

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
	"#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
};

const char *svg_palette(unsigned i)
{
	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

static double nice_step(double range)
{
	double raw = range / 5.0;
	double mag = pow(10.0, floor(log10(raw)));
	double norm = raw / mag;

	if (norm <= 1.0)
		return mag;
	if (norm <= 2.0)
		return 2.0 * mag;
	if (norm <= 5.0)
		return 5.0 * mag;
	return 10.0 * mag;
}

void svg_scale_init(struct svg_scale *s, double lo, double hi,
		    double pmin, double pmax, bool allow_log)
{
	memset(s, 0, sizeof(*s));
	s->pmin = pmin;
	s->pmax = pmax;
	if (!isfinite(lo) || !isfinite(hi)) {
		lo = 0;
		hi = 1;
	}
	if (allow_log && lo > 0 && hi / lo > SVG_LOG_RATIO) {
		s->log = true;
		s->dmin = pow(10.0, floor(log10(lo)));
		s->dmax = pow(10.0, ceil(log10(hi)));
		return;
	}
	if (lo > 0)
		lo = 0;
	if (hi <= lo)
		hi = lo + 1.0;
	s->step = nice_step(hi - lo);
	s->dmin = floor(lo / s->step) * s->step;
	s->dmax = ceil(hi / s->step - 1e-9) * s->step;
	if (s->dmax <= s->dmin)
		s->dmax = s->dmin + s->step;
}

double svg_scale_map(const struct svg_scale *s, double v)
{
	double f;

	if (s->log) {
		if (v <= 0)
			v = s->dmin;
		f = (log10(v) - log10(s->dmin)) / (log10(s->dmax) - log10(s->dmin));
	} else {
		f = (v - s->dmin) / (s->dmax - s->dmin);
	}
	return s->pmin + f * (s->pmax - s->pmin);
}

unsigned svg_ticks(const struct svg_scale *s, double *ticks, unsigned max)
{
	unsigned n = 0;

	if (s->log) {
		for (double v = s->dmin; v <= s->dmax * 1.0001 && n < max; v *= 10.0)
			ticks[n++] = v;
		return n;
	}
	for (unsigned i = 0; n < max; i++) {
		double v = s->dmin + i * s->step;
		if (v > s->dmax + s->step * 1e-6)
			break;
		ticks[n++] = fabs(v) < s->step * 1e-9 ? 0.0 : v;
	}
	return n;
}

void svg_format_tick(double v, char *buf, size_t len)
{
	static const char *const suffix[] = { "", "K", "M", "G", "T" };
	unsigned k = 0;
	double a = fabs(v);

	while (a >= 1000.0 && k < 4) {
		a /= 1000.0;
		v /= 1000.0;
		k++;
	}
	snprintf(buf, len, "%.3g%s", v, suffix[k]);
}

void svg_escape(FILE *out, const char *text)
{
	for (const char *p = text ? text : ""; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default: fputc(*p, out);
		}
	}
}

void svg_heat_color(double pct, char *buf, size_t len)
{
	/* white -> green (26,152,80) or white -> red (215,48,39) */
	double t = isfinite(pct) ? fmin(fabs(pct) / 50.0, 1.0) : 0.0;
	int r = 26, g = 152, b = 80;

	if (isfinite(pct) && pct < 0) {
		r = 215;
		g = 48;
		b = 39;
	}
	snprintf(buf, len, "#%02x%02x%02x",
		 (int)lround(255 + (r - 255) * t), (int)lround(255 + (g - 255) * t),
		 (int)lround(255 + (b - 255) * t));
}

static void text_at(FILE *out, double x, double y, const char *anchor,
		    const char *extra, const char *text)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"%s%s>",
		x, y, anchor, extra ? " " : "", extra ? extra : "");
	svg_escape(out, text);
	fputs("</text>\n", out);
}

/* marks: "" or the attributes the page's script looks for (data-drives:
 * series i is drive i; data-emph: one drive drawn heavier) */
static void open_svg(FILE *out, int w, int h, const char *title, const char *marks)
{
	fprintf(out, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart%s\" ",
		strstr(marks, "heat") ? " heat" : "");
	fprintf(out, "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\" "
		"font-family=\"sans-serif\" font-size=\"12\"%s>\n", w, h, w, h, marks);
	fputs("<title>", out);
	svg_escape(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", w, h);
	text_at(out, w / 2.0, 20, "middle", "class=\"ctitle\" font-size=\"14\" font-weight=\"bold\"",
		title);
}

/* y axis with grid lines and the rotated label */
static void y_axis(FILE *out, const struct svg_scale *ys, const char *label,
		   double x0, double x1)
{
	double ticks[SVG_MAX_TICKS];
	unsigned n = svg_ticks(ys, ticks, SVG_MAX_TICKS);
	char buf[32], lbl[300];

	for (unsigned i = 0; i < n; i++) {
		double y = svg_scale_map(ys, ticks[i]);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n", x0, y, x1, y);
		svg_format_tick(ticks[i], buf, sizeof(buf));
		text_at(out, x0 - 6, y + 4, "end", NULL, buf);
	}
	snprintf(lbl, sizeof(lbl), "%s%s", label, ys->log ? " (log scale)" : "");
	fprintf(out, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %.1f)\">",
		(ys->pmin + ys->pmax) / 2, (ys->pmin + ys->pmax) / 2);
	svg_escape(out, lbl);
	fputs("</text>\n", out);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		x0, ys->pmin, x0, ys->pmax);
}

/* Characters of UTF-8 text (its bytes that start one). */
static size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xC0) != 0x80;
	return n;
}

/* The palette index and data-series of series s: its drive's page index,
 * or s for a series that is not a drive. */
static unsigned series_key(const struct svg_series *ser, unsigned s)
{
	return ser->drive ? ser->drive - 1 : s;
}

/* data-drive="k" on a drive's mark: one drive, one colour, page-wide */
static void drive_mark(FILE *out, bool is_drive, unsigned k)
{
	if (is_drive)
		fprintf(out, " data-drive=\"%u\"", k);
}

/* Splits text into at most max_lines lines of at most width characters,
 * breaking after a space, '-' or '/' or before '(' where it can (mid-word
 * where it cannot); the last line takes what is left. Returns the count;
 * line i is text[start[i], start[i] + len[i]). */
static unsigned wrap_text(const char *text, unsigned width, unsigned max_lines,
			  size_t *start, size_t *len)
{
	size_t n = strlen(text), at = 0;
	unsigned lines = 0;

	while (at < n && lines < max_lines) {
		size_t end = at, brk = 0, chars = 0;
		while (end < n && (chars < width || lines + 1 == max_lines)) {
			if (((unsigned char)text[end] & 0xC0) != 0x80)
				chars++;
			if (chars > width && lines + 1 == max_lines)
				break;
			end++;
			if (end < n && (text[end - 1] == ' ' || text[end - 1] == '-' ||
					text[end - 1] == '/' || text[end] == '('))
				brk = end;
		}
		if (end < n && lines + 1 < max_lines && brk > at)
			end = brk;
		while (end < n && end > at && ((unsigned char)text[end] & 0xC0) == 0x80)
			end--;   /* never split a UTF-8 character */
		if (end == at)
			end = n;
		start[lines] = at;
		len[lines] = end - at;
		lines++;
		at = end;
		while (at < n && text[at] == ' ')
			at++;
	}
	return lines;
}

/* Text in lines of about width characters (LINE_H apart, the first at y). */
#define LINE_H 14
#define CHAR_W 7.0   /* a 12 px sans-serif character, generously */
static unsigned wrapped_text_at(FILE *out, double x, double y, const char *anchor,
				const char *text, unsigned width, unsigned max_lines)
{
	size_t start[8], len[8];
	unsigned lines = wrap_text(text ? text : "", width, max_lines < 8 ? max_lines : 8,
				   start, len);

	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">", x, y, anchor);
	for (unsigned i = 0; i < lines; i++) {
		char line[256];
		size_t l = len[i] < sizeof(line) - 1 ? len[i] : sizeof(line) - 1;
		memcpy(line, text + start[i], l);
		line[l] = '\0';
		fprintf(out, "<tspan x=\"%.1f\" dy=\"%d\">", x, i ? LINE_H : 0);
		svg_escape(out, line);
		fputs("</tspan>", out);
	}
	fputs("</text>\n", out);
	return lines ? lines : 1;
}

/* One legend entry per series with a mark (key[i]: its colour and the
 * data-legend the page's script hides by); names wrap, never shrink. */
static void legend(FILE *out, const char *const *names, const unsigned *key,
		   unsigned n, double x, bool drives)
{
	unsigned width = (unsigned)((CHART_W - (x + 18) - 4) / CHAR_W);
	double y = MARGIN_T + 10;

	for (unsigned i = 0; i < n; i++) {
		/* a group per entry: the page's script hides its series on a click */
		fprintf(out, "<g class=\"legend-item\" data-legend=\"%u\"", key[i]);
		drive_mark(out, drives, key[i]);
		fputc('>', out);
		fprintf(out, "<rect class=\"legend\" x=\"%.1f\" y=\"%.1f\" width=\"12\" "
			"height=\"12\" fill=\"%s\"/>\n", x, y - 10, svg_palette(key[i]));
		y += LINE_H * wrapped_text_at(out, x + 18, y, "start", names[i], width, 4) + 6;
		fputs("</g>\n", out);
	}
}

/* The x axis of named categories (c->x_names), one tick per name, rotated
 * when there are many; xs maps category i to its tick. */
static void categorical_x_axis(FILE *out, const struct svg_chart *c, double x0,
			       double x1, double y0, struct svg_scale *xs)
{
	double step = (x1 - x0) / (c->nx ? c->nx : 1);
	bool rotate = c->nx > 12;

	for (unsigned i = 0; i < c->nx; i++) {
		double x = x0 + step * (i + 0.5);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#333\"/>\n", x, y0, x, y0 + 4);
		if (rotate && c->x_names[i][0]) {
			/* upright columns: neighbours never overlap */
			char tr[80];
			snprintf(tr, sizeof(tr), "transform=\"rotate(-90 %.1f %.1f)\"", x + 4, y0 + 8);
			text_at(out, x + 4, y0 + 8, "end", tr, c->x_names[i]);
		} else {
			text_at(out, x, y0 + 16, "middle", NULL, c->x_names[i]);
		}
	}
	xs->pmin = x0 + step / 2;
	xs->pmax = x0 + step * ((c->nx ? c->nx : 1) - 0.5);
	xs->dmin = 0;
	xs->dmax = c->nx > 1 ? c->nx - 1 : 1;
	xs->log = false;
	if (c->nx <= 1)
		xs->pmax = xs->pmin;
}

/* A linear x axis over [xlo, xhi] with its ticks. */
static void numeric_x_axis(FILE *out, double xlo, double xhi, double x0, double x1,
			   double y0, struct svg_scale *xs)
{
	double ticks[SVG_MAX_TICKS];
	char buf[32];
	svg_scale_init(xs, xlo, xhi, x0, x1, false);
	unsigned n = svg_ticks(xs, ticks, SVG_MAX_TICKS);
	for (unsigned i = 0; i < n; i++) {
		double x = svg_scale_map(xs, ticks[i]);
		fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#333\"/>\n", x, y0, x, y0 + 4);
		svg_format_tick(ticks[i], buf, sizeof(buf));
		text_at(out, x, y0 + 16, "middle", NULL, buf);
	}
}

/* Series s as a line in its palette colour, lifted over non-finite values,
 * with a dot per point when there are few. */
static void plot_series(FILE *out, const struct svg_chart *c, unsigned s,
			const struct svg_scale *xs, const struct svg_scale *ys)
{
	const struct svg_series *ser = &c->series[s];
	unsigned k = series_key(ser, s);
	bool pen_down = false;
	double width = !c->emphasis ? 2 : k + 1 == c->emphasis ? 3.5 : 1.5;

	fprintf(out, "<path class=\"line\" data-series=\"%u\"", k);
	drive_mark(out, ser->drive, k);
	fprintf(out, " fill=\"none\" stroke=\"%s\" stroke-width=\"%.1f\" d=\"",
		svg_palette(k), width);
	for (unsigned i = 0; i < ser->n; i++) {
		double x = ser->x ? ser->x[i] : i;
		/* on a categorical axis a drive's points are joined in its own
		 * order over the points it did not run; an empty name (the gap
		 * between job groups) or a numeric axis lifts the pen */
		if (c->x_names && i < c->nx && !c->x_names[i][0])
			pen_down = false;
		if (!isfinite(ser->y[i])) {
			if (!c->x_names)
				pen_down = false;
			continue;
		}
		fprintf(out, "%s%.1f %.1f ", pen_down ? "L" : "M",
			svg_scale_map(xs, x), svg_scale_map(ys, ser->y[i]));
		pen_down = true;
	}
	fputs("\"/>\n", out);
	if (ser->n <= 40)
		for (unsigned i = 0; i < ser->n; i++) {
			double x = ser->x ? ser->x[i] : i;
			if (!isfinite(ser->y[i]))
				continue;
			char value[32], at[48];
			/* the value in full (a tick's 3 digits would round it) */
			snprintf(value, sizeof(value), "%.6g", ser->y[i]);
			if (c->x_names && i < c->nx)
				snprintf(at, sizeof(at), "%s", c->x_names[i]);
			else
				svg_format_tick(x, at, sizeof(at));
			/* the title is the hover tooltip: the point's values */
			fprintf(out, "<circle data-series=\"%u\"", k);
			drive_mark(out, ser->drive, k);
			fprintf(out, " cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>",
				svg_scale_map(xs, x), svg_scale_map(ys, ser->y[i]), svg_palette(k));
			svg_escape(out, ser->name ? ser->name : "");
			fputs(": ", out);
			svg_escape(out, at);
			fprintf(out, " \u2192 %s</title></circle>\n", value);
		}
}

/* The second axis: the left's ticks scaled by y2_factor, at the right. */
static void right_axis(FILE *out, const struct svg_chart *c, const struct svg_scale *ys,
		       double x1)
{
	double f = c->y2_factor, lo = ys->dmin * f, hi = ys->dmax * f;
	char buf[32];

	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		x1, ys->pmin, x1, ys->pmax);
	/* its own round ticks (the left's times the factor would be 30.5K,
	 * 61K ...), each placed where its value falls on the left scale */
	if (ys->log) {
		for (double v = pow(10.0, ceil(log10(lo) - 1e-9)); v <= hi * 1.0001; v *= 10.0) {
			svg_format_tick(v, buf, sizeof(buf));
			text_at(out, x1 + 4, svg_scale_map(ys, v / f) + 4, "start", NULL, buf);
		}
	} else {
		double step = nice_step(hi - lo);
		for (double v = ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-6; v += step) {
			svg_format_tick(fabs(v) < step * 1e-9 ? 0.0 : v, buf, sizeof(buf));
			text_at(out, x1 + 4, svg_scale_map(ys, v / f) + 4, "start", NULL, buf);
		}
	}
	double mid = (ys->pmin + ys->pmax) / 2;
	char tr[80];
	snprintf(tr, sizeof(tr), "transform=\"rotate(90 %.1f %.1f)\"", x1 + 52, mid);
	text_at(out, x1 + 52, mid, "middle", tr, c->y2_label ? c->y2_label : "");
}

int svg_line_chart(FILE *out, const struct svg_chart *c)
{
	double lo = INFINITY, hi = -INFINITY, xlo = INFINITY, xhi = -INFINITY;
	double x0 = MARGIN_L, x1 = CHART_W - MARGIN_R;
	double y0 = CHART_H - MARGIN_B, y1 = MARGIN_T;
	struct svg_scale ys, xs;
	const char *names[32];
	unsigned keys[32], nl = 0;
	bool drives = false;

	for (unsigned s = 0; s < c->nr_series; s++)
		for (unsigned i = 0; i < c->series[s].n; i++) {
			double y = c->series[s].y[i];
			double x = c->series[s].x ? c->series[s].x[i] : i;
			if (!isfinite(y))
				continue;
			lo = fmin(lo, y);
			hi = fmax(hi, y);
			xlo = fmin(xlo, x);
			xhi = fmax(xhi, x);
		}
	if (!isfinite(lo))
		return err_set("chart '%s': no values", c->title);
	/* log only for strictly positive data; zero values stay linear */
	svg_scale_init(&ys, lo, hi, y0, y1, true);
	for (unsigned s = 0; s < c->nr_series; s++)
		drives = drives || c->series[s].drive;
	open_svg(out, CHART_W, CHART_H, c->title,
		 !c->series_are_drives && !drives ? "" : c->emphasis ? " data-drives=\"1\" data-emph=\"1\""
		 : " data-drives=\"1\"");
	y_axis(out, &ys, c->y_label, x0, x1);
	if (c->x_names)
		categorical_x_axis(out, c, x0, x1, y0, &xs);
	else
		numeric_x_axis(out, xlo, xhi, x0, x1, y0, &xs);
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		x0, y0, x1, y0);
	text_at(out, (x0 + x1) / 2, CHART_H - 8, "middle", NULL, c->x_label);
	if (c->y2_factor > 0)
		right_axis(out, c, &ys, x1);
	for (unsigned s = 0; s < c->nr_series; s++) {
		const struct svg_series *ser = &c->series[s];
		bool marked = false;
		for (unsigned i = 0; i < ser->n && !marked; i++)
			marked = isfinite(ser->y[i]);
		if (!marked)
			continue;   /* no mark, no legend entry */
		plot_series(out, c, s, &xs, &ys);
		if (nl < 32) {
			names[nl] = ser->name;
			keys[nl++] = series_key(ser, s);
		}
	}
	legend(out, names, keys, nl, x1 + (c->y2_factor > 0 ? 64 : 14), drives);
	fputs("</svg>\n", out);
	return 0;
}

int svg_bar_chart(FILE *out, const char *title, const char *y_label,
		  const char *const *names, const double *values, unsigned n,
		  const unsigned *drive)
{
	double hi = -INFINITY, lo = INFINITY;
	double x0 = MARGIN_L, x1 = CHART_W - MARGIN_R;
	double y0 = CHART_H - MARGIN_B, y1 = MARGIN_T;
	struct svg_scale ys;
	const char *lnames[32];
	unsigned keys[32], nl = 0;
	char buf[32];

	for (unsigned i = 0; i < n; i++)
		if (isfinite(values[i])) {
			hi = fmax(hi, values[i]);
			lo = fmin(lo, values[i]);
		}
	if (!isfinite(hi))
		return err_set("chart '%s': no values", title);
	/* bars need a zero baseline, so never log */
	svg_scale_init(&ys, lo, hi, y0, y1, false);
	open_svg(out, CHART_W, CHART_H, title, drive ? " data-drives=\"1\"" : "");
	y_axis(out, &ys, y_label, x0, x1);
	double slot = (x1 - x0) / n;
	double width = fmin(slot * 0.6, 90);
	/* names wrap to the slot's width, up to three lines under the axis */
	unsigned chars = slot / CHAR_W > 1 ? (unsigned)(slot / CHAR_W) - 1 : 1;
	for (unsigned i = 0; i < n; i++) {
		double cx = x0 + slot * (i + 0.5);
		unsigned k = drive ? drive[i] - 1 : i;
		if (isfinite(values[i])) {
			double y = svg_scale_map(&ys, values[i]);
			fprintf(out, "<g class=\"bar\" data-series=\"%u\"", k);
			drive_mark(out, drive != NULL, k);
			fprintf(out, "><rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
				"height=\"%.1f\" fill=\"%s\"/>\n", cx - width / 2, y, width,
				y0 - y, svg_palette(k));
			svg_format_tick(values[i], buf, sizeof(buf));
			text_at(out, cx, y - 4, "middle", NULL, buf);
			fputs("</g>\n", out);
			if (nl < 32) {
				lnames[nl] = names[i];
				keys[nl++] = k;
			}
		}
		wrapped_text_at(out, cx, y0 + 16, "middle", names[i], chars, 3);
	}
	fprintf(out, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#333\"/>\n",
		x0, y0, x1, y0);
	/* bars of one drive (its passes): the title names it, no legend */
	bool one_drive = drive && nl > 1;
	for (unsigned i = 1; i < nl && one_drive; i++)
		one_drive = keys[i] == keys[0];
	legend(out, lnames, keys, one_drive ? 0 : nl, x1 + 14, drive != NULL);
	fputs("</svg>\n", out);
	return 0;
}

/* The colour key: swatches from -50% to +50% and the caption. */
static void heat_key(FILE *out, double x, double y, const char *caption)
{
	static const double steps[] = { -50, -25, -10, 0, 10, 25, 50 };
	char colour[8], buf[16];

	for (unsigned i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		svg_heat_color(steps[i], colour, sizeof(colour));
		fprintf(out, "<rect class=\"key\" x=\"%.1f\" y=\"%.1f\" width=\"40\" height=\"14\" "
			"fill=\"%s\" stroke=\"#ccc\"/>\n", x + i * 40, y, colour);
		snprintf(buf, sizeof(buf), "%+.0f%%", steps[i]);
		text_at(out, x + i * 40 + 20, y + 27, "middle", NULL, steps[i] ? buf : "0");
	}
	text_at(out, x, y + 44, "start", NULL, caption);
}

int svg_heatmap(FILE *out, const struct svg_heat *h)
{
	const int cell_w = 64, cell_h = 30, left = 110, top = 60, key_h = 56;
	int w = left + h->cols * cell_w + 20, grid_h = top + h->rows * cell_h + 20;
	int ht = grid_h + (h->key ? key_h : 0);
	char colour[8], buf[32];

	if (!h->rows || !h->cols)
		return err_set("heatmap '%s': empty grid", h->title);
	/* wide enough for the title (bold 14px: about 8px a character) and the key */
	if (w < (int)strlen(h->title) * 8 + 20)
		w = (int)strlen(h->title) * 8 + 20;
	if (h->key && w < (int)utf8_chars(h->key) * 7 + 40)
		w = (int)utf8_chars(h->key) * 7 + 40;
	open_svg(out, w, ht, h->title, " data-kind=\"heat\"");
	if (h->id) {
		/* the script finds the grid by this mark (open_svg wrote the tag) */
		fputs("<g class=\"heat\" data-heat=\"", out);
		svg_escape(out, h->id);
		fputs("\">\n", out);
	}
	for (unsigned c = 0; c < h->cols; c++)
		text_at(out, left + c * cell_w + cell_w / 2.0, top - 8, "middle", NULL,
			h->col_names[c]);
	for (unsigned r = 0; r < h->rows; r++) {
		double y = top + r * cell_h;
		text_at(out, left - 8, y + cell_h / 2.0 + 4, "end", NULL, h->row_names[r]);
		for (unsigned c = 0; c < h->cols; c++) {
			unsigned k = r * h->cols + c;
			double v = h->score[k];
			double x = left + c * cell_w;
			bool shown = isfinite(v);

			if (shown)
				svg_heat_color(v, colour, sizeof(colour));
			fprintf(out, "<rect class=\"cell\" data-k=\"%u\" x=\"%.1f\" y=\"%.1f\" "
				"width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#fff\"><title>",
				k, x, y, cell_w, cell_h, shown ? colour : "#f4f4f4");
			svg_escape(out, h->hover && h->hover[k] ? h->hover[k] :
				   shown ? "" : "not measured by both drives");
			fputs("</title></rect>\n", out);
			buf[0] = '\0';
			if (shown && h->label)
				snprintf(buf, sizeof(buf), "%s", h->label[k]);
			else if (shown)
				snprintf(buf, sizeof(buf), "%+.1f%%", v);
			fprintf(out, "<text data-k=\"%u\" ", k);
			/* empty when not shown: the script fills it for another pair */
			fprintf(out, "x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\"%s pointer-events=\"none\">",
				x + cell_w / 2.0, y + cell_h / 2.0 + 4,
				shown && fabs(v) >= 30 ? " fill=\"#fff\"" : "");
			svg_escape(out, buf);
			fputs("</text>\n", out);
		}
	}
	if (h->id)
		fputs("</g>\n", out);
	if (h->key)
		heat_key(out, left, grid_h, h->key);
	fputs("</svg>\n", out);
	return 0;
}
