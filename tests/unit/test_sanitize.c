/* SPDX-License-Identifier: Apache-2.0 */
/* The sanitizer for text from outside: what a terminal or report sees. */
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "check.h"

/* sanitize_text() of a copy of in, compared with want. */
static int cleans_to(const char *in, const char *want)
{
	char *s = strdup(in);
	int ok = s && (sanitize_text(s), strcmp(s, want) == 0);

	if (s && !ok)
		fprintf(stderr, "sanitize(\"%s\") is \"%s\", want \"%s\"\n", in,
			s, want);
	free(s);
	return ok;
}

static int escape_sequences_lose_their_escape(void)
{
	/* retitle the terminal, clear the screen */
	CHECK(cleans_to("\x1b]0;pwned\x07\x1b[2Jok", "?]0;pwned??[2Jok"));
	return 0;
}

static int line_ends_and_tabs_become_blanks(void)
{
	CHECK(cleans_to("refused\nAES : 8 Pbit/s\r\tx",
			"refused AES : 8 Pbit/s  x"));
	return 0;
}

static int utf8_text_stays(void)
{
	CHECK(cleans_to("débit ±0.8% 速度", "débit ±0.8% 速度"));
	return 0;
}

static int c1_controls_and_bad_utf8_become_question_marks(void)
{
	/* U+009B is an 8-bit CSI; 0x9b alone and a cut sequence are bad */
	CHECK(cleans_to("a\xc2\x9b"
			"b\x9b"
			"c\xe2\x82",
			"a??b?c??"));
	CHECK(cleans_to("del\x7f", "del?"));
	return 0;
}

static int bidi_controls_and_line_separators_become_question_marks(void)
{
	/* U+202E reverses what follows; U+2066 isolates; U+2028 breaks a line
	 */
	CHECK(cleans_to("evil\xe2\x80\xaetxt.exe", "evil???txt.exe"));
	CHECK(cleans_to("a\xe2\x81\xa6"
			"b\xe2\x80\xa8"
			"c\xd8\x9c"
			"d",
			"a???b???c??d"));
	/* their neighbours stay: U+2030 per mille, U+2065 unassigned */
	CHECK(cleans_to("\xe2\x80\xb0\xe2\x81\xa5",
			"\xe2\x80\xb0\xe2\x81\xa5"));
	return 0;
}

static int counts_what_it_replaced(void)
{
	char s[] = "a\x1b"
		   "b\n";

	CHECK_INT(sanitize_text(s), 2);
	CHECK_INT(sanitize_text(NULL), 0);
	return 0;
}

static int json_strings_and_keys_are_cleaned(void)
{
	json_t *o = json_pack("{s:s, s:[s], s:{s:i}}", "title", "a\x1b[2J",
			      "list", "x\ny", "k\x07", "v", 1);
	char *text;
	int ok;

	CHECK(o);
	CHECK_INT(sanitize_json(o), 0);
	text = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS);
	ok = text && strcmp(text, "{\"k?\":{\"v\":1},\"list\":[\"x y\"],"
				  "\"title\":\"a?[2J\"}") == 0;
	if (!ok)
		fprintf(stderr, "got %s\n", text ? text : "(null)");
	free(text);
	json_decref(o);
	CHECK(ok);
	return 0;
}

static int cut_len_never_splits_a_character(void)
{
	/* "é" is c3 a9: a cut at 2 would keep half of it */
	CHECK_INT(sanitize_cut_len("a\xc3\xa9z", 2), 1);
	CHECK_INT(sanitize_cut_len("a\xc3\xa9z", 3), 3);
	/* a 4-byte character cut anywhere inside goes whole */
	CHECK_INT(sanitize_cut_len("\xf0\x9f\x98\x80!", 3), 0);
	CHECK_INT(sanitize_cut_len("abc", 3), 3);
	CHECK_INT(sanitize_cut_len("abc", 100), 3);
	/* bad UTF-8 (continuation bytes alone): cut 3 bytes back at most */
	CHECK_INT(sanitize_cut_len("\x80\x80\x80\x80\x80\x80\x80", 6), 3);
	return 0;
}

