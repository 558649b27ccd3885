/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The text report: the host-benchmark layout of the reference report.
 * Rules are 76 columns wide; within a section the colons of the lines
 * align, and what is said about a line is a footnote under its section;
 * a job that varies in one parameter prints as a table.
 */
#include "report/report_text.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/context.h"
#include "report/figure.h"
#include "report/item_table.h"
#include "report/layout.h"
#include "report/report_pk.h"
#include "render/table.h"

/* The width a text report is read at. */
#define TEXT_COLUMNS 80

/* A rule titled title over the lines of l, none when l is empty. */
static void write_lines(const char *title, const struct strlist *l, FILE *out)
{
	if (title && l->n)
		table_rule(out, title);
	for (size_t i = 0; i < l->n; i++)
		fprintf(out, "%s\n", l->items[i]);
}

/*
 * "KEY : VALUE" wrapped to the width a text report is read at (a run's
 * times, the units' legend, a command line). Returns 0 or -ENOMEM.
 */
static int write_fact(FILE *out, const char *key, const char *value)
{
	size_t len = strlen(key) + strlen(value) + 4;
	char *line = malloc(len);

	if (!line)
		return -ENOMEM;
	snprintf(line, len, "%s : %s", key, value);
	table_put_wrapped(out, line, TEXT_COLUMNS);
	free(line);
	return 0;
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
	for (size_t i = 0; i < run.n && !err; i++)
		err = write_fact(out, run.items[i].key, run.items[i].value);
	table_rule(out, "Linked Libraries");
	err = err ? err : report_libraries(r, &libs);
	/* a library's CPU line runs to 230 bytes: read at 80 columns */
	for (size_t i = 0; i < libs.n; i++)
		table_put_wrapped(out, libs.items[i], TEXT_COLUMNS);
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
	for (size_t i = 0; i < facts.n && !err; i++)
		err = write_fact(out, facts.items[i].key, facts.items[i].value);
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
 * What the lines of a section share: a flag on every line is said once
 * under the section, not as a footnote of each; imprecision always is
 * (what was asked and the range reached), since a budget that cannot
 * reach the precision asked misses it on every line of a busy host.
 */
struct section_flags {
	size_t lines, imprecise, noisy, starved;
	double asked;	      /* the precision asked (a fraction) */
	double reached[2];    /* least and most spread reached, percent */
	double cv[2], cpu[2]; /* least and most CV and CPU share */
};

/* Widen [r[0], r[1]] to v. */
static void widen(double *r, double v)
{
	r[0] = fmin(r[0], v);
	r[1] = fmax(r[1], v);
}

/* The flags of the lines (not tables) of section sec into f. */
static void section_flags(const struct report *r,
			  const struct report_section *sec,
			  struct section_flags *f)
{
	char spread[32];

	*f = (struct section_flags){ .reached = { INFINITY, -INFINITY },
				     .cv = { INFINITY, -INFINITY },
				     .cpu = { INFINITY, -INFINITY } };
	for (size_t i = 0; i < sec->nitems; i++) {
		const struct result *res = &r->results[sec->items[i].first];

		if (sec->items[i].key || res->status != RESULT_OK)
			continue;
		f->lines++;
		report_spread(res, spread, sizeof(spread));
		if (res->imprecise) {
			f->imprecise++;
			f->asked = res->precision;
			widen(f->reached,
			      strtod(spread + strcspn(spread, "0123456789."),
				     NULL));
		}
		if (res->noisy) {
			f->noisy++;
			widen(f->cv, report_noisy_cv(res) * 100);
		}
		if (res->starved) {
			f->starved++;
			widen(f->cpu, res->cpu_ratio * 100);
		}
	}
}

/* The flags left to the section's note rather than each line's. */
static unsigned section_omit(const struct section_flags *f)
{
	unsigned omit = f->imprecise ? REPORT_NOTE_IMPRECISE : 0;

	if (f->lines > 1 && f->noisy == f->lines)
		omit |= REPORT_NOTE_NOISY;
	if (f->lines > 1 && f->starved == f->lines)
		omit |= REPORT_NOTE_STARVED;
	return omit;
}

/* The section's note of what its lines share, under its footnotes. */
static void write_section_flags(const struct section_flags *f, FILE *out)
{
	unsigned omit = section_omit(f);

	if ((omit & REPORT_NOTE_IMPRECISE) && f->reached[0] < f->reached[1])
		fprintf(out,
			"  * imprecise: asked ±%.2g%%, reached ±%.1f%% to "
			"±%.1f%% (%zu of %zu lines)\n",
			f->asked * 100, f->reached[0], f->reached[1],
			f->imprecise, f->lines);
	else if (omit & REPORT_NOTE_IMPRECISE)
		fprintf(out,
			"  * imprecise: asked ±%.2g%%, reached ±%.1f%% (%zu of "
			"%zu lines)\n",
			f->asked * 100, f->reached[0], f->imprecise, f->lines);
	if (omit & REPORT_NOTE_NOISY)
		fprintf(out, "  * noisy, every line: CV %.1f%% to %.1f%%\n",
			f->cv[0], f->cv[1]);
	if (omit & REPORT_NOTE_STARVED)
		fprintf(out,
			"  * starved, every line: CPU %.0f%% to %.0f%% (other "
			"work on the host)\n",
			f->cpu[0], f->cpu[1]);
}

/*
 * "LABEL : FIGURE ±CI (FIGURE per CPU-s) [N]", or "LABEL : failed
 * (REASON)": the annotations go to footnote N of legend, so a line keeps
 * to the classic width however much there is to say about it; what every
 * line shares (omit) is said once under the section, and the warm-up
 * samples dropped stay in the JSON report.
 */
static int write_line(const struct report *r, const struct result *res,
		      size_t width, unsigned omit, struct strlist *legend,
		      FILE *out)
{
	const struct job *job = report_job_of(r, res);
	char label[REPORT_LINE], figure[64], spread[32], cpu[80];
	char notes[REPORT_LINE];

	report_label(r, res, label, sizeof(label));
	report_figure(res, figure, sizeof(figure));
	report_spread(res, spread, sizeof(spread));
	report_cpu_figure(res, report_unit(res), cpu, sizeof(cpu));
	notes[0] = '\0';
	/* the job's own note first: what the suite says of the line */
	if (job && job->note)
		report_appendf(notes, sizeof(notes), "%s", job->note);
	report_notes_but(res, omit, notes, sizeof(notes));
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
	char line[REPORT_LINE + 32];

	/* read at 80 columns, as the facts above */
	for (size_t i = 0; i < legend->n; i++) {
		snprintf(line, sizeof(line), "  [%zu] %s", i + 1,
			 legend->items[i]);
		table_put_wrapped(out, line, TEXT_COLUMNS);
	}
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
		struct section_flags flags;

		table_rule(out, sec->title);
		if (report_pk_section(r, sec)) {
			err = report_pk_text(r, sec, out);
			continue;
		}
		section_flags(r, sec, &flags);
		for (size_t i = 0; i < sec->nitems && !err; i++) {
			if (sec->items[i].key)
				err = write_table(r, &sec->items[i], out);
			else
				err = write_line(
					r, &r->results[sec->items[i].first],
					width, section_omit(&flags), &legend,
					out);
		}
		write_legend(&legend, out);
		write_section_flags(&flags, out);
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
	if (!rc && r->figure == RESULT_FIGURE_CPU)
		fputs(REPORT_PER_CPU_TEXT, out);
	if (!rc)
		rc = write_sections(r, out);
	if (rc)
		return hb_errorf(err, errlen, rc, "text report: out of memory");
	table_rule(out, NULL);
	return report_io_error(out, err, errlen);
}
