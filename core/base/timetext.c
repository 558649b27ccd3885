/* SPDX-License-Identifier: Apache-2.0 */
/* Wall-clock times as RFC 3339 text in UTC. */
#include "base/timetext.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

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

/* n digits at *p as a number into *v, *p moved past them; -1 if not. */
static int digits(const char **p, int n, int *v)
{
	*v = 0;
	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		*v = *v * 10 + (**p - '0');
	}
	return 0;
}

/* Days in month mon (1-12) of year. */
static int month_days(int year, int mon)
{
	static const int days[] = { 31, 28, 31, 30, 31, 30,
				    31, 31, 30, 31, 30, 31 };
	int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;

	return days[mon - 1] + (mon == 2 && leap);
}

/* "YYYY-MM-DD" at *p into tm, checked. */
static int date_part(const char **p, struct tm *tm)
{
	int y, m, d;

	if (digits(p, 4, &y) || *(*p)++ != '-' || digits(p, 2, &m) ||
	    *(*p)++ != '-' || digits(p, 2, &d) || m < 1 || m > 12 || d < 1 ||
	    d > month_days(y, m))
		return -1;
	*tm = (struct tm){ .tm_year = y - 1900, .tm_mon = m - 1, .tm_mday = d };
	return 0;
}

/* "HH:MM[:SS[.fff]]" at *p into tm and *ms, checked. */
static int time_part(const char **p, struct tm *tm, long *ms)
{
	int scale = 100, v;

	if (digits(p, 2, &tm->tm_hour) || *(*p)++ != ':' ||
	    digits(p, 2, &tm->tm_min) || tm->tm_hour > 23 || tm->tm_min > 59)
		return -1;
	if (**p != ':')
		return 0;
	(*p)++;
	if (digits(p, 2, &tm->tm_sec) || tm->tm_sec > 60)
		return -1;
	if (**p != '.')
		return 0;
	if (!isdigit((unsigned char)*++(*p)))
		return -1;
	for (; isdigit((unsigned char)**p); (*p)++, scale /= 10) {
		v = **p - '0';
		*ms += scale ? v * scale : 0; /* truncated, never rounded */
	}
	return 0;
}

/* The zone at p ("", "Z", "+HH:MM", "-HH:MM") in seconds east of UTC. */
static int zone_part(const char *p, long *east)
{
	int sign = *p == '-' ? -1 : 1, h, m;

	*east = 0;
	if (!*p || ((*p == 'Z' || *p == 'z') && !p[1]))
		return 0;
	if (*p != '+' && *p != '-')
		return -1;
	p++;
	if (digits(&p, 2, &h) || *p++ != ':' || digits(&p, 2, &m) || *p ||
	    h > 23 || m > 59)
		return -1;
	*east = sign * (h * 3600L + m * 60L);
	return 0;
}

int timetext_parse(const char *text, int end_of_day, char *buf, size_t len)
{
	struct timespec ts = { 0 };
	const char *p = text;
	struct tm tm;
	long ms = 0, east = 0;
	int leap;

	if (len)
		buf[0] = '\0';
	if (!p || date_part(&p, &tm))
		return -EINVAL;
	if (!*p && end_of_day) {
		tm.tm_hour = 23;
		tm.tm_min = 59;
		tm.tm_sec = 59;
		ms = 999;
	} else if (*p) {
		if ((*p != 'T' && *p != 't' && *p != ' ') ||
		    (p++, time_part(&p, &tm, &ms)) || zone_part(p, &east))
			return -EINVAL;
	}
	leap = tm.tm_sec == 60; /* a leap second: its second 59 */
	tm.tm_sec -= leap;
	ts.tv_sec = timegm(&tm) - east;
	ts.tv_nsec = ms * 1000000;
	if (timetext_rfc3339(&ts, buf, len))
		return -EINVAL;
	return 0;
}
