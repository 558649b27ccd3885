/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The table of one report item: a table's row per job and backend with a
 * column per value, or a grid's row and column per value of its two
 * parameters; each figure with its spread, and its annotations as notes.
 */
#include "report/item_table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report/figure.h"

/* The option key of c's target, or NULL. */
static const struct hb_option *option_of(const struct bench_case *c,
					 const char *key)
{
	const struct hb_option *o = c->tdesc ? c->tdesc->options : NULL;

	for (; o && o->name; o++)
		if (strcmp(o->name, key) == 0)
			return o;
	return NULL;
}

/*
 * Nonzero when the values of key read better down the rows: names (a
 * cipher, a provider), not sizes, which read across as openssl speed
 * prints them, nor directories, whose % Difference reads across.
 */
static int values_down(const struct bench_case *c, const char *key,
		       const struct strlist *values)
{
	const struct hb_option *o = option_of(c, key);
	int names = 0;

	if (strcmp(key, "dir") == 0)
		return 0;
	if (o)
		return o->type != HB_OPT_SIZE && o->type != HB_OPT_SIZE_LIST &&
		       o->type != HB_OPT_INT;
	/* a key the target does not declare (a command's {cipher}, or a
	   report read back): names unless every value is a number */
	for (size_t i = 0; i < values->n; i++)
		names |= strspn(values->items[i], "0123456789") !=
			 strlen(values->items[i]);
	return names;
}

/* Transpose t and name the rows per CPU-second's column plainly. */
static int turn(struct table *t)
{
	int err = table_transpose(t);

	for (size_t c = 1; !err && c < t->cols; c++)
		if (strncmp(t->cells[c], "  ", 2) == 0)
			err = table_set(t, 0, c, "per CPU-s");
	return err;
}

/* The header text of a table column for value v of parameter key. */
static void column_header(const struct bench_case *c, const char *key,
			  const char *v, char *buf, size_t len)
{
	const struct hb_option *o = option_of(c, key);

	/* "16 bytes" as openssl speed prints its block sizes */
	if (o && o->type == HB_OPT_SIZE && v[0] &&
	    strspn(v, "0123456789") == strlen(v))
		snprintf(buf, len, "%s bytes", v);
	else
		snprintf(buf, len, "%s", v);
}

/* A figure cell: the figure, its interval in spread or, own_spread, beside it.
 */
static int figure_cell(struct table *t, size_t row, size_t col,
		       const struct result *res, int own_spread)
{
	char text[64], spread[32] = "";
	int err;

	report_figure(res, text, sizeof(text));
	if (res->status == RESULT_OK)
		report_spread(res, spread, sizeof(spread));
	/* an A/B row's sides each keep their own interval beside them */
	if (own_spread && spread[0])
		report_appendf(text, sizeof(text), " %s", spread);
	err = table_set(t, row, col, text);
	if (err || res->status != RESULT_OK || own_spread)
		return err;
	return table_set_spread(t, row, col, spread);
}

/* One row of a table per (job, backend) of the item, in order. */
struct item_row {
	size_t first, last; /* the job's results */
	const char *backend;
	int show_backend; /* rows differ in backend: say which */
};

/* The rows of item it into rows (sized it->last - it->first). */
static size_t item_rows(const struct report *r, const struct report_item *it,
			struct item_row *rows)
{
	size_t n = 0;

	for (size_t a = it->first; a < it->last;) {
		size_t b = report_job_end(r, a);

		for (size_t i = a; i < b; i++) {
			const char *be = r->results[i].c->backend;
			size_t k = 0;

			be = be ? be : "";
			while (k < n && (rows[k].first != a ||
					 strcmp(rows[k].backend, be) != 0))
				k++;
			if (k == n)
				rows[n++] = (struct item_row){ a, b, be, 0 };
		}
		a = b;
	}
	return n;
}

