/* SPDX-License-Identifier: Apache-2.0 */
/* The history document as every view words it: names, units, trends. */
#include "history/view.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "history/context_diff.h"
#include "report/figure.h"
#include "result/stats.h"

double view_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *view_str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/*
 * The units of an imported figure that is no rate (import/): shown as
 * measured, scaled to a readable prefix.
 */
static const char *const measures[] = { "ns", "s", "%", "count", "bytes" };

/* s's unit when it is one of measures[], else NULL. */
static const char *measure_of(const json_t *s)
{
	const char *unit = view_str(s, "unit");

	for (size_t i = 0; unit && i < sizeof(measures) / sizeof(*measures);
	     i++)
		if (strcmp(unit, measures[i]) == 0)
			return measures[i];
	return NULL;
}

const char *view_unit(const json_t *s)
{
	const char *figure = view_str(s, "figure"), *unit = view_str(s, "unit");

	if (measure_of(s))
		return measure_of(s);
	if ((figure && strcmp(figure, "ops_rate") == 0) ||
	    (unit && strcmp(unit, "ops/s") == 0))
		return "ops/s";
	if (unit && unit_valid(unit))
		return unit;
	return "Gbps";
}

double view_value(const json_t *s, double v)
{
	return measure_of(s) ? v : unit_scale(view_unit(s), v, v);
}

/* v in unit ("ns", "s", "%", "count", "bytes") as shown: "57.3us". */
static void measure_figure(double v, const char *unit, char *buf, size_t len)
{
	static const char *const times[] = { "ns", "us", "ms", "s" };
	static const char *const sizes[] = { "B", "kB", "MB", "GB", "TB" };
	size_t k = 0;

	if (strcmp(unit, "%") == 0 || strcmp(unit, "count") == 0) {
		snprintf(buf, len, "%.4g%s", v, unit[0] == '%' ? "%" : "");
		return;
	}
	if (strcmp(unit, "s") == 0)
		v *= 1e9; /* shown from ns up, as ns are */
	if (strcmp(unit, "bytes") == 0) {
		while (fabs(v) >= 1000 &&
		       k + 1 < sizeof(sizes) / sizeof(*sizes))
			v /= 1000, k++;
		snprintf(buf, len, "%.4g%s", v, sizes[k]);
		return;
	}
	while (fabs(v) >= 1000 && k + 1 < sizeof(times) / sizeof(*times))
		v /= 1000, k++;
	snprintf(buf, len, "%.4g%s", v, times[k]);
}

void view_figure(const json_t *s, double v, char *buf, size_t len)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else if (measure_of(s))
		measure_figure(v, measure_of(s), buf, len);
	else
		report_format_value(view_value(s, v), view_unit(s), buf, len);
}

void view_label(const json_t *s, char *buf, size_t len)
{
	const json_t *c = json_object_get(s, "case");
	const char *title = view_str(c, "title"), *backend;
	const char *figure = view_str(s, "figure");

	title = title ? title : view_str(c, "job");
	title = title ? title : view_str(c, "target");
	backend = view_str(c, "backend");
	/* an imported figure says its name: "r1 read (fio) clat_p99" */
	if (figure && strcmp(figure, "rate") != 0)
		figure = strcmp(figure, "ops_rate") == 0 ? "ops" : figure;
	else
		figure = NULL;
	snprintf(buf, len, "%s%s%s%s%s%s", title ? title : "?",
		 backend ? " (" : "", backend ? backend : "",
		 backend ? ")" : "", figure ? " " : "", figure ? figure : "");
}

const json_t *view_change_at(const json_t *s, size_t i)
{
	const json_t *c;
	size_t k;

	json_array_foreach(json_object_get(s, "changes"), k, c) {
		if (view_num(c, "index") == (double)i)
			return c;
	}
	return NULL;
}

void view_context_change(const json_t *s, size_t i, char *buf, size_t len)
{
	const json_t *ctxs = json_object_get(s, "contexts"), *c;
	size_t k;

	buf[0] = '\0';
	json_array_foreach(ctxs, k, c) {
		if (!k || view_num(c, "first") != (double)i)
			continue;
		context_diff_text(
			json_object_get(json_array_get(ctxs, k - 1), "facts"),
			json_object_get(c, "facts"), buf, len);
		if (!buf[0])
			snprintf(buf, len, "context %s",
				 view_str(c, "id") ? view_str(c, "id") : "?");
		return;
	}
}

void view_flags(const json_t *p, const char *sep, char *buf, size_t len)
{
	const json_t *f;
	size_t k;

	buf[0] = '\0';
	json_array_foreach(json_object_get(p, "flags"), k, f) {
		const char *flag = json_string_value(f);
		size_t used = strlen(buf);

		snprintf(buf + used, len - used, "%s%s", k ? sep : "",
			 flag ? flag : "?");
	}
}

const json_t *view_host(const json_t *doc, const char *id)
{
	const json_t *h;
	size_t i;

	json_array_foreach(json_object_get(doc, "hosts"), i, h) {
		const char *hid = view_str(h, "id");

		if (id && hid && strcmp(hid, id) == 0)
			return h;
	}
	return NULL;
}

const char *view_host_name(const json_t *doc, const char *id)
{
	const char *name = view_str(view_host(doc, id), "name");

	return name ? name : id ? id : "";
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int view_same_context(const char *a, const char *b)
{
	return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

int view_trend(const json_t *s, struct view_trend *t)
{
	const json_t *points = json_object_get(s, "points"), *last;
	size_t n = json_array_size(points), k = 0;
	const char *ctx;
	double *prev;

	*t = (struct view_trend){ NAN, NAN, NAN, 0, NULL };
	t->verdict = view_str(json_object_get(s, "newest"), "verdict");
	if (!n)
		return 0;
	last = json_array_get(points, n - 1);
	t->latest = view_num(last, "median");
	ctx = view_str(last, "context");
	prev = malloc(n * sizeof(*prev));
	if (!prev)
		return -ENOMEM;
	/* back from the latest while the context holds */
	for (size_t i = n - 1; i-- > 0;) {
		const json_t *p = json_array_get(points, i);

		if (!view_same_context(ctx, view_str(p, "context")))
			break;
		if (isfinite(view_num(p, "median")))
			prev[k++] = view_num(p, "median");
	}
	if (k) {
		qsort(prev, k, sizeof(*prev), cmp_double);
		t->base = stats_quantile(prev, k, 0.5);
		t->nbase = k;
		if (t->base != 0)
			t->change = t->latest / t->base - 1;
	}
	free(prev);
	return 0;
}

void view_change(const struct view_trend *t, char *buf, size_t len)
{
	if (isfinite(t->change))
		snprintf(buf, len, "%+.1f%%", t->change * 100);
	else
		snprintf(buf, len, "-");
}
