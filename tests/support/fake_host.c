/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fake host API. The getters read values by the rules core/parse.h
 * documents, written again here because plugin tests do not link the core
 * library; a value those rules refuse is named on stderr and read as 0,
 * since here no suite check stands in front of the plugin.
 */
#include "fake_host.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Longest value text the number rules look at, as in core/parse.c. */
#define NUM_MAX 64

/* The value of key in p, or NULL. */
static const char *pairs_get(const struct fh_pairs *p, const char *key)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->key[i], key) == 0)
			return p->value[i];
	return NULL;
}

/* Set the klen bytes of key to value, last wins; -1 if it does not fit. */
static int pairs_set(struct fh_pairs *p, const char *key, size_t klen,
		     const char *value)
{
	size_t i = 0;

	if (klen >= FH_KEY_MAX || strlen(value) >= FH_TEXT_MAX)
		return -1;
	while (i < p->n && (strncmp(p->key[i], key, klen) || p->key[i][klen]))
		i++;
	if (i == FH_MAX)
		return -1;
	memcpy(p->key[i], key, klen);
	p->key[i][klen] = '\0';
	strcpy(p->value[i], value);
	if (i == p->n)
		p->n++;
	return 0;
}

/* text without surrounding blanks into buf[NUM_MAX]; -1 if empty or long. */
static int trim(const char *text, char *buf)
{
	const char *end;

	while (*text == ' ' || *text == '\t')
		text++;
	end = text + strlen(text);
	while (end > text && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end == text || end - text >= NUM_MAX)
		return -1;
	memcpy(buf, text, (size_t)(end - text));
	buf[end - text] = '\0';
	return 0;
}

/* The decimal digits at *p into *v, advancing *p; -1: none or overflow. */
static int digits(const char **p, uint64_t *v)
{
	const char *s = *p;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (*v = 0; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (*v > (UINT64_MAX - d) / 10)
			return -1;
		*v = *v * 10 + d;
	}
	*p = s;
	return 0;
}

/* parse_size: "4096", "64K", "1MiB", "2gb": powers of 1024, no sign. */
static int size_of(const char *text, uint64_t *out)
{
	static const char letters[] = "KMGTPE";
	char buf[NUM_MAX];
	const char *p = buf, *at;
	uint64_t v, mult = 1;

	if (trim(text, buf) || digits(&p, &v))
		return -1;
	if (*p && strcasecmp(p, "B") != 0) {
		at = strchr(letters, toupper((unsigned char)*p));
		if (!at || (p[1] && strcasecmp(p + 1, "B") != 0 &&
			    strcasecmp(p + 1, "iB") != 0))
			return -1;
		for (const char *l = letters; l <= at; l++)
			mult *= 1024;
	}
	if (v > UINT64_MAX / mult)
		return -1;
	*out = v * mult;
	return 0;
}

/* parse_duration: "500ms", "1.5s", "1m", "1h", bare seconds; above 0. */
static int duration_of(const char *text, double *out)
{
	char buf[NUM_MAX];
	const char *p = buf;
	double scale;

	if (trim(text, buf))
		return -1;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.' && p > buf)
		for (p++; isdigit((unsigned char)*p);)
			p++;
	if (p == buf || p[-1] == '.')
		return -1;
	scale = !*p || !strcasecmp(p, "s") ? 1
		: !strcasecmp(p, "ms")	   ? 0.001
		: !strcasecmp(p, "m")	   ? 60
		: !strcasecmp(p, "h")	   ? 3600
					   : 0;
	*out = strtod(buf, NULL) * scale;
	return *out > 0 ? 0 : -1;
}

