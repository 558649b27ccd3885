/* SPDX-License-Identifier: Apache-2.0 */
/* Pure parsers for suite values: sizes, durations, integers, lists. */
#define _GNU_SOURCE /* strtod_l, newlocale */
#include "base/parse.h"

#include <ctype.h>
#include <errno.h>
#include <locale.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest value text the number parsers look at; longer is never valid. */
#define NUM_MAX 64

/* Nonzero for the blanks allowed around a value. */
static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Copy text without surrounding blanks into buf (len bytes). Returns the
 * trimmed length, or -1 when it does not fit.
 */
static int trim_copy(const char *text, char *buf, size_t len)
{
	const char *end;
	size_t n;

	while (is_blank(*text))
		text++;
	end = text + strlen(text);
	while (end > text && is_blank(end[-1]))
		end--;
	n = (size_t)(end - text);
	if (n >= len)
		return -1;
	memcpy(buf, text, n);
	buf[n] = '\0';
	return (int)n;
}

/*
 * Read the decimal digits at *p into *out, advancing *p. Returns 0, -EINVAL
 * when there is no digit, -ERANGE on overflow.
 */
static int read_digits(const char **p, uint64_t *out)
{
	const char *s = *p;
	uint64_t v = 0;
	int overflow = 0;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10)
			overflow = 1;
		else
			v = v * 10 + d;
	}
	*p = s;
	*out = v;
	return overflow ? -ERANGE : 0;
}

/* The forms parse_size() takes, for its messages. */
#define SIZE_FORMS                                                             \
	"bytes, or K, M, G, T, P, E as 1G, 1GB, 1GiB or 1 GB: powers of 1024"

/* Power-of-1024 multiplier for a size suffix ("", "K", "KB", "KiB"), or 0. */
static uint64_t size_multiplier(const char *suffix)
{
	static const char letters[] = "KMGTPE";
	const char *at;
	uint64_t mult = 1;

	if (*suffix == '\0' || strcasecmp(suffix, "B") == 0)
		return 1;
	at = strchr(letters, toupper((unsigned char)*suffix));
	if (!at || *suffix == '\0')
		return 0;
	if (suffix[1] != '\0' && strcasecmp(suffix + 1, "B") != 0 &&
	    strcasecmp(suffix + 1, "iB") != 0)
		return 0;
	for (const char *l = letters; l <= at; l++)
		mult *= 1024;
	return mult;
}

int parse_size(const char *text, uint64_t *out, char *err, size_t errlen)
{
	char buf[NUM_MAX];
	const char *p = buf;
	uint64_t v, mult;
	int rc;

	if (trim_copy(text, buf, sizeof(buf)) <= 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "\"%.*s\" is not a size (try 16M)", NUM_MAX,
				 text);
	if (buf[0] == '-' || buf[0] == '+')
		return hb_errorf(err, errlen, -EINVAL,
				 "\"%s\" is not a size (no sign: try 16M)",
				 buf);
	rc = read_digits(&p, &v);
	if (rc == -ERANGE)
		return hb_errorf(err, errlen, -ERANGE,
				 "\"%s\" is too large for a size", buf);
	if (rc == 0 && (*p == '.' || *p == ','))
		return hb_errorf(err, errlen, -EINVAL,
				 "\"%s\" is not a size (whole numbers only: "
				 "try 1536K for 1.5M)",
				 buf);
	while (rc == 0 && is_blank(*p)) /* "1 GB" reads as "1GB" */
		p++;
	mult = rc == 0 ? size_multiplier(p) : 0;
	if (!mult)
		return hb_errorf(
			err, errlen, -EINVAL,
			"\"%s\" is not a size (try 16M: " SIZE_FORMS ")", buf);
	if (v > UINT64_MAX / mult)
		return hb_errorf(err, errlen, -ERANGE,
				 "\"%s\" is too large for a size", buf);
	*out = v * mult;
	return 0;
}

/* Seconds per unit of a duration suffix ("", "ms", "s", "m", "h"), or 0. */
static double duration_scale(const char *suffix)
{
	if (*suffix == '\0' || strcasecmp(suffix, "s") == 0)
		return 1;
	if (strcasecmp(suffix, "ms") == 0)
		return 0.001;
	if (strcasecmp(suffix, "m") == 0)
		return 60;
	if (strcasecmp(suffix, "h") == 0)
		return 3600;
	return 0;
}

/* The C locale, made once: suites read the same whatever the locale. */
static locale_t c_locale;
static pthread_once_t c_locale_once = PTHREAD_ONCE_INIT;

static void make_c_locale(void)
{
	c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
}

/* strtod of decimal digits with a '.' fraction, in any locale. */
static double c_strtod(const char *num)
{
	pthread_once(&c_locale_once, make_c_locale);
	return c_locale ? strtod_l(num, NULL, c_locale) : strtod(num, NULL);
}

