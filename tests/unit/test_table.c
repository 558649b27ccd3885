/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Tables of text cells (core/render/table.c): the text and Markdown
 * renderings every report, comparison, merge and fleet report prints, the
 * rule of the text layouts and the CSV field writer, each checked against
 * the exact bytes.
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include "check.h"
#include "render/table.h"

/* What a renderer wrote, captured: the text, freed by the caller. */
struct capture {
	FILE *out;
	char *text;
	size_t len;
};

/* Start capturing. Returns 0, or 1 when no stream could be opened. */
static int capture_begin(struct capture *c)
{
	c->text = NULL;
	c->len = 0;
	c->out = open_memstream(&c->text, &c->len);
	return c->out == NULL;
}

/* Stop capturing; c->text holds what was written. */
static const char *capture_end(struct capture *c)
{
	fclose(c->out);
	return c->text;
}

/* A table of rows x cols cells filled from texts, row by row. */
static int table_of(struct table *t, size_t rows, size_t cols,
		    const char *const *texts)
{
	int err = table_init(t, rows, cols);

	for (size_t i = 0; i < rows * cols && !err; i++)
		err = table_set(t, i / cols, i % cols, texts[i]);
	return err;
}

static int set_copies_text_and_null_is_empty(void)
{
	struct table t;
	char text[] = "aes";

	CHECK_INT(table_init(&t, 1, 2), 0);
	CHECK_INT(table_set(&t, 0, 0, text), 0);
	CHECK_INT(table_set(&t, 0, 1, NULL), 0);
	text[0] = 'x';
	CHECK_STR(t.cells[0], "aes");
	CHECK_STR(t.cells[1], "");
	table_free(&t);
	return 0;
}

static int text_pads_first_column_left_and_others_right(void)
{
	static const char *const cells[] = { "job", "size", "aes-256-gcm",
					     "1.00Gbps" };
	struct capture c;
	struct table t;

	CHECK_INT(table_of(&t, 2, 2, cells), 0);
	CHECK_INT(capture_begin(&c), 0);
	CHECK_INT(table_text(&t, c.out), 0);
	CHECK_STR(capture_end(&c), "job              size\n"
				   "-----------  --------\n"
				   "aes-256-gcm  1.00Gbps\n");
	free(c.text);
	table_free(&t);
	return 0;
}

static int text_lists_notes_after_the_rows(void)
{
	static const char *const cells[] = { "job", "x", "aes", "1" };
	struct capture c;
	struct table t;

	CHECK_INT(table_of(&t, 2, 2, cells), 0);
	CHECK_INT(strlist_push(&t.notes, "aes, x: noisy: CV 7.1%"), 0);
	CHECK_INT(capture_begin(&c), 0);
	CHECK_INT(table_text(&t, c.out), 0);
	CHECK_STR(capture_end(&c), "job  x\n"
				   "---  -\n"
				   "aes  1\n"
				   "* aes, x: noisy: CV 7.1%\n");
	free(c.text);
	table_free(&t);
	return 0;
}

static int text_aligns_utf8_cells_by_code_points(void)
{
	static const char *const cells[] = { "größe", "n", "ab", "1" };
	struct capture c;
	struct table t;

	CHECK_INT(table_of(&t, 2, 2, cells), 0);
	CHECK_INT(capture_begin(&c), 0);
	CHECK_INT(table_text(&t, c.out), 0);
	CHECK_STR(capture_end(&c), "größe  n\n"
				   "-----  -\n"
				   "ab     1\n");
	free(c.text);
	table_free(&t);
	return 0;
}

static int md_right_aligns_every_column_but_the_first(void)
{
	static const char *const cells[] = { "job", "16 bytes", "64 bytes",
					     "aes", "1.00Gbps", "2.00Gbps" };
	struct capture c;
	struct table t;

	CHECK_INT(table_of(&t, 2, 3, cells), 0);
	CHECK_INT(capture_begin(&c), 0);
	table_md(&t, c.out);
	CHECK_STR(capture_end(&c), "| job | 16 bytes | 64 bytes |\n"
				   "|---|--:|--:|\n"
				   "| aes | 1.00Gbps | 2.00Gbps |\n"
				   "\n");
	free(c.text);
	table_free(&t);
	return 0;
}

static int md_shows_spread_beside_the_figure(void)
{
	static const char *const cells[] = { "job", "size", "aes", "1.00Gbps" };
	struct capture c;
	struct table t;

	CHECK_INT(table_of(&t, 2, 2, cells), 0);
	CHECK_INT(table_set_spread(&t, 1, 1, "±0.8%"), 0);
	CHECK_INT(capture_begin(&c), 0);
	table_md(&t, c.out);
	CHECK_STR(capture_end(&c), "| job | size |\n"
				   "|---|--:|\n"
				   "| aes | 1.00Gbps ±0.8% |\n"
				   "\n");
	free(c.text);
	table_free(&t);
	return 0;
}

static int md_lists_notes_after_a_blank_line(void)
{
	static const char *const cells[] = { "job", "x", "aes", "1" };
	struct capture c;
	struct table t;

	CHECK_INT(table_of(&t, 2, 2, cells), 0);
	CHECK_INT(strlist_push(&t.notes, "aes, x: two\nlines"), 0);
	CHECK_INT(capture_begin(&c), 0);
	table_md(&t, c.out);
	CHECK_STR(capture_end(&c), "| job | x |\n"
				   "|---|--:|\n"
				   "| aes | 1 |\n"
				   "\n"
				   "- aes, x: two lines\n"
				   "\n");
	free(c.text);
	table_free(&t);
	return 0;
}