/* The result of row at column value v, or NULL. */
static const struct result *row_result(const struct report *r,
				       const struct item_row *row,
				       const char *key, const char *v)
{
	char buf[32];

	for (size_t i = row->first; i < row->last; i++) {
		const struct bench_case *c = r->results[i].c;

		if (strcmp(c->backend ? c->backend : "", row->backend) == 0 &&
		    strcmp(report_case_value(c, key, buf, sizeof(buf)), v) == 0)
			return &r->results[i];
	}
	return NULL;
}

/* The header row: key, one column per value, then the % columns. */
static int header_fill(const struct report *r, const struct report_item *it,
		       const struct strlist *values, size_t ndiff,
		       struct table *t)
{
	char text[REPORT_LINE];
	int err = table_set(t, 0, 0, it->key);

	for (size_t v = 0; v < values->n && !err; v++) {
		column_header(r->results[it->first].c, it->key,
			      values->items[v], text, sizeof(text));
		err = table_set(t, 0, 1 + v, text);
	}
	for (size_t d = 0; d < ndiff && !err; d++) {
		if (ndiff == 1)
			snprintf(text, sizeof(text), "%% Difference");
		else
			snprintf(text, sizeof(text), "%% %s",
				 values->items[d + 1]);
		err = table_set(t, 0, 1 + values->n + d, text);
	}
	return err;
}

/* The row label: the job's label and the backend. */
static void row_label(const struct report *r, const struct item_row *row,
		      char *buf, size_t len)
{
	const struct result *res = &r->results[row->first];
	const struct job *job = report_job_of(r, res);
	const char *label = job && job->label ? job->label : res->c->title;

	snprintf(buf, len, "%s", label ? label : "");
	if (row->show_backend)
		report_appendf(buf, len, " (%s)", row->backend);
}

/* Name the backend in every row label that has one. */
static void show_backends(struct item_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++)
		rows[i].show_backend = rows[i].backend[0] != '\0';
}

/* Nonzero when res's io target asked O_DIRECT and it was not honoured. */
static int direct_not_honoured(const struct result *res)
{
	const char *direct = res ? kvlist_get(&res->info, "direct") : NULL;

	return direct && strncmp(direct, "not honoured", 12) == 0;
}

/*
 * res against base in percent, "+12.34%", or "-" when one has no figure;
 * "not comparable: O_DIRECT not honoured on SIDE" when either side's
 * figures are the page cache's while the other's may be the device's
 * (side: the column header of the one that was not honoured).
 */
static void diff_text(const struct result *base, const struct result *res,
		      const char *base_side, const char *side, char *buf,
		      size_t len)
{
	double b = base && base->status == RESULT_OK
			   ? report_value(base, report_unit(base))
			   : 0;

	if (direct_not_honoured(base) || direct_not_honoured(res))
		snprintf(buf, len,
			 "not comparable: O_DIRECT not honoured on %s",
			 direct_not_honoured(base) ? base_side : side);
	else if (res->status == RESULT_OK && b > 0)
		snprintf(buf, len, "%+.2f%%",
			 (report_value(res, report_unit(res)) / b - 1) * 100);
	else
		snprintf(buf, len, "-");
}

/*
 * A row's cycles per byte as one note, a figure per column, as
 * bench-slope shows them beside the rate: "aes-256-gcm: cycles/byte
 * (perf) 16 bytes 9.71, 64 bytes 3.02". Only when every case of the row
 * has the figure.
 */
static int row_cycles(const struct report *r, const struct report_item *it,
		      const struct strlist *values, const struct item_row *row,
		      size_t ri, struct table *t)
{
	char text[REPORT_LINE] = "";
	const char *method = "";

	for (size_t v = 0; v < values->n; v++) {
		const struct result *res =
			row_result(r, row, it->key, values->items[v]);

		if (!res || res->status != RESULT_OK ||
		    !(res->cycles_per_byte > 0))
			return 0;
		method = res->cycles_method;
	}
	report_appendf(text, sizeof(text), "%s: cycles/byte (%s)",
		       t->cells[ri * t->cols], method);
	for (size_t v = 0; v < values->n; v++)
		report_appendf(text, sizeof(text), "%s %s %.3g", v ? "," : "",
			       t->cells[1 + v],
			       row_result(r, row, it->key, values->items[v])
				       ->cycles_per_byte);
	return values->n ? strlist_push(&t->notes, text) : 0;
}

