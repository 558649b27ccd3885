/* SPDX-License-Identifier: Apache-2.0 */
/* Wall-clock times as RFC 3339 text in UTC. */
#include "base/timetext.h"

#include <errno.h>
#include <stdio.h>

int timetext_rfc3339(const struct timespec *ts, char *buf, size_t len)
{
	struct tm tm;

	if (len)
		buf[0] = '\0';
	if (!gmtime_r(&ts->tv_sec, &tm))
		return -EINVAL;
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ts->tv_nsec / 1000000);
	return 0;
}
