/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tables of text cells, and the plain-text helpers every writer shares:
 * the text and Markdown renderings of a table, the rule of the text
 * layouts, Markdown cells and CSV fields.
 */
#include "render/table.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* The width of the text layouts' rules. */
#define RULE_WIDTH 76

/* The longest Markdown cell with its spread; longer text is cut. */
#define MD_CELL_MAX 1024

int table_init(struct table *t, size_t rows, size_t cols)
{
	size_t n = rows * cols;

	memset(t, 0, sizeof(*t));
	t->cells = calloc(n ? n : 1, sizeof(*t->cells));
	if (!t->cells)
		return -ENOMEM;
	t->rows = rows;
	t->cols = cols;
	for (size_t i = 0; i < n; i++)
		if (!(t->cells[i] = strdup(""))) {
			table_free(t);
			return -ENOMEM;
		}
	return 0;
}

int table_set(struct table *t, size_t row, size_t col, const char *text)
{
	char **cell = &t->cells[row * t->cols + col];

	free(*cell);
	*cell = strdup(text ? text : "");
	return *cell ? 0 : -ENOMEM;
}

int table_set_spread(struct table *t, size_t row, size_t col, const char *text)
{
	char **spread;

	if (!t->spread)
		t->spread = calloc(t->rows * t->cols + 1, sizeof(*t->spread));
	if (!t->spread)
		return -ENOMEM;
	spread = &t->spread[row * t->cols + col];
	free(*spread);
	*spread = strdup(text);
	return *spread ? 0 : -ENOMEM;
}

int table_transpose(struct table *t)
{
	size_t n = t->rows * t->cols;
	char **cells = calloc(n ? n : 1, sizeof(*cells));
	char **spread = t->spread ? calloc(n + 1, sizeof(*spread)) : NULL;

	if (!cells || (t->spread && !spread)) {
		free(cells);
		free(spread);
		return -ENOMEM;
	}
	for (size_t r = 0; r < t->rows; r++)
		for (size_t c = 0; c < t->cols; c++) {
			cells[c * t->rows + r] = t->cells[r * t->cols + c];
			if (spread)
				spread[c * t->rows + r] =
					t->spread[r * t->cols + c];
		}
	free(t->cells);
	free(t->spread);
	t->cells = cells;
	t->spread = spread;
	n = t->rows;
	t->rows = t->cols;
	t->cols = n;
	return 0;
}

void table_free(struct table *t)
{
	for (size_t i = 0; t->cells && i < t->rows * t->cols; i++)
		free(t->cells[i]);
	for (size_t i = 0; t->spread && i < t->rows * t->cols; i++)
		free(t->spread[i]);
	free(t->cells);
	free(t->spread);
	strlist_free(&t->notes);
	memset(t, 0, sizeof(*t));
}

size_t table_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

void table_put_left(FILE *out, const char *s, size_t width)
{
	fputs(s, out);
	for (size_t w = table_width(s); w < width; w++)
		fputc(' ', out);
}

/* Blanks up to width columns, then s (right-aligned). */
static void put_right(FILE *out, const char *s, size_t width)
{
	for (size_t w = table_width(s); w < width; w++)
		fputc(' ', out);
	fputs(s, out);
}

/* The percentage of a spread ("±0.8%" is 0.8). */
static double spread_value(const char *s)
{
	return strtod(s + strcspn(s, "0123456789."), NULL);
}

/*
 * The text report's last column: "CI95" in the header, then the widest
 * spread of each row's figures ("" for a row without); NULL when no cell
 * of t has a spread (the column is left out).
 */
static const char *ci_cell(const struct table *t, size_t row)
{
	const char *widest = "";

	if (!t->spread)
		return NULL;
	if (row == 0)
		return "CI95";
	for (size_t c = 0; c < t->cols; c++) {
		const char *s = t->spread[row * t->cols + c];

		if (s && (!widest[0] || spread_value(s) > spread_value(widest)))
			widest = s;
	}
	return widest;
}

