/* SPDX-License-Identifier: Apache-2.0 */
/*
 * timetext_parse: the dates --since and --until take, as the UTC text
 * every stored time has; anything else refused.
 */
#include <errno.h>

#include "base/timetext.h"
#include "check.h"

static int date_alone_is_its_first_or_last_millisecond(void)
{
	char buf[TIMETEXT_LEN];

	CHECK_INT(timetext_parse("2026-02-28", 0, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "2026-02-28T00:00:00.000Z");
	CHECK_INT(timetext_parse("2026-02-28", 1, buf, sizeof(buf)), 0);
	CHECK_STR(buf, "2026-02-28T23:59:59.999Z");
	return 0;
}

static int time_with_zone_becomes_utc(void)
{
	char buf[TIMETEXT_LEN];

	CHECK_INT(timetext_parse("2026-03-01T01:30+02:00", 0, buf, sizeof(buf)),
		  0);
	CHECK_STR(buf, "2026-02-28T23:30:00.000Z");
	CHECK_INT(timetext_parse("2026-12-31 23:59:58.1234Z", 0, buf,
				 sizeof(buf)),
		  0);
	CHECK_STR(buf, "2026-12-31T23:59:58.123Z");
	CHECK_INT(timetext_parse("2026-12-31T22:00:00-03:00", 0, buf,
				 sizeof(buf)),
		  0);
	CHECK_STR(buf, "2027-01-01T01:00:00.000Z");
	return 0;
}

static int leap_day_only_in_a_leap_year(void)
{
	char buf[TIMETEXT_LEN];

	CHECK_INT(timetext_parse("2028-02-29", 0, buf, sizeof(buf)), 0);
	CHECK_INT(timetext_parse("2026-02-29", 0, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(timetext_parse("2100-02-29", 0, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(timetext_parse("2000-02-29", 0, buf, sizeof(buf)), 0);
	return 0;
}

static int anything_else_is_refused(void)
{
	static const char *const bad[] = {
		"yesterday",
		"2026-13-45",
		"2026-00-10",
		"2026-04-31",
		"26-01-01",
		"2026-1-1",
		"2026-01-01T24:00",
		"2026-01-01T10:60",
		"2026-01-01T10:00:61",
		"2026-01-01T10",
		"2026-01-01T10:00+2",
		"2026-01-01x",
		"2026-01-01T10:00.",
		"",
	};
	char buf[TIMETEXT_LEN] = "x";

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(timetext_parse(bad[i], 0, buf, sizeof(buf)), -EINVAL);
		CHECK_STR(buf, "");
	}
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"date_alone_is_its_first_or_last_millisecond", date_alone_is_its_first_or_last_millisecond},
	{"time_with_zone_becomes_utc", time_with_zone_becomes_utc},
	{"leap_day_only_in_a_leap_year", leap_day_only_in_a_leap_year},
	{"anything_else_is_refused", anything_else_is_refused},
};
/* clang-format on */

TEST_MAIN(tests)
