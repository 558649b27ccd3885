/* SPDX-License-Identifier: Apache-2.0 */
/* Reading one suite file into sections and entries, with line numbers. */
#include "suite/suite_file.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

/* What a line that is none of the three things it can be gets told. */
static const char not_ini[] =
	"expected \"KEY = VALUE\", \"[SECTION]\" or a comment";

/* Where the line reader is in the text, and the first error it met. */
struct reader {
	const char *name;
	const char *text;
	size_t len;
	size_t pos;
	unsigned line;
	struct suite_file *f;
	unsigned fail_line; /* 0: no error of ours yet */
	int rc;
	char *err;
	size_t errlen;
};

/* Record the first error, prefixed with "NAME:LINE: "; returns rc. */
__attribute__((format(printf, 3, 4))) static int
reader_fail(struct reader *r, int rc, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	if (r->fail_line)
		return rc;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	r->fail_line = r->line;
	r->rc = rc;
	hb_error_fill(r->err, r->errlen, "%s:%u: %s", r->name, r->line, msg);
	return rc;
}

/* Nonzero for the blanks inih trims. */
static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* Nonzero when the line holds a byte no text suite has. */
static int is_binary(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 && !is_blank((char)c) && c != '\t')
			return 1;
		if (c == 0x7f)
			return 1;
	}
	return 0;
}

/*
 * The ']' that ends header s (n bytes): the first one followed only by
 * blanks or a comment, so a name may hold brackets ("HMAC[MD5]"). NULL
 * when there is none.
 */
static const char *header_close(const char *s, size_t n)
{
	for (const char *c = memchr(s, ']', n); c;
	     c = memchr(c + 1, ']', (size_t)(s + n - c - 1))) {
		const char *rest = c + 1;

		while (rest < s + n && is_blank(*rest))
			rest++;
		if (rest == s + n || *rest == ';' || *rest == '#')
			return c;
	}
	return NULL;
}

/* Start a new section named by the header s (n bytes, starts with '['). */
static int section_start(struct reader *r, const char *s, size_t n)
{
	const char *close = header_close(s, n);
	const char *name = s + 1, *end;
	struct sf_section *sec;
	struct suite_file *f = r->f;

	if (!close)
		return reader_fail(r, -EINVAL,
				   memchr(s, ']', n)
					   ? "text after the section header"
					   : "section header without ']'");
	while (name < close && is_blank(*name))
		name++;
	for (end = close; end > name && is_blank(end[-1]); end--)
		;
	if (end == name)
		return reader_fail(r, -EINVAL, "empty section name");
	if (array_grow((void **)&f->sections, f->n, &f->cap, sizeof(*sec)))
		return reader_fail(r, -ENOMEM, "out of memory");
	sec = &f->sections[f->n];
	memset(sec, 0, sizeof(*sec));
	sec->name = strndup(name, (size_t)(end - name));
	if (!sec->name)
		return reader_fail(r, -ENOMEM, "out of memory");
	sec->line = r->line;
	f->n++;
	return 0;
}

/*
 * Fit a "key = value" line of n bytes into inih's buffer of num bytes:
 * blanks around the first '=' or ':' carry no meaning, so they go first.
 */
static size_t squeeze(char *s, size_t n, int num)
{
	char *sep = strpbrk(s, "=:");
	char *a, *b;

	if ((int)n < num || !sep)
		return n;
	for (a = sep; a > s && is_blank(a[-1]); a--)
		;
	for (b = sep + 1; is_blank(*b); b++)
		;
	*a = *sep;
	memmove(a + 1, b, strlen(b) + 1);
	return strlen(s);
}

/*
 * The ini_reader: hand inih the next line, trimmed, with section headers
 * and comments taken out (we read headers ourselves). NULL ends the file,
 * also after our first error.
 */