/*
 * One text row: first column left-aligned, figures right-aligned, then
 * the row's widest spread when t has spreads (its width in widths[cols]).
 */
static void text_row(const struct table *t, size_t row, const size_t *widths,
		     FILE *out)
{
	const char *ci = ci_cell(t, row);
	size_t end =
		t->cols; /* past the last cell with text: no trailing blanks */

	while (end > 1 && !(ci && ci[0]) &&
	       !(t->cells[row * t->cols + end - 1] &&
		 t->cells[row * t->cols + end - 1][0]))
		end--;
	for (size_t c = 0; c < end; c++) {
		const char *cell = t->cells[row * t->cols + c];

		if (c == 0 && end == 1) {
			fputs(cell ? cell : "", out);
		} else if (c == 0) {
			table_put_left(out, cell, widths[c]);
		} else {
			fputs("  ", out);
			put_right(out, cell, widths[c]);
		}
	}
	if (ci && ci[0]) {
		fputs("  ", out);
		put_right(out, ci, widths[t->cols]);
	}
	fputc('\n', out);
}

/* Dashes under each header cell, as wide as its column. */
static void text_underline(const struct table *t, const size_t *widths,
			   FILE *out)
{
	size_t cols = t->cols + (t->spread != NULL);

	for (size_t c = 0; c < cols; c++) {
		fputs(c ? "  " : "", out);
		for (size_t i = 0; i < widths[c]; i++)
			fputc('-', out);
	}
	fputc('\n', out);
}

int table_text(const struct table *t, FILE *out)
{
	size_t *widths = calloc(t->cols + 1, sizeof(*widths));

	if (!widths)
		return -ENOMEM;
	for (size_t i = 0; i < t->rows * t->cols; i++)
		if (table_width(t->cells[i]) > widths[i % t->cols])
			widths[i % t->cols] = table_width(t->cells[i]);
	for (size_t row = 0; row < t->rows && t->spread; row++)
		if (table_width(ci_cell(t, row)) > widths[t->cols])
			widths[t->cols] = table_width(ci_cell(t, row));
	for (size_t row = 0; row < t->rows; row++) {
		text_row(t, row, widths, out);
		if (row == 0)
			text_underline(t, widths, out);
	}
	for (size_t i = 0; i < t->notes.n; i++)
		fprintf(out, "* %s\n", t->notes.items[i]);
	free(widths);
	return 0;
}

/*
 * The character at s in Markdown text: HTML's specials as entities, line
 * ends out, a backslash doubled and a bracket that would close a link's or
 * an image's text ("](" or "][") escaped, so text from elsewhere cannot
 * become a link or an image and still reads as written ("HMAC[MD5]").
 */
static void md_char(FILE *out, const char *s)
{
	if (*s == '<')
		fputs("&lt;", out);
	else if (*s == '>')
		fputs("&gt;", out);
	else if (*s == '&')
		fputs("&amp;", out);
	else if (*s == '\\' || (*s == ']' && (s[1] == '(' || s[1] == '[')))
		fprintf(out, "\\%c", *s);
	else
		fputc(*s == '\n' || *s == '\r' ? ' ' : *s, out);
}

void table_md_text(FILE *out, const char *s)
{
	for (; s && *s; s++)
		md_char(out, s);
}

void table_md_code(FILE *out, const char *s)
{
	size_t run = 0, longest = 0;

	for (const char *p = s ? s : ""; *p; p++) {
		run = *p == '`' ? run + 1 : 0;
		longest = run > longest ? run : longest;
	}
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
	/* a space keeps a backtick at either end out of the fence */
	if (longest)
		fputc(' ', out);
	for (const char *p = s ? s : ""; *p; p++)
		fputc(*p == '\n' || *p == '\r' ? ' ' : *p, out);
	if (longest)
		fputc(' ', out);
	for (size_t i = 0; i <= longest; i++)
		fputc('`', out);
}

