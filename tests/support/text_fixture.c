/* SPDX-License-Identifier: Apache-2.0 */
/* Writers' output caught in strings, for the unit tests. */
#define _GNU_SOURCE
#include "text_fixture.h"

#include <errno.h>
#include <string.h>

char *text_written(text_writer write, const void *arg, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		*rc = -errno;
		return NULL;
	}
	*rc = write(f, arg);
	fclose(f);
	return text;
}

size_t text_count(const char *s, const char *needle)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, needle)); p++)
		n++;
	return n;
}