static char *reader_next(char *str, int num, void *stream)
{
	struct reader *r = stream;
	const char *s = r->text + r->pos, *nl;
	size_t n, rawlen;

	if (r->fail_line || r->pos >= r->len)
		return NULL;
	nl = memchr(s, '\n', r->len - r->pos);
	rawlen = nl ? (size_t)(nl - s) : r->len - r->pos;
	r->pos += rawlen + (nl != NULL);
	r->line++;
	n = rawlen;
	/* an empty line has n == 0, whatever cppcheck infers */
	/* cppcheck-suppress knownConditionTrueFalse */
	if (n && s[n - 1] == '\r')
		n--;
	if (r->line == 1 && n >= 3 && memcmp(s, "\xef\xbb\xbf", 3) == 0) {
		s += 3; /* UTF-8 byte order mark */
		n -= 3;
	}
	if (is_binary(s, n)) {
		reader_fail(r, -EINVAL, "not an INI file (binary data)");
		return NULL;
	}
	if (n > SUITEFILE_MAX_LINE) {
		reader_fail(r, -EINVAL, "line too long (max %d characters)",
			    SUITEFILE_MAX_LINE);
		return NULL;
	}
	while (n && is_blank(*s)) {
		s++;
		n--;
	}
	while (n && is_blank(s[n - 1]))
		n--;
	str[0] = '\0';
	if (n && *s == '[') {
		if (section_start(r, s, n))
			return NULL;
		return str;
	}
	if (n == 0 || *s == ';' || *s == '#')
		return str;
	memcpy(str, s, n < (size_t)num ? n : (size_t)num - 1);
	str[n < (size_t)num ? n : (size_t)num - 1] = '\0';
	if (n >= (size_t)num) {
		/* Only a line of exactly the maximum can get here. */
		char line[SUITEFILE_MAX_LINE + 1];

		memcpy(line, s, n);
		line[n] = '\0';
		if (squeeze(line, n, num) >= (size_t)num) {
			reader_fail(r, -EINVAL,
				    "line too long (max %d characters "
				    "without blanks around '=')",
				    num - 1);
			return NULL;
		}
		strcpy(str, line);
	}
	return str;
}

int suite_file_key_name(const char *key)
{
	if (!*key)
		return 0;
	for (; *key; key++)
		if (!isalnum((unsigned char)*key) && *key != '_' && *key != '-')
			return 0;
	return 1;
}

/* The ini_handler: one "key = value" of the current section. */
static int entry_add(void *user, const char *section, const char *key,
		     const char *value)
{
	struct reader *r = user;
	struct sf_section *sec;
	struct sf_entry *e;

	(void)section; /* inih never sees our headers; we track sections */
	if (!suite_file_key_name(key)) {
		reader_fail(r, -EINVAL, "%s", not_ini);
		return 0;
	}
	if (r->f->n == 0) {
		reader_fail(r, -EINVAL,
			    "%s: key outside a section (put it under [global] "
			    "or a [job])",
			    key);
		return 0;
	}
	sec = &r->f->sections[r->f->n - 1];
	for (size_t i = 0; i < sec->n; i++)
		if (strcmp(sec->entries[i].key, key) == 0) {
			reader_fail(r, -EINVAL,
				    "[%s] %s: given twice in this section "
				    "(first on line %u)",
				    sec->name, key, sec->entries[i].line);
			return 0;
		}
	if (array_grow((void **)&sec->entries, sec->n, &sec->cap, sizeof(*e)))
		goto nomem;
	e = &sec->entries[sec->n];
	e->key = strdup(key);
	e->value = strdup(value);
	e->line = r->line;
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		goto nomem;
	}
	sec->n++;
	return 1;
nomem:
	reader_fail(r, -ENOMEM, "out of memory");
	return 0;
}

int suite_file_read(struct suite_file *f, const char *name, const char *text,
		    size_t len, char *err, size_t errlen)
{
	struct reader r = {
		.name = name,
		.text = text,
		.len = len,
		.f = f,
		.err = err,
		.errlen = errlen,
	};
	int rc = ini_parse_stream(reader_next, &r, entry_add, &r);

	if (rc > 0 && (!r.fail_line || (unsigned)rc < r.fail_line)) {
		/* inih refused a line our reader passed on as key = value. */
		r.fail_line = 0;
		r.line = (unsigned)rc;
		reader_fail(&r, -EINVAL, "%s", not_ini);
	} else if (rc < 0 && !r.fail_line) {
		reader_fail(&r, -ENOMEM, "out of memory");
	}
	if (r.fail_line) {
		suite_file_free(f);
		return r.rc;
	}
	return 0;
}

void suite_file_free(struct suite_file *f)
{
	for (size_t i = 0; i < f->n; i++) {
		struct sf_section *sec = &f->sections[i];

		for (size_t j = 0; j < sec->n; j++) {
			free(sec->entries[j].key);
			free(sec->entries[j].value);
		}
		free(sec->entries);
		free(sec->name);
	}
	free(f->sections);
	memset(f, 0, sizeof(*f));
}
