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

/* clang-format off */
static const struct test tests[] = {
	{"escape_sequences_lose_their_escape", escape_sequences_lose_their_escape},
	{"line_ends_and_tabs_become_blanks", line_ends_and_tabs_become_blanks},
	{"utf8_text_stays", utf8_text_stays},
	{"c1_controls_and_bad_utf8_become_question_marks", c1_controls_and_bad_utf8_become_question_marks},
	{"bidi_controls_and_line_separators_become_question_marks", bidi_controls_and_line_separators_become_question_marks},
	{"counts_what_it_replaced", counts_what_it_replaced},
	{"json_strings_and_keys_are_cleaned", json_strings_and_keys_are_cleaned},
};
/* clang-format on */

TEST_MAIN(tests)
