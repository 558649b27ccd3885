/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tables of text cells and the plain-text ways every report, comparison,
 * merge and fleet report writes them: aligned text under a rule, GitHub
 * Markdown, CSV fields. Nothing here knows what a result is; report.c
 * builds tables from results, the writers above it render them.
 */
#ifndef HB_CORE_RENDER_TABLE_H
#define HB_CORE_RENDER_TABLE_H

#include <stddef.h>
#include <stdio.h>

#include "base/util.h"

/*
 * Rows x cols cells, row 0 the header: cells[row * cols + col], each an
 * owned string. spread (NULL until a cell has one) holds per cell the CV
 * of its figure ("±0.8%") or NULL; md and html show it beside the figure,
 * text in a last column, the widest of the row. notes are lines said
 * after the table.
 */
struct table {
	char **cells;
	char **spread;
	size_t rows, cols;
	struct strlist notes;
};

/*
 * An empty table of rows x cols cells, each "" (cells are then replaced
 * with table_set()). Returns 0 or -ENOMEM, with t left empty.
 */
int table_init(struct table *t, size_t rows, size_t cols);

/* Set cell (row, col) of t to a copy of text ("" for NULL). 0 or -ENOMEM. */
int table_set(struct table *t, size_t row, size_t col, const char *text);

/*
 * Set the spread of cell (row, col) to a copy of text, allocating the
 * spread array on first use. Returns 0 or -ENOMEM.
 */
int table_set_spread(struct table *t, size_t row, size_t col, const char *text);

/*
 * Swap t's rows and columns, cells and spreads alike (the header row
 * becomes the first column). Returns 0 or -ENOMEM, t unchanged then.
 */
int table_transpose(struct table *t);

/* Free every cell, spread and note of t and leave it empty (zeroed). */
void table_free(struct table *t);

/*
 * t as aligned text: the first column left-aligned, the others right, two
 * blanks between columns, dashes under each header cell; when cells have
 * spreads, a last column "CI95" with the widest of each row; then t's
 * notes as "* NOTE" lines. Returns 0 or -ENOMEM.
 */
int table_text(const struct table *t, FILE *out);

/*
 * t as a GitHub-flavoured Markdown table (first column left-aligned, the
 * others right; a figure followed by its spread), then t's notes as a
 * list, then a blank line.
 */
void table_md(const struct table *t, FILE *out);

/*
 * The 76-column rule of the text layouts: "-- [Title] -----...", or only
 * dashes when title is NULL.
 */
void table_rule(FILE *out, const char *title);

/*
 * s and a line end, in lines of at most width bytes: a longer one breaks
 * after its last blank, ',' or ':' that fits (else at width), and goes on
 * indented by four blanks (a library's CPU features, 230 bytes, at 80).
 */
void table_put_wrapped(FILE *out, const char *s, size_t width);

/*
 * Columns s takes on a terminal: its code points, so a label in UTF-8
 * aligns like an ASCII one (wide CJK characters still count as one).
 */
size_t table_width(const char *s);

/* s, then blanks up to width columns (table_width), left-aligned. */
void table_put_left(FILE *out, const char *s, size_t width);

/*
 * Markdown text outside a table: <, > and & as HTML entities (Markdown
 * passes raw HTML through), backslashes doubled and "](" or "][" as
 * "\](" or "\][" (no link or image can form in it), line ends as
 * blanks; nothing for NULL.
 */
void table_md_text(FILE *out, const char *s);

/*
 * s as one Markdown code span, its fence longer than any run of backticks
 * in s, line ends as blanks; an empty span for NULL.
 */
void table_md_code(FILE *out, const char *s);

/*
 * One Markdown table cell, "| s ": pipes escaped, then as table_md_text();
 * an empty cell for NULL. The caller ends the row with "|\n".
 */
void table_md_cell(FILE *out, const char *s);

/*
 * One CSV field (RFC 4180): sep first, then s, quoted when it holds a
 * comma, quote or line end; nothing for NULL. A field a spreadsheet would
 * take for a formula (starting with =, +, -, @, tab or CR, or with =, +,
 * - or @ after blanks or control characters) gets a ' in front. Every CSV
 * writer uses it for text; numbers are written without it.
 */
void table_csv_field(FILE *out, const char *sep, const char *s);

#endif
