/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A history in every format. Text, md and html render the same tables
 * (history_table.c); csv writes a row per point with its series' columns;
 * json is the document itself.
 */
#include "history/history_write.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "base/jsondump.h"
#include "history/chart.h"
#include "history/history_table.h"
#include "history/view.h"
#include "render/html.h"
#include "report/report.h"
#include "render/table.h"

/* "CASE on HOST": a series' heading. */
static void series_title(const json_t *doc, const json_t *s, char *buf,
			 size_t len)
{
	char label[VIEW_LINE];

	view_label(s, label, sizeof(label));
	buf[0] = '\0';
	report_appendf(buf, len, "%s on %s", label,
		       view_host_name(doc, view_str(s, "host")));
}

/* The series of doc, then each series' points under a rule. */
static int write_text(const void *p, FILE *out, char *err, size_t errlen)
{
	const json_t *doc = p, *s;
	struct table t;
	char title[VIEW_LINE];
	size_t i;
	int rc = history_table_series(doc, &t);

	fprintf(out, "hostbench history\nstore: %s\n\n",
		view_str(doc, "store") ? view_str(doc, "store") : "-");
	table_rule(out, "Series");
	rc = rc ? rc : table_text(&t, out);
	table_free(&t);
	json_array_foreach(json_object_get(doc, "series"), i, s) {
		if (rc)
			break;
		series_title(doc, s, title, sizeof(title));
		fputc('\n', out);
		table_rule(out, title);
		rc = history_table_points(s, &t);
		rc = rc ? rc : table_text(&t, out);
		table_free(&t);
	}
	return report_write_end("history", rc, out, err, errlen);
}

/* The series of doc, then each series' points under a heading. */
static int write_md(const void *p, FILE *out, char *err, size_t errlen)
{
	const json_t *doc = p, *s;
	struct table t;
	char title[VIEW_LINE];
	size_t i;
	int rc = history_table_series(doc, &t);

	fputs("# hostbench history\n\nStore: ", out);
	table_md_code(out, view_str(doc, "store"));
	fputs("\n\n## Series\n\n", out);
	if (!rc)
		table_md(&t, out);
	table_free(&t);
	json_array_foreach(json_object_get(doc, "series"), i, s) {
		if (rc)
			break;
		series_title(doc, s, title, sizeof(title));
		fputs("## ", out);
		table_md_text(out, title);
		fputs("\n\n", out);
		rc = history_table_points(s, &t);
		if (!rc)
			table_md(&t, out);
		table_free(&t);
	}
	return report_write_end("history", rc, out, err, errlen);
}

static int write_json(const void *p, FILE *out, char *err, size_t errlen)
{
	/* into memory first; 10,000 points' numbers without printf */
	char *text = jsondump_text(p);

	if (text) {
		fputs(text, out);
		fputc('\n', out);
	}
	free(text);
	return report_write_end("history", text ? 0 : -ENOMEM, out, err,
				errlen);
}

/* The CSV columns: a series' own, then a point's, then the trend's. */
static const char csv_header[] =
	"series,host,host_name,job,title,target,backend,figure,better,"
	"run,time,context,median,ci_low,ci_high,n,cv,cpu_median,flags,"
	"change_id,change_kind,change_state,trend_change,verdict,label\n";

/* A number field, empty when v is none. */
static void csv_number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, ",%.10g", v);
	else
		fputc(',', out);
}

/* The columns every row of series s starts with. */
static void csv_series(FILE *out, const json_t *doc, const json_t *s)
{
	const json_t *c = json_object_get(s, "case");
	const char *host = view_str(s, "host");

	table_csv_field(out, "", view_str(s, "id"));
	table_csv_field(out, ",", host);
	table_csv_field(out, ",", view_str(view_host(doc, host), "name"));
	table_csv_field(out, ",", view_str(c, "job"));
	table_csv_field(out, ",", view_str(c, "title"));
	table_csv_field(out, ",", view_str(c, "target"));
	table_csv_field(out, ",", view_str(c, "backend"));
	table_csv_field(out, ",", view_str(s, "figure"));
	table_csv_field(out, ",", view_str(s, "better"));
}