static int copy_is_cut_and_cleaned(void)
{
	char *c = sanitize_copy("\x1b]0;pwned\x07\nhostbench: forged", 20);

	CHECK(c);
	CHECK_STR(c, "?]0;pwned? hostbench");
	free(c);
	return 0;
}

static int fits_only_clean_text_within_its_bound(void)
{
	CHECK(sanitize_fits("abc", 3));
	CHECK(sanitize_fits("", 0));
	CHECK(!sanitize_fits("abcd", 3));
	CHECK(!sanitize_fits("a\x1b", 9));
	CHECK(!sanitize_fits("a\xff", 9));
	return 0;
}

/* doc's compact text with sorted keys equals want. */
static int dumps_as(const json_t *doc, const char *want)
{
	char *text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	int ok = text && strcmp(text, want) == 0;

	if (!ok)
		fprintf(stderr, "got %s\nwant %s\n", text ? text : "(null)",
			want);
	free(text);
	return ok;
}

static int json_bounded_cuts_each_string_to_its_keys_bound(void)
{
	static const struct sanitize_bound keys[] = { { "host", 3 },
						      { NULL, 0 } };
	static const struct sanitize_limits lim = { keys, 5 };
	json_t *o = json_pack("{s:s, s:[s, s], s:{s:s}, s:s}", "host", "abcdef",
			      "list", "0123456789", "x\ny", "sub", "host",
			      "\x1b[2Jzz", "longkey!", "v");
	size_t changed = 0;
	int ok;

	CHECK(o);
	CHECK_INT(sanitize_json_bounded(o, &lim, &changed), 0);
	/* in an array or an object, a string keeps its key's bound; keys
	   are cut to the default one */
	ok = dumps_as(o, "{\"host\":\"abc\",\"list\":[\"01234\",\"x y\"],"
			 "\"longk\":\"v\",\"sub\":{\"host\":\"?[2\"}}");
	json_decref(o);
	CHECK(ok);
	CHECK_INT(changed, 5);
	return 0;
}

static int json_bounded_counts_nothing_for_text_as_written(void)
{
	static const struct sanitize_limits lim = { NULL, 8 };
	json_t *o = json_pack("{s:s, s:[i, s]}", "a", "short", "b", 1, "ok");
	size_t changed = 99;

	CHECK(o);
	CHECK_INT(sanitize_json_bounded(o, &lim, &changed), 0);
	json_decref(o);
	CHECK_INT(changed, 0);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"escape_sequences_lose_their_escape", escape_sequences_lose_their_escape},
	{"line_ends_and_tabs_become_blanks", line_ends_and_tabs_become_blanks},
	{"utf8_text_stays", utf8_text_stays},
	{"c1_controls_and_bad_utf8_become_question_marks", c1_controls_and_bad_utf8_become_question_marks},
	{"bidi_controls_and_line_separators_become_question_marks", bidi_controls_and_line_separators_become_question_marks},
	{"counts_what_it_replaced", counts_what_it_replaced},
	{"json_strings_and_keys_are_cleaned", json_strings_and_keys_are_cleaned},
	{"cut_len_never_splits_a_character", cut_len_never_splits_a_character},
	{"copy_is_cut_and_cleaned", copy_is_cut_and_cleaned},
	{"fits_only_clean_text_within_its_bound", fits_only_clean_text_within_its_bound},
	{"json_bounded_cuts_each_string_to_its_keys_bound", json_bounded_cuts_each_string_to_its_keys_bound},
	{"json_bounded_counts_nothing_for_text_as_written", json_bounded_counts_nothing_for_text_as_written},
};
/* clang-format on */

TEST_MAIN(tests)
