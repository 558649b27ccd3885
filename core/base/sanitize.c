/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Text from outside made safe to show: control bytes and bad UTF-8 out,
 * and made safe to keep: cut to a bound.
 */
#include "base/sanitize.h"

#include <errno.h>
#include <stdint.h>
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

size_t sanitize_cut_len(const char *s, size_t max)
{
	size_t n = strnlen(s, max), back = 0;

	if (!s[n])
		return n;
	/* s[n] is the first byte left out: never the middle of a sequence
	   (at most 4 bytes long; bad UTF-8 is the sanitizer's, not ours) */
	while (n > 0 && back++ < 3 && ((unsigned char)s[n] & 0xc0) == 0x80)
		n--;
	return n;
}

/* Where sanitize_json_bounded() is: its bounds, what it changed. */
struct walk {
	const struct sanitize_limits *lim; /* NULL: nothing is cut */
	size_t changed;
};

/* The bound of a string under key (NULL: under none). */
static size_t bound_of(const struct walk *w, const char *key)
{
	const struct sanitize_bound *b = w->lim ? w->lim->keys : NULL;

	if (!w->lim)
		return SIZE_MAX;
	for (; b && b->key; b++)
		if (key && strcmp(b->key, key) == 0)
			return b->max;
	return w->lim->max;
}

int sanitize_fits(const char *s, size_t max)
{
	return !s[sanitize_cut_len(s, max)] && !scan((char *)s, 0);
}

char *sanitize_copy(const char *s, size_t max)
{
	char *copy = strndup(s, sanitize_cut_len(s, max));

	sanitize_text(copy);
	return copy;
}

/* The string value v, sanitized and cut to max, when it must be. */
static int clean_string(json_t *v, size_t max, struct walk *w)
{
	char *copy;
	int rc = 0;

	if (sanitize_fits(json_string_value(v), max))
		return 0;
	copy = sanitize_copy(json_string_value(v), max);
	if (!copy || json_string_set(v, copy))
		rc = -ENOMEM;
	free(copy);
	w->changed++;
	return rc;
}

/* Move the value of key to its clean name (cut to max). */
static int rename_key(json_t *o, const char *key, json_t *v, size_t max)
{
	char *clean = sanitize_copy(key, max);
	int rc = -ENOMEM;

	if (clean) {
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

static int walk(json_t *v, const char *key, struct walk *w);

/* Every key of object o cleaned, its values too. */
static int walk_object(json_t *o, struct walk *w)
{
	size_t max = bound_of(w, NULL);
	const char *key;
	json_t *v;
	void *tmp;
	int rc = 0;

	json_object_foreach_safe(o, tmp, key, v) {
		rc = walk(v, key, w);
		if (!rc && !sanitize_fits(key, max)) {
			w->changed++;
			rc = rename_key(o, key, v, max);
		}
		if (rc)
			break;
	}
	return rc;
}

/* v cleaned at any depth; key is the object key it is under, or NULL. */
static int walk(json_t *v, const char *key, struct walk *w)
{
	size_t i;
	json_t *e;
	int rc = 0;

	if (json_is_string(v))
		return clean_string(v, bound_of(w, key), w);
	if (json_is_object(v))
		return walk_object(v, w);
	json_array_foreach(v, i, e) {
		rc = walk(e, key, w);
		if (rc)
			break;
	}
	return rc;
}

int sanitize_json_bounded(json_t *v, const struct sanitize_limits *lim,
			  size_t *changed)
{
	struct walk w = { .lim = lim };
	int rc = walk(v, NULL, &w);

	if (changed)
		*changed = w.changed;
	return rc;
}

int sanitize_json(json_t *v)
{
	return sanitize_json_bounded(v, NULL, NULL);
}
