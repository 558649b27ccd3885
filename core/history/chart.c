/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A series over time: runs evenly spaced left to right (oldest first), the
 * wall median as a line in its CI band, the median per CPU-second as a
 * dashed line where the points have one, flagged points (starved, noisy)
 * as hollow diamonds, change points and context changes as vertical rules
 * labelled above the plot (never on the data), and a legend under it.
 */
#include "history/chart.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "history/view.h"
#include "render/svg.h"
#include "render/svg_draw.h"

/* The chart's height and plot area; the legend is a row under the axis. */
#define CHART_H	     340
#define CHART_RIGHT  (W - 24)
#define CHART_BOT    (CHART_H - BOTTOM - 22)
#define CHART_TOP    (TOP + 30) /* two rows of labels: changes, contexts */
#define CHART_LEGEND (CHART_H - 10)

/* The wall median, the median per CPU-second, a flagged point. */
#define COLOR_WALL    "#0072b2"
#define COLOR_CPU     "#009e73"
#define COLOR_FLAGGED "#e69f00"

/* Colours of a change by its kind; a change set aside is grey. */
#define COLOR_REGRESSION  "#d55e00"
#define COLOR_IMPROVEMENT "#009e73"
#define COLOR_SET_ASIDE	  "#8a8a8a"

/* The y axis: [lo, hi] in the series' unit, and its ticks. */
struct chart_axis {
	double lo, hi;
	double ticks[16];
	size_t nticks;
	size_t npoints;
};

void chart_si(double v, char *buf, size_t len)
{
	static const struct {
		double scale;
		const char *prefix;
	} si[] = { { 1e12, "T" }, { 1e9, "G" }, { 1e6, "M" }, { 1e3, "k" } };
	double a = fabs(v);

	for (size_t i = 0; i < sizeof(si) / sizeof(si[0]); i++)
		if (a >= si[i].scale * 0.9995) {
			snprintf(buf, len, "%.3g%s", v / si[i].scale,
				 si[i].prefix);
			return;
		}
	snprintf(buf, len, "%.3g", v);
	if (strchr(buf, 'e')) /* a tiny figure: decimals, not an exponent */
		snprintf(buf, len, "%.9f", v);
}

/* Point i's value at key in the series' unit, NAN when it has none. */
static double point_value(const json_t *s, size_t i, const char *key)
{
	const json_t *p = json_array_get(json_object_get(s, "points"), i);

	return view_value(s, view_num(p, key));
}

/* Widen [*lo, *hi] to v when v is a number. */
static void extend(double v, double *lo, double *hi)
{
	if (!isfinite(v))
		return;
	*lo = fmin(*lo, v);
	*hi = fmax(*hi, v);
}

/* The y axis of s: nice ticks around every median and CI bound. */
static int chart_axis(const json_t *s, struct chart_axis *a)
{
	double lo = INFINITY, hi = -INFINITY, t[16], step;

	a->npoints = json_array_size(json_object_get(s, "points"));
	for (size_t i = 0; i < a->npoints; i++) {
		extend(point_value(s, i, "median"), &lo, &hi);
		extend(point_value(s, i, "ci_low"), &lo, &hi);
		extend(point_value(s, i, "ci_high"), &lo, &hi);
		extend(point_value(s, i, "cpu_median"), &lo, &hi);
	}
	if (!isfinite(lo))
		return -EINVAL;
	if (hi - lo < fabs(hi) * 1e-3) { /* flat: a band around it */
		lo -= fabs(lo) * 0.05 + 1e-9;
		hi += fabs(hi) * 0.05 + 1e-9;
	}
	svg_ticks(hi - lo, 5, t, 16);
	step = t[1];
	a->lo = floor(lo / step) * step;
	a->nticks = 0;
	for (double v = a->lo; a->nticks < 16; v += step) {
		a->ticks[a->nticks++] = v;
		if (v >= hi * (1 - 1e-12) - step * 1e-9)
			break;
	}
	a->hi = a->ticks[a->nticks - 1] > a->lo ? a->ticks[a->nticks - 1]
						: a->lo + step;
	return 0;
}