void table_md_cell(FILE *out, const char *s)
{
	fputs("| ", out);
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else
			md_char(out, s);
	}
	fputc(' ', out);
}

/* One Markdown row; a figure keeps its spread: "3.60Gbps ±0.8%". */
static void md_row(const struct table *t, size_t row, FILE *out)
{
	char text[MD_CELL_MAX];

	for (size_t c = 0; c < t->cols; c++) {
		size_t i = row * t->cols + c;
		const char *spread = t->spread ? t->spread[i] : NULL;

		snprintf(text, sizeof(text), "%s%s%s", t->cells[i],
			 spread ? " " : "", spread ? spread : "");
		table_md_cell(out, text);
	}
	fputs("|\n", out);
}

void table_md(const struct table *t, FILE *out)
{
	for (size_t row = 0; row < t->rows; row++) {
		md_row(t, row, out);
		if (row > 0)
			continue;
		for (size_t c = 0; c < t->cols; c++)
			fputs(c ? "|--:" : "|---", out);
		fputs("|\n", out);
	}
	if (t->notes.n)
		fputc('\n', out);
	for (size_t i = 0; i < t->notes.n; i++) {
		fputs("- ", out);
		table_md_text(out, t->notes.items[i]);
		fputc('\n', out);
	}
	fputc('\n', out);
}

void table_rule(FILE *out, const char *title)
{
	int used = 0;

	if (title)
		used = fprintf(out, "-- [%s] ", title);
	for (int i = used < 0 ? 0 : used; i < RULE_WIDTH; i++)
		fputc('-', out);
	fputc('\n', out);
}

/*
 * Nonzero when a spreadsheet would read s as a formula (OWASP's list of
 * leading characters: =, +, -, @, tab, CR), also where blanks or control
 * characters come first (" =cmd", sanitized text's "\t=cmd": a
 * spreadsheet may skip them): such a cell is written with a ' before it.
 * Numbers hostbench writes are never cells of text, so a negative one is
 * written as it is.
 */
static int csv_formula(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (*p == '\t' || *p == '\r')
		return 1;
	while (*p && (*p <= ' ' || *p == 0x7f))
		p++;
	return *p && strchr("=+-@", *p) != NULL;
}

void table_csv_field(FILE *out, const char *sep, const char *s)
{
	int formula;

	fputs(sep, out);
	if (!s)
		return;
	formula = csv_formula(s);
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(formula ? "'" : "", out);
		fputs(s, out);
		return;
	}
	fputs(formula ? "\"'" : "\"", out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
}

/*
 * Where a line of s longer than width breaks: after its last ',', ';' or
 * ':' that fits (a list's item stays whole; a time's colon, a digit on
 * either side, is no list's), else after a blank, else at width.
 */
static size_t wrap_at(const char *s, size_t width)
{
	size_t mark = 0, blank = 0;

	for (size_t i = 0; i < width && s[i]; i++) {
		int in_number = i && isdigit((unsigned char)s[i - 1]) &&
				isdigit((unsigned char)s[i + 1]);

		if ((s[i] == ',' || s[i] == ';' || s[i] == ':') && !in_number)
			mark = i + 1;
		else if (s[i] == ' ')
			blank = i + 1;
	}
	if (mark > width / 2)
		return mark;
	return blank ? blank : mark ? mark : width;
}

void table_put_wrapped(FILE *out, const char *s, size_t width)
{
	const char *indent = "";

	while (strlen(s) + strlen(indent) > width) {
		size_t n = wrap_at(s, width - strlen(indent)), shown = n;

		while (shown && s[shown - 1] == ' ')
			shown--;
		fprintf(out, "%s%.*s\n", indent, (int)shown, s);
		s += n;
		while (*s == ' ')
			s++;
		indent = "    ";
	}
	fprintf(out, "%s%s\n", indent, s);
}
