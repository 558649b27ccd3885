/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Inline SVG: escaping, the frame every chart shares, the line chart and
 * the bar chart (the latency ladder is svg_latency.c).
 */
#include "render/svg.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "render/svg_draw.h"

const char *svg_color(size_t i)
{
	/* distinguishable colours (Okabe-Ito), cycled */
	static const char *const palette[] = {
		"#0072b2", "#d55e00", "#009e73", "#cc79a7",
		"#e69f00", "#56b4e9", "#000000", "#f0e442",
	};

	return palette[i % (sizeof(palette) / sizeof(palette[0]))];
}

void svg_escape(FILE *out, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

size_t svg_ticks(double max, size_t maxticks, double *out, size_t outlen)
{
	static const double steps[] = { 1, 2, 5, 10 };
	double raw, mag, step = 1;
	size_t n = 0;

	if (!(max > 0) || !isfinite(max) || maxticks < 1) {
		max = 1; /* an empty axis still reads 0 to 1 */
		maxticks = 1;
	}
	raw = max / (double)maxticks;
	mag = pow(10, floor(log10(raw)));
	for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
		step = steps[i] * mag;
		if (step >= raw)
			break;
	}
	for (double v = 0; n < outlen; v += step) {
		out[n++] = v;
		if (v >= max * (1 - 1e-12))
			break;
	}
	return n;
}

void svg_format_x(double v, enum svg_xformat f, char *buf, size_t len)
{
	static const char *const suffix[] = { "", "K", "M", "G", "T" };
	size_t i = 0;

	if (f != SVG_X_BYTES) {
		snprintf(buf, len, "%g", v);
		return;
	}
	while (v >= 1024 && i + 1 < sizeof(suffix) / sizeof(suffix[0])) {
		v /= 1024;
		i++;
	}
	snprintf(buf, len, "%g%s", v, suffix[i]);
}

void svg_format_si(double v, char *buf, size_t len)
{
	static const char *const prefix[] = { "", "k", "M", "G", "T", "P" };
	size_t i = 0;

	while (fabs(v) >= 1000 && i + 1 < sizeof(prefix) / sizeof(prefix[0])) {
		v /= 1000;
		i++;
	}
	snprintf(buf, len, fabs(v) >= 100 ? "%.0f%s" : "%.3g%s", v, prefix[i]);
}

void svg_text_at(FILE *out, double x, double y, const char *anchor,
		 const char *cls, const char *s)
{
	fprintf(out, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y,
		anchor);
	if (cls)
		fprintf(out, " class=\"%s\"", cls);
	fputc('>', out);
	svg_escape(out, s);
	fputs("</text>\n", out);
}

void svg_chart_begin(FILE *out, const char *cls, const char *kind, int h,
		     const char *title)
{
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"%s\" "
		"data-kind=\"",
		cls);
	svg_escape(out, kind);
	fprintf(out,
		"\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" "
		"role=\"img\" font-family=\"sans-serif\" font-size=\"12\">\n",
		W, h, W, h);
	fputs("<title>", out);
	svg_escape(out, title);
	fputs("</title>\n", out);
	fprintf(out, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W,
		h);
	svg_text_at(out, W / 2.0, 20, "middle", "chart-title", title);
}

/* The extent of the x values (log2) and the largest y of a chart. */
static int line_extent(const struct svg_line_chart *c, double *xmin,
		       double *xmax, double *ymax)
{
	int any = 0;

	*xmin = INFINITY;
	*xmax = -INFINITY;
	*ymax = 0;
	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i], y = c->series[s].y[i];

			if (!(x > 0) || !isfinite(y))
				continue;
			any = 1;
			*xmin = fmin(*xmin, log2(x));
			*xmax = fmax(*xmax, log2(x));
			*ymax = fmax(*ymax, y);
			/* room for the error bar too */
			if (c->series[s].hi && isfinite(c->series[s].hi[i]))
				*ymax = fmax(*ymax, c->series[s].hi[i]);
		}
	return any;
}

