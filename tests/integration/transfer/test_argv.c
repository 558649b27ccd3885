/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command template functions of transfer/command
 * (plugins/transfer/plugin/argv.c): splitting like a shell without
 * expansion, and placeholders filled inside one argument.
 */
#include <stdlib.h>
#include <string.h>

#include "argv.h"
#include "check.h"

/* Placeholder values for the tests: {cipher} and {empty} exist. */
static const char *lookup(void *ctx, const char *name)
{
	(void)ctx;
	if (strcmp(name, "cipher") == 0)
		return "aes128-ctr; rm -rf /";
	if (strcmp(name, "empty") == 0)
		return "";
	return NULL;
}

/* Split text and compare with the expected words, joined by '|'. */
static int split_is(const char *text, const char *want)
{
	struct words w;
	char joined[512] = "";
	int rc = argv_split(text, &w, NULL, 0);

	if (rc)
		return 0;
	for (size_t i = 0; i < w.n; i++) {
		if (i)
			strcat(joined, "|");
		strcat(joined, w.w[i]);
	}
	rc = strcmp(joined, want) == 0 && w.w[w.n] == NULL;
	if (!rc)
		fprintf(stderr, "split(%s) = %s, want %s\n", text, joined,
			want);
	words_free(&w);
	return rc;
}

static int split_on_blanks(void)
{
	CHECK(split_is("  scp  -c\taes {file} host:/dev/null ",
		       "scp|-c|aes|{file}|host:/dev/null"));
	return 0;
}

static int split_keeps_single_quotes_literal(void)
{
	CHECK(split_is("sh -c 'a \"b\" \\n $x'", "sh|-c|a \"b\" \\n $x"));
	return 0;
}

static int split_double_quotes_escape_quote_and_backslash(void)
{
	CHECK(split_is("echo \"a b\\\"c\\\\d\\e\"", "echo|a b\"c\\d\\e"));
	return 0;
}

static int split_backslash_escapes_blank(void)
{
	CHECK(split_is("touch a\\ b 'c'd\"e\"", "touch|a b|cde"));
	return 0;
}

static int split_keeps_empty_quoted_word(void)
{
	CHECK(split_is("prog '' \"\"", "prog||"));
	return 0;
}

static int split_rejects_unterminated_quote(void)
{
	struct words w;
	char err[128];

	CHECK_INT(argv_split("echo 'oops", &w, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "unterminated");
	CHECK_INT(argv_split("echo \"oops", &w, err, sizeof(err)), -1);
	return 0;
}

static int split_rejects_empty_command(void)
{
	struct words w;
	char err[128];

	CHECK_INT(argv_split("   ", &w, err, sizeof(err)), -1);
	CHECK_CONTAINS(err, "empty");
	return 0;
}

static int expand_keeps_value_in_one_argument(void)
{
	char *out;

	CHECK_INT(argv_expand("-c{cipher}x", lookup, NULL, &out, NULL, 0), 0);
	CHECK_STR(out, "-caes128-ctr; rm -rf /x");
	free(out);
	return 0;
}

static int expand_doubled_braces_are_literal(void)
{
	char *out;

	CHECK_INT(argv_expand("{{a}}{empty}}}", lookup, NULL, &out, NULL, 0),
		  0);
	CHECK_STR(out, "{a}}");
	free(out);
	return 0;
}

static int expand_unknown_name_is_an_error(void)
{
	char *out = NULL, err[200];

	CHECK_INT(argv_expand("x{nope}", lookup, NULL, &out, err, sizeof(err)),
		  -1);
	CHECK_CONTAINS(err, "{nope} names no parameter");
	CHECK(out == NULL);
	return 0;
}

static int expand_unclosed_brace_is_an_error(void)
{
	char *out = NULL, err[200];

	CHECK_INT(argv_expand("a{cipher", lookup, NULL, &out, err, sizeof(err)),
		  -1);
	CHECK_CONTAINS(err, "not a {name} placeholder");
	return 0;
}

static const struct test tests[] = {
	{ "split_on_blanks", split_on_blanks },
	{ "split_keeps_single_quotes_literal",
	  split_keeps_single_quotes_literal },
	{ "split_double_quotes_escape_quote_and_backslash",
	  split_double_quotes_escape_quote_and_backslash },
	{ "split_backslash_escapes_blank", split_backslash_escapes_blank },
	{ "split_keeps_empty_quoted_word", split_keeps_empty_quoted_word },
	{ "split_rejects_unterminated_quote",
	  split_rejects_unterminated_quote },
	{ "split_rejects_empty_command", split_rejects_empty_command },
	{ "expand_keeps_value_in_one_argument",
	  expand_keeps_value_in_one_argument },
	{ "expand_doubled_braces_are_literal",
	  expand_doubled_braces_are_literal },
	{ "expand_unknown_name_is_an_error", expand_unknown_name_is_an_error },
	{ "expand_unclosed_brace_is_an_error",
	  expand_unclosed_brace_is_an_error },
};

TEST_MAIN(tests)