/* Screen x of run i. */
static double cx(const struct chart_axis *a, size_t i)
{
	if (a->npoints < 2)
		return (LEFT + CHART_RIGHT) / 2.0;
	return LEFT + 12 +
	       (double)i / (double)(a->npoints - 1) * (CHART_RIGHT - LEFT - 24);
}

/* Screen y of v. */
static double cy(const struct chart_axis *a, double v)
{
	return CHART_BOT -
	       (v - a->lo) / (a->hi - a->lo) * (CHART_BOT - CHART_TOP);
}

/* Gridlines and SI labels up the left, the unit beside them. */
static void y_axis(FILE *out, const struct chart_axis *a, const char *unit)
{
	char buf[32];

	for (size_t i = 0; i < a->nticks; i++) {
		double y = cy(a, a->ticks[i]);

		fprintf(out,
			"<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n",
			LEFT, y, CHART_RIGHT, y);
		chart_si(a->ticks[i], buf, sizeof(buf));
		svg_text_at(out, LEFT - 6, y + 4, "end", "tick", buf);
	}
	fprintf(out,
		"<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
		"transform=\"rotate(-90 16 %.1f)\">",
		(CHART_BOT + CHART_TOP) / 2.0, (CHART_BOT + CHART_TOP) / 2.0);
	svg_escape(out, unit);
	fputs("</text>\n", out);
}

/* The date (YYYY-MM-DD) of run i under it, for a few runs. */
static void x_axis(FILE *out, const json_t *s, const struct chart_axis *a)
{
	size_t every = a->npoints > 6 ? (a->npoints + 5) / 6 : 1;
	char date[16];

	fprintf(out,
		"<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
		"stroke=\"#333\"/>\n",
		LEFT, CHART_BOT, CHART_RIGHT, CHART_BOT);
	for (size_t i = 0; i < a->npoints; i += every) {
		const json_t *p =
			json_array_get(json_object_get(s, "points"), i);
		const char *time = view_str(p, "time");

		snprintf(date, sizeof(date), "%.10s", time ? time : "?");
		svg_text_at(out, cx(a, i), CHART_BOT + 16, "middle", "tick",
			    date);
	}
	svg_text_at(out, LEFT, CHART_BOT + 32, "start", NULL,
		    "runs, oldest first");
}

/* The CI band: ci_high left to right, then ci_low back. */
static void ci_band(FILE *out, const json_t *s, const struct chart_axis *a)
{
	const char *sep = "";

	fputs("<polygon class=\"ci-band\" fill=\"#0072b2\" "
	      "fill-opacity=\"0.15\" stroke=\"none\" points=\"",
	      out);
	for (size_t i = 0; i < a->npoints; i++) {
		double v = point_value(s, i, "ci_high");

		if (isfinite(v) && isfinite(point_value(s, i, "ci_low"))) {
			fprintf(out, "%s%.1f,%.1f", sep, cx(a, i), cy(a, v));
			sep = " ";
		}
	}
	for (size_t i = a->npoints; i-- > 0;) {
		double v = point_value(s, i, "ci_low");

		if (isfinite(v) && isfinite(point_value(s, i, "ci_high")))
			fprintf(out, " %.1f,%.1f", cx(a, i), cy(a, v));
	}
	fputs("\"/>\n", out);
}

/* The values at key as a polyline of class cls, gaps skipped. */
static void value_line(FILE *out, const json_t *s, const struct chart_axis *a,
		       const char *key, const char *cls, const char *style)
{
	const char *sep = "";

	fprintf(out, "<polyline class=\"%s\" fill=\"none\" %s points=\"", cls,
		style);
	for (size_t i = 0; i < a->npoints; i++)
		if (isfinite(point_value(s, i, key))) {
			fprintf(out, "%s%.1f,%.1f", sep, cx(a, i),
				cy(a, point_value(s, i, key)));
			sep = " ";
		}
	fputs("\"/>\n", out);
}

/* Point i's figure at key as a tip: "TIME: FIGURE (WHAT)". */
static void point_tip(FILE *out, const json_t *s, const json_t *p,
		      const char *key, const char *what)
{
	char fig[64];

	view_figure(s, view_num(p, key), fig, sizeof(fig));
	fputs("<title>", out);
	svg_escape(out, view_str(p, "time"));
	fputs(": ", out);
	svg_escape(out, fig);
	fprintf(out, " %s", what);
	if (json_array_size(json_object_get(p, "flags")))
		fputs(" (flagged)", out);
	fputs("</title>", out);
}