/* Fill one row of a table: label, figures, differences, notes. */
static int row_fill(const struct report *r, const struct report_item *it,
		    const struct strlist *values, size_t ndiff,
		    const struct item_row *row, size_t ri, struct table *t)
{
	char text[REPORT_LINE], notes[REPORT_LINE];
	const struct result *base = NULL;
	int err;

	row_label(r, row, text, sizeof(text));
	err = table_set(t, ri, 0, text);
	for (size_t v = 0; v < values->n && !err; v++) {
		const struct result *res =
			row_result(r, row, it->key, values->items[v]);

		if (v == 0)
			base = res;
		if (!res) {
			err = table_set(t, ri, 1 + v, "-");
			continue;
		}
		err = figure_cell(t, ri, 1 + v, res, ndiff > 0);
		report_annotations(res, notes, sizeof(notes));
		if (!err && notes[0]) {
			/* the cell's row and column say which case it is */
			text[0] = '\0';
			report_appendf(text, sizeof(text), "%s, %s: %s",
				       t->cells[ri * t->cols], t->cells[1 + v],
				       notes);
			err = strlist_push(&t->notes, text);
		}
		if (err || v == 0 || v > ndiff)
			continue;
		diff_text(base, res, t->cells[1], t->cells[1 + v], text,
			  sizeof(text));
		err = table_set(t, ri, values->n + v, text);
	}
	return err ? err : row_cycles(r, it, values, row, ri, t);
}

/* Nonzero when a case of item it has a figure per CPU-second. */
static int item_has_cpu(const struct report *r, const struct report_item *it)
{
	for (size_t i = it->first; i < it->last; i++)
		if (report_cpu_value(&r->results[i],
				     report_unit(&r->results[i])) > 0)
			return 1;
	return 0;
}

/* res's figure per CPU-second as a cell: "41.30Gbps", or "-". */
static void cpu_text(const struct result *res, char *buf, size_t len)
{
	double v = res ? report_cpu_value(res, report_unit(res)) : 0;

	if (v > 0)
		report_format_value(v, report_unit(res), buf, len);
	else
		snprintf(buf, len, "-");
}

/*
 * The row under row ri: "  per CPU-s" and each case's figure per
 * CPU-second ("-" where it has none), blank in the % columns.
 */
static int cpu_row_fill(const struct report *r, const struct report_item *it,
			const struct strlist *values,
			const struct item_row *row, size_t ri, struct table *t)
{
	char text[64];
	int err = table_set(t, ri, 0,
			    r->figure == RESULT_FIGURE_CPU ? "  wall"
							   : "  per CPU-s");

	for (size_t c = 1; c < t->cols && !err; c++) {
		const struct result *res =
			c <= values->n ? row_result(r, row, it->key,
						    values->items[c - 1])
				       : NULL;

		cpu_text(res, text, sizeof(text));
		err = table_set(t, ri, c, c <= values->n ? text : "");
	}
	return err;
}

/* A grid's heading for value v of key: "4 parallels", "size 64K". */
static void grid_label(const char *key, const char *v, char *buf, size_t len)
{
	if (strcmp(key, "parallel") == 0)
		snprintf(buf, len, "%s parallel%s", v,
			 strcmp(v, "1") == 0 ? "" : "s");
	else
		snprintf(buf, len, "%s %s", key, v);
}

/* The result of results[a..b) with rows_key rv and key cv, or NULL. */
static const struct result *grid_result(const struct report *r,
					const struct report_item *it,
					const char *rv, const char *cv)
{
	char b1[32], b2[32];

	for (size_t i = it->first; i < it->last; i++) {
		const struct bench_case *c = r->results[i].c;

		if (strcmp(report_case_value(c, it->rows_key, b1, sizeof(b1)),
			   rv) == 0 &&
		    strcmp(report_case_value(c, it->key, b2, sizeof(b2)), cv) ==
			    0)
			return &r->results[i];
	}
	return NULL;
}

