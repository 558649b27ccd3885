/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers every JSON writer of the core shares (jansson). */
#include "base/jsonw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/*
 * The number of continuation bytes after UTF-8 lead byte c (-1 when c
 * cannot start a sequence), with the lead's bits in *cp and the smallest
 * code point that sequence length may encode in *min.
 */
static int utf8_lead(unsigned char c, unsigned long *cp, unsigned long *min)
{
	static const struct {
		unsigned char mask, value, bits;
		unsigned long min;
	} leads[] = {
		{ 0xe0, 0xc0, 0x1f, 0x80 },
		{ 0xf0, 0xe0, 0x0f, 0x800 },
		{ 0xf8, 0xf0, 0x07, 0x10000 },
	};

	for (int i = 0; i < 3; i++) {
		if ((c & leads[i].mask) == leads[i].value) {
			*cp = c & leads[i].bits;
			*min = leads[i].min;
			return i + 1;
		}
	}
	return -1;
}

/* Nonzero when s is well-formed UTF-8 (no overlongs, no surrogates). */
static int utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned long cp, min;
		int n;

		if (*p < 0x80) {
			p++;
			continue;
		}
		n = utf8_lead(*p, &cp, &min);
		if (n < 0)
			return 0;
		for (int i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i] & 0x3fu);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		p += n + 1;
	}
	return 1;
}

/*
 * s as JSON text, or null for NULL. JSON needs UTF-8: a string that is not
 * (a path or a message in another encoding) keeps its ASCII and shows each
 * other byte as '?', rather than failing the report.
 */
json_t *jsonw_text(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return json_null();
	if (utf8_valid(s))
		return json_string(s);
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

/*
 * Objects are built with set(): a NULL value (jansson out of memory) or a
 * failed insertion marks the whole document bad, checked once at the end.
 * A key that is not UTF-8 is cleaned as jsonw_text() cleans values.
 */
void jsonw_set(json_t *obj, const char *key, json_t *value, int *bad)
{
	json_t *clean = utf8_valid(key) ? NULL : jsonw_text(key);
	const char *k = clean ? json_string_value(clean) : key;

	if (!obj || !value || !k || json_object_set_new(obj, k, value))
		*bad = 1;
	json_decref(clean);
}

/* Append value to array (see jsonw_set()). */
void jsonw_push(json_t *arr, json_t *value, int *bad)
{
	if (!arr || !value || json_array_append_new(arr, value))
		*bad = 1;
}

/* A number, or null when it is not finite (JSON has no NaN). */
json_t *jsonw_number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}