int parse_duration(const char *text, double *out, char *err, size_t errlen)
{
	char buf[NUM_MAX], num[NUM_MAX];
	const char *p = buf;
	double scale, v;
	size_t n;

	if (trim_copy(text, buf, sizeof(buf)) <= 0)
		goto invalid;
	/* Digits with an optional fraction; strtod alone would take "inf". */
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.' && p > buf)
		for (p++; isdigit((unsigned char)*p);)
			p++;
	if (p == buf || p[-1] == '.')
		goto invalid;
	n = (size_t)(p - buf);
	while (is_blank(*p)) /* "500 ms" reads as "500ms" */
		p++;
	scale = duration_scale(p);
	if (scale == 0)
		goto invalid;
	memcpy(num, buf, n);
	num[n] = '\0';
	v = c_strtod(num) * scale;
	if (!isfinite(v))
		return hb_errorf(err, errlen, -ERANGE,
				 "\"%s\" is too long a duration", buf);
	if (v <= 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "\"%s\" is not a duration above zero", buf);
	*out = v;
	return 0;
invalid:
	return hb_errorf(err, errlen, -EINVAL,
			 "\"%.*s\" is not a duration (try 500ms, 2s or 1m)",
			 NUM_MAX, text);
}

int parse_int(const char *text, int64_t *out, char *err, size_t errlen)
{
	char buf[NUM_MAX];
	const char *p = buf;
	int neg = 0;
	uint64_t v;
	int rc;

	if (trim_copy(text, buf, sizeof(buf)) <= 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "\"%.*s\" is not an integer", NUM_MAX, text);
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	rc = read_digits(&p, &v);
	if (rc == -EINVAL || *p != '\0')
		return hb_errorf(err, errlen, -EINVAL,
				 "\"%s\" is not an integer", buf);
	if (rc == -ERANGE || v > (uint64_t)INT64_MAX + (neg ? 1u : 0u))
		return hb_errorf(err, errlen, -ERANGE,
				 "\"%s\" is out of range for an integer", buf);
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int parse_bool(const char *text, int *out, char *err, size_t errlen)
{
	static const char *const yes[] = { "true", "yes", "on", "1" };
	static const char *const no[] = { "false", "no", "off", "0" };
	char buf[NUM_MAX];

	if (trim_copy(text, buf, sizeof(buf)) >= 0) {
		for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
			if (strcasecmp(buf, yes[i]) == 0) {
				*out = 1;
				return 0;
			}
			if (strcasecmp(buf, no[i]) == 0) {
				*out = 0;
				return 0;
			}
		}
	}
	return hb_errorf(
		err, errlen, -EINVAL,
		"\"%.*s\" is not a boolean (true/false, yes/no, on/off, "
		"1/0)",
		NUM_MAX, text);
}

/*
 * Read one list item starting at *p (blanks skipped) up to the next comma
 * or the end, advancing *p past the comma. A double-quoted item is taken
 * whole. Returns the item as a new string, or NULL with err filled.
 */
static char *list_item(const char **p, const char *text, char *err,
		       size_t errlen)
{
	const char *s = *p, *start, *end;
	char *item;

	while (is_blank(*s))
		s++;
	if (*s == '"') {
		start = ++s;
		end = strchr(s, '"');
		if (!end) {
			hb_error_fill(err, errlen,
				      "\"%s\" has an unterminated quote", text);
			return NULL;
		}
		s = end + 1;
		while (is_blank(*s))
			s++;
		if (*s != ',' && *s != '\0') {
			hb_error_fill(err, errlen,
				      "\"%s\" has text after a closing quote",
				      text);
			return NULL;
		}
	} else {
		start = s;
		while (*s && *s != ',')
			s++;
		end = s;
		while (end > start && is_blank(end[-1]))
			end--;
		if (end == start && *text == '\0') {
			hb_error_fill(err, errlen, "empty value");
			return NULL;
		}
		if (end == start) {
			hb_error_fill(err, errlen,
				      "\"%s\" has an empty list item", text);
			return NULL;
		}
	}
	item = strndup(start, (size_t)(end - start));
	if (!item) {
		hb_error_fill(err, errlen, "out of memory");
		return NULL;
	}
	*p = *s == ',' ? s + 1 : s;
	return item;
}

int parse_list(const char *text, struct strlist *out, char *err, size_t errlen)
{
	const char *p = text;
	struct strlist items = { 0 };
	int rc;

	do {
		char *item = list_item(&p, text, err, errlen);

		if (!item) {
			rc = -EINVAL;
			goto free_items;
		}
		rc = strlist_push(&items, item);
		free(item);
		if (rc) {
			hb_error_fill(err, errlen, "out of memory");
			goto free_items;
		}
		/* A trailing comma leaves an empty last item: an error. */
	} while (*p || (p > text && p[-1] == ','));
	*out = items;
	return 0;
free_items:
	strlist_free(&items);
	return rc;
}

void parse_format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char letters[] = "EPTGMK";

	for (int i = 0; bytes && letters[i]; i++) {
		unsigned shift = 10u * (unsigned)(6 - i);

		if ((bytes & ((UINT64_C(1) << shift) - 1)) == 0) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(bytes >> shift),
				 letters[i]);
			return;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
}

size_t parse_edit_distance(const char *a, const char *b)
{
	enum { MAXLEN = 64 };
	size_t row[MAXLEN + 1];
	size_t la = strlen(a), lb = strlen(b);

	/* Hints only compare short names; anything longer is "far". */
	if (la > MAXLEN || lb > MAXLEN)
		return la > lb ? la : lb;
	for (size_t j = 0; j <= lb; j++)
		row[j] = j;
	for (size_t i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t cost = tolower((unsigned char)a[i - 1]) !=
				      tolower((unsigned char)b[j - 1]);
			size_t best = diag + cost;

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

int parse_is_unit(const char *word)
{
	return word[0] && !isdigit((unsigned char)word[0]) &&
	       (size_multiplier(word) > 1 || duration_scale(word) != 0);
}
