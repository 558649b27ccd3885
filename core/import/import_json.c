/* SPDX-License-Identifier: Apache-2.0 */
/* Another tool's JSON as the tools write it (import_json.h). */
#define _GNU_SOURCE /* memmem */
#include "import/import_json.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

double import_num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

int import_has(const char *text, size_t len, const char *needle)
{
	return memmem(text, len, needle, strlen(needle)) != NULL;
}

/* The length of the bare word at s (NaN, -Infinity, ...), 0 if none. */
static size_t bare_word(const char *s, const char *end)
{
	static const char *const words[] = { "nan", "infinity", "inf" };
	size_t skip = s < end && *s == '-';

	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++) {
		size_t n = strlen(words[i]);

		if ((size_t)(end - s) >= skip + n &&
		    strncasecmp(s + skip, words[i], n) == 0 &&
		    (s + skip + n == end ||
		     !isalnum((unsigned char)s[skip + n])))
			return skip + n;
	}
	return 0;
}

/*
 * text[0..len) with every bare NaN or Infinity outside a string as null,
 * malloc'd (*out NULL when it holds none). 0 or -ENOMEM.
 */
static int bare_numbers(const char *text, size_t len, char **out,
			size_t *outlen)
{
	const char *end = text + len, *p = text, *from = text;
	char *buf = NULL, *o = NULL;
	int quoted = 0;
	size_t n;

	*out = NULL;
	for (; p < end; p++) {
		if (quoted) {
			p += *p == '\\';
			quoted = *p != '"';
			continue;
		}
		quoted = *p == '"';
		if (!(*p == '-' || isalpha((unsigned char)*p)) ||
		    !(n = bare_word(p, end)))
			continue;
		if (!buf && !(buf = o = malloc(2 * len + 1)))
			return -ENOMEM;
		memcpy(o, from, (size_t)(p - from));
		o += p - from;
		memcpy(o, "null", 4);
		o += 4;
		p += n - 1;
		from = p + 1;
	}
	if (!buf)
		return 0;
	memcpy(o, from, (size_t)(end - from));
	o += end - from;
	*o = '\0';
	*out = buf;
	*outlen = (size_t)(o - buf);
	return 0;
}

/* Where the JSON object of text starts: a line's first '{'; len if none. */
static size_t object_start(const char *text, size_t len, int *line)
{
	size_t i = 0;

	*line = 0;
	while (i < len) {
		size_t at = i;

		while (at < len && (text[at] == ' ' || text[at] == '\t'))
			at++;
		if (at < len && text[at] == '{')
			return at;
		while (i < len && text[i] != '\n')
			i++;
		i++;
		(*line)++;
	}
	return len;
}

/*
 * The bytes a scan stops at outside strings: a string's quote, an
 * object's or array's bracket; everything else is passed over in runs.
 */
static const unsigned char structural[256] = {
	['"'] = 1, ['{'] = 2, ['['] = 2, ['}'] = 3, [']'] = 3,
};

/* Newlines in [p, q). */
static size_t newlines(const char *p, const char *q)
{
	size_t n = 0;

	while (p < q && (p = memchr(p, '\n', (size_t)(q - p)))) {
		n++;
		p++;
	}
	return n;
}

/* The end of the string at p (just past its closing quote), or end. */
static const char *string_end(const char *p, const char *end)
{
	const char *q = p + 1;

	while ((q = memchr(q, '"', (size_t)(end - q)))) {
		const char *b = q;

		while (b > p + 1 && b[-1] == '\\')
			b--;
		if ((q - b) % 2 == 0) /* not escaped */
			return q + 1;
		q++;
	}
	return end;
}

/*
 * The end of the object or array at p (balanced, strings passed over);
 * NULL when the text ends first.
 */