/* The y gridlines with their labels; returns the axis maximum. */
static double y_axis(FILE *out, double ymax, const char *label)
{
	double ticks[16], top;
	size_t n = svg_ticks(ymax, 6, ticks, 16);
	char buf[32];

	top = ticks[n - 1] > 0 ? ticks[n - 1] : 1;
	for (size_t i = 0; i < n; i++) {
		double y = H - BOTTOM - ticks[i] / top * (H - TOP - BOTTOM);

		fprintf(out,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n",
			LEFT, y, W - RIGHT, y);
		svg_format_si(ticks[i], buf, sizeof(buf));
		svg_text_at(out, LEFT - 6, y + 4, "end", NULL, buf);
	}
	fprintf(out,
		"<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %.1f)\">",
		(H - BOTTOM + TOP) / 2.0, (H - BOTTOM + TOP) / 2.0);
	svg_escape(out, label);
	fputs("</text>\n", out);
	return top;
}

/* Screen x of data x on the log2 axis [lo, hi]. */
static double px(double x, double lo, double hi)
{
	double span = hi > lo ? hi - lo : 1;
	double at = hi > lo ? (log2(x) - lo) / span : 0.5;

	return LEFT + 10 + at * (W - LEFT - RIGHT - 20);
}

/* A tick and label under every distinct x value of the chart. */
static void x_axis(FILE *out, const struct svg_line_chart *c, double lo,
		   double hi)
{
	double done[64];
	size_t ndone = 0;
	char buf[32];

	for (size_t s = 0; s < c->nseries; s++)
		for (size_t i = 0; i < c->series[s].n; i++) {
			double x = c->series[s].x[i];
			size_t k = 0;

			while (k < ndone && done[k] != x)
				k++;
			if (!(x > 0) || k < ndone || ndone == 64)
				continue;
			done[ndone++] = x;
			svg_format_x(x, c->xformat, buf, sizeof(buf));
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				"y2=\"%d\" stroke=\"#999\"/>\n",
				px(x, lo, hi), H - BOTTOM, px(x, lo, hi),
				H - BOTTOM + 5);
			svg_text_at(out, px(x, lo, hi), H - BOTTOM + 18,
				    "middle", NULL, buf);
		}
	fprintf(out,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#333\"/>\n",
		LEFT, H - BOTTOM, W - RIGHT, H - BOTTOM);
	svg_text_at(out, (LEFT + W - RIGHT) / 2.0, H - 8, "middle", NULL,
		    c->xlabel);
}

/* Longest line of a legend entry, in characters, before it wraps. */
#define LEGEND_LINE 22

/*
 * The lines a legend entry takes: name broken at spaces into lines of at
 * most LEGEND_LINE characters (a longer word stays whole), so two names
 * that differ only at their end ("ipsec-mb, queue_depth 1" and "...16")
 * never read the same.
 */
static size_t legend_lines(const char *name, size_t *starts, size_t max)
{
	size_t n = 0, len = strlen(name), at = 0;

	while (at < len && n < max) {
		size_t end = at + LEGEND_LINE, cut = end;

		starts[n++] = at;
		if (end >= len)
			break;
		while (cut > at && name[cut] != ' ')
			cut--;
		at = cut > at ? cut + 1 : end;
	}
	return n ? n : 1;
}

/* A legend entry at y, wrapped; returns the height it took. */
static double legend_text(FILE *out, double y, const char *name)
{
	size_t starts[8] = { 0 }, n = legend_lines(name, starts, 8);
	size_t len = strlen(name);

	fprintf(out,
		"<text x=\"%d\" y=\"%.1f\" text-anchor=\"start\" "
		"class=\"legend\">",
		W - RIGHT + 38, y + 4);
	for (size_t i = 0; i < n; i++) {
		size_t end = i + 1 < n ? starts[i + 1] : len;
		char line[128];

		while (end > starts[i] && name[end - 1] == ' ')
			end--;
		snprintf(line, sizeof(line), "%.*s", (int)(end - starts[i]),
			 name + starts[i]);
		fprintf(out, "<tspan x=\"%d\" dy=\"%s\">", W - RIGHT + 38,
			i ? "14" : "0");
		svg_escape(out, line);
		fputs("</tspan>", out);
	}
	fputs("</text>\n", out);
	return 18.0 + 14.0 * (double)(n - 1);
}

/* A vertical error bar at x from y0 to y1 (screen), with caps. */
static void error_bar(FILE *out, double x, double y0, double y1,
		      const char *color)
{
	fprintf(out,
		"<path class=\"error-bar\" d=\"M%.1f,%.1fV%.1fM%.1f,%.1fH%.1f"
		"M%.1f,%.1fH%.1f\" stroke=\"%s\" fill=\"none\"/>\n",
		x, y0, y1, x - 4, y0, x + 4, x - 4, y1, x + 4, color);
}

