/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text report: the host-benchmark layout of the reference report.
 * Rules are 76 columns wide; within a section the colons of the lines
 * align, and what is said about a line is a footnote under its section;
 * a job that varies in one parameter prints as a table.
 */
#include "report/report_text.h"

#include <errno.h>

#include "report/context.h"
#include "report/figure.h"
#include "report/item_table.h"
#include "report/layout.h"
#include "report/report_pk.h"
#include "report/table.h"

/* A rule titled title over the lines of l, none when l is empty. */
static void write_lines(const char *title, const struct strlist *l, FILE *out)
{
	if (title && l->n)
		table_rule(out, title);
	for (size_t i = 0; i < l->n; i++)
		fprintf(out, "%s\n", l->items[i]);
}

/* Application (the run, where known), Linked Libraries and Plugins. */
static int write_application(const struct report *r, FILE *out)
{
	struct strlist libs = { 0 }, plugins = { 0 };
	struct kvlist run = { 0 };
	char line[REPORT_LINE];
	int err;

	table_rule(out, "Application");
	report_app_line(r, line, sizeof(line));
	fprintf(out, "%s\n", line);
	err = report_run_facts(r, &run);
	for (size_t i = 0; i < run.n; i++)
		fprintf(out, "%s : %s\n", run.items[i].key, run.items[i].value);
	table_rule(out, "Linked Libraries");
	err = err ? err : report_libraries(r, &libs);
	write_lines(NULL, &libs, out);
	err = err ? err : report_plugins(r, &plugins);
	write_lines("Plugins", &plugins, out);
	kvlist_free(&run);
	strlist_free(&libs);
	strlist_free(&plugins);
	return err;
}

/* System Information: facts, interfaces, filesystems. */
static int write_system(const struct report *r, FILE *out)
{
	struct kvlist facts = { 0 };
	char line[REPORT_LINE];
	int err;

	table_rule(out, "System Information");
	err = report_system_facts(r, &facts);
	for (size_t i = 0; i < facts.n; i++)
		fprintf(out, "%s : %s\n", facts.items[i].key,
			facts.items[i].value);
	kvlist_free(&facts);
	if (!r->sys)
		return err;
	fprintf(out, "Network Interface :\n");
	for (size_t i = 0; i < r->sys->nnetifs; i++) {
		report_netif_line(&r->sys->netifs[i], line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	if (r->sys->nfs)
		fprintf(out, "File System :\n");
	for (size_t i = 0; i < r->sys->nfs; i++) {
		report_fs_line(&r->sys->fs[i], line, sizeof(line));
		fprintf(out, "%s\n", line);
	}
	return err;
}

/* The widest line label of a section, so the colons align. */
static size_t label_width(const struct report *r,
			  const struct report_section *s)
{
	char label[REPORT_LINE];
	size_t width = 0;

	for (size_t i = 0; i < s->nitems; i++) {
		if (s->items[i].key)
			continue;
		report_label(r, &r->results[s->items[i].first], label,
			     sizeof(label));
		if (table_width(label) > width)
			width = table_width(label);
	}
	return width;
}

/*
 * "LABEL : FIGURE ±CI (FIGURE per CPU-s) [N]", or "LABEL : failed
 * (REASON)": the annotations and the warm-up go to footnote N of legend,
 * so a line keeps to the classic width however much there is to say
 * about it.
 */
static int write_line(const struct report *r, const struct result *res,
		      size_t width, struct strlist *legend, FILE *out)
{
	char label[REPORT_LINE], figure[64], spread[32], cpu[80];
	char notes[REPORT_LINE];

	report_label(r, res, label, sizeof(label));
	report_figure(res, figure, sizeof(figure));
	report_spread(res, spread, sizeof(spread));
	report_cpu_figure(res, report_unit(res), cpu, sizeof(cpu));
	notes[0] = '\0';
	report_notes(res, notes, sizeof(notes));
	if (res->warmup_samples)
		report_appendf(notes, sizeof(notes), "%swarm-up %u",
			       notes[0] ? "; " : "", res->warmup_samples);
	table_put_left(out, label, width);
	fprintf(out, " : %s%s%s%s%s", figure, spread[0] ? " " : "", spread,
		cpu[0] ? " " : "", cpu);
	if (res->status != RESULT_OK)
		fprintf(out, " (%s)",
			res->reason ? res->reason : "no reason given");
	if (notes[0]) {
		fprintf(out, " [%zu]", legend->n + 1);
		if (strlist_push(legend, notes))
			return -ENOMEM;
	}
	fputc('\n', out);
	return 0;
}

/* The footnotes of a section's lines, under it: "[1] noisy: CV 7.1%". */
static void write_legend(const struct strlist *legend, FILE *out)
{
	for (size_t i = 0; i < legend->n; i++)
		fprintf(out, "  [%zu] %s\n", i + 1, legend->items[i]);
}

/* A table item: header, dashes under each column, rows, then notes. */
static int write_table(const struct report *r, const struct report_item *it,
		       FILE *out)
{
	struct table t;
	int err = report_table_build(r, it, &t);

	if (err)
		return err;
	err = table_text(&t, out);
	table_free(&t);
	return err;
}

/* The performance sections, in order of first appearance. */
static int write_sections(const struct report *r, FILE *out)
{
	struct report_layout lay;
	int err = report_layout_build(r, &lay);

	for (size_t s = 0; s < lay.nsections && !err; s++) {
		const struct report_section *sec = &lay.sections[s];
		size_t width = label_width(r, sec);
		struct strlist legend = { 0 };

		table_rule(out, sec->title);
		if (report_pk_section(r, sec)) {
			err = report_pk_text(r, sec, out);
			continue;
		}
		for (size_t i = 0; i < sec->nitems && !err; i++) {
			if (sec->items[i].key)
				err = write_table(r, &sec->items[i], out);
			else
				err = write_line(
					r, &r->results[sec->items[i].first],
					width, &legend, out);
		}
		write_legend(&legend, out);
		strlist_free(&legend);
	}
	report_layout_free(&lay);
	return err;
}

int report_text(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct report *r = doc;
	int rc = write_application(r, out);

	if (!rc)
		rc = write_system(r, out);
	if (!rc)
		rc = write_sections(r, out);
	if (rc)
		return hb_errorf(err, errlen, rc, "text report: out of memory");
	table_rule(out, NULL);
	return report_io_error(out, err, errlen);
}
