/* SPDX-License-Identifier: Apache-2.0 */
/* Suite value parsers: sizes, durations, integers, booleans, lists. */
#include <errno.h>

#include "check.h"
#include "base/parse.h"

static int size_is(const char *text, uint64_t want)
{
	char err[128] = "";
	uint64_t v = 0;

	if (parse_size(text, &v, err, sizeof(err)) != 0) {
		fprintf(stderr, "parse_size(\"%s\"): %s\n", text, err);
		return 0;
	}
	if (v != want)
		fprintf(stderr, "parse_size(\"%s\") = %llu, want %llu\n", text,
			(unsigned long long)v, (unsigned long long)want);
	return v == want;
}

static int parse_size_reads_plain_bytes(void)
{
	CHECK(size_is("4096", 4096));
	CHECK(size_is("0", 0));
	return 0;
}

static int parse_size_suffixes_are_powers_of_1024(void)
{
	CHECK(size_is("64K", 65536));
	CHECK(size_is("1M", 1048576));
	CHECK(size_is("2G", UINT64_C(2147483648)));
	CHECK(size_is("1T", UINT64_C(1099511627776)));
	return 0;
}

static int parse_size_kb_kib_and_case_read_the_same(void)
{
	CHECK(size_is("64KB", 65536));
	CHECK(size_is("64KiB", 65536));
	CHECK(size_is("64kb", 65536));
	CHECK(size_is("64k", 65536));
	CHECK(size_is("2MiB", 2097152));
	CHECK(size_is("512B", 512));
	return 0;
}

static int parse_size_allows_blanks_around(void)
{
	CHECK(size_is("  16M\t", 16777216));
	return 0;
}

