/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The latency ladder: one row per line, its p50, p90, p99, p99.9 and max
 * marked on a log10 time axis.
 */
#include "render/svg.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "render/svg_draw.h"

/* The percentiles' names, as the key and the data- attributes say them. */
static const char *const pct_name[SVG_NPCT] = { "p50", "p90", "p99", "p99.9",
						"max" };
static const char *const pct_attr[SVG_NPCT] = { "p50", "p90", "p99", "p999",
						"max" };

/* A latency chart's frame: rows and their labels, the plot, the axis. */
#define LAT_LEFT  250
#define LAT_RIGHT (W - 24)
#define LAT_ROW	  36
#define LAT_KEY	  24

/* The decades [lo, hi] of a latency chart's axis (log10 of ns). */
static void latency_decades(const struct svg_latency_chart *c, double *lo,
			    double *hi)
{
	double min = INFINITY, max = 1;

	for (size_t i = 0; i < c->nrows; i++)
		for (size_t k = 0; k < SVG_NPCT; k++)
			if (isfinite(c->rows[i].ns[k])) {
				min = fmin(min, fmax(c->rows[i].ns[k], 1));
				max = fmax(max, c->rows[i].ns[k]);
			}
	*lo = isfinite(min) ? floor(log10(min)) : 0;
	*hi = fmax(ceil(log10(max)), *lo + 1);
}

/* Screen x of ns on the log10 axis of decades [lo, hi]. */
static double lat_x(double ns, double lo, double hi)
{
	double at = (log10(fmax(ns, 1)) - lo) / (hi - lo);

	return LAT_LEFT + fmin(fmax(at, 0), 1) * (LAT_RIGHT - LAT_LEFT);
}

/* A gridline at ns with its label under the rows. */
static void latency_tick(FILE *out, const struct svg_latency_chart *c,
			 double ns, double lo, double hi, int bottom)
{
	double x = lat_x(ns, lo, hi);
	char buf[32];

	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
		"stroke=\"#ddd\"/>\n",
		x, TOP, x, bottom);
	c->format(ns, buf, sizeof(buf));
	svg_text_at(out, x, bottom + 16, "middle", "tick", buf);
}

/*
 * The time axis: a tick at every decade, and at 2 and 5 times each when
 * the axis spans two decades or less (a single-decade axis would read
 * only "1ms" and "10ms").
 */
static void latency_axis(FILE *out, const struct svg_latency_chart *c,
			 double lo, double hi, int bottom)
{
	for (int e = (int)lo; e <= (int)hi; e++) {
		double d = e;

		latency_tick(out, c, pow(10, d), lo, hi, bottom);
		if (hi - lo > 2 || e == (int)hi)
			continue;
		latency_tick(out, c, 2 * pow(10, d), lo, hi, bottom);
		latency_tick(out, c, 5 * pow(10, d), lo, hi, bottom);
	}
	fprintf(out,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#333\"/>\n",
		LAT_LEFT, bottom, LAT_RIGHT, bottom);
}

/* One percentile of a row: its mark, with the value as a tooltip. */
static void latency_mark(FILE *out, const struct svg_latency_chart *c, size_t k,
			 double ns, double x, double y)
{
	char buf[32];

	c->format(ns, buf, sizeof(buf));
	fprintf(out,
		"<circle class=\"mark %s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\" "
		"fill=\"%s\"><title>%s ",
		pct_attr[k], x, y, svg_color(k), pct_name[k]);
	svg_escape(out, buf);
	fputs("</title></circle>\n", out);
}

/* One row: its name, the ladder from p50 to max, the values in words. */
static void latency_row(FILE *out, const struct svg_latency_chart *c,
			const struct svg_latency_row *row, double y, double lo,
			double hi)
{
	char buf[32], words[256];
	size_t used = 0;

	fputs("<g class=\"latency-row\" data-case=\"", out);
	svg_escape(out, row->name);
	fputc('"', out);
	for (size_t k = 0; k < SVG_NPCT; k++)
		fprintf(out, " data-%s=\"%.0f\"", pct_attr[k], row->ns[k]);
	fputs(">\n", out);
	svg_text_at(out, LAT_LEFT - 8, y + 4, "end", "legend", row->name);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"#999\" stroke-width=\"2\"/>\n",
		lat_x(row->ns[SVG_P50], lo, hi), y,
		lat_x(row->ns[SVG_PMAX], lo, hi), y);
	words[0] = '\0';
	for (size_t k = 0; k < SVG_NPCT; k++) {
		if (!isfinite(row->ns[k]))
			continue;
		latency_mark(out, c, k, row->ns[k], lat_x(row->ns[k], lo, hi),
			     y);
		c->format(row->ns[k], buf, sizeof(buf));
		if (used < sizeof(words))
			used += (size_t)snprintf(
				words + used, sizeof(words) - used, "%s%s %s",
				used ? ", " : "", pct_name[k], buf);
	}
	svg_text_at(out, LAT_LEFT, y + 18, "start", "values", words);
	fputs("</g>\n", out);
}

/* The key: which mark is which percentile. */
static void latency_key(FILE *out, int y)
{
	for (size_t k = 0; k < SVG_NPCT; k++) {
		double x = LAT_LEFT + 70.0 * (double)k;

		fprintf(out,
			"<circle cx=\"%.1f\" cy=\"%d\" r=\"4\" fill=\"%s\"/>\n",
			x, y, svg_color(k));
		svg_text_at(out, x + 8, y + 4, "start", "key", pct_name[k]);
	}
}

int svg_latency_chart(FILE *out, const struct svg_latency_chart *c)
{
	int bottom = TOP + 8 + LAT_ROW * (int)c->nrows;
	int h = bottom + BOTTOM + LAT_KEY;
	double lo, hi;

	if (!c->nrows || !c->format)
		return -EINVAL;
	latency_decades(c, &lo, &hi);
	svg_chart_begin(out, "chart latency-chart", "latency", h, c->title);
	latency_axis(out, c, lo, hi, bottom);
	for (size_t i = 0; i < c->nrows; i++)
		latency_row(out, c, &c->rows[i], TOP + 16 + LAT_ROW * (double)i,
			    lo, hi);
	svg_text_at(
		out, (LAT_LEFT + LAT_RIGHT) / 2.0, bottom + 34, "middle", NULL,
		"latency of one unit, submission to completion (log scale)");
	latency_key(out, h - 12);
	fputs("</svg>\n", out);
	return 0;
}