/*
 * A marker per run at key: a filled circle, or for a flagged point a
 * hollow diamond in another colour, drawn over the line so it never
 * vanishes into the background.
 */
static void markers(FILE *out, const json_t *s, const struct chart_axis *a,
		    const char *key, const char *cls, const char *color)
{
	const json_t *points = json_object_get(s, "points");

	for (size_t i = 0; i < a->npoints; i++) {
		const json_t *p = json_array_get(points, i);
		int flagged = json_array_size(json_object_get(p, "flags")) > 0;
		double x = cx(a, i), y = cy(a, point_value(s, i, key));

		if (!isfinite(point_value(s, i, key)))
			continue;
		fprintf(out, "<%s class=\"%s%s\" data-run=\"",
			flagged ? "path" : "circle", cls,
			flagged ? " flagged" : "");
		svg_escape(out, view_str(p, "run"));
		if (flagged)
			fprintf(out,
				"\" d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" "
				"fill=\"#fff\" stroke=\"%s\" "
				"stroke-width=\"2\">",
				x, y - 5, COLOR_FLAGGED);
		else
			fprintf(out,
				"\" cx=\"%.1f\" cy=\"%.1f\" r=\"3\" "
				"fill=\"%s\">",
				x, y, color);
		point_tip(out, s, p, key,
			  strcmp(key, "median") ? "per CPU-second" : "wall");
		fputs(flagged ? "</path>\n" : "</circle>\n", out);
	}
}

/* Whether any point of s has a median per CPU-second. */
static int has_cpu(const json_t *s, const struct chart_axis *a)
{
	for (size_t i = 0; i < a->npoints; i++)
		if (isfinite(point_value(s, i, "cpu_median")))
			return 1;
	return 0;
}

/* The wall median and, where there is one, the median per CPU-second. */
static void median_lines(FILE *out, const json_t *s, const struct chart_axis *a)
{
	if (has_cpu(s, a)) {
		value_line(out, s, a, "cpu_median", "cpu-median",
			   "stroke=\"" COLOR_CPU "\" stroke-width=\"2\" "
			   "stroke-dasharray=\"6 3\"");
		markers(out, s, a, "cpu_median", "cpu-point", COLOR_CPU);
	}
	value_line(out, s, a, "median", "median",
		   "stroke=\"" COLOR_WALL "\" stroke-width=\"2\"");
	markers(out, s, a, "median", "point", COLOR_WALL);
}

/* A legend entry's words after its sample at x; where the next starts. */
static double legend_words(FILE *out, double x, const char *words)
{
	svg_text_at(out, x + 22, CHART_LEGEND, "start", "legend", words);
	return x + 22 + 6.5 * (double)strlen(words) + 14;
}

/* The legend: what each line, marker and band means. */
static void legend(FILE *out, const json_t *s, const struct chart_axis *a)
{
	double x = LEFT, y = CHART_LEGEND - 4;

	fputs("<g class=\"legend\">\n", out);
	fprintf(out,
		"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
		"stroke=\"" COLOR_WALL "\" stroke-width=\"2\"/>\n",
		x, y, x + 18, y);
	x = legend_words(out, x, "wall median");
	if (has_cpu(s, a)) {
		fprintf(out,
			"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
			"y2=\"%.1f\" stroke=\"" COLOR_CPU "\" "
			"stroke-width=\"2\" stroke-dasharray=\"6 3\"/>\n",
			x, y, x + 18, y);
		x = legend_words(out, x, "per CPU-second");
	}
	fprintf(out,
		"<path d=\"M%.1f %.1fl5 5l-5 5l-5 -5z\" fill=\"#fff\" "
		"stroke=\"" COLOR_FLAGGED "\" stroke-width=\"2\"/>\n",
		x + 9, y - 5);
	x = legend_words(out, x, "flagged: starved or noisy");
	fprintf(out,
		"<rect x=\"%.1f\" y=\"%.1f\" width=\"18\" height=\"8\" "
		"fill=\"" COLOR_WALL "\" fill-opacity=\"0.15\"/>\n",
		x, y - 4);
	legend_words(out, x, "95% CI");
	fputs("</g>\n", out);
}

