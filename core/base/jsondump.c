/* SPDX-License-Identifier: Apache-2.0 */
/* JSON text without jansson's per-number printf (base/jsondump.h). */
#include "base/jsondump.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

#define DIGITS	 17
#define TEN16	 10000000000000000ULL /* the smallest 17-digit number */
#define TEN17	 100000000000000000ULL
#define MAX_POW5 27 /* 5^27 < 2^63 */

/*
 * m * 2^q * 10^k: its integer part into *d, and whether rounding it to
 * nearest, ties to even, adds one into *up; nonzero when that is beyond
 * the 128-bit arithmetic here.
 */
static int scaled(uint64_t m, int q, int k, u128 *d, int *up)
{
	u128 n = m;
	int s = q;

	if (k >= 0) {
		if (k > MAX_POW5)
			return -1;
		for (int i = 0; i < k; i++)
			n *= 5;
		s += k;
	} else {
		if (q < 0 || q > 70 || k < -30)
			return -1;
		n <<= q;
		s = 0;
	}
	*up = 0;
	if (s > 0) {
		if (s > 60 || n >> (127 - s))
			return -1;
		n <<= s;
	} else if (s < 0) {
		int r = -s;
		u128 rest, half;

		if (r > 120)
			return -1;
		rest = n & (((u128)1 << r) - 1);
		half = (u128)1 << (r - 1);
		n >>= r;
		*up = rest > half || (rest == half && (n & 1));
	}
	if (k < 0) { /* divide by 10^-k, rounded */
		u128 p = 1, rest;

		for (int i = 0; i > k; i--)
			p *= 10;
		rest = n % p;
		n /= p;
		*up = 2 * rest > p || (2 * rest == p && (n & 1));
	}
	*d = n;
	return 0;
}

/*
 * The 17 significant digits of v > 0 (normal) into *d and its decimal
 * exponent into *e; nonzero when beyond scaled()'s range.
 */
static int digits17(double v, uint64_t *d, int *e)
{
	uint64_t bits;
	int q, x = (int)floor(log10(v));

	memcpy(&bits, &v, sizeof(bits));
	q = (int)((bits >> 52) & 0x7ff);
	if (q == 0 || q == 0x7ff)
		return -1; /* subnormal, infinite or NaN */
	q -= 1075;
	bits = (bits & ((1ULL << 52) - 1)) | (1ULL << 52);
	for (int tries = 0; tries < 3; tries++) {
		u128 n;
		int up;

		if (scaled(bits, q, DIGITS - 1 - x, &n, &up))
			return -1;
		if (n < TEN16)
			x--;
		else if (n >= TEN17)
			x++;
		else {
			n += up;
			/* 99..9.5 rounds to the next power of ten */
			*d = n == TEN17 ? TEN16 : (uint64_t)n;
			*e = n == TEN17 ? x + 1 : x;
			return 0;
		}
	}
	return -1;
}

/* Digits s[0..n) without trailing zeros: the new n. */
static size_t trim(const char *s, size_t n, size_t keep)
{
	while (n > keep && s[n - 1] == '0')
		n--;
	return n;
}

/* d (17 digits) with exponent e as %.17g writes it, into buf. */
static int g17_text(int neg, uint64_t d, int e, char *buf, size_t len)
{
	char dig[DIGITS + 1], out[48];
	size_t n = 0, nd;

	for (int i = DIGITS - 1; i >= 0; i--, d /= 10)
		dig[i] = (char)('0' + d % 10);
	dig[DIGITS] = '\0';
	nd = trim(dig, DIGITS, 1);
	if (neg)
		out[n++] = '-';
	if (e < -4 || e >= DIGITS) {
		out[n++] = dig[0];
		if (nd > 1) {
			out[n++] = '.';
			memcpy(out + n, dig + 1, nd - 1);
			n += nd - 1;
		}
		n += (size_t)snprintf(out + n, sizeof(out) - n, "e%c%02d",
				      e < 0 ? '-' : '+', e < 0 ? -e : e);
	} else if (e >= 0) {
		size_t whole = (size_t)e + 1;

		memcpy(out + n, dig, whole);
		n += whole;
		if (nd > whole) {
			out[n++] = '.';
			memcpy(out + n, dig + whole, nd - whole);
			n += nd - whole;
		}
	} else {
		out[n++] = '0';
		out[n++] = '.';
		for (int i = -1; i > e; i--)
			out[n++] = '0';
		memcpy(out + n, dig, nd);
		n += nd;
	}
	if (n >= len)
		return -1;
	memcpy(buf, out, n);
	buf[n] = '\0';
	return (int)n;
}