/* One grid cell: the figure, and its annotations among the notes. */
static int grid_cell(const struct report *r, const struct report_item *it,
		     const char *rv, const char *cv, size_t row, size_t col,
		     struct table *t)
{
	const struct result *res = grid_result(r, it, rv, cv);
	char text[REPORT_LINE], notes[REPORT_LINE];
	int err;

	if (!res)
		return table_set(t, row, col, "-");
	err = figure_cell(t, row, col, res, 0);
	report_annotations(res, notes, sizeof(notes));
	if (err || !notes[0])
		return err;
	text[0] = '\0';
	report_appendf(text, sizeof(text), "%s, %s: %s",
		       t->cells[row * t->cols], t->cells[col], notes);
	return strlist_push(&t->notes, text);
}

/* A grid item: a row per value of rows_key, a column per value of key. */
static int grid_build(const struct report *r, const struct report_item *it,
		      struct table *t)
{
	struct strlist rv = { 0 }, cv = { 0 };
	char text[REPORT_LINE];
	size_t per_row = item_has_cpu(r, it) ? 2 : 1;
	int err = report_distinct_values(r, it->first, it->last, it->rows_key,
					 &rv);

	if (!err)
		err = report_distinct_values(r, it->first, it->last, it->key,
					     &cv);
	if (!err)
		err = table_init(t, 1 + per_row * rv.n, 1 + cv.n);
	if (!err) {
		const struct job *job =
			report_job_of(r, &r->results[it->first]);

		err = table_set(t, 0, 0, job ? job->label : "");
	}
	for (size_t c = 0; c < cv.n && !err; c++) {
		grid_label(it->key, cv.items[c], text, sizeof(text));
		err = table_set(t, 0, 1 + c, text);
	}
	for (size_t i = 0; i < rv.n && !err; i++) {
		size_t row = 1 + per_row * i;

		grid_label(it->rows_key, rv.items[i], text, sizeof(text));
		err = table_set(t, row, 0, text);
		for (size_t c = 0; c < cv.n && !err; c++)
			err = grid_cell(r, it, rv.items[i], cv.items[c], row,
					1 + c, t);
		if (per_row == 1 || err)
			continue;
		err = table_set(t, row + 1, 0, "  per CPU-s");
		for (size_t c = 0; c < cv.n && !err; c++) {
			cpu_text(grid_result(r, it, rv.items[i], cv.items[c]),
				 text, sizeof(text));
			err = table_set(t, row + 1, 1 + c, text);
		}
	}
	if (err)
		table_free(t);
	strlist_free(&rv);
	strlist_free(&cv);
	return err;
}

int report_table_build(const struct report *r, const struct report_item *it,
		       struct table *t)
{
	struct strlist values = { 0 };
	struct item_row *rows;
	size_t nrows, ndiff, per_row;
	int err;

	memset(t, 0, sizeof(*t));
	if (it->rows_key)
		return grid_build(r, it, t);
	rows = calloc(it->last - it->first, sizeof(*rows));
	if (!rows)
		return -ENOMEM;
	nrows = item_rows(r, it, rows);
	show_backends(rows, nrows);
	err = report_distinct_values(r, it->first, report_job_end(r, it->first),
				     it->key, &values);
	if (err)
		goto free_rows;
	ndiff = strcmp(it->key, "dir") == 0 && values.n > 1 ? values.n - 1 : 0;
	per_row = item_has_cpu(r, it) ? 2 : 1;
	err = table_init(t, 1 + per_row * nrows, 1 + values.n + ndiff);
	err = err ? err : header_fill(r, it, &values, ndiff, t);
	for (size_t i = 0; i < nrows && !err; i++) {
		err = row_fill(r, it, &values, ndiff, &rows[i], 1 + per_row * i,
			       t);
		if (!err && per_row == 2)
			err = cpu_row_fill(r, it, &values, &rows[i],
					   2 + per_row * i, t);
	}
	if (!err && values_down(r->results[it->first].c, it->key, &values))
		err = turn(t);
	if (err)
		table_free(t);
	strlist_free(&values);
free_rows:
	free(rows);
	return err;
}
