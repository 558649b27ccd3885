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

#endif
