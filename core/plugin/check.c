/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The checks of a plugin's descriptor: pure functions over its tables, run
 * by the probe on the plugin's own descriptor and again by the core on the
 * copy the probe sent, which it does not trust either.
 */
#include "plugin/check.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "plugin/core_key.h"

/* The size of struct hb_plugin as ABI minor (of this major) defined it. */
static size_t abi_size(unsigned minor)
{
	if (minor == 0)
		return offsetof(struct hb_plugin, validate);
	if (minor == 1)
		return offsetof(struct hb_plugin, submit);
	if (minor == 2)
		return offsetof(struct hb_plugin, output);
	return sizeof(struct hb_plugin);
}

int check_abi(const struct hb_plugin *d, char *why, size_t len)
{
	if (d->abi_major != HB_ABI_MAJOR)
		return hb_errorf(
			why, len, -EINVAL,
			"built for ABI %u.%u, this hostbench speaks %d.%d",
			d->abi_major, d->abi_minor, HB_ABI_MAJOR, HB_ABI_MINOR);
	if (d->abi_minor > HB_ABI_MINOR)
		return hb_errorf(why, len, -EINVAL,
				 "built for ABI %u.%u, this hostbench speaks "
				 "%d.%d: update hostbench",
				 d->abi_major, d->abi_minor, HB_ABI_MAJOR,
				 HB_ABI_MINOR);
	if (d->size < abi_size(d->abi_minor))
		return hb_errorf(why, len, -EINVAL,
				 "descriptor is %u bytes, ABI %u.%u needs %zu",
				 d->size, d->abi_major, d->abi_minor,
				 abi_size(d->abi_minor));
	return 0;
}

int check_slots(const struct hb_plugin *d, char *why, size_t len)
{
	if (!d->name || !*d->name)
		return hb_errorf(why, len, -EINVAL, "has no backend name");
	if (!d->setup)
		return hb_errorf(why, len, -EINVAL, "has no setup function");
	if (!d->run)
		return hb_errorf(why, len, -EINVAL, "has no run function");
	if (!d->teardown)
		return hb_errorf(why, len, -EINVAL, "has no teardown function");
	if (!d->targets || !d->targets[0].name)
		return hb_errorf(why, len, -EINVAL, "offers no targets");
	if (check_has_async(d) < 0)
		return hb_errorf(why, len, -EINVAL,
				 "fills one of submit and poll but not both");
	return 0;
}

int check_has_async(const struct hb_plugin *d)
{
	if (d->abi_minor < 2 || d->size < offsetof(struct hb_plugin, output))
		return 0;
	if (!d->submit != !d->poll)
		return -1;
	return d->submit != NULL;
}

/* Whether text is one of the NULL-terminated choices. */
static int is_choice(const char *const *choices, const char *text)
{
	for (; *choices; choices++)
		if (strcmp(*choices, text) == 0)
			return 1;
	return 0;
}

/* Every item of a comma list must be a size. */
static int parse_size_items(const char *text, char *err, size_t len)
{
	struct strlist items = { 0 };
	uint64_t size;
	int rc = parse_list(text, &items, err, len);

	for (size_t i = 0; i < items.n && rc == 0; i++)
		rc = parse_size(items.items[i], &size, err, len);
	strlist_free(&items);
	return rc;
}

/*
 * Whether o's default reads as its type and lies within its bounds, so a
 * suite that leaves the option out always gets a valid value. *value is
 * the number the bounds apply to (bytes, integer, milliseconds).
 */
static int default_value(const struct hb_option *o, int64_t *value,
			 int *bounded, char *err, size_t len)
{
	uint64_t size = 0;
	double seconds = 0;
	int rc, flag;

	*bounded = 0;
	switch (o->type) {
	case HB_OPT_SIZE:
		if (o->choices && is_choice(o->choices, o->def))
			return 0;
		rc = parse_size(o->def, &size, err, len);
		*value = size > INT64_MAX ? INT64_MAX : (int64_t)size;
		*bounded = rc == 0;
		return rc;
	case HB_OPT_SIZE_LIST:
		return parse_size_items(o->def, err, len);
	case HB_OPT_INT:
		rc = parse_int(o->def, value, err, len);
		*bounded = rc == 0;
		return rc;
	case HB_OPT_BOOL:
		return parse_bool(o->def, &flag, err, len);
	case HB_OPT_DURATION:
		rc = parse_duration(o->def, &seconds, err, len);
		*value = (int64_t)(seconds * 1000.0);
		*bounded = rc == 0;
		return rc;
	case HB_OPT_ENUM:
		if (is_choice(o->choices, o->def))
			return 0;
		return hb_errorf(err, len, -EINVAL,
				 "\"%s\" is not one of its choices", o->def);
	case HB_OPT_STRING:
	case HB_OPT_SECRET:
		return 0;
	}
	return hb_errorf(err, len, -EINVAL, "unknown type");
}

