/* The fake host API: parameters from a small table, notes kept. */
#include "fake_host.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Backing text for "key=value" overrides; tests run one case at a time. */
static char override_text[16][128];

static const char *param(const struct hb_case *c, const char *name)
{
	const struct fake_case *fc = (const struct fake_case *)c;

	for (size_t i = fc->n; i-- > 0;)
		if (strcmp(fc->keys[i], name) == 0)
			return fc->values[i];
	fprintf(stderr, "fake host: undeclared option \"%s\"\n", name);
	return NULL;
}

/* "4096", "64K", "1M": powers of 1024, as the core reads sizes. */
static uint64_t get_size(const struct hb_case *c, const char *name)
{
	const char *v = param(c, name);
	char *end;
	uint64_t n;

	if (!v)
		return 0;
	n = strtoull(v, &end, 10);
	switch (*end) {
	case 'K':
		return n << 10;
	case 'M':
		return n << 20;
	case 'G':
		return n << 30;
	}
	return n;
}

static int64_t get_int(const struct hb_case *c, const char *name)
{
	const char *v = param(c, name);

	return v ? strtoll(v, NULL, 10) : 0;
}

static int get_bool(const struct hb_case *c, const char *name)
{
	const char *v = param(c, name);

	return v && (strcmp(v, "true") == 0 || strcmp(v, "1") == 0);
}

static double get_duration(const struct hb_case *c, const char *name)
{
	const char *v = param(c, name);

	return v ? strtod(v, NULL) : 0;
}

static size_t get_size_list(const struct hb_case *c, const char *name,
			    uint64_t *out, size_t max)
{
	if (max)
		out[0] = get_size(c, name);
	return 1;
}

static void note(const struct hb_case *c, const char *key, const char *value)
{
	struct fake_case *fc = (struct fake_case *)c;
	size_t i;

	for (i = 0; i < fc->nnotes; i++)
		if (strcmp(fc->note_keys[i], key) == 0)
			break;
	if (i == 8)
		return;
	snprintf(fc->note_keys[i], sizeof(fc->note_keys[i]), "%s", key);
	snprintf(fc->note_values[i], sizeof(fc->note_values[i]), "%s", value);
	if (i == fc->nnotes)
		fc->nnotes++;
}

static void say(const struct hb_case *c, const char *fmt, ...)
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
    .get_str = param,
    .get_duration = get_duration,
    .get_size_list = get_size_list,
    .note = note,
    .warn = say,
    .log = say,
};

void fake_case_init(struct fake_case *fc, const struct hb_target *t,
		    const char *const *overrides)
{
	memset(fc, 0, sizeof(*fc));
	fc->c.host = &fake_host;
	fc->c.target = t;
	fc->c.workers = 1;
	for (const struct hb_option *o = t->options; o->name && fc->n < 16;
	     o++) {
		fc->keys[fc->n] = o->name;
		fc->values[fc->n++] = o->def ? o->def : "";
	}
	for (size_t i = 0; overrides && overrides[i] && fc->n < 16; i++) {
		char *eq;

		snprintf(override_text[i], sizeof(override_text[i]), "%s",
			 overrides[i]);
		eq = strchr(override_text[i], '=');
		if (!eq)
			continue;
		*eq = '\0';
		fc->keys[fc->n] = override_text[i];
		fc->values[fc->n++] = eq + 1;
	}
}

const char *fake_note(const struct fake_case *fc, const char *key)
{
	for (size_t i = 0; i < fc->nnotes; i++)
		if (strcmp(fc->note_keys[i], key) == 0)
			return fc->note_values[i];
	return NULL;
}

const struct hb_target *fake_target(const struct hb_plugin *p,
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
