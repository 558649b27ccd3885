/* SPDX-License-Identifier: Apache-2.0 */
/* Text from outside made safe to show: control bytes and bad UTF-8 out. */
#include "base/sanitize.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/*
 * The length of the valid multibyte UTF-8 sequence at p (2..4), or 0 when p
 * does not start one (a stray continuation byte, an overlong form, a
 * surrogate, a code point above U+10FFFF, or a sequence cut short).
 */
static size_t utf8_len(const unsigned char *p)
{
	size_t n = p[0] < 0xc2	 ? 0
		   : p[0] < 0xe0 ? 2
		   : p[0] < 0xf0 ? 3
		   : p[0] < 0xf5 ? 4
				 : 0;

	for (size_t i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((n == 3 && p[0] == 0xe0 && p[1] < 0xa0) ||
	    (n == 3 && p[0] == 0xed && p[1] > 0x9f) ||
	    (n == 4 && p[0] == 0xf0 && p[1] < 0x90) ||
	    (n == 4 && p[0] == 0xf4 && p[1] > 0x8f))
		return 0;
	return n;
}

/*
 * Nonzero for a valid sequence of n bytes that must not be shown even so: a
 * C1 control (U+0080..U+009F), a bidirectional control that reorders the
 * text around it (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069),
 * or a line or paragraph separator (U+2028, U+2029) that forges a line.
 */
static int is_hidden(const unsigned char *p, size_t n)
{
	if (n == 2)
		return (p[0] == 0xc2 && p[1] <= 0x9f) ||
		       (p[0] == 0xd8 && p[1] == 0x9c);
	if (n != 3 || p[0] != 0xe2)
		return 0;
	return (p[1] == 0x80 && (p[2] == 0x8e || p[2] == 0x8f ||
				 (p[2] >= 0xa8 && p[2] <= 0xae))) ||
	       (p[1] == 0x81 && p[2] >= 0xa6 && p[2] <= 0xa9);
}

/*
 * The bytes of s that sanitize_text() replaces; replaced too when fix is
 * set, only counted otherwise.
 */
static size_t scan(char *s, int fix)
{
	unsigned char *p = (unsigned char *)s;
	size_t changed = 0, n;

	while (p && *p) {
		if (*p < 0x80 && *p >= 0x20 && *p != 0x7f) {
			p++;
			continue;
		}
		n = *p < 0x80 ? 1 : utf8_len(p);
		if (n > 1 && !is_hidden(p, n)) {
			p += n;
			continue;
		}
		/* one byte for one byte: the length stays as it was */
		n = n ? n : 1;
		for (; n--; changed++, p++)
			if (fix)
				*p = *p == '\n' || *p == '\r' || *p == '\t'
					     ? ' '
					     : '?';
	}
	return changed;
}

size_t sanitize_text(char *s)
{
	return scan(s, 1);
}

int sanitize_is_clean(const char *s)
{
	return scan((char *)s, 0) == 0;
}

/* A sanitized copy of the string value v replaces it, when it must. */
static int sanitize_string(json_t *v)
{
	char *copy;
	int rc = 0;

	if (!scan((char *)json_string_value(v), 0))
		return 0;
	copy = strdup(json_string_value(v));
	if (!copy)
		return -ENOMEM;
	sanitize_text(copy);
	if (json_string_set(v, copy))
		rc = -ENOMEM;
	free(copy);
	return rc;
}

/* Move the value of key to its sanitized name. */
static int rename_key(json_t *o, const char *key, json_t *v)
{
	char *clean = strdup(key);
	int rc = -ENOMEM;

	if (clean) {
		sanitize_text(clean);
		/* a reference first: deleting the key drops the object's */
		json_incref(v);
		rc = json_object_del(o, key) || json_object_set(o, clean, v)
			     ? -ENOMEM
			     : 0;
		json_decref(v);
	}
	free(clean);
	return rc;
}

/* Every key of object o sanitized, its values too. */
static int sanitize_object(json_t *o)
{
	const char *key;
	json_t *v;
	void *tmp;
	int rc = 0;

	json_object_foreach_safe(o, tmp, key, v) {
		rc = sanitize_json(v);
		if (!rc && scan((char *)key, 0))
			rc = rename_key(o, key, v);
		if (rc)
			break;
	}
	return rc;
}

int sanitize_json(json_t *v)
{
	size_t i;
	json_t *e;
	int rc = 0;

	if (json_is_string(v))
		return sanitize_string(v);
	if (json_is_object(v))
		return sanitize_object(v);
	json_array_foreach(v, i, e) {
		rc = sanitize_json(e);
		if (rc)
			break;
	}
	return rc;
}
