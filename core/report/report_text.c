/*
 * The text report: the host-benchmark layout of the reference report.
 * Rules are 76 columns wide; within a section the colons of the lines
 * align; a job that varies in one parameter prints as a table.
 */
#include "report/report.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RULE_WIDTH 76

/* "-- [Title] -----...", or a plain rule when title is NULL. */
static void rule(FILE *out, const char *title)
{
	int used = 0;

	if (title)
		used = fprintf(out, "-- [%s] ", title);
	for (int i = used < 0 ? 0 : used; i < RULE_WIDTH; i++)
		fputc('-', out);
	fputc('\n', out);
}

/*
 * Columns s takes on a terminal: its code points, so a label in UTF-8
 * aligns like an ASCII one (wide CJK characters still count as one).
 */
static size_t text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* s, then blanks up to width columns (left-aligned). */
static void put_left(FILE *out, const char *s, size_t width)
{
	fputs(s, out);
	for (size_t w = text_width(s); w < width; w++)
		fputc(' ', out);
}

/* Blanks up to width columns, then s (right-aligned). */
static void put_right(FILE *out, const char *s, size_t width)
{
	for (size_t w = text_width(s); w < width; w++)
		fputc(' ', out);
	fputs(s, out);
}

/* Application and Linked Libraries. */
static int write_application(const struct report *r, FILE *out)
{
	struct strlist libs = { 0 };
	char line[REPORT_LINE];
	int err;

	rule(out, "Application");
	report_app_line(r, line, sizeof(line));
	fprintf(out, "%s\n", line);
	rule(out, "Linked Libraries");
	err = report_libraries(r, &libs);
	for (size_t i = 0; i < libs.n; i++)
		fprintf(out, "%s\n", libs.items[i]);
	strlist_free(&libs);
	return err;
}

/* System Information: facts, interfaces, filesystems. */
static int write_system(const struct report *r, FILE *out)
{
	struct kvlist facts = { 0 };
	char line[REPORT_LINE];
	int err;

	rule(out, "System Information");
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
		if (text_width(label) > width)
			width = text_width(label);
	}
	return width;
}

/* "LABEL : FIGURE (annotations)". */
static void write_line(const struct report *r, const struct result *res,
		       size_t width, FILE *out)
{
	char label[REPORT_LINE], figure[64], notes[REPORT_LINE];

	report_label(r, res, label, sizeof(label));
	report_figure(res, figure, sizeof(figure));
	report_annotations(res, notes, sizeof(notes));
	put_left(out, label, width);
	fprintf(out, " : %s", figure);
	if (notes[0])
		fprintf(out, " (%s)", notes);
	fputc('\n', out);
}

/* One table row: first column left-aligned, figures right-aligned. */
static void write_row(const struct report_table *t, size_t row,
		      const size_t *widths, FILE *out)
{
	for (size_t c = 0; c < t->cols; c++) {
		const char *cell = t->cells[row * t->cols + c];

		if (c == 0) {
			put_left(out, cell, widths[c]);
		} else {
			fputs("  ", out);
			put_right(out, cell, widths[c]);
		}
	}
	fputc('\n', out);
}

int report_text_table(const struct report_table *t, FILE *out)
{
	size_t *widths = calloc(t->cols ? t->cols : 1, sizeof(*widths));

	if (!widths)
		return -ENOMEM;
	for (size_t i = 0; i < t->rows * t->cols; i++)
		if (text_width(t->cells[i]) > widths[i % t->cols])
			widths[i % t->cols] = text_width(t->cells[i]);
	for (size_t row = 0; row < t->rows; row++) {
		write_row(t, row, widths, out);
		if (row > 0)
			continue;
		for (size_t c = 0; c < t->cols; c++) {
			fputs(c ? "  " : "", out);
			for (size_t i = 0; i < widths[c]; i++)
				fputc('-', out);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; i < t->notes.n; i++)
		fprintf(out, "* %s\n", t->notes.items[i]);
	free(widths);
	return 0;
}

/* A table item: header, dashes under each column, rows, then notes. */
static int write_table(const struct report *r, const struct report_item *it,
		       FILE *out)
{
	struct report_table t;
	int err = report_table_build(r, it, &t);

	if (err)
		return err;
	err = report_text_table(&t, out);
	report_table_free(&t);
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

		rule(out, sec->title);
		for (size_t i = 0; i < sec->nitems && !err; i++) {
			if (sec->items[i].key)
				err = write_table(r, &sec->items[i], out);
			else
				write_line(r, &r->results[sec->items[i].first],
					   width, out);
		}
	}
	report_layout_free(&lay);
	return err;
}

int report_text(const struct report *r, FILE *out, char *err, size_t errlen)
{
	int rc = write_application(r, out);

	if (!rc)
		rc = write_system(r, out);
	if (!rc)
		rc = write_sections(r, out);
	if (rc)
		return hb_errorf(err, errlen, rc, "text report: out of memory");
	rule(out, NULL);
	return report_io_error(out, err, errlen);
}