int jsondump_g17(double v, char *buf, size_t len)
{
	uint64_t d;
	int e, n;

	if (isfinite(v) && v != 0 && !digits17(fabs(v), &d, &e))
		return g17_text(v < 0, d, e, buf, len);
	n = snprintf(buf, len, "%.17g", v);
	return n < 0 || (size_t)n >= len ? -1 : n;
}

/* A growing text. */
struct text {
	char *s;
	size_t n, cap;
	int bad;
};

static void put(struct text *t, const char *s, size_t n)
{
	if (t->bad)
		return;
	if (t->n + n + 1 > t->cap) {
		size_t cap = t->cap ? t->cap : 4096;
		char *p;

		while (t->n + n + 1 > cap)
			cap *= 2;
		p = realloc(t->s, cap);
		if (!p) {
			t->bad = 1;
			return;
		}
		t->s = p;
		t->cap = cap;
	}
	memcpy(t->s + t->n, s, n);
	t->n += n;
	t->s[t->n] = '\0';
}

static void puts_(struct text *t, const char *s)
{
	put(t, s, strlen(s));
}

/* A newline and depth levels of two spaces. */
static void indent(struct text *t, size_t depth)
{
	put(t, "\n", 1);
	for (size_t i = 0; i < depth; i++)
		put(t, "  ", 2);
}

/* How jansson escapes byte c of a string (one that needs it). */
static const char *escape(unsigned char c, char buf[8])
{
	static const char plain[] = "\"\\\b\f\n\r\t", named[] = "\"\\bfnrt";
	const char *at = memchr(plain, c, sizeof(plain) - 1);

	if (at)
		snprintf(buf, 8, "\\%c", named[at - plain]);
	else
		snprintf(buf, 8, "\\u%04X", c);
	return buf;
}

/* A string as jansson quotes it (its text is UTF-8 already). */
static void string(struct text *t, const char *s, size_t len)
{
	size_t from = 0;

	put(t, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[8];

		if (c != '"' && c != '\\' && c >= 0x20)
			continue;
		put(t, s + from, i - from);
		from = i + 1;
		puts_(t, escape(c, esc));
	}
	put(t, s + from, len - from);
	put(t, "\"", 1);
}

/* A real as jansson writes it: ".0" when it would read as an integer,
 * its exponent without '+' and leading zeros. */
static void real(struct text *t, double v)
{
	char buf[40], *e;
	int n = isfinite(v) ? jsondump_g17(v, buf, sizeof(buf) - 2) : -1;

	if (n < 0) {
		t->bad = 1; /* jansson refuses NaN and infinities too */
		return;
	}
	if (!strchr(buf, '.') && !strchr(buf, 'e'))
		memcpy(buf + n, ".0", 3);
	e = strchr(buf, 'e');
	if (e) {
		char *to = e + 1 + (e[1] == '-'), *from = e + 2;

		while (*from == '0')
			from++;
		memmove(to, from, strlen(from) + 1);
	}
	puts_(t, buf);
}

static void value(struct text *t, const json_t *j, size_t depth);

static void array(struct text *t, const json_t *j, size_t depth)
{
	size_t n = json_array_size(j);

	put(t, "[", 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			put(t, ",", 1);
		indent(t, depth + 1);
		value(t, json_array_get(j, i), depth + 1);
	}
	if (n)
		indent(t, depth);
	put(t, "]", 1);
}

static void object(struct text *t, const json_t *j, size_t depth)
{
	/* jansson keeps an object's keys in their insertion order */
	void *it = json_object_iter((json_t *)j);

	put(t, "{", 1);
	for (void *first = it; it;
	     it = json_object_iter_next((json_t *)j, it)) {
		if (it != first)
			put(t, ",", 1);
		indent(t, depth + 1);
		string(t, json_object_iter_key(it),
		       json_object_iter_key_len(it));
		put(t, ": ", 2);
		value(t, json_object_iter_value(it), depth + 1);
	}
	if (json_object_size(j))
		indent(t, depth);
	put(t, "}", 1);
}

static void value(struct text *t, const json_t *j, size_t depth)
{
	char num[32];

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		object(t, j, depth);
		break;
	case JSON_ARRAY:
		array(t, j, depth);
		break;
	case JSON_STRING:
		string(t, json_string_value(j), json_string_length(j));
		break;
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(j));
		puts_(t, num);
		break;
	case JSON_REAL:
		real(t, json_real_value(j));
		break;
	case JSON_TRUE:
		puts_(t, "true");
		break;
	case JSON_FALSE:
		puts_(t, "false");
		break;
	default:
		puts_(t, "null");
	}
}

char *jsondump_text(const json_t *j)
{
	struct text t = { 0 };

	if (!j)
		return NULL;
	value(&t, j, 0);
	if (t.bad) {
		free(t.s);
		return NULL;
	}
	return t.s;
}