static const char *value_end(const char *p, const char *end)
{
	size_t depth = 0;

	while (p < end) {
		switch (structural[(unsigned char)*p]) {
		case 0:
			p++;
			break;
		case 1:
			p = string_end(p, end);
			break;
		case 2:
			depth++;
			p++;
			break;
		default:
			p++;
			if (!--depth)
				return p;
		}
	}
	return NULL;
}

/* Whether the key [k, k + n) is one of skip (its first byte tried first:
   a job of fio is 700 keys). */
static int skipped(const char *k, size_t n, const char *const *skip)
{
	for (; *skip; skip++)
		if (n && (*skip)[0] == k[0] && strlen(*skip) == n &&
		    memcmp(*skip, k, n) == 0)
			return 1;
	return 0;
}

/* v past the blanks JSON allows from v on, at most end. */
static const char *blanks(const char *v, const char *end)
{
	while (v < end && (*v == ' ' || *v == '\t' || *v == '\n' || *v == '\r'))
		v++;
	return v;
}

/*
 * The value of the key string [s, p) when it is one of skip and an object
 * or array: its start into *v, its end returned; NULL otherwise.
 */
static const char *skipped_value(const char *s, const char *p, const char *end,
				 const char *const *skip, const char **v)
{
	*v = blanks(p, end);
	if (*v == end || **v != ':' ||
	    !skipped(s + 1, (size_t)(p - s - 2), skip))
		return NULL;
	*v = blanks(*v + 1, end);
	if (*v == end || (**v != '{' && **v != '['))
		return NULL;
	return value_end(*v, end);
}

/*
 * text without the object and array values of the keys of skip, each
 * null and its newlines kept (a line number stays the text's), into a
 * malloc'd copy. NULL when out of memory.
 */
static char *skip_copy(const char *text, size_t len, const char *const *skip,
		       size_t *outlen)
{
	const char *p = text, *end = text + len, *s, *v, *e;
	char *out = malloc(len + 1), *o = out;
	size_t nl;

	while (out && p < end) {
		s = memchr(p, '"', (size_t)(end - p));
		s = s ? s : end;
		memcpy(o, p, (size_t)(s - p)); /* up to a string */
		o += s - p;
		if (s == end)
			break;
		p = string_end(s, end);
		memcpy(o, s, (size_t)(p - s));
		o += p - s;
		if (!(e = skipped_value(s, p, end, skip, &v)))
			continue;
		nl = newlines(v, e);
		if ((size_t)(e - v) < 4 + nl)
			continue; /* "[]": no shorter as null, read as it is */
		memcpy(o, p, (size_t)(v - p));
		o += v - p;
		memcpy(o, "null", 4);
		o += 4;
		memset(o, '\n', nl);
		o += nl;
		p = e;
	}
	if (out) {
		*o = '\0';
		*outlen = (size_t)(o - out);
	}
	return out;
}

/*
 * Parse text (len bytes) as one JSON value and what follows; a bare NaN
 * or Infinity read as null (in a copy, *copied set) when the text as it
 * is does not parse.
 */
static json_t *load(const char *text, size_t len, int *copied,
		    json_error_t *jerr)
{
	json_t *root = json_loadb(text, len, JSON_DISABLE_EOF_CHECK, jerr);
	json_error_t again;
	char *copy = NULL;
	size_t clen = 0;

	if (root || bare_numbers(text, len, &copy, &clen) || !copy)
		return root;
	root = json_loadb(copy, clen, JSON_DISABLE_EOF_CHECK, &again);
	free(copy);
	*copied = 1;
	if (!root)
		*jerr = again;
	return root;
}

