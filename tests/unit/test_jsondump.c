/* SPDX-License-Identifier: Apache-2.0 */
/* JSON text as jansson writes it, with its reals' digits computed fast. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "base/jsondump.h"

/* Does jsondump_g17(v) write what printf's "%.17g" does? */
static int g17_is_printf(double v)
{
	char got[40], want[40];

	jsondump_g17(v, got, sizeof(got));
	snprintf(want, sizeof(want), "%.17g", v);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "%a: got %s, want %s\n", v, got, want);
	return strcmp(got, want) == 0;
}

/* A reproducible 64-bit stream (xorshift64*). */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

static int g17_matches_printf_on_every_exponent(void)
{
	uint64_t s = 0x9e3779b97f4a7c15ULL;

	for (int i = 0; i < 200000; i++) {
		uint64_t bits = next(&s);
		double v;

		memcpy(&v, &bits, sizeof(v));
		if (isfinite(v))
			CHECK(g17_is_printf(v));
	}
	return 0;
}

static int g17_matches_printf_on_measured_values(void)
{
	uint64_t s = 42;

	/* medians, bounds and CVs of a run: 1e-6 .. 1e12 */
	for (int i = 0; i < 200000; i++) {
		double v = (double)(next(&s) >> 11) / 9007199254740992.0;

		CHECK(g17_is_printf(v * pow(10, i % 19 - 6)));
	}
	return 0;
}

static int g17_matches_printf_on_edges(void)
{
	static const double edges[] = {
		0.0,
		-0.0,
		1.0,
		-1.0,
		0.1,
		0.5,
		1e16,
		1e17,
		99999999999999999.0,
		1e-4,
		1e-5,
		0.0001234,
		123456789012345678.0,
		1e21,
		1e22,
		9.999999999999999e16,
		5e-324,
		2.2250738585072014e-308,
		1.7976931348623157e308,
		4503599627370496.5,
		0.30000000000000004,
	};

	for (size_t i = 0; i < sizeof(edges) / sizeof(edges[0]); i++) {
		CHECK(g17_is_printf(edges[i]));
		CHECK(g17_is_printf(nextafter(edges[i], 1e300)));
		CHECK(g17_is_printf(nextafter(edges[i], -1e300)));
	}
	for (int e = -30; e <= 40; e++)
		CHECK(g17_is_printf(pow(10, e)));
	return 0;
}

static int text_is_what_jansson_writes(void)
{
	json_t *doc = json_pack(
		"{s:i, s:s, s:[], s:{}, s:[f, f, f, f, f, f], s:n, s:b, s:b, "
		"s:{s:[{s:s}, {s:I}]}}",
		"n", 3, "str", "q\"uo\\te\n\t\r\b\f\x01 caf\xc3\xa9 /", "empty",
		"none", "reals", 1.0, -2.5e-7, 1e22, 108236166487.06502, 0.1,
		-0.0, "null", "yes", 1, "no", 0, "deep", "list", "k", "v",
		"big", (json_int_t)-9007199254740993LL);
	char *want = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	char *got = jsondump_text(doc);

	CHECK(want && got);
	CHECK_STR(got, want);
	free(want);
	free(got);
	json_decref(doc);
	return 0;
}

static int text_of_nothing_is_null(void)
{
	CHECK(jsondump_text(NULL) == NULL);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"g17_matches_printf_on_every_exponent", g17_matches_printf_on_every_exponent},
	{"g17_matches_printf_on_measured_values", g17_matches_printf_on_measured_values},
	{"g17_matches_printf_on_edges", g17_matches_printf_on_edges},
	{"text_is_what_jansson_writes", text_is_what_jansson_writes},
	{"text_of_nothing_is_null", text_of_nothing_is_null},
};
/* clang-format on */

TEST_MAIN(tests)
