/* SPDX-License-Identifier: Apache-2.0 */
/* Every key of a job checked against its target's option tables. */
#include "suite/suite_check.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "plugin/core_key.h"
#include "suite/suite_hint.h"
#include "suite/suite_value.h"

/* Check one item of st against every table of d that declares st->key. */
/*
 * A queue depth above 1 needs a target that keeps units in flight (ABI
 * 1.2 submit and poll): refused here, before anything runs, for every
 * backend of the job that cannot.
 */
static int check_depth(const struct draft *d, const char *item, char *msg,
		       size_t len)
{
	int64_t depth = 1;

	parse_int(item, &depth, NULL, 0);
	for (size_t b = 0; b < d->backends.n && depth > 1; b++) {
		const struct hb_target *t = d->tdescs[b];

		if (!t || !core_key_for("queue_depth", t) ||
		    (t->flags & HB_TARGET_ASYNC))
			continue;
		return hb_errorf(msg, len, -EINVAL,
				 "%s on backend %s keeps one unit in flight "
				 "(it has no asynchronous submit and poll): "
				 "queue_depth %s needs an asynchronous target, "
				 "use 1",
				 d->target, d->backends.items[b], item);
	}
	return 0;
}

static int check_item(const struct draft *d, const struct setting *st,
		      const char *item, char *msg, size_t len)
{
	int rc = 0;

	if (core_key(st->key) && (d->open || !d->backends.n))
		return suite_value_core(st->key, item, msg, len);
	for (size_t b = 0; b < d->backends.n && !rc; b++) {
		const struct hb_option *o =
			plugin_option_find(d->tdescs[b], st->key);

		if (o)
			rc = suite_value_option(o, item, msg, len);
		else if (core_key(st->key))
			rc = suite_value_core(st->key, item, msg, len);
	}
	if (!rc && strcmp(st->key, "queue_depth") == 0)
		rc = check_depth(d, item, msg, len);
	return rc;
}

/*
 * Validate st's value and split it into the items cases take: one item
 * for single-valued keys and size lists, else the comma list.
 */
static int check_setting(struct loader *ld, struct draft *d, struct setting *st)
{
	const struct hb_option *o = suite_draft_option(d, st->key);
	char msg[512];
	int rc;

	if (strcmp(st->key, "target") == 0)
		return strlist_push(&st->items, d->target)
			       ? suite_loader_nomem(ld)
			       : 0;
	if (core_key_single(st->key) && !*st->value)
		return suite_loader_fail(ld, -EINVAL, st->origin, d->label,
					 st->key, "empty value");
	if (core_key_single(st->key))
		rc = strlist_push(&st->items, st->value);
	else if (o && o->type == HB_OPT_SECRET)
		rc = suite_value_secret_list(st->value, &st->items, msg,
					     sizeof(msg));
	else
		rc = parse_list(st->value, &st->items, msg, sizeof(msg));
	if (rc == -ENOMEM)
		return suite_loader_nomem(ld);
	if (rc)
		return suite_loader_fail(ld, rc, st->origin, d->label, st->key,
					 "%s", msg);
	for (size_t i = 0; i < st->items.n; i++) {
		rc = check_item(d, st, st->items.items[i], msg, sizeof(msg));
		if (rc)
			return suite_loader_fail(ld, rc, st->origin, d->label,
						 st->key, "%s", msg);
	}
	/* a size list, or the plugins a suite accepts, is one value whole */
	if ((o && o->type == HB_OPT_SIZE_LIST && !core_key(st->key)) ||
	    strcmp(st->key, "plugins") == 0) {
		strlist_free(&st->items);
		if (strlist_push(&st->items, st->value))
			return suite_loader_nomem(ld);
	}
	return 0;
}

/* Every required option (no default) of d's tables is set. */
static int check_required(struct loader *ld, struct draft *d)
{
	char origin[ORIGIN_MAX];

	for (size_t b = 0; b < d->backends.n; b++)
		for (const struct hb_option *o =
			     d->tdescs[b] ? d->tdescs[b]->options : NULL;
		     o && o->name; o++)
			if (!o->def && !suite_draft_get(d, o->name))
				return suite_loader_fail(
					ld, -EINVAL,
					suite_draft_origin(d, origin,
							   sizeof(origin)),
					d->label, o->name,
					"missing (%s from %s needs it: %s)",
					d->target, d->backends.items[b],
					o->help ? o->help : o->name);
	return 0;
}

/*
 * "; backends that take it: a, b (backend = a)" into buf: the backends
 * offering d's target whose table has key, in the order of preference; ""
 * when none has it.
 */
static void key_backends(const struct loader *ld, const struct draft *d,
			 const char *key, char *buf, size_t len)
{
	struct strlist order = { 0 };
	const char *first = NULL;
	size_t used = 0;

	buf[0] = '\0';
	registry_backends(ld->reg, d->target, &order);
	for (size_t i = 0; i < order.n && used < len; i++) {
		const struct hb_target *t = NULL;

		registry_find(ld->reg, d->target, order.items[i], &t);
		if (!plugin_option_find(t, key))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 first ? ", "
					       : "; backends that take "
						 "it: ",
					 order.items[i]);
		first = first ? first : order.items[i];
	}
	if (first && used < len)
		snprintf(buf + used, len - used, " (backend = %s)", first);
	strlist_free(&order);
}

/*
 * "unknown key" for st: the target and the backends the job runs (said to
 * be chosen when the job names none), the backends that take the key, or
 * else the nearest known key.
 */
static int unknown_key(struct loader *ld, const struct draft *d,
		       const struct setting *st)
{
	struct suite_hint h = { .typed = st->key };
	char takers[256], hint[200], names[256] = "";
	size_t used = 0;

	for (size_t b = 0; b < d->backends.n && used < sizeof(names); b++)
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", b ? ", " : "",
					 d->backends.items[b]);
	key_backends(ld, d, st->key, takers, sizeof(takers));
	suite_hint_keys(&h, d);
	return suite_loader_fail(
		ld, -EINVAL, st->origin, d->label, st->key,
		"unknown key for %s with %s %s%s", d->target,
		suite_draft_get(d, "backend") ? "backend"
					      : "the default backend",
		names,
		takers[0] ? takers
		: *suite_hint_text(&h, hint, sizeof(hint))
			? hint
			: " (`hostbench describe` lists its keys)");
}

/* Validate every key of d; [global] keys its target does not take are
 * left out. */
int suite_check_draft(struct loader *ld, struct draft *d)
{
	int rc;

	for (size_t i = 0; i < d->n; i++) {
		struct setting *st = &d->set[i];

		if (!suite_draft_accepts(d, st->key)) {
			if (st->inherited) {
				st->ignored = 1;
				continue;
			}
			return unknown_key(ld, d, st);
		}
		if (st->global >= 0)
			ld->globals[st->global].used = 1;
		rc = check_setting(ld, d, st);
		if (rc)
			return rc;
	}
	return check_required(ld, d);
}

/* A [global] key that no job took is a typo. */
int suite_check_globals(struct loader *ld)
{
	char hint[200];

	for (size_t i = 0; i < ld->nglobals; i++) {
		const struct gsetting *g = &ld->globals[i];
		struct suite_hint h = { .typed = g->key };

		if (g->used)
			continue;
		for (size_t j = 0; j < ld->ndrafts; j++)
			suite_hint_keys(&h, &ld->drafts[j]);
		return suite_loader_fail(
			ld, -EINVAL, g->origin, "global", g->key,
			"no job after it takes this key%s",
			suite_hint_text(&h, hint, sizeof(hint)));
	}
	return 0;
}