static int parse_size_rejects_unknown_suffix(void)
{
	char err[128];
	uint64_t v;

	CHECK_INT(parse_size("16Q", &v, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "\"16Q\" is not a size (try 16M: bytes, or K, M, G, T, "
		       "P, E as 1G, 1GB, 1GiB or 1 GB: powers of 1024)");
	return 0;
}

static int parse_size_rejects_empty(void)
{
	char err[128];
	uint64_t v;

	CHECK_INT(parse_size("", &v, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "is not a size");
	CHECK_INT(parse_size("   ", &v, err, sizeof(err)), -EINVAL);
	return 0;
}

static int parse_size_rejects_signs(void)
{
	char err[128];
	uint64_t v;

	CHECK_INT(parse_size("-1", &v, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "\"-1\" is not a size");
	CHECK_INT(parse_size("+1", &v, err, sizeof(err)), -EINVAL);
	return 0;
}

static int parse_size_rejects_fractions_and_hex(void)
{
	char err[128];
	uint64_t v;

	CHECK_INT(parse_size("1.5M", &v, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "\"1.5M\" is not a size");
	CHECK_INT(parse_size("0x10", &v, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "\"0x10\" is not a size");
	return 0;
}

/* A unit may stand apart from its number, as people write it. */
static int parse_size_takes_a_blank_before_the_unit(void)
{
	const char *forms[] = { "1 GB", "1GB", "1 GiB", "1G", " 1 gib " };
	uint64_t v;

	for (size_t i = 0; i < sizeof(forms) / sizeof(*forms); i++) {
		v = 0;
		CHECK_INT(parse_size(forms[i], &v, NULL, 0), 0);
		CHECK(v == UINT64_C(1) << 30);
	}
	CHECK_INT(parse_size("1 G B", &v, NULL, 0), -EINVAL);
	return 0;
}

static int parse_duration_takes_a_blank_before_the_unit(void)
{
	double v = 0;

	CHECK_INT(parse_duration("500 ms", &v, NULL, 0), 0);
	CHECK_NEAR(v, 0.5, 1e-12);
	return 0;
}

/* The half of "file_size=1 GB" a shell split off is a unit alone. */
static int parse_is_unit_knows_size_and_duration_units(void)
{
	CHECK(parse_is_unit("GB"));
	CHECK(parse_is_unit("KiB"));
	CHECK(parse_is_unit("ms"));
	CHECK(!parse_is_unit("lab.ini"));
	CHECK(!parse_is_unit("1G"));
	CHECK(!parse_is_unit(""));
	return 0;
}

static int parse_size_rejects_overflow(void)
{
	char err[128];
	uint64_t v;

	CHECK_INT(parse_size("99999999999999999999", &v, err, sizeof(err)),
		  -ERANGE);
	CHECK_CONTAINS(err, "too large");
	CHECK_INT(parse_size("17179869184G", &v, err, sizeof(err)), -ERANGE);
	CHECK_INT(parse_size("16E", &v, err, sizeof(err)), -ERANGE);
	CHECK(size_is("18446744073709551615", UINT64_MAX));
	return 0;
}

static int parse_duration_reads_units(void)
{
	char err[128];
	double d;

	CHECK_INT(parse_duration("500ms", &d, err, sizeof(err)), 0);
	CHECK_NEAR(d, 0.5, 1e-12);
	CHECK_INT(parse_duration("2s", &d, err, sizeof(err)), 0);
	CHECK_NEAR(d, 2, 1e-12);
	CHECK_INT(parse_duration("1.5s", &d, err, sizeof(err)), 0);
	CHECK_NEAR(d, 1.5, 1e-12);
	CHECK_INT(parse_duration("1m", &d, err, sizeof(err)), 0);
	CHECK_NEAR(d, 60, 1e-12);
	CHECK_INT(parse_duration("1h", &d, err, sizeof(err)), 0);
	CHECK_NEAR(d, 3600, 1e-12);
	return 0;
}

static int parse_duration_bare_number_is_seconds(void)
{
	char err[128];
	double d;

	CHECK_INT(parse_duration(" 90 ", &d, err, sizeof(err)), 0);
	CHECK_NEAR(d, 90, 1e-12);
	return 0;
}

static int parse_duration_rejects_zero(void)
{
	char err[128];
	double d;

	CHECK_INT(parse_duration("0", &d, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "\"0\" is not a duration above zero");
	CHECK_INT(parse_duration("0ms", &d, err, sizeof(err)), -EINVAL);
	return 0;
}

static int parse_duration_rejects_negative_and_words(void)
{
	char err[128];
	double d;

	CHECK_INT(parse_duration("-1s", &d, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "\"-1s\" is not a duration (try 500ms, 2s or 1m)");
	CHECK_INT(parse_duration("abc", &d, err, sizeof(err)), -EINVAL);
	CHECK_INT(parse_duration("inf", &d, err, sizeof(err)), -EINVAL);
	CHECK_INT(parse_duration("1e3", &d, err, sizeof(err)), -EINVAL);
	CHECK_INT(parse_duration("1d", &d, err, sizeof(err)), -EINVAL);
	CHECK_INT(parse_duration(".5s", &d, err, sizeof(err)), -EINVAL);
	CHECK_INT(parse_duration("", &d, err, sizeof(err)), -EINVAL);
	return 0;
}

static int parse_int_reads_signed_decimal(void)
{
	char err[128];
	int64_t v;

	CHECK_INT(parse_int(" -42 ", &v, err, sizeof(err)), 0);
	CHECK_INT(v, -42);
	CHECK_INT(parse_int("+7", &v, err, sizeof(err)), 0);
	CHECK_INT(v, 7);
	CHECK_INT(parse_int("-9223372036854775808", &v, err, sizeof(err)), 0);
	CHECK(v == INT64_MIN);
	return 0;
}

static int parse_int_rejects_garbage_and_overflow(void)
{
	char err[128];
	int64_t v;

	CHECK_INT(parse_int("4k", &v, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "\"4k\" is not an integer");
	CHECK_INT(parse_int("", &v, err, sizeof(err)), -EINVAL);
	CHECK_INT(parse_int("9223372036854775808", &v, err, sizeof(err)),
		  -ERANGE);
	CHECK_CONTAINS(err, "out of range");
	return 0;
}

static int parse_bool_reads_every_spelling(void)
{
	static const char *const yes[] = { "true", "YES", "on", "1" };
	static const char *const no[] = { "false", "No", "OFF", " 0 " };
	char err[128];
	int b;

	for (size_t i = 0; i < 4; i++) {
		CHECK_INT(parse_bool(yes[i], &b, err, sizeof(err)), 0);
		CHECK_INT(b, 1);
		CHECK_INT(parse_bool(no[i], &b, err, sizeof(err)), 0);
		CHECK_INT(b, 0);
	}
	return 0;
}

static int parse_bool_rejects_other_words(void)
{
	char err[128];
	int b;

	CHECK_INT(parse_bool("maybe", &b, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "\"maybe\" is not a boolean");
	return 0;
}

static int parse_list_splits_and_trims(void)
{
	struct strlist l = { 0 };
	char err[128];

	CHECK_INT(parse_list("a, b ,c", &l, err, sizeof(err)), 0);
	CHECK_INT(l.n, 3);
	CHECK_STR(l.items[0], "a");
	CHECK_STR(l.items[1], "b");
	CHECK_STR(l.items[2], "c");
	strlist_free(&l);
	CHECK_INT(parse_list("single", &l, err, sizeof(err)), 0);
	CHECK_INT(l.n, 1);
	CHECK_STR(l.items[0], "single");
	strlist_free(&l);
	return 0;
}

static int parse_list_rejects_empty_items(void)
{
	struct strlist l = { 0 };
	char err[128];

	CHECK_INT(parse_list("a,,b", &l, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "\"a,,b\" has an empty list item");
	CHECK_INT(parse_list("a,", &l, err, sizeof(err)), -EINVAL);
	CHECK_INT(parse_list(",a", &l, err, sizeof(err)), -EINVAL);
	CHECK_INT(parse_list("", &l, err, sizeof(err)), -EINVAL);
	CHECK_STR(err, "empty value");
	CHECK_INT(l.n, 0);
	return 0;
}

static int parse_list_quoted_item_keeps_commas(void)
{
	struct strlist l = { 0 };
	char err[128];

	CHECK_INT(parse_list("\"provider=default,fips=no\", x", &l, err,
			     sizeof(err)),
		  0);
	CHECK_INT(l.n, 2);
	CHECK_STR(l.items[0], "provider=default,fips=no");
	CHECK_STR(l.items[1], "x");
	strlist_free(&l);
	return 0;
}

static int parse_list_rejects_unterminated_quote(void)
{
	struct strlist l = { 0 };
	char err[128];

	CHECK_INT(parse_list("\"a,b", &l, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "unterminated quote");
	CHECK_INT(parse_list("\"a\"b, c", &l, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "after a closing quote");
	return 0;
}

static int format_size_picks_largest_exact_unit(void)
{
	char buf[32];

	parse_format_size(1048576, buf, sizeof(buf));
	CHECK_STR(buf, "1M");
	parse_format_size(65536, buf, sizeof(buf));
	CHECK_STR(buf, "64K");
	parse_format_size(1000, buf, sizeof(buf));
	CHECK_STR(buf, "1000");
	parse_format_size(1536 * 1024, buf, sizeof(buf));
	CHECK_STR(buf, "1536K");
	parse_format_size(0, buf, sizeof(buf));
	CHECK_STR(buf, "0");
	parse_format_size(UINT64_C(2147483648), buf, sizeof(buf));
	CHECK_STR(buf, "2G");
	return 0;
}

static int format_size_reads_back_with_parse_size(void)
{
	static const uint64_t values[] = { 1, 1023, 4096, 3 << 20, UINT64_MAX };
	char buf[32];

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		parse_format_size(values[i], buf, sizeof(buf));
		CHECK(size_is(buf, values[i]));
	}
	return 0;
}

static int edit_distance_counts_edits(void)
{
	CHECK_INT(parse_edit_distance("size", "size"), 0);
	CHECK_INT(parse_edit_distance("sise", "size"), 1);
	CHECK_INT(parse_edit_distance("szie", "size"), 2);
	CHECK_INT(parse_edit_distance("", "abc"), 3);
	CHECK_INT(parse_edit_distance("kitten", "sitting"), 3);
	CHECK_INT(parse_edit_distance("SIZE", "size"), 0);
	return 0;
}

/* One line per test: CTest registers each line by its name. */
/* clang-format off */
static const struct test tests[] = {
	{"parse_size_reads_plain_bytes", parse_size_reads_plain_bytes},
	{"parse_size_suffixes_are_powers_of_1024", parse_size_suffixes_are_powers_of_1024},
	{"parse_size_kb_kib_and_case_read_the_same", parse_size_kb_kib_and_case_read_the_same},
	{"parse_size_allows_blanks_around", parse_size_allows_blanks_around},
	{"parse_size_rejects_unknown_suffix", parse_size_rejects_unknown_suffix},
	{"parse_size_rejects_empty", parse_size_rejects_empty},
	{"parse_size_rejects_signs", parse_size_rejects_signs},
	{"parse_size_rejects_fractions_and_hex", parse_size_rejects_fractions_and_hex},
	{"parse_size_takes_a_blank_before_the_unit", parse_size_takes_a_blank_before_the_unit},
	{"parse_duration_takes_a_blank_before_the_unit", parse_duration_takes_a_blank_before_the_unit},
	{"parse_is_unit_knows_size_and_duration_units", parse_is_unit_knows_size_and_duration_units},
	{"parse_size_rejects_overflow", parse_size_rejects_overflow},
	{"parse_duration_reads_units", parse_duration_reads_units},
	{"parse_duration_bare_number_is_seconds", parse_duration_bare_number_is_seconds},
	{"parse_duration_rejects_zero", parse_duration_rejects_zero},
	{"parse_duration_rejects_negative_and_words", parse_duration_rejects_negative_and_words},
	{"parse_int_reads_signed_decimal", parse_int_reads_signed_decimal},
	{"parse_int_rejects_garbage_and_overflow", parse_int_rejects_garbage_and_overflow},
	{"parse_bool_reads_every_spelling", parse_bool_reads_every_spelling},
	{"parse_bool_rejects_other_words", parse_bool_rejects_other_words},
	{"parse_list_splits_and_trims", parse_list_splits_and_trims},
	{"parse_list_rejects_empty_items", parse_list_rejects_empty_items},
	{"parse_list_quoted_item_keeps_commas", parse_list_quoted_item_keeps_commas},
	{"parse_list_rejects_unterminated_quote", parse_list_rejects_unterminated_quote},
	{"format_size_picks_largest_exact_unit", format_size_picks_largest_exact_unit},
	{"format_size_reads_back_with_parse_size", format_size_reads_back_with_parse_size},
	{"edit_distance_counts_edits", edit_distance_counts_edits},
};
/* clang-format on */

TEST_MAIN(tests)
