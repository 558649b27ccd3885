/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Markdown report (GitHub flavour): the host as a list, then per
 * section a table of cases, and the by-parameter tables of the text report.
 */
#include "report/report_md.h"

#include <string.h>

#include "report/context.h"
#include "report/figure.h"
#include "report/item_table.h"
#include "report/layout.h"
#include "render/table.h"

/* One "- **NAME**: VALUE" line of the context, its text escaped. */
static void item(FILE *out, const char *name, const char *value)
{
	fputs("- **", out);
	table_md_text(out, name);
	fputs("**: ", out);
	table_md_text(out, value);
	fputc('\n', out);
}

/* "- **NAME**: a, b" of l; "none" when empty, nothing when quiet. */
static void list_item(FILE *out, const char *name, const struct strlist *l,
		      int quiet)
{
	if (quiet && !l->n)
		return;
	fprintf(out, "- **%s**: ", name);
	for (size_t i = 0; i < l->n; i++) {
		fputs(i ? ", " : "", out);
		table_md_text(out, l->items[i]);
	}
	fputs(l->n ? "\n" : "none\n", out);
}

/* Each item of l as "- **KEY**: VALUE". */
static void kv_items(FILE *out, const struct kvlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		item(out, l->items[i].key, l->items[i].value);
}

/* The context: hostbench and the run, the host, libraries and plugins. */
static int write_context(const struct report *r, FILE *out)
{
	struct kvlist facts = { 0 }, run = { 0 };
	struct strlist libs = { 0 }, plugins = { 0 };
	char line[REPORT_LINE];
	int err;

	report_app_line(r, line, sizeof(line));
	fputs("# hostbench report\n\n", out);
	item(out, "Application", line);
	err = report_run_facts(r, &run);
	kv_items(out, &run);
	kvlist_free(&run);
	err = err ? err : report_system_facts(r, &facts);
	kv_items(out, &facts);
	kvlist_free(&facts);
	err = err ? err : report_libraries(r, &libs);
	list_item(out, "Libraries", &libs, 0);
	strlist_free(&libs);
	err = err ? err : report_plugins(r, &plugins);
	list_item(out, "Plugins", &plugins, 1);
	strlist_free(&plugins);
	for (size_t i = 0; r->sys && i < r->sys->nnetifs; i++) {
		report_netif_line(&r->sys->netifs[i], line, sizeof(line));
		item(out, "Network", line);
	}
	for (size_t i = 0; r->sys && i < r->sys->nfs; i++) {
		report_fs_line(&r->sys->fs[i], line, sizeof(line));
		item(out, "File System", line);
	}
	return err;
}

/* The number of a figure in its unit, without the unit. */
static void median_text(const struct result *res, char *buf, size_t len)
{
	const char *unit = report_unit(res);

	if (res->status == RESULT_FAILED)
		snprintf(buf, len, "failed");
	else if (res->status == RESULT_SKIPPED)
		snprintf(buf, len, "skipped");
	else
		snprintf(buf, len, strcmp(unit, "ops/s") == 0 ? "%.1f" : "%.2f",
			 report_value(res, unit));
}

/* One case as a row of the section's case table. */
static void case_row(const struct report *r, const struct result *res,
		     FILE *out)
{
	char label[REPORT_LINE], median[64], cv[32], ci[32], cpu[64] = "";
	char notes[REPORT_LINE];
	double per_cpu = report_cpu_value(res, report_unit(res));

	report_label(r, res, label, sizeof(label));
	median_text(res, median, sizeof(median));
	if (per_cpu > 0)
		snprintf(cpu, sizeof(cpu),
			 strcmp(report_unit(res), "ops/s") == 0 ? "%.1f"
								: "%.2f",
			 per_cpu);
	report_spread(res, ci, sizeof(ci));
	report_annotations(res, notes, sizeof(notes));
	if (res->status == RESULT_OK)
		snprintf(cv, sizeof(cv), "%.1f%%",
			 result_headline(res)->cv * 100);
	else
		cv[0] = '\0';
	table_md_cell(out, res->c ? res->c->title : label);
	table_md_cell(out, res->c ? res->c->backend : "");
	table_md_cell(out, median);
	table_md_cell(out, ci);
	table_md_cell(out, cpu);
	table_md_cell(out, res->c ? res->c->unit : "");
	table_md_cell(out, cv);
	table_md_cell(out, notes);
	fputs("|\n", out);
}

/* A by-parameter table, then its notes as a list. */
static int write_table(const struct report *r, const struct report_item *it,
		       FILE *out)
{
	struct table t;
	int err = report_table_build(r, it, &t);

	if (err)
		return err;
	table_md(&t, out);
	table_free(&t);
	return 0;
}

/* One section: runs of line items as a case table, tables as their own. */
static int write_section(const struct report *r, const struct report_section *s,
			 FILE *out)
{
	int in_cases = 0, err = 0;

	fputs("\n## ", out);
	table_md_text(out, s->title);
	fputs("\n\n", out);
	for (size_t i = 0; i < s->nitems && !err; i++) {
		if (s->items[i].key) {
			if (in_cases)
				fputc('\n', out);
			in_cases = 0;
			err = write_table(r, &s->items[i], out);
			continue;
		}
		if (!in_cases)
			fprintf(out,
				"| Case | Backend | %s | CI95 | %s "
				"| Unit | CV | Notes |\n"
				"|---|---|--:|--:|--:|---|--:|---|\n",
				r->figure == RESULT_FIGURE_CPU
					? "Median per CPU-s"
					: "Median",
				r->figure == RESULT_FIGURE_CPU ? "Wall"
							       : "Per CPU-s");
		in_cases = 1;
		case_row(r, &r->results[s->items[i].first], out);
	}
	return err;
}

int report_md(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct report *r = doc;
	struct report_layout lay;
	int rc = write_context(r, out);

	if (!rc && r->figure == RESULT_FIGURE_CPU)
		fprintf(out, "%s\n", REPORT_PER_CPU_TEXT);
	if (!rc)
		rc = report_layout_build(r, &lay);
	if (rc)
		return hb_errorf(err, errlen, rc,
				 "markdown report: out of memory");
	for (size_t s = 0; s < lay.nsections && !rc; s++)
		rc = write_section(r, &lay.sections[s], out);
	report_layout_free(&lay);
	if (rc)
		return hb_errorf(err, errlen, rc,
				 "markdown report: out of memory");
	return report_io_error(out, err, errlen);
}