/*
 * One series: a polyline and its points, then its legend entry at *ly
 * (moved below it).
 */
static void series_draw(FILE *out, const struct svg_series *s, double *legend,
			double lo, double hi, double top)
{
	const char *color = svg_color(s->color);
	double ly = *legend;

	fprintf(out, "<g class=\"%s\" data-series=\"",
		s->dashed ? "ideal" : "series");
	svg_escape(out, s->name);
	fprintf(out,
		"\">\n<polyline fill=\"none\" stroke=\"%s\" "
		"stroke-width=\"2\"%s points=\"",
		color,
		s->dashed ? " stroke-dasharray=\"5 4\" opacity=\"0.7\"" : "");
	for (size_t i = 0; i < s->n; i++)
		if (s->x[i] > 0 && isfinite(s->y[i]))
			fprintf(out, "%s%.1f,%.1f", i ? " " : "",
				px(s->x[i], lo, hi),
				H - BOTTOM -
					s->y[i] / top * (H - TOP - BOTTOM));
	fputs("\"/>\n", out);
	for (size_t i = 0; s->lo && s->hi && i < s->n; i++)
		if (s->x[i] > 0 && s->hi[i] > s->lo[i])
			error_bar(out, px(s->x[i], lo, hi),
				  H - BOTTOM -
					  s->lo[i] / top * (H - TOP - BOTTOM),
				  H - BOTTOM -
					  s->hi[i] / top * (H - TOP - BOTTOM),
				  color);
	for (size_t i = 0; !s->dashed && i < s->n; i++)
		if (s->x[i] > 0 && isfinite(s->y[i]))
			fprintf(out,
				"<circle class=\"point\" cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"3\" fill=\"%s\"/>\n",
				px(s->x[i], lo, hi),
				H - BOTTOM - s->y[i] / top * (H - TOP - BOTTOM),
				color);
	fprintf(out,
		"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
		"stroke=\"%s\" stroke-width=\"2\"%s/>\n",
		W - RIGHT + 12, ly, W - RIGHT + 32, ly, color,
		s->dashed ? " stroke-dasharray=\"5 4\"" : "");
	*legend += legend_text(out, ly, s->name);
	fputs("</g>\n", out);
}

int svg_line_chart(FILE *out, const struct svg_line_chart *c)
{
	double lo, hi, ymax, top, legend;

	if (!line_extent(c, &lo, &hi, &ymax))
		return -EINVAL;
	svg_chart_begin(out, "chart line-chart", c->kind, H, c->title);
	top = y_axis(out, ymax, c->ylabel);
	x_axis(out, c, lo, hi);
	legend = TOP + 10;
	for (size_t s = 0; s < c->nseries; s++)
		series_draw(out, &c->series[s], &legend, lo, hi, top);
	fputs("</svg>\n", out);
	return 0;
}

int svg_value_chart(FILE *out, const struct svg_value_chart *c)
{
	const int left = 250, right = W - 30;
	const int h = TOP + BOTTOM + 22 * (int)c->nbars;
	double max = 0, ticks[16], top;
	size_t n;
	char buf[32];

	if (!c->nbars)
		return -EINVAL;
	for (size_t i = 0; i < c->nbars; i++)
		max = fmax(max, fmax(c->bars[i].value, c->bars[i].hi));
	n = svg_ticks(max, 5, ticks, 16);
	top = ticks[n - 1] > 0 ? ticks[n - 1] : 1;
#define VX(v) (left + (v) / top * (right - left))
	svg_chart_begin(out, "chart value-chart", "lines", h, c->title);
	for (size_t i = 0; i < n; i++) {
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
			"stroke=\"%s\"/>\n",
			VX(ticks[i]), TOP, VX(ticks[i]), h - BOTTOM,
			i ? "#ddd" : "#333");
		svg_format_si(ticks[i], buf, sizeof(buf));
		svg_text_at(out, VX(ticks[i]), h - BOTTOM + 16, "middle", NULL,
			    buf);
	}
	for (size_t i = 0; i < c->nbars; i++) {
		const struct svg_value_bar *b = &c->bars[i];
		double y = TOP + 22.0 * (double)i + 4;

		svg_text_at(out, left - 8, y + 12, "end", NULL, b->label);
		fputs("<g class=\"value-bar\" data-case=\"", out);
		svg_escape(out, b->label);
		fprintf(out,
			"\" data-value=\"%.6g\" data-lo=\"%.6g\" "
			"data-hi=\"%.6g\">\n<rect x=\"%d\" y=\"%.1f\" "
			"width=\"%.1f\" height=\"16\" fill=\"%s\"/>\n",
			b->value, b->lo, b->hi, left, y, VX(b->value) - left,
			svg_color(0));
		if (b->hi > b->lo)
			fprintf(out,
				"<path class=\"error-bar\" d=\"M%.1f,%.1fH%.1f"
				"M%.1f,%.1fV%.1fM%.1f,%.1fV%.1f\" "
				"stroke=\"#333\" fill=\"none\"/>\n",
				VX(b->lo), y + 8, VX(b->hi), VX(b->lo), y + 3,
				y + 13, VX(b->hi), y + 3, y + 13);
		fputs("</g>\n", out);
	}
	svg_text_at(out, (left + right) / 2.0, h - 8, "middle", NULL,
		    c->xlabel);
