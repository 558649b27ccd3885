/* SPDX-License-Identifier: Apache-2.0 */
/* ssh's own report of a session, read from the end of its stderr. */
#include "session.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The number after the last "key" that starts a line of text[0..len),
 * followed by a comma; NAN when there is none.
 */
static double last_number(const char *text, size_t len, const char *key)
{
	size_t klen = strlen(key);
	double v = NAN;

	for (size_t i = 0; i + klen < len; i++) {
		char num[64], *end;
		size_t n = 0;

		if ((i && text[i - 1] != '\n') ||
		    memcmp(text + i, key, klen) != 0)
			continue;
		while (i + klen + n < len && n + 1 < sizeof(num) &&
		       strchr("0123456789.", text[i + klen + n])) {
			num[n] = text[i + klen + n];
			n++;
		}
		num[n] = '\0';
		if (!n || i + klen + n >= len || text[i + klen + n] != ',')
			continue;
		v = strtod(num, &end);
		if (*end)
			v = NAN;
	}
	return v;
}

int session_seconds(const char *text, size_t len, double *seconds)
{
	double sent = last_number(text, len, "Transferred: sent ");
	double rate = last_number(text, len, "Bytes per second: sent ");

	if (!(sent > 0) || !(rate > 0) || !isfinite(sent) || !isfinite(rate))
		return -1;
	*seconds = sent / rate;
	return 0;
}
