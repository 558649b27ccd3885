/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HTML report: one self-contained page with the context, every table
 * of the text report, and the charts of each section (charts.c).
 */
#include "report/report_html.h"

#include <stdio.h>

#include "report/charts.h"
#include "report/context.h"
#include "report/figure.h"
#include "render/html.h"
#include "report/item_table.h"
#include "report/layout.h"
#include "render/table.h"

/* Append a row label / value pair to a two-column table. */
static int fact_row(struct table *t, size_t *row, const char *k, const char *v)
{
	int err = table_set(t, *row, 0, k);

	if (!err)
		err = table_set(t, *row, 1, v);
	(*row)++;
	return err;
}

/* The context: application, libraries, system facts, NICs, filesystems. */
static int write_context(const struct report *r, FILE *out)
{
	struct kvlist facts = { 0 }, run = { 0 };
	struct strlist libs = { 0 }, plugins = { 0 };
	struct table t;
	char line[REPORT_LINE];
	size_t nrows, row = 1;
	int err = report_libraries(r, &libs);

	err = err ? err : report_system_facts(r, &facts);
	err = err ? err : report_run_facts(r, &run);
	err = err ? err : report_plugins(r, &plugins);
	nrows = 3 + facts.n + libs.n + run.n + plugins.n +
		(r->sys ? r->sys->nnetifs + r->sys->nfs : 0);
	err = err ? err : table_init(&t, nrows, 2);
	if (err)
		goto free_lists;
	table_set(&t, 0, 0, "Context");
	table_set(&t, 0, 1, "");
	report_app_line(r, line, sizeof(line));
	err = fact_row(&t, &row, "Application", line);
	for (size_t i = 0; i < run.n && !err; i++)
		err = fact_row(&t, &row, run.items[i].key, run.items[i].value);
	for (size_t i = 0; i < libs.n && !err; i++)
		err = fact_row(&t, &row, "Library", libs.items[i]);
	for (size_t i = 0; i < plugins.n && !err; i++)
		err = fact_row(&t, &row, "Plugin", plugins.items[i]);
	for (size_t i = 0; i < facts.n && !err; i++)
		err = fact_row(&t, &row, facts.items[i].key,
			       facts.items[i].value);
	for (size_t i = 0; r->sys && i < r->sys->nnetifs && !err; i++) {
		report_netif_line(&r->sys->netifs[i], line, sizeof(line));
		err = fact_row(&t, &row, "Network", line);
	}
	for (size_t i = 0; r->sys && i < r->sys->nfs && !err; i++) {
		report_fs_line(&r->sys->fs[i], line, sizeof(line));
		err = fact_row(&t, &row, "File System", line);
	}
	if (!err) {
		html_section(out, "Context");
		html_table(out, &t, "context", NULL);
		html_section_end(out);
	}
	table_free(&t);
free_lists:
	kvlist_free(&facts);
	kvlist_free(&run);
	strlist_free(&libs);
	strlist_free(&plugins);
	return err;
}

/* Line items items[a..b) of a section as one case table. */
static int case_table(const struct report *r, const struct report_item *items,
		      size_t a, size_t b, FILE *out)
{
	const int cpu = r->figure == RESULT_FIGURE_CPU;
	const char *const head[] = { "Case",
				     "Backend",
				     cpu ? "Median per CPU-s" : "Median",
				     "CI95",
				     cpu ? "Wall" : "Per CPU-s",
				     "Unit",
				     "CV",
				     "Notes" };
	const size_t ncols = sizeof(head) / sizeof(head[0]);
	char text[REPORT_LINE];
	struct table t;
	int err = table_init(&t, 1 + b - a, ncols);

	for (size_t c = 0; c < ncols && !err; c++)
		err = table_set(&t, 0, c, head[c]);
	for (size_t i = a; i < b && !err; i++) {
		const struct result *res = &r->results[items[i].first];
		size_t row = 1 + i - a;

		err = table_set(&t, row, 0, res->c->title ? res->c->title : "");
		err = err ? err
			  : table_set(&t, row, 1,
				      res->c->backend ? res->c->backend : "");
		if (res->status == RESULT_OK)
			snprintf(text, sizeof(text), "%.2f",
				 report_value(res, report_unit(res)));
		else
			report_figure(res, text, sizeof(text));
		err = err ? err : table_set(&t, row, 2, text);
		report_spread(res, text, sizeof(text));
		err = err ? err : table_set(&t, row, 3, text);
		snprintf(text, sizeof(text), "%.2f",
			 report_cpu_value(res, report_unit(res)));
		err = err ? err
			  : table_set(&t, row, 4,
				      report_cpu_value(res, report_unit(res)) >
						      0
					      ? text
					      : "");
		err = err ? err : table_set(&t, row, 5, report_unit(res));
		snprintf(text, sizeof(text), "%.1f%%",
			 result_headline(res)->cv * 100);
		err = err ? err
			  : table_set(&t, row, 6,
				      res->status == RESULT_OK ? text : "");
		report_annotations(res, text, sizeof(text));
		err = err ? err : table_set(&t, row, 7, text);
	}
	if (!err)
		html_table(out, &t, "cases", NULL);
	table_free(&t);
	return err;
}

/* One section: its runs of lines, its tables, then its jobs' charts. */
static int write_section(const struct report *r, const struct report_section *s,
			 FILE *out)
{
	struct table t;
	int err = 0;

	html_section(out, s->title);
	for (size_t i = 0; i < s->nitems && !err;) {
		size_t j = i;

		if (s->items[i].key) {
			err = report_table_build(r, &s->items[i], &t);
			if (!err)
				html_table(out, &t,
					   s->items[i].rows_key
						   ? "grid"
						   : "by-parameter",
					   NULL);
			table_free(&t);
			i++;
			continue;
		}
		while (j < s->nitems && !s->items[j].key)
			j++;
		err = case_table(r, s->items, i, j, out);
		i = j;
	}
	if (!err)
		err = charts_lines(r, s, out);
	if (!err)
		err = charts_section(r, s, out);
	html_section_end(out);
	return err;
}

int report_html(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct report *r = doc;
	struct report_layout lay;
	int rc;

	char line[REPORT_LINE];

	/* the figures first, as a reader looks for them; the context after */
	html_begin(out, "hostbench report");
	report_app_line(r, line, sizeof(line));
	fputs("<p class=\"notes\">", out);
	html_text(out, line);
	fputs(" &middot; <a href=\"#context\">context of the run</a></p>\n",
	      out);
	if (r->figure == RESULT_FIGURE_CPU) {
		fputs("<p class=\"notes\">", out);
		html_text(out, REPORT_PER_CPU_TEXT);
		fputs("</p>\n", out);
	}
	rc = report_layout_build(r, &lay);
	if (rc)
		return hb_errorf(err, errlen, rc, "html report: out of memory");
	for (size_t s = 0; s < lay.nsections && !rc; s++)
		rc = write_section(r, &lay.sections[s], out);
	report_layout_free(&lay);
	if (!rc) {
		fputs("<a class=\"anchor\" id=\"context\"></a>\n", out);
		rc = write_context(r, out);
	}
	if (rc)
		return hb_errorf(err, errlen, rc, "html report: out of memory");
	html_end(out);
	return report_io_error(out, err, errlen);
}
