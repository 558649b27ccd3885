/* SPDX-License-Identifier: Apache-2.0 */
/* Validation of single suite values against the core's and options' rules. */
#include "suite/suite_value.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cpuspec.h"
#include "base/parse.h"
#include "base/units.h"
#include "plugin/core_key.h"
#include "suite/suite.h"

/* Longest duration of one sample, in seconds. */
#define SUITE_MAX_DURATION 3600.0

/* Milliseconds as the shortest duration text: "90s", "500ms", "2m". */
static void format_ms(int64_t ms, char *buf, size_t len)
{
	if (ms && ms % 60000 == 0)
		snprintf(buf, len, "%lldm", (long long)(ms / 60000));
	else if (ms && ms % 1000 == 0)
		snprintf(buf, len, "%llds", (long long)(ms / 1000));
	else
		snprintf(buf, len, "%lldms", (long long)ms);
}

/* The choices of an enum option as "a, b, c" into buf. */
static void format_choices(const struct hb_option *o, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (const char *const *c = o->choices; c && *c && used < len; c++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", *c);
}

/* Whether item is one of o's choices. */
static int suite_value_is_word(const struct hb_option *o, const char *item)
{
	for (const char *const *c = o->choices; c && *c; c++)
		if (strcmp(*c, item) == 0)
			return 1;
	return 0;
}

/* The words a size option takes too, as "; or llc" (empty for none). */
static void format_words(const struct hb_option *o, char *buf, size_t len)
{
	char list[112];

	format_choices(o, list, sizeof(list));
	snprintf(buf, len, "%s%s", list[0] ? "; or " : "", list);
}

int suite_value_option(const struct hb_option *o, const char *item, char *msg,
		       size_t len)
{
	int bounded = o->max > o->min;
	char lo[64], hi[256], words[128];
	uint64_t size;
	int64_t num;
	double secs;
	int rc, flag;

	switch (o->type) {
	case HB_OPT_SIZE:
		if (o->choices && suite_value_is_word(o, item))
			return 0;
		/* fall through */
	case HB_OPT_SIZE_LIST:
		rc = parse_size(item, &size, msg, len);
		if (rc || !bounded)
			return rc;
		if ((o->min > 0 && size < (uint64_t)o->min) ||
		    size > (uint64_t)o->max) {
			parse_format_size(o->min > 0 ? (uint64_t)o->min : 0, lo,
					  sizeof(lo));
			parse_format_size((uint64_t)o->max, hi, sizeof(hi));
			format_words(o, words, sizeof(words));
			return hb_errorf(msg, len, -ERANGE,
					 "\"%s\" is out of range (%s..%s%s)",
					 item, lo, hi, words);
		}
		return 0;
	case HB_OPT_INT:
		rc = parse_int(item, &num, msg, len);
		if (rc || !bounded || (num >= o->min && num <= o->max))
			return rc;
		return hb_errorf(msg, len, -ERANGE,
				 "\"%s\" is out of range (%lld..%lld)", item,
				 (long long)o->min, (long long)o->max);
	case HB_OPT_BOOL:
		return parse_bool(item, &flag, msg, len);
	case HB_OPT_ENUM:
		if (suite_value_is_word(o, item))
			return 0;
		if (!o->choices)
			return 0;
		format_choices(o, hi, sizeof(hi));
		return hb_errorf(msg, len, -EINVAL, "\"%s\" is not one of: %s",
				 item, hi);
	case HB_OPT_DURATION:
		rc = parse_duration(item, &secs, msg, len);
		if (rc || !bounded ||
		    (secs * 1000 >= (double)o->min &&
		     secs * 1000 <= (double)o->max))
			return rc;
		format_ms(o->min, lo, sizeof(lo));
		format_ms(o->max, hi, sizeof(hi));
		return hb_errorf(msg, len, -ERANGE,
				 "\"%s\" is out of range (%s..%s)", item, lo,
				 hi);
	case HB_OPT_STRING:
	case HB_OPT_SECRET:
		break;
	}
	return 0;
}

/* Limits of the core's integer keys. */
static const struct {
	const char *key;
	int64_t min;
	int64_t max;
} core_ints[] = {
	{ "parallel", 1, 1024 },
	{ "repetitions", 1, 10000 },
	{ "warmup", 0, 1000 },
	{ "queue_depth", 1, 4096 },
	{ "min_repetitions", 1, 10000 },
	{ "process_limit", 0, 4194304 },
	{ "open_files_limit", 0, 1048576 },
};

/* Widest precision a suite may ask for: beyond it the median means little. */
#define SUITE_MAX_PRECISION 0.5

int suite_value_percent(const char *item, double *out, char *msg, size_t len)
{
	char *end;
	double v;

	*out = 0;
	if (strcmp(item, "0") == 0)
		return 0;
	v = strtod(item, &end);
	if (end == item || strcmp(end, "%") != 0 || !(v > 0))
		return hb_errorf(msg, len, -EINVAL,
				 "\"%s\" is not a percentage (e.g. 1%% or "
				 "0.5%%; 0 for fixed repetitions)",
				 item);
	if (v / 100 > SUITE_MAX_PRECISION)
		return hb_errorf(msg, len, -ERANGE,
				 "\"%s\" is out of range (above 0%%, at most "
				 "50%%)",
				 item);
	*out = v / 100;
	return 0;
}

/* The keys of sampling to a precision whose values are words or percents. */
static int suite_value_sampling(const char *key, const char *item, char *msg,
				size_t len)
{
	double frac;

	if (strcmp(key, "precision") == 0)
		return suite_value_percent(item, &frac, msg, len);
	if (strcmp(key, "order") == 0 && strcmp(item, "sequential") != 0 &&
	    strcmp(item, "interleaved") != 0)
		return hb_errorf(msg, len, -EINVAL,
				 "\"%s\" is not one of: sequential, "
				 "interleaved",
				 item);
	return 0;
}

/* fleet_timeout: a duration above zero (a lost rank must cost something). */
static int suite_value_wait(const char *item, char *msg, size_t len)
{
	double secs;
	int rc = parse_duration(item, &secs, msg, len);

	if (rc || secs > 0)
		return rc;
	return hb_errorf(msg, len, -ERANGE,
			 "\"%s\" is no wait (a duration above 0, e.g. 30s)",
			 item);
}

int suite_value_core(const char *key, const char *item, char *msg, size_t len)
{
	uint64_t size;
	int64_t num;
	double secs;
	int rc;

	if (strcmp(key, "precision") == 0 || strcmp(key, "order") == 0)
		return suite_value_sampling(key, item, msg, len);
	if (strcmp(key, "warmup") == 0 && strcmp(item, "auto") == 0)
		return 0;
	for (size_t i = 0; i < sizeof(core_ints) / sizeof(core_ints[0]); i++) {
		if (strcmp(key, core_ints[i].key) != 0)
			continue;
		rc = parse_int(item, &num, msg, len);
		if (rc || (num >= core_ints[i].min && num <= core_ints[i].max))
			return rc;
		return hb_errorf(msg, len, -ERANGE,
				 "\"%s\" is out of range (%lld..%lld)", item,
				 (long long)core_ints[i].min,
				 (long long)core_ints[i].max);
	}
	if (core_key_zero_is_none(key) && strcmp(item, "0") == 0)
		return 0;
	if (strcmp(key, "fleet_timeout") == 0)
		return suite_value_wait(item, msg, len);
	if (strcmp(key, "memory_limit") == 0 ||
	    strcmp(key, "file_size_limit") == 0 ||
	    strcmp(key, "temp_space_limit") == 0)
		return parse_size(item, &size, msg, len);
	if (strcmp(key, "isolate") == 0 || strcmp(key, "store") == 0)
		return parse_bool(item, &rc, msg, len);
	if (strcmp(key, "max_time") == 0) {
		rc = suite_value_wait(item, msg, len);
		if (rc || parse_duration(item, &secs, NULL, 0) ||
		    secs <= SUITE_MAX_DURATION)
			return rc;
		return hb_errorf(msg, len, -ERANGE,
				 "\"%s\" is out of range (at most 1h)", item);
	}
	if (strcmp(key, "cpus") == 0)
		return cpuspec_check(item, msg, len);
	if (strcmp(key, "duration") == 0 || core_key_zero_is_none(key)) {
		rc = parse_duration(item, &secs, msg, len);
		if (rc || strcmp(key, "duration") != 0 ||
		    secs <= SUITE_MAX_DURATION)
			return rc;
		return hb_errorf(msg, len, -ERANGE,
				 "\"%s\" is out of range (at most 1h)", item);
	}
	if (strcmp(key, "fleet") == 0 && strcmp(item, "together") != 0 &&
	    strcmp(item, "sequential") != 0)
		return hb_errorf(msg, len, -EINVAL,
				 "\"%s\" is not one of: together, sequential",
				 item);
	if (strcmp(key, "unit") == 0 && !unit_valid(item))
		return hb_errorf(msg, len, -EINVAL,
				 "\"%s\" is not a unit (one of: %s)", item,
				 unit_names());
	return 0;
}

int suite_value_is_secret(const struct hb_target *t, const char *key)
{
	for (const struct hb_option *o = t ? t->options : NULL; o && o->name;
	     o++)
		if (strcmp(o->name, key) == 0)
			return o->type == HB_OPT_SECRET;
	return 0;
}

const char *suite_value_shown(const struct hb_target *t, const char *key,
			      const char *value)
{
	return suite_value_is_secret(t, key) ? SUITE_VALUE_SECRET : value;
}

/* Replace the first "mask" (quoted) in msg with the secret's stand-in. */
static void hide_quoted(char *msg, size_t len, const char *mask)
{
	size_t n = strlen(mask);
	char *at = strstr(msg, "\""), *tail;

	for (; at; at = strstr(at + 1, "\""))
		if (strncmp(at + 1, mask, n) == 0 && at[n + 1] == '"')
			break;
	if (!at)
		return;
	tail = strdup(at + n + 2);
	if (!tail)
		return;
	snprintf(at, len - (size_t)(at - msg), "\"%s\"%s", SUITE_VALUE_SECRET,
		 tail);
	free(tail);
}

int suite_value_secret_list(const char *value, struct strlist *out, char *msg,
			    size_t len)
{
	struct strlist junk = { 0 };
	char *mask;
	int rc = parse_list(value, out, msg, len);

	if (rc != -EINVAL)
		return rc;
	/*
	 * The same value with every character but quotes, commas and blanks
	 * masked fails the same way; its message then loses the mask too.
	 */
	mask = strdup(value);
	if (!mask)
		return -ENOMEM;
	for (char *p = mask; *p; p++)
		if (!strchr("\", \t", *p))
			*p = '*';
	parse_list(mask, &junk, msg, len);
	strlist_free(&junk);
	hide_quoted(msg, len, mask);
	free(mask);
	return rc;
}