static int md_cell_escapes_pipes_and_line_ends(void)
{
	struct capture c;

	CHECK_INT(capture_begin(&c), 0);
	table_md_cell(c.out, "a|b\nc\rd");
	CHECK_STR(capture_end(&c), "| a\\|b c d ");
	free(c.text);
	return 0;
}

static int rule_pads_title_to_76_columns(void)
{
	struct capture c;

	CHECK_INT(capture_begin(&c), 0);
	table_rule(c.out, "Cases");
	CHECK_STR(capture_end(&c), "-- [Cases] "
				   "-----------------------------------------"
				   "------------------------\n");
	CHECK_INT(strlen(c.text), 77);
	free(c.text);
	return 0;
}

static int rule_without_title_is_only_dashes(void)
{
	struct capture c;

	CHECK_INT(capture_begin(&c), 0);
	table_rule(c.out, NULL);
	capture_end(&c);
	CHECK_INT(strlen(c.text), 77);
	CHECK_INT(strspn(c.text, "-"), 76);
	free(c.text);
	return 0;
}

static int csv_field_quotes_commas_and_doubles_quotes(void)
{
	struct capture c;

	CHECK_INT(capture_begin(&c), 0);
	table_csv_field(c.out, "", "plain");
	table_csv_field(c.out, ",", "a,b");
	table_csv_field(c.out, ",", "say \"hi\"");
	table_csv_field(c.out, ",", NULL);
	CHECK_STR(capture_end(&c), "plain,\"a,b\",\"say \"\"hi\"\"\",");
	free(c.text);
	return 0;
}

static int md_cell_escapes_html(void)
{
	struct capture c;

	CHECK_INT(capture_begin(&c), 0);
	table_md_cell(c.out, "<script>a & b</script>");
	CHECK_STR(capture_end(&c), "| &lt;script&gt;a &amp; b&lt;/script&gt; ");
	free(c.text);
	return 0;
}

static int md_text_escapes_html_and_line_ends(void)
{
	struct capture c;

	CHECK_INT(capture_begin(&c), 0);
	table_md_text(c.out, "<b>x</b>\n- forged");
	CHECK_STR(capture_end(&c), "&lt;b&gt;x&lt;/b&gt; - forged");
	free(c.text);
	return 0;
}

static int csv_field_prefixes_formulas(void)
{
	struct capture c;

	CHECK_INT(capture_begin(&c), 0);
	table_csv_field(c.out, "", "=1+2");
	table_csv_field(c.out, ",", "+x");
	table_csv_field(c.out, ",", "-y");
	table_csv_field(c.out, ",", "@SUM(A1)");
	table_csv_field(c.out, ",", "=HYPERLINK(\"a\",\"b\")");
	table_csv_field(c.out, ",", "a=b");
	CHECK_STR(
		capture_end(&c),
		"'=1+2,'+x,'-y,'@SUM(A1),\"'=HYPERLINK(\"\"a\"\",\"\"b\"\")\","
		"a=b");
	free(c.text);
	return 0;
}

static int csv_field_prefixes_formulas_after_blanks_and_controls(void)
{
	struct capture c;

	CHECK_INT(capture_begin(&c), 0);
	table_csv_field(c.out, "", "\t=cmd");
	table_csv_field(c.out, ",", "\r=cmd");
	table_csv_field(c.out, ",", " =cmd"); /* "\t=cmd" once sanitized */
	table_csv_field(c.out, ",", " \x01@x");
	table_csv_field(c.out, ",", "\t");
	table_csv_field(c.out, ",", " x -y");
	CHECK_STR(capture_end(&c),
		  "'\t=cmd,\"'\r=cmd\",' =cmd,' \x01@x,'\t, x -y");
	free(c.text);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"set_copies_text_and_null_is_empty", set_copies_text_and_null_is_empty},
	{"text_pads_first_column_left_and_others_right", text_pads_first_column_left_and_others_right},
	{"text_lists_notes_after_the_rows", text_lists_notes_after_the_rows},
	{"text_aligns_utf8_cells_by_code_points", text_aligns_utf8_cells_by_code_points},
	{"md_right_aligns_every_column_but_the_first", md_right_aligns_every_column_but_the_first},
	{"md_shows_spread_beside_the_figure", md_shows_spread_beside_the_figure},
	{"md_lists_notes_after_a_blank_line", md_lists_notes_after_a_blank_line},
	{"md_cell_escapes_pipes_and_line_ends", md_cell_escapes_pipes_and_line_ends},
	{"rule_pads_title_to_76_columns", rule_pads_title_to_76_columns},
	{"rule_without_title_is_only_dashes", rule_without_title_is_only_dashes},
	{"csv_field_quotes_commas_and_doubles_quotes", csv_field_quotes_commas_and_doubles_quotes},
	{"md_cell_escapes_html", md_cell_escapes_html},
	{"md_text_escapes_html_and_line_ends", md_text_escapes_html_and_line_ends},
	{"csv_field_prefixes_formulas", csv_field_prefixes_formulas},
	{"csv_field_prefixes_formulas_after_blanks_and_controls", csv_field_prefixes_formulas_after_blanks_and_controls},
};
/* clang-format on */

TEST_MAIN(tests)
