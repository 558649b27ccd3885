/* SPDX-License-Identifier: Apache-2.0 */
/* The series, points and change points of a history as tables of text. */
#include "history/history_table.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "history/view.h"

static const char *const series_columns[] = { "Host",	 "Case",   "Points",
					      "Latest",	 "Before", "Change",
					      "Verdict", "Step" };
static const char *const point_columns[] = { "Time",   "Run",	  "Label",
					     "Median", "CI95",	  "n",
					     "CV",     "Context", "Flags",
					     "Change" };
static const char *const change_columns[] = { "Time",  "Run",	 "Before",
					      "After", "Change", "p",
					      "Kind",  "State",	 "Id" };
#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

/* A table with its header row; 0 or -ENOMEM. */
static int table_with_header(struct table *t, size_t rows,
			     const char *const *head, size_t cols)
{
	int err = table_init(t, rows + 1, cols);

	for (size_t c = 0; c < cols && !err; c++)
		err = table_set(t, 0, c, head[c]);
	return err;
}

/* Set a cell to a printf'd text, keeping the first error. */
static int cell(struct table *t, size_t row, size_t col, int err,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int cell(struct table *t, size_t row, size_t col, int err,
		const char *fmt, ...)
{
	char text[VIEW_LINE];
	va_list ap;

	if (err)
		return err;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	return table_set(t, row, col, text);
}

/* "-" for a NULL string. */
static const char *or_dash(const char *s)
{
	return s ? s : "-";
}

/* "-11.1% regression (new)" of a change, "" for none. */
static void change_text(const json_t *c, char *buf, size_t len)
{
	if (!c) {
		snprintf(buf, len, "%s", "");
		return;
	}
	snprintf(buf, len, "%+.1f%% %s (%s)", view_num(c, "change") * 100,
		 or_dash(view_str(c, "kind")), or_dash(view_str(c, "state")));
}

/* Nonzero when change c is a regression still open ("new"). */
static int open_regression(const json_t *c)
{
	const char *kind = view_str(c, "kind"), *state = view_str(c, "state");

	return kind && strcmp(kind, "regression") == 0 &&
	       (!state || strcmp(state, "new") == 0);
}

/* Nonzero when series s has an open regression: a step or its newest. */
static int series_open(const json_t *s)
{
	const char *verdict = view_str(json_object_get(s, "newest"), "verdict");
	const json_t *c;
	size_t k;

	json_array_foreach(json_object_get(s, "changes"), k, c)
		if (open_regression(c))
			return 1;
	return verdict && strcmp(verdict, "regression") == 0;
}

/* The step a series' row shows: its latest open regression, else its
 * latest step of any kind and state; NULL without one. */
static const json_t *shown_step(const json_t *s)
{
	const json_t *changes = json_object_get(s, "changes");
	size_t n = json_array_size(changes);

	for (size_t k = n; k-- > 0;)
		if (open_regression(json_array_get(changes, k)))
			return json_array_get(changes, k);
	return n ? json_array_get(changes, n - 1) : NULL;
}

/*
 * The series shown at row k (1: the first) of the series table: those
 * with an open regression first, then the others, each in doc's order.
 */
static const json_t *series_at(const json_t *doc, size_t k)
{
	const json_t *series = json_object_get(doc, "series"), *s;
	size_t i, row = 0;

	for (int open = 1; open >= 0; open--)
		json_array_foreach(series, i, s)
			if (series_open(s) == open && ++row == k)
				return s;
	return NULL;
}

/*
 * The row of series s: its host, name, latest figure and trend, the
 * verdict on its newest run and its step (shown_step(): a step decided
 * on stays in sight behind an inconclusive newest run).
 */
static int series_row(const json_t *doc, const json_t *s, struct table *t,
		      size_t row)
{
	struct view_trend tr;
	char label[VIEW_LINE], latest[64], base[64], change[32], step[128];
	int err = view_trend(s, &tr);

	view_label(s, label, sizeof(label));
	view_figure(s, tr.latest, latest, sizeof(latest));
	view_figure(s, tr.base, base, sizeof(base));
	view_change(&tr, change, sizeof(change));
	change_text(shown_step(s), step, sizeof(step));
	err = cell(t, row, 0, err, "%s",
		   view_host_name(doc, view_str(s, "host")));
	err = cell(t, row, 1, err, "%s", label);
	err = cell(t, row, 2, err, "%zu",
		   json_array_size(json_object_get(s, "points")));
	err = cell(t, row, 3, err, "%s", latest);
	err = cell(t, row, 4, err, "%s", base);
	err = cell(t, row, 5, err, "%s", change);
	err = cell(t, row, 6, err, "%s", or_dash(tr.verdict));
	return cell(t, row, 7, err, "%s", step[0] ? step : "-");
}

int history_table_series(const json_t *doc, struct table *t)
{
	size_t n = json_array_size(json_object_get(doc, "series"));
	int err =
		table_with_header(t, n, series_columns, NCOLS(series_columns));

	for (size_t row = 1; row <= n && !err; row++)
		err = series_row(doc, series_at(doc, row), t, row);
	if (err)
		table_free(t);
	return err;
}

static int point_row(const json_t *s, size_t i, struct table *t)
{
	const json_t *p = json_array_get(json_object_get(s, "points"), i);
	char median[64], lo[64], hi[64], flags[VIEW_LINE], change[128];
	char what[VIEW_LINE];
	size_t row = 1 + i;
	int err = 0;

	view_figure(s, view_num(p, "median"), median, sizeof(median));
	view_figure(s, view_num(p, "ci_low"), lo, sizeof(lo));
	view_figure(s, view_num(p, "ci_high"), hi, sizeof(hi));
	view_flags(p, ", ", flags, sizeof(flags));
	change_text(view_change_at(s, i), change, sizeof(change));
	err = cell(t, row, 0, err, "%s", or_dash(view_str(p, "time")));
	err = cell(t, row, 1, err, "%s", or_dash(view_str(p, "run")));
	err = cell(t, row, 2, err, "%s", or_dash(view_str(p, "label")));
	err = cell(t, row, 3, err, "%s", median);
	/* an imported figure of one value has no CI, n nor CV: "-" */
	if (isnan(view_num(p, "ci_low")) && isnan(view_num(p, "ci_high")))
		err = cell(t, row, 4, err, "-");
	else
		err = cell(t, row, 4, err, "%s .. %s", lo, hi);
	if (isnan(view_num(p, "n")))
		err = cell(t, row, 5, err, "-");
	else
		err = cell(t, row, 5, err, "%.0f", view_num(p, "n"));
	if (isnan(view_num(p, "cv")))
		err = cell(t, row, 6, err, "-");
	else
		err = cell(t, row, 6, err, "%.1f%%", view_num(p, "cv") * 100);
	view_context_change(s, i, what, sizeof(what));
	err = cell(t, row, 7, err, "%s%s%s", or_dash(view_str(p, "context")),
		   what[0] ? ": " : "", what);
	err = cell(t, row, 8, err, "%s", flags);
	return cell(t, row, 9, err, "%s", change);
}

int history_table_points(const json_t *s, struct table *t)
{
	size_t n = json_array_size(json_object_get(s, "points"));
	int err = table_with_header(t, n, point_columns, NCOLS(point_columns));

	for (size_t i = 0; i < n && !err; i++)
		err = point_row(s, i, t);
	if (err)
		table_free(t);
	return err;
}

static int change_row(const json_t *s, const json_t *c, size_t row,
		      struct table *t)
{
	char before[64], after[64], what[VIEW_LINE] = "";
	int err = 0;

	view_figure(s, view_num(c, "before"), before, sizeof(before));
	view_figure(s, view_num(c, "after"), after, sizeof(after));
	err = cell(t, row, 0, err, "%s", or_dash(view_str(c, "time")));
	err = cell(t, row, 1, err, "%s", or_dash(view_str(c, "run")));
	err = cell(t, row, 2, err, "%s", before);
	err = cell(t, row, 3, err, "%s", after);
	err = cell(t, row, 4, err, "%+.1f%%", view_num(c, "change") * 100);
	err = cell(t, row, 5, err, "%.3g", view_num(c, "p"));
	if (json_is_true(json_object_get(c, "context_change")) &&
	    view_num(c, "index") >= 0)
		view_context_change(s, (size_t)view_num(c, "index"), what,
				    sizeof(what));
	err = cell(t, row, 6, err, "%s%s%s", or_dash(view_str(c, "kind")),
		   what[0] ? " at a context change: " : "", what);
	err = cell(t, row, 7, err, "%s", or_dash(view_str(c, "state")));
	return cell(t, row, 8, err, "%s", or_dash(view_str(c, "id")));
}

int history_table_changes(const json_t *s, struct table *t)
{
	const json_t *changes = json_object_get(s, "changes"), *c;
	size_t k;
	int err = table_with_header(t, json_array_size(changes), change_columns,
				    NCOLS(change_columns));

	json_array_foreach(changes, k, c) {
		if (err)
			break;
		err = change_row(s, c, 1 + k, t);
	}
	if (err)
		table_free(t);
	return err;
}

/* The class of a kind still open ("new"): a regression or improvement. */
static const char *open_class(const char *kind, const char *state)
{
	if (!kind || (state && strcmp(state, "new") != 0))
		return NULL;
	if (strcmp(kind, "regression") == 0)
		return "verdict-regressed";
	if (strcmp(kind, "improvement") == 0)
		return "verdict-improved";
	return NULL;
}

const char *history_table_series_class(const json_t *doc, size_t k)
{
	const json_t *s = k ? series_at(doc, k) : NULL;

	if (k == 0)
		return NULL;
	if (series_open(s))
		return "verdict-regressed";
	return open_class(view_str(json_object_get(s, "newest"), "verdict"),
			  NULL);
}

const char *history_table_change_class(const json_t *s, size_t k)
{
	const json_t *c = json_array_get(json_object_get(s, "changes"), k - 1);

	if (k == 0)
		return NULL;
	return open_class(view_str(c, "kind"), view_str(c, "state"));
}
