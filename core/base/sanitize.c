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

/* Nonzero for the two-byte form of a C1 control, U+0080..U+009F. */
static int is_c1(const unsigned char *p)
{
	return p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f;
}

size_t sanitize_text(char *s)
{
	unsigned char *p = (unsigned char *)s;
	size_t changed = 0, n;

	while (p && *p) {
		if (*p == '\n' || *p == '\r' || *p == '\t') {
			*p++ = ' ';
			changed++;
		} else if (*p < 0x20 || *p == 0x7f) {
			*p++ = '?';
			changed++;
		} else if (*p < 0x80) {
			p++;
		} else if ((n = utf8_len(p)) && !is_c1(p)) {
			p += n;
		} else {
			/* one '?' per byte: the length stays as it was */
			for (n = n ? n : 1; n--; changed++)
				*p++ = '?';
		}
	}
	return changed;
}

/* A sanitized copy of the string value v replaces it. */
static int sanitize_string(json_t *v)
{
	char *copy = strdup(json_string_value(v));
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	if (sanitize_text(copy) && json_string_set(v, copy))
		rc = -ENOMEM;
	free(copy);
	return rc;
}

/* Every key of object o sanitized, its values too. */
static int sanitize_object(json_t *o)
{
	const char *key;
	json_t *v, *moved = json_object();
	void *tmp;
	int rc = moved ? 0 : -ENOMEM;

	json_object_foreach_safe(o, tmp, key, v) {
		char *clean = rc ? NULL : strdup(key);

		if (!rc && !clean)
			rc = -ENOMEM;
		if (!rc)
			rc = sanitize_json(v);
		if (!rc && sanitize_text(clean)) {
			/* a key that changes moves, after the walk */
			if (json_object_set(moved, clean, v) ||
			    json_object_del(o, key))
				rc = -ENOMEM;
		}
		free(clean);
	}
	if (!rc && json_object_update(o, moved))
		rc = -ENOMEM;
	json_decref(moved);
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
