/* SPDX-License-Identifier: Apache-2.0 */
/* Wall-clock times as RFC 3339 text in UTC, to the millisecond. */
#ifndef HB_CORE_BASE_TIMETEXT_H
#define HB_CORE_BASE_TIMETEXT_H

#include <stddef.h>
#include <time.h>

/* "2026-12-02T06:04:31.123Z" and its NUL. */
#define TIMETEXT_LEN 32

/*
 * ts (CLOCK_REALTIME) as "YYYY-MM-DDTHH:MM:SS.mmmZ" in buf; milliseconds
 * truncated, never rounded into the next second. Pure. Returns 0, or
 * -EINVAL (buf "") for a time gmtime cannot break down.
 */
int timetext_rfc3339(const struct timespec *ts, char *buf, size_t len);

/* The forms timetext_parse() accepts, as a message lists them. */
#define TIMETEXT_FORMS                                                         \
	"YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS[.fff]] (UTC), or that with Z or "    \
	"+HH:MM / -HH:MM"

/*
 * text (an RFC 3339 date or time, TIMETEXT_FORMS; a blank may stand for
 * the T, a time without zone is UTC) as "YYYY-MM-DDTHH:MM:SS.mmmZ" in UTC
 * in buf, the form every stored time has, so times compare as text. A
 * date alone is its first millisecond, or with end_of_day its last.
 * Every field is checked (month 1-12, the month's days, 23:59:60 at
 * most). Pure. Returns 0, or -EINVAL (buf "") for anything else.
 */
int timetext_parse(const char *text, int end_of_day, char *buf, size_t len);

#endif
