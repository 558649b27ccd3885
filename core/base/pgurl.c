/* SPDX-License-Identifier: Apache-2.0 */
/* PostgreSQL connection URLs read as libpq reads them. */
#include "base/pgurl.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * One field of a URL: where its value is, and for a query parameter where
 * its "KEY=VALUE" and its key are.
 */
struct field {
	size_t start, end; /* the value, url[start, end) */
	size_t from, to;   /* a parameter's whole text, url[from, to) */
	size_t key_end;	   /* its key is url[from, key_end) */
	int is_param;	   /* 0: the user info's password */
};

/* Called by walk() per field, in the order of the text. */
typedef int (*field_fn)(const char *url, const struct field *f, void *arg);

/*
 * The keywords libpq (15 to 17) shows in clear: a parameter with any
 * other key is a password ("password", "sslpassword") or one libpq does
 * not know and refuses, and its value is masked.
 */
static const char *const shown[] = {
	"service",
	"user",
	"passfile",
	"channel_binding",
	"connect_timeout",
	"dbname",
	"host",
	"hostaddr",
	"port",
	"client_encoding",
	"options",
	"application_name",
	"fallback_application_name",
	"keepalives",
	"keepalives_idle",
	"keepalives_interval",
	"keepalives_count",
	"tcp_user_timeout",
	"sslmode",
	"sslnegotiation",
	"sslcompression",
	"sslcert",
	"sslkey",
	"sslcertmode",
	"sslrootcert",
	"sslcrl",
	"sslcrldir",
	"sslsni",
	"requiressl",
	"ssl", /* libpq's JDBC spelling of sslmode=require */
	"requirepeer",
	"require_auth",
	"ssl_min_protocol_version",
	"ssl_max_protocol_version",
	"gssencmode",
	"krbsrvname",
	"gsslib",
	"gssdelegation",
	"replication",
	"target_session_attrs",
	"load_balance_hosts",
};

size_t pgurl_prefix(const char *url)
{
	if (strncmp(url, "postgresql://", 13) == 0)
		return 13;
	if (strncmp(url, "postgres://", 11) == 0)
		return 11;
	return 0;
}

const char *pgurl_find(const char *text)
{
	const char *a = strstr(text, "postgresql://");
	const char *b = strstr(text, "postgres://");

	if (a && b)
		return a < b ? a : b;
	return a ? a : b;
}