#undef VX
	fputs("</svg>\n", out);
	return 0;
}

/* Colour of a bar by its verdict. */
static const char *bar_color(const char *verdict)
{
	if (verdict && strcmp(verdict, "improved") == 0)
		return "#009e73";
	if (verdict && (strcmp(verdict, "regressed") == 0 ||
			strcmp(verdict, "outlier") == 0))
		return "#d55e00";
	return "#8a8a8a";
}

/* The bar chart's height: a row per bar. */
static int bars_height(size_t n)
{
	return TOP + BOTTOM + 22 * (int)n;
}

int svg_bar_chart(FILE *out, const struct svg_bar_chart *c)
{
	const int left = 250, right = W - 20, h = bars_height(c->nbars);
	double span = c->band > 0 ? c->band * 2 : 10, ticks[16], zero;
	size_t n;
	char buf[32];

	if (!c->nbars)
		return -EINVAL;
	for (size_t i = 0; i < c->nbars; i++)
		if (isfinite(c->bars[i].value))
			span = fmax(span, fabs(c->bars[i].value) * 1.1);
	n = svg_ticks(span, 4, ticks, 16);
	span = ticks[n - 1];
	zero = (left + right) / 2.0;
#define BX(v) (zero + (v) / span * (right - left) / 2.0)
	svg_chart_begin(out, "chart bar-chart", "compare", h, c->title);
	fprintf(out,
		"<rect class=\"noise-band\" x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
		"height=\"%d\" fill=\"#f3e7a6\" opacity=\"0.6\"/>\n",
		BX(-c->band), TOP, BX(c->band) - BX(-c->band),
		h - TOP - BOTTOM);
	for (size_t i = 0; i < n; i++)
		for (int sign = -1; sign <= 1; sign += 2) {
			if (ticks[i] == 0 && sign < 0)
				continue;
			snprintf(buf, sizeof(buf), "%+g%%", sign * ticks[i]);
			fprintf(out,
				"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" "
				"y2=\"%d\" stroke=\"%s\"/>\n",
				BX(sign * ticks[i]), TOP, BX(sign * ticks[i]),
				h - BOTTOM, ticks[i] == 0 ? "#333" : "#ddd");
			svg_text_at(out, BX(sign * ticks[i]), h - BOTTOM + 16,
				    "middle", NULL, ticks[i] == 0 ? "0" : buf);
		}
	for (size_t i = 0; i < c->nbars; i++) {
		const struct svg_bar *b = &c->bars[i];
		double v = isfinite(b->value) ? b->value : 0;
		double y = TOP + 22.0 * (double)i + 4;

		svg_text_at(out, left - 8, y + 12, "end", NULL, b->label);
		fprintf(out, "<rect class=\"bar ");
		svg_escape(out, b->verdict);
		fputs("\" data-case=\"", out);
		svg_escape(out, b->label);
		fprintf(out,
			"\" data-value=\"%.2f\" x=\"%.1f\" y=\"%.1f\" "
			"width=\"%.1f\" height=\"16\" fill=\"%s\"/>\n",
			v, fmin(BX(0), BX(v)), y, fabs(BX(v) - BX(0)),
			bar_color(b->verdict));
	}
	svg_text_at(out, (left + right) / 2.0, h - 8, "middle", NULL,
		    c->caption
			    ? c->caption
			    : "% difference, new against base (shaded: noise "
			      "threshold)");
#undef BX
	fputs("</svg>\n", out);
	return 0;
}