/* A point's columns (all empty for a series without points). */
static void csv_point(FILE *out, const json_t *s, size_t i)
{
	const json_t *p = json_array_get(json_object_get(s, "points"), i);
	const json_t *c = view_change_at(s, i);
	char flags[VIEW_LINE];

	table_csv_field(out, ",", view_str(p, "run"));
	table_csv_field(out, ",", view_str(p, "time"));
	table_csv_field(out, ",", view_str(p, "context"));
	csv_number(out, view_num(p, "median"));
	csv_number(out, view_num(p, "ci_low"));
	csv_number(out, view_num(p, "ci_high"));
	csv_number(out, view_num(p, "n"));
	csv_number(out, view_num(p, "cv"));
	csv_number(out, view_num(p, "cpu_median"));
	view_flags(p, " ", flags, sizeof(flags));
	table_csv_field(out, ",", flags);
	table_csv_field(out, ",", view_str(c, "id"));
	table_csv_field(out, ",", view_str(c, "kind"));
	table_csv_field(out, ",", view_str(c, "state"));
}

/* A row per point of s; the latest carries the trend and the verdict. */
static int csv_rows(FILE *out, const json_t *doc, const json_t *s)
{
	size_t n = json_array_size(json_object_get(s, "points"));
	struct view_trend tr;
	int rc = view_trend(s, &tr);

	for (size_t i = 0; !rc && i < (n ? n : 1); i++) {
		int latest = i + 1 >= n;

		csv_series(out, doc, s);
		csv_point(out, s, i);
		csv_number(out, latest ? tr.change : NAN);
		table_csv_field(out, ",", latest ? tr.verdict : NULL);
		table_csv_field(
			out, ",",
			view_str(
				json_array_get(json_object_get(s, "points"), i),
				"label"));
		fputc('\n', out);
	}
	return rc;
}

static int write_csv(const void *p, FILE *out, char *err, size_t errlen)
{
	const json_t *series = json_object_get(p, "series");
	int rc = 0;

	fputs(csv_header, out);
	for (size_t i = 0; i < json_array_size(series) && !rc; i++)
		rc = csv_rows(out, p, json_array_get(series, i));
	return report_write_end("history", rc, out, err, errlen);
}

/* html_table() of t with a row class per row from cls(arg, row). */
static int html_classed(FILE *out, const struct table *t, const char *name,
			const char *(*cls)(const json_t *, size_t),
			const json_t *arg)
{
	const char **classes = calloc(t->rows, sizeof(*classes));

	if (!classes)
		return -ENOMEM;
	for (size_t k = 0; k < t->rows; k++)
		classes[k] = cls(arg, k);
	html_table(out, t, name, classes);
	free(classes);
	return 0;
}

int history_write_html_series(FILE *out, const json_t *doc, const json_t *s,
			      int points)
{
	struct table t;
	char title[VIEW_LINE];
	int rc;

	series_title(doc, s, title, sizeof(title));
	fputs("<a class=\"anchor\" id=\"series-", out);
	html_text(out, view_str(s, "id"));
	fputs("\"></a>\n", out);
	html_section(out, title);
	fputs("<figure>\n", out);
	if (chart_write(out, s, title))
		fputs("<p class=\"notes\">No point to draw.</p>\n", out);
	fputs("</figure>\n", out);
	rc = history_table_changes(s, &t);
	if (!rc && t.rows > 1)
		rc = html_classed(out, &t, "changes",
				  history_table_change_class, s);
	else if (!rc)
		fputs("<p class=\"notes\">No change point.</p>\n", out);
	table_free(&t);
	if (!rc && points) {
		rc = history_table_points(s, &t);
		if (!rc)
			html_table(out, &t, "points", NULL);
		table_free(&t);
	}
	html_section_end(out);
	return rc;
}

/* The series of doc, then each series with its chart and points. */
static int write_html(const void *p, FILE *out, char *err, size_t errlen)
{
	const json_t *doc = p, *s;
	struct table t;
	size_t i;
	int rc = history_table_series(doc, &t);

	html_begin(out, "hostbench history");
	fputs("<p class=\"notes\">Store: ", out);
	html_text(out, view_str(doc, "store"));
	fputs("</p>\n", out);
	html_section(out, "Series");
	if (!rc)
		rc = html_classed(out, &t, "series", history_table_series_class,
				  doc);
	table_free(&t);
	html_section_end(out);
	json_array_foreach(json_object_get(doc, "series"), i, s) {
		if (rc)
			break;
		rc = history_write_html_series(out, doc, s, 1);
	}
	html_end(out);
	return report_write_end("history", rc, out, err, errlen);
}

/* The writers of a history, by format. */
static const struct report_writer writers[REPORT_NFORMATS] = {
	[REPORT_TEXT] = { write_text }, [REPORT_JSON] = { write_json },
	[REPORT_CSV] = { write_csv },	[REPORT_MD] = { write_md },
	[REPORT_HTML] = { write_html },
};

int history_write(const json_t *doc, enum report_format fmt, FILE *out,
		  char *err, size_t errlen)
{
	return report_dispatch(writers, fmt, doc, out, err, errlen);
}