/* One option entry of target full. */
static int check_option(const char *full, unsigned minor,
			const struct hb_option *o, char *why, size_t len)
{
	char perr[256] = "";
	int64_t value = 0;
	int bounded;

	if (!*o->name)
		return hb_errorf(why, len, -EINVAL,
				 "%s has an option with no name", full);
	if (core_key(o->name) && minor >= core_key_since(o->name))
		return hb_errorf(
			why, len, -EINVAL,
			"%s option \"%s\" is a key the core reads itself", full,
			o->name);
	if ((unsigned)o->type > HB_OPT_SECRET)
		return hb_errorf(why, len, -EINVAL,
				 "%s option \"%s\" has unknown type %d", full,
				 o->name, (int)o->type);
	if (o->type == HB_OPT_ENUM && (!o->choices || !o->choices[0]))
		return hb_errorf(why, len, -EINVAL,
				 "%s option \"%s\" is an enum without choices",
				 full, o->name);
	if (!o->def)
		return 0;
	if (default_value(o, &value, &bounded, perr, sizeof(perr)))
		return hb_errorf(why, len, -EINVAL,
				 "%s option \"%s\": default %s", full, o->name,
				 perr);
	if (bounded && o->max > o->min && (value < o->min || value > o->max))
		return hb_errorf(why, len, -EINVAL,
				 "%s option \"%s\": default \"%s\" is outside "
				 "its bounds %lld..%lld",
				 full, o->name, o->def, (long long)o->min,
				 (long long)o->max);
	return 0;
}

/* Every option of target full, and that no name is declared twice. */
static int check_options(const char *full, unsigned minor,
			 const struct hb_option *opts, char *why, size_t len)
{
	for (const struct hb_option *o = opts; o && o->name; o++) {
		int err = check_option(full, minor, o, why, len);

		if (err)
			return err;
		for (const struct hb_option *q = opts; q < o; q++)
			if (strcmp(q->name, o->name) == 0)
				return hb_errorf(
					why, len, -EINVAL,
					"%s option \"%s\" declared twice", full,
					o->name);
	}
	return 0;
}

/* A target's "group/name" with its place in the plugin's table. */
struct named {
	char full[256];
	const struct hb_target *t;
};

static int by_full(const void *a, const void *b)
{
	return strcmp(((const struct named *)a)->full,
		      ((const struct named *)b)->full);
}

/* The targets of d sorted by name, or NULL (out of memory). */
static struct named *sorted_targets(const struct hb_plugin *d, size_t n)
{
	struct named *v = calloc(n ? n : 1, sizeof(*v));

	for (size_t i = 0; v && i < n; i++) {
		plugin_target_name(&d->targets[i], v[i].full,
				   sizeof(v[i].full));
		v[i].t = &d->targets[i];
	}
	if (v)
		qsort(v, n, sizeof(*v), by_full);
	return v;
}

/* A composite's parts must be targets of the same plugin. */
static int check_parts(const struct named *names, size_t n,
		       const struct hb_target *t, const char *full, char *why,
		       size_t len)
{
	struct named key = { .t = NULL };

	for (const char *const *part = t->parts; part && *part; part++) {
		snprintf(key.full, sizeof(key.full), "%s", *part);
		if (!bsearch(&key, names, n, sizeof(*names), by_full))
			return hb_errorf(why, len, -EINVAL,
					 "target %s names part %s, which this "
					 "plugin does not offer",
					 full, *part);
	}
	return 0;
}

/* A target's name, group and kind of work. */
static int check_names(const struct hb_plugin *d, const struct hb_target *t,
		       char *why, size_t len)
{
	if (!*t->name)
		return hb_errorf(why, len, -EINVAL,
				 "target %td has an empty name",
				 t - d->targets + 1);
	if (!t->group || !*t->group)
		return hb_errorf(why, len, -EINVAL,
				 "target %td (\"%s\") has no group",
				 t - d->targets + 1, t->name);
	if ((t->flags & HB_TARGET_ASYNC) && check_has_async(d) <= 0)
		return hb_errorf(why, len, -EINVAL,
				 "target %s/%s is asynchronous but the plugin "
				 "has no submit and poll",
				 t->group, t->name);
	if ((unsigned)t->work > HB_WORK_OPS)
		return hb_errorf(why, len, -EINVAL,
				 "target %s/%s has unknown work %d", t->group,
				 t->name, (int)t->work);
	return 0;
}

/*
 * One target of d: not offered under the same backend name by a plugin
 * already loaded (reg may be NULL), with valid parts and options.
 */
static int check_target(const struct registry *reg, const struct hb_plugin *d,
			const struct named *names, size_t n,
			const struct named *nt, char *why, size_t len)
{
	const struct plugin *other =
		reg ? registry_find(reg, nt->full, d->name, NULL) : NULL;

	if (other)
		return hb_errorf(why, len, -EINVAL,
				 "backend \"%s\" already offers %s (from %s)",
				 d->name, nt->full, other->path);
	if (check_parts(names, n, nt->t, nt->full, why, len))
		return -EINVAL;
	return check_options(nt->full, d->abi_minor, nt->t->options, why, len);
}

/* How many targets d offers; an entry with a group but no name is a typo. */
static int count_targets(const struct hb_plugin *d, size_t *n, char *why,
			 size_t len)
{
	const struct hb_target *t;

	for (t = d->targets; t->name; t++) {
		int err = check_names(d, t, why, len);

		if (err)
			return err;
	}
	if (t->group)
		return hb_errorf(why, len, -EINVAL,
				 "target %td has a group but no name",
				 t - d->targets + 1);
	*n = (size_t)(t - d->targets);
	return 0;
}

int check_targets(const struct registry *reg, const struct hb_plugin *d,
		  char *why, size_t len)
{
	struct named *names;
	size_t n = 0;
	int err = count_targets(d, &n, why, len);

	if (err)
		return err;
	names = sorted_targets(d, n);
	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < n && !err; i++)
		if (i && strcmp(names[i - 1].full, names[i].full) == 0)
			err = hb_errorf(why, len, -EINVAL,
					"target %s offered twice",
					names[i].full);
		else
			err = check_target(reg, d, names, n, &names[i], why,
					   len);
	free(names);
	return err;
}