int import_json(const char *text, size_t len, const char *const *skip,
		json_t **root, size_t *after, char *err, size_t errlen)
{
	int lines, copied = 0;
	size_t at = object_start(text, len, &lines), clen = 0;
	char *copy = NULL;
	json_error_t jerr;

	*root = NULL;
	if (at == len)
		return hb_errorf(err, errlen, -EINVAL,
				 "no JSON object (a line starting with '{')");
	if (skip) {
		copy = skip_copy(text + at, len - at, skip, &clen);
		if (!copy)
			return hb_errorf(err, errlen, -ENOMEM, "out of memory");
		copied = 1;
	}
	*root = load(copy ? copy : text + at, copy ? clen : len - at, &copied,
		     &jerr);
	free(copy);
	if (!*root)
		return hb_errorf(err, errlen, -EINVAL, "line %d: %s",
				 jerr.line + lines, jerr.text);
	if (!json_is_object(*root)) {
		json_decref(*root);
		*root = NULL;
		return hb_errorf(err, errlen, -EINVAL,
				 "line %d: not a JSON object", lines + 1);
	}
	/* read in a copy: its end is not the text's */
	*after = copied ? len : at + (size_t)jerr.position;
	return 0;
}

/* The end of the scalar or value at p (an object, array, string, number). */
static const char *element_end(const char *p, const char *end)
{
	if (*p == '{' || *p == '[')
		return value_end(p, end);
	if (*p == '"')
		return string_end(p, end);
	while (p < end && *p != ',' && *p != ']' && *p != '}' &&
	       !isspace((unsigned char)*p))
		p++;
	return p;
}

/* The spans of the array's elements from p (just past its '['). */
static int elements(const char *text, const char *p, const char *end,
		    struct import_span **spans, size_t *n, char *err,
		    size_t errlen)
{
	const char *from = p, *e;
	int line = (int)newlines(text, p);
	size_t cap = 0;

	for (;;) {
		while (p < end && (isspace((unsigned char)*p) || *p == ','))
			p++;
		if (p < end && *p == ']')
			return 0;
		e = p < end ? element_end(p, end) : NULL;
		if (!e || e == p)
			return hb_errorf(err, errlen, -EINVAL,
					 "line %d: an array that does not end",
					 line + (int)newlines(from, p));
		if (array_grow((void **)spans, *n, &cap, sizeof(**spans)))
			return hb_errorf(err, errlen, -ENOMEM, "out of memory");
		line += (int)newlines(from, p);
		from = p;
		(*spans)[(*n)++] =
			(struct import_span){ .at = (size_t)(p - text),
					      .len = (size_t)(e - p),
					      .line = line };
		p = e;
	}
}

int import_json_array(const char *text, size_t len, const char *key,
		      struct import_span **spans, size_t *n, char *err,
		      size_t errlen)
{
	int lines;
	const char *p = text + object_start(text, len, &lines),
		   *end = text + len;
	const char *s, *v;

	*spans = NULL;
	*n = 0;
	/* the members of the top object, each value passed over whole */
	for (p += p < end; p && p < end && *p != '}';) {
		p = blanks(p, end);
		if (p < end && *p == ',') {
			p++;
			continue;
		}
		if (p == end || *p != '"')
			return 0;
		s = p;
		p = string_end(p, end);
		v = blanks(p, end);
		if (v == end || *v != ':')
			return 0;
		v = blanks(v + 1, end);
		if (v < end && *v == '[' &&
		    (size_t)(p - s - 2) == strlen(key) &&
		    memcmp(s + 1, key, strlen(key)) == 0)
			return elements(text, v + 1, end, spans, n, err,
					errlen);
		p = v < end ? element_end(v, end) : NULL;
	}
	return 0;
}

int import_json_span(const char *text, const struct import_span *s,
		     const char *const *skip, json_t **root, char *err,
		     size_t errlen)
{
	char *copy = NULL;
	size_t clen = 0;
	json_error_t jerr;

	if (skip && !(copy = skip_copy(text + s->at, s->len, skip, &clen)))
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	*root = json_loadb(copy ? copy : text + s->at, copy ? clen : s->len, 0,
			   &jerr);
	free(copy);
	if (!*root)
		return hb_errorf(err, errlen, -EINVAL, "line %d: %s",
				 jerr.line + s->line, jerr.text);
	return 0;
}