/* The value of hex digit c, or -1. */
static int hex(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * s[0, n) percent-decoded into out (outlen bytes, NUL-terminated), as
 * libpq's conninfo_uri_decode(): "%XX" with two hex digits, never "%00".
 * Returns 0, -EINVAL for what libpq refuses, -ENAMETOOLONG when it does
 * not fit.
 */
static int decode(const char *s, size_t n, char *out, size_t outlen)
{
	size_t o = 0;

	for (size_t i = 0; i < n; i++) {
		int c = (unsigned char)s[i];

		if (o + 1 >= outlen)
			return -ENAMETOOLONG;
		if (c == '%') {
			int hi = i + 1 < n ? hex(s[i + 1]) : -1;
			int lo = i + 2 < n ? hex(s[i + 2]) : -1;

			if (hi < 0 || lo < 0 || (hi | lo) == 0)
				return -EINVAL;
			c = hi << 4 | lo;
			i += 2;
		}
		out[o++] = (char)c;
	}
	out[o] = '\0';
	return 0;
}

/* Nonzero when the parameter f's key decodes to one libpq shows. */
static int key_shown(const char *url, const struct field *f)
{
	char key[64];

	if (decode(url + f->from, f->key_end - f->from, key, sizeof(key)))
		return 0;
	for (size_t i = 0; i < sizeof(shown) / sizeof(shown[0]); i++)
		if (strcmp(key, shown[i]) == 0)
			return 1;
	return 0;
}

/*
 * Where the host list that starts at url + p ends ('/', '?' or the end),
 * as libpq reads "host[:port],...", IPv6 hosts in brackets; SIZE_MAX for
 * one libpq refuses.
 */
static size_t hosts_end(const char *url, size_t p)
{
	for (;;) {
		if (url[p] == '[') {
			const char *close = strchr(url + p, ']');

			if (!close)
				return SIZE_MAX;
			p = (size_t)(close - url) + 1;
			if (url[p] && !strchr(":/?,", url[p]))
				return SIZE_MAX;
		} else {
			p += strcspn(url + p, ":/?,");
		}
		if (url[p] == ':')
			p += 1 + strcspn(url + p + 1, "/?,");
		if (url[p] != ',')
			return p;
		p++;
	}
}

/*
 * fn for each "KEY=VALUE" from url + p, '&' between them. A parameter
 * without '=' (libpq refuses it) is all value, under an empty key.
 */
static int walk_params(const char *url, size_t p, field_fn fn, void *arg)
{
	int rc = 0;

	while (url[p] && !rc) {
		struct field f = { .from = p, .is_param = 1 };
		size_t n = strcspn(url + p, "&");
		const char *eq = memchr(url + p, '=', n);

		f.to = p + n;
		f.key_end = eq ? (size_t)(eq - url) : p;
		f.start = eq ? f.key_end + 1 : p;
		f.end = f.to;
		rc = fn(url, &f, arg);
		p = f.to + (url[f.to] == '&');
	}
	return rc;
}

/*
 * fn for each field of url that may hold a secret, in order: the user
 * info's password, then every query parameter. Past a host list libpq
 * refuses, the parameters are still walked from the next '?'.
 */
static int walk(const char *url, field_fn fn, void *arg)
{
	size_t p = pgurl_prefix(url), q;
	int rc;

	if (!p)
		return 0;
	q = p + strcspn(url + p, "@/");
	if (url[q] == '@') {
		size_t colon = p + strcspn(url + p, ":@");

		if (url[colon] == ':' && colon + 1 < q) {
			rc = fn(url,
				&(struct field){ .start = colon + 1, .end = q },
				arg);
			if (rc)
				return rc;
		}
		p = q + 1;
	}
	q = hosts_end(url, p);
	p = q == SIZE_MAX ? p + strcspn(url + p, "?") : q;
	if (url[p] == '/')
		p += 1 + strcspn(url + p + 1, "?");
	return url[p] == '?' ? walk_params(url, p + 1, fn, arg) : 0;
}

/* What pgurl_mask() builds: the text copied so far. */
struct masked {
	const char *stand_in;
	char *out;
	size_t len, n; /* out's size; the length written (or needed) */
	size_t copied; /* url[0, copied) is in out */
};

/* Append s[0, k) to m->out, counting what does not fit. */
static void put(struct masked *m, const char *s, size_t k)
{
	if (m->out && m->n < m->len) {
		size_t room = m->len - m->n - 1;

		memcpy(m->out + m->n, s, k < room ? k : room);
		m->out[m->n + (k < room ? k : room)] = '\0';
	}
	m->n += k;
}

/* field_fn: the text up to a secret value, then the stand-in. */
static int mask_field(const char *url, const struct field *f, void *arg)
{
	struct masked *m = arg;

	if (f->start == f->end || (f->is_param && key_shown(url, f)))
		return 0;
	put(m, url + m->copied, f->start - m->copied);
	put(m, m->stand_in, strlen(m->stand_in));
	m->copied = f->end;
	return 0;
}

size_t pgurl_mask(const char *url, const char *stand_in, char *out, size_t len)
{
	struct masked m = { .stand_in = stand_in, .out = out, .len = len };

	if (out && len)
		out[0] = '\0';
	walk(url, mask_field, &m);
	put(&m, url + m.copied, strlen(url + m.copied));
	return m.n;
}

/* What pgurl_take() builds. */
struct taken {
	const char *key;
	char *rest;	   /* the URL without the key's parameters */
	size_t n, copied;  /* rest's length; url[0, copied) is handled */
	const char *value; /* the last value of key, as written */
	size_t value_len;
};

/* field_fn: drop a parameter of t->key with one '&' beside it. */
static int take_field(const char *url, const struct field *f, void *arg)
{
	struct taken *t = arg;
	size_t from = f->from, to = f->to;
	char key[64];

	if (!f->is_param ||
	    decode(url + f->from, f->key_end - f->from, key, sizeof(key)) ||
	    strcmp(key, t->key) != 0)
		return 0;
	t->value = url + f->start;
	t->value_len = f->end - f->start;
	if (url[to] == '&')
		to++;
	else if (from > t->copied && url[from - 1] == '&')
		from--;
	memcpy(t->rest + t->n, url + t->copied, from - t->copied);
	t->n += from - t->copied;
	t->copied = to;
	return 0;
}

int pgurl_take(const char *url, const char *key, char **rest, char **value)
{
	struct taken t = { .key = key, .rest = malloc(strlen(url) + 1) };
	int rc = 0;

	*rest = *value = NULL;
	if (!t.rest)
		return -ENOMEM;
	walk(url, take_field, &t);
	strcpy(t.rest + t.n, url + t.copied);
	if (t.value) {
		*value = malloc(t.value_len + 1);
		rc = *value ? decode(t.value, t.value_len, *value,
				     t.value_len + 1)
			    : -ENOMEM;
	}
	if (rc) {
		free(t.rest);
		free(*value);
		*value = NULL;
		return rc;
	}
	*rest = t.rest;
	return 0;
}