/* A vertical rule at run i with a label at y, its class and data-id. */
static void rule(FILE *out, const struct chart_axis *a, size_t i,
		 const char *cls, const char *color, const char *id,
		 const char *state)
{
	fprintf(out, "<line class=\"%s\" data-id=\"", cls);
	svg_escape(out, id);
	if (state) {
		fputs("\" data-state=\"", out);
		svg_escape(out, state);
	}
	fprintf(out,
		"\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" "
		"stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>\n",
		cx(a, i), CHART_TOP - 4, cx(a, i), CHART_BOT, color);
}

/* Nonzero when a change was looked at and set aside. */
static int set_aside(const char *state)
{
	return state && (strcmp(state, "ignored") == 0 ||
			 strcmp(state, "acknowledged") == 0);
}

/*
 * The class of a change's rule: a step's way, or "drift" and
 * "inconclusive", which are neither (and drawn as set aside).
 */
static const char *change_class(const char *kind)
{
	if (kind &&
	    (strcmp(kind, "drift") == 0 || strcmp(kind, "inconclusive") == 0))
		return kind;
	return kind && strcmp(kind, "regression") == 0 ? "regression"
						       : "improvement";
}

/* Every change point: a rule coloured by kind, its change and state on top. */
static void changes(FILE *out, const json_t *s, const struct chart_axis *a)
{
	const json_t *c;
	size_t k;
	char label[64];

	json_array_foreach(json_object_get(s, "changes"), k, c) {
		double idx = view_num(c, "index");
		const char *state = view_str(c, "state");
		const char *kind = change_class(view_str(c, "kind"));
		int bad = strcmp(kind, "regression") == 0;
		int good = strcmp(kind, "improvement") == 0;
		char cls[64];

		if (!(idx >= 0) || idx >= (double)a->npoints)
			continue;
		snprintf(cls, sizeof(cls), "change %s", kind);
		rule(out, a, (size_t)idx, cls,
		     set_aside(state) || !(bad || good) ? COLOR_SET_ASIDE
		     : bad				? COLOR_REGRESSION
							: COLOR_IMPROVEMENT,
		     view_str(c, "id"), state ? state : "new");
		snprintf(label, sizeof(label), "%+.1f%% %s",
			 view_num(c, "change") * 100, state ? state : "new");
		svg_text_at(out, cx(a, (size_t)idx), CHART_TOP - 22, "middle",
			    "change-label", label);
	}
}

/*
 * Every context after the first: a grey rule labelled with what changed
 * ("OpenSSL 3.0.17 -> 3.0.19"), its id when the facts do not say.
 */
static void contexts(FILE *out, const json_t *s, const struct chart_axis *a)
{
	const json_t *c;
	size_t k;

	json_array_foreach(json_object_get(s, "contexts"), k, c) {
		double first = view_num(c, "first");
		const char *id = view_str(c, "id");
		char label[VIEW_LINE];
		int left;

		if (!(first > 0) || first >= (double)a->npoints)
			continue;
		rule(out, a, (size_t)first, "context-change", "#555", id, NULL);
		view_context_change(s, (size_t)first, label, sizeof(label));
		/* above the plot, running away from the nearer edge */
		left = cx(a, (size_t)first) < (LEFT + CHART_RIGHT) / 2.0;
		svg_text_at(out, cx(a, (size_t)first) + (left ? 3 : -3),
			    CHART_TOP - 8, left ? "start" : "end",
			    "context-label", label);
	}
}

int chart_write(FILE *out, const json_t *s, const char *title)
{
	struct chart_axis a;

	if (chart_axis(s, &a))
		return -EINVAL;
	svg_chart_begin(out, "chart trend-chart", "trend", CHART_H, title);
	fputs("<g class=\"trend\" data-series=\"", out);
	svg_escape(out, view_str(s, "id"));
	fputs("\">\n", out);
	y_axis(out, &a, view_unit(s));
	x_axis(out, s, &a);
	ci_band(out, s, &a);
	contexts(out, s, &a);
	changes(out, s, &a);
	median_lines(out, s, &a);
	legend(out, s, &a);
	fputs("</g>\n</svg>\n", out);
	return 0;
}