/* parse_int: a signed decimal that fits int64_t. */
static int int_of(const char *text, int64_t *out)
{
	char buf[NUM_MAX], *end;
	long long v;

	if (trim(text, buf) ||
	    !isdigit((unsigned char)buf[buf[0] == '-' || buf[0] == '+']))
		return -1;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

/* parse_bool: true/false, yes/no, on/off, 1/0, in any case. */
static int bool_of(const char *text, int *out)
{
	static const char *const words[] = { "false", "true", "no", "yes",
					     "off",   "on",   "0",  "1" };
	char buf[NUM_MAX];

	for (size_t i = 0; trim(text, buf) == 0 && i < 8; i++)
		if (strcasecmp(buf, words[i]) == 0) {
			*out = (int)(i % 2);
			return 0;
		}
	return -1;
}

/* Say on stderr that option name's text v is not what the getter reads. */
static void bad_value(const char *name, const char *v, const char *what)
{
	fprintf(stderr, "fake host: %s: \"%s\" is not %s\n", name, v, what);
}

/* The text of option name, or NULL: named on stderr unless extra keys. */
static const char *get_str(const struct hb_case *c, const char *name)
{
	const char *v = fh_param(c->core, name);

	if (!v && !(c->target->flags & HB_TARGET_EXTRA_KEYS))
		fprintf(stderr, "fake host: no value for option \"%s\"\n",
			name);
	return v;
}

static uint64_t get_size(const struct hb_case *c, const char *name)
{
	const char *v = get_str(c, name);
	uint64_t out = 0;

	if (v && size_of(v, &out))
		bad_value(name, v, "a size");
	return out;
}

static int64_t get_int(const struct hb_case *c, const char *name)
{
	const char *v;
	int64_t out = 0;

	/* the core key queue_depth (ABI 1.2): as set, else 1, as the core */
	if (strcmp(name, "queue_depth") == 0 && !fh_param(c->core, name))
		return 1;
	v = get_str(c, name);

	if (v && int_of(v, &out))
		bad_value(name, v, "an integer");
	return out;
}

static int get_bool(const struct hb_case *c, const char *name)
{
	const char *v = get_str(c, name);
	int out = 0;

	if (v && bool_of(v, &out))
		bad_value(name, v, "a boolean");
	return out;
}

static double get_duration(const struct hb_case *c, const char *name)
{
	const char *v = get_str(c, name);
	double out = 0;

	if (v && duration_of(v, &out))
		bad_value(name, v, "a duration above zero");
	return out;
}

/* Comma-separated sizes: up to max into out; how many there are. */
static size_t get_size_list(const struct hb_case *c, const char *name,
			    uint64_t *out, size_t max)
{
	const char *v = get_str(c, name);
	char item[NUM_MAX];
	size_t n = 0;

	for (const char *p = v; p && *p; n++) {
		size_t len = strcspn(p, ",");
		uint64_t size = 0;

		snprintf(item, sizeof(item), "%.*s", (int)len, p);
		if (size_of(item, &size))
			bad_value(name, item, "a size");
		if (n < max)
			out[n] = size;
		p += len + (p[len] == ',');
	}
	return n;
}

static void note(const struct hb_case *c, const char *key, const char *value)
{
	struct fh_case *fc = c->core;

	if (pairs_set(&fc->notes, key, strlen(key), value))
		fprintf(stderr, "fake host: note %s dropped\n", key);
}

static void warn(const struct hb_case *c, const char *fmt, ...)
{
	struct fh_case *fc = c->core;
	va_list ap;

	if (fc->nwarnings == FH_MAX) {
		fprintf(stderr, "fake host: warning dropped: %s\n", fmt);
		return;
	}
	va_start(ap, fmt);
	vsnprintf(fc->warnings[fc->nwarnings++], FH_TEXT_MAX, fmt, ap);
	va_end(ap);
}

static void log_line(const struct hb_case *c, const char *fmt, ...)
{
	va_list ap;

	(void)c;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static const struct hb_host fake_host = {
	.size = sizeof(struct hb_host),
	.get_size = get_size,
	.get_int = get_int,
	.get_bool = get_bool,
	.get_str = get_str,
	.get_duration = get_duration,
	.get_size_list = get_size_list,
	.note = note,
	.warn = warn,
	.log = log_line,
};

void fh_case_init(struct fh_case *fc, const struct hb_target *t,
		  const char *const *params)
{
	memset(fc, 0, sizeof(*fc));
	fc->c.target = t;
	fc->c = fh_worker(fc, 0, 1);
	for (size_t i = 0; params && params[i]; i++)
		if (fh_set(fc, params[i]))
			fprintf(stderr, "fake host: cannot set %s\n",
				params[i]);
}

int fh_set(struct fh_case *fc, const char *kv)
{
	const char *eq = strchr(kv, '=');

	return eq ? pairs_set(&fc->params, kv, (size_t)(eq - kv), eq + 1) : -1;
}

const char *fh_param(const struct fh_case *fc, const char *name)
{
	const char *v = pairs_get(&fc->params, name);

	for (const struct hb_option *o = fc->c.target->options;
	     !v && o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o->def;
	return v;
}

struct hb_case fh_worker(struct fh_case *fc, unsigned worker, unsigned workers)
{
	return (struct hb_case){ .host = &fake_host,
				 .target = fc->c.target,
				 .worker = worker,
				 .workers = workers,
				 .core = fc };
}

const char *fh_note(const struct fh_case *fc, const char *key)
{
	return pairs_get(&fc->notes, key);
}

const struct hb_target *fh_target(const struct hb_plugin *p,
				  const char *fullname)
{
	char name[128];

	for (const struct hb_target *t = p->targets; t->name; t++) {
		snprintf(name, sizeof(name), "%s/%s", t->group, t->name);
		if (strcmp(name, fullname) == 0)
			return t;
	}
	return NULL;
}
