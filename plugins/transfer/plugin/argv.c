/* SPDX-License-Identifier: Apache-2.0 */
/* Split command templates into words and fill their placeholders. */
#include "argv.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/plugin.h>

#include "protocol/err.h"

/* A growable string. */
struct buf {
	char *s;
	size_t n, cap;
};

/* Append len bytes of p; -1 when out of memory. */
static int buf_add(struct buf *b, const char *p, size_t len)
{
	if (!b->s || b->n + len + 1 > b->cap) {
		size_t cap = (b->n + len + 1) * 2;
		char *s = realloc(b->s, cap);

		if (!s)
			return -1;
		b->s = s;
		b->cap = cap;
	}
	memcpy(b->s + b->n, p, len);
	b->n += len;
	b->s[b->n] = '\0';
	return 0;
}

/* Move the finished word in b to the end of out. */
static int push_word(struct words *out, struct buf *b)
{
	char **w = realloc(out->w, (out->n + 2) * sizeof(*w));

	if (!w)
		return -1;
	out->w = w;
	if (!b->s && buf_add(b, "", 0))
		return -1;
	w[out->n++] = b->s;
	w[out->n] = NULL;
	*b = (struct buf){ 0 };
	return 0;
}

void words_free(struct words *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->w[i]);
	free(w->w);
	*w = (struct words){ 0 };
}

/* Read one word starting at *pp into b; advances *pp past it. */
static int read_word(const char **pp, struct buf *b, char *err, size_t errlen)
{
	const char *p = *pp;
	int rc = 0;

	while (*p && !isspace((unsigned char)*p) && rc == 0) {
		if (*p == '\'') {
			const char *end = strchr(p + 1, '\'');

			if (!end)
				return hb_errorf(
					err, errlen, HB_EINVAL,
					"command: unterminated ' quote");
			rc = buf_add(b, p + 1, (size_t)(end - p - 1));
			p = end + 1;
		} else if (*p == '"') {
			for (p++; *p && *p != '"' && rc == 0; p++) {
				if (*p == '\\' && (p[1] == '"' || p[1] == '\\'))
					p++;
				rc = buf_add(b, p, 1);
			}
			if (*p != '"')
				return hb_errorf(
					err, errlen, HB_EINVAL,
					"command: unterminated \" quote");
			p++;
		} else {
			if (*p == '\\' && p[1])
				p++;
			rc = buf_add(b, p, 1);
			p++;
		}
	}
	*pp = p;
	/* A quoted empty word ('' or "") is still a word. */
	if (rc == 0 && !b->s)
		rc = buf_add(b, "", 0);
	return rc ? hb_errorf(err, errlen, HB_ENOMEM, "out of memory") : 0;
}

int argv_split(const char *text, struct words *out, char *err, size_t errlen)
{
	const char *p = text;
	struct buf b = { 0 };
	int rc;

	*out = (struct words){ 0 };
	for (;;) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		rc = read_word(&p, &b, err, errlen);
		if (rc == 0 && push_word(out, &b))
			rc = hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
		if (rc) {
			free(b.s);
			words_free(out);
			return rc;
		}
	}
	if (out->n == 0)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "command: empty command");
	return 0;
}

/* A character allowed in a placeholder name. */
static int name_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '-' ||
	       ch == '.';
}

/* Append the value of the placeholder at p ("{name}..."); sets *len. */
static int add_placeholder(struct buf *b, const char *p, size_t *len,
			   argv_lookup lookup, void *ctx, char *err,
			   size_t errlen)
{
	char name[128];
	const char *end = p + 1, *v;
	size_t nl;

	while (name_char(*end))
		end++;
	nl = (size_t)(end - p - 1);
	if (*end != '}' || nl == 0 || nl >= sizeof(name))
		return hb_errorf(
			err, errlen, HB_EINVAL,
			"command: \"%.20s\" is not a {name} placeholder "
			"(write {{ for a literal brace)",
			p);
	memcpy(name, p + 1, nl);
	name[nl] = '\0';
	v = lookup(ctx, name);
	if (!v)
		return hb_errorf(
			err, errlen, HB_EINVAL,
			"command: {%s} names no parameter of this case "
			"(add \"%s = ...\" to the job)",
			name, name);
	*len = nl + 2;
	return buf_add(b, v, strlen(v))
		       ? hb_errorf(err, errlen, HB_ENOMEM, "out of memory")
		       : 0;
}

int argv_expand(const char *word, argv_lookup lookup, void *ctx, char **out,
		char *err, size_t errlen)
{
	struct buf b = { 0 };
	const char *p = word;
	size_t len;
	int rc = 0;

	while (*p && rc == 0) {
		len = 1;
		if ((p[0] == '{' && p[1] == '{') ||
		    (p[0] == '}' && p[1] == '}')) {
			rc = buf_add(&b, p, 1) ? HB_ENOMEM : 0;
			len = 2;
		} else if (*p == '{') {
			rc = add_placeholder(&b, p, &len, lookup, ctx, err,
					     errlen);
		} else {
			rc = buf_add(&b, p, 1) ? HB_ENOMEM : 0;
		}
		p += len;
	}
	if (rc == 0 && !b.s && buf_add(&b, "", 0))
		rc = HB_ENOMEM;
	if (rc == HB_ENOMEM)
		hb_error_fill(err, errlen, "out of memory");
	if (rc) {
		free(b.s);
		return rc;
	}
	*out = b.s;
	return 0;
}
