/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fuzz the reading of PostgreSQL URLs (base/pgurl.h) against libpq's own
 * parser: when libpq reads a URL and its masked copy alike but for the
 * passwords (a masked value with '/' or '@' in it can change how the
 * copy reads), the copy gives libpq no password but the stand-in; and
 * pgurl_take() never crashes nor leaks. Any crash, leak or sanitizer
 * report is a bug.
 */
#include <libpq-fe.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/pgurl.h"

/* Nonzero for the keywords whose values are masked. */
static int secret(const char *keyword)
{
	return strcmp(keyword, "password") == 0 ||
	       strcmp(keyword, "sslpassword") == 0;
}

/* Nonzero when a and b (libpq's) hold the same values but passwords. */
static int alike(const PQconninfoOption *a, const PQconninfoOption *b)
{
	for (; a->keyword && b->keyword; a++, b++)
		if (!secret(a->keyword) &&
		    (!a->val != !b->val || (a->val && strcmp(a->val, b->val))))
			return 0;
	return 1;
}

/* abort() when masked reads as url but for a password not "***". */
static void only_stars(const char *url, const char *masked)
{
	PQconninfoOption *o = PQconninfoParse(url, NULL);
	PQconninfoOption *m = o ? PQconninfoParse(masked, NULL) : NULL;

	for (PQconninfoOption *p = m; m && alike(o, m) && p->keyword; p++)
		if (secret(p->keyword) && p->val && *p->val &&
		    strcmp(p->val, "***") != 0)
			abort();
	PQconninfoFree(o);
	PQconninfoFree(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 14), *masked, *rest, *value;
	size_t n;

	if (!text)
		return 0;
	memcpy(text, "postgresql://", 13); /* the scheme libpq reads */
	memcpy(text + 13, data, size);
	text[size + 13] = '\0';
	n = pgurl_mask(text, "***", NULL, 0) + 1;
	masked = malloc(n);
	if (masked) {
		pgurl_mask(text, "***", masked, n);
		only_stars(text, masked);
	}
	if (pgurl_take(text, "require_auth", &rest, &value) == 0) {
		free(rest);
		free(value);
	}
	free(masked);
	free(text);
	return 0;
}
