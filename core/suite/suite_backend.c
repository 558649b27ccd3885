/* SPDX-License-Identifier: Apache-2.0 */
/* A job's target and backends resolved to the loaded plugins offering them. */
#include "suite/suite_backend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "suite/suite_hint.h"

/* Every backend that offers target, comma-separated, into buf. */
static void offering_backends(const struct registry *reg, const char *target,
			      char *buf, size_t len, struct suite_hint *h)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < reg->n; i++) {
		const char *name = reg->plugins[i].desc->name;

		/* The first plugin of that name offering it, listed once. */
		if (registry_find(reg, target, name, NULL) != &reg->plugins[i])
			continue;
		if (h)
			suite_hint_try(h, name);
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", name);
		if (used >= len)
			break;
	}
}

/* Read the target: one "group/name" that a loaded plugin offers. */
int suite_backend_target(struct loader *ld, struct draft *d)
{
	struct setting *t = suite_draft_get(d, "target");
	struct strlist items = { 0 };
	char origin[ORIGIN_MAX], msg[256], hint[200];
	struct suite_hint h = { 0 };
	int rc;

	if (!t)
		return suite_loader_fail(
			ld, -EINVAL,
			suite_draft_origin(d, origin, sizeof(origin)), d->label,
			"target",
			"missing (every job needs target = GROUP/NAME)");
	rc = parse_list(t->value, &items, msg, sizeof(msg));
	if (rc)
		return suite_loader_fail(ld, rc, t->origin, d->label, "target",
					 "%s", msg);
	if (items.n != 1) {
		strlist_free(&items);
		return suite_loader_fail(
			ld, -EINVAL, t->origin, d->label, "target",
			"\"%s\": one target per job (write one [section] "
			"for each)",
			t->value);
	}
	d->target = items.items[0];
	items.items[0] = NULL;
	strlist_free(&items);
	if (registry_default(ld->reg, d->target))
		return 0;
	/* a fleet's other ranks may offer it (fleet/fleet_unlike.c) */
	d->unoffered = ld->reg->open_targets;
	if (ld->reg->nrefused || d->unoffered) {
		d->open = 1; /* maybe a refused plugin's: report, not fail */
		return 0;
	}
	h.typed = d->target;
	suite_hint_targets(&h, ld->reg);
	return suite_loader_fail(
		ld, -EINVAL, t->origin, d->label, "target",
		"no loaded plugin offers \"%s\"%s", d->target,
		*suite_hint_text(&h, hint, sizeof(hint))
			? hint
			: " (`hostbench list` shows the targets)");
}

/*
 * The plugins d may use (plugins = a, b), NULL when it does not pin them.
 * Returns 0 or the parse error, reported against the key.
 */
static int pinned_plugins(struct loader *ld, struct draft *d,
			  struct strlist *pin)
{
	struct setting *p = suite_draft_get(d, "plugins");
	char msg[256];
	int rc;

	if (!p)
		return 0;
	rc = parse_list(p->value, pin, msg, sizeof(msg));
	if (rc)
		return suite_loader_fail(ld, rc, p->origin, d->label, "plugins",
					 "%s", msg);
	return 0;
}

/*
 * The default backend of d: the most preferred backend offering d's target
 * that pin allows (registry_backends()), else registry_default(). NULL
 * when out of memory or nothing offers it.
 */
static const struct plugin *pinned_default(const struct loader *ld,
					   const struct draft *d,
					   const struct strlist *pin)
{
	const struct plugin *p = NULL;
	struct strlist order = { 0 };

	if (pin->n && !registry_backends(ld->reg, d->target, &order))
		for (size_t i = 0; i < order.n && !p; i++)
			if (strlist_has(pin, order.items[i]))
				p = registry_find(ld->reg, d->target,
						  order.items[i], NULL);
	strlist_free(&order);
	return p ? p : registry_default(ld->reg, d->target);
}

/* Every backend of d is one the suite accepts (plugins = ...). */
static int check_pin(struct loader *ld, struct draft *d,
		     const struct strlist *pin)
{
	struct setting *p = suite_draft_get(d, "plugins");

	for (size_t i = 0; pin->n && i < d->backends.n; i++)
		if (!strlist_has(pin, d->backends.items[i]))
			return suite_loader_fail(
				ld, -EINVAL, p->origin, d->label, "plugins",
				"backend \"%s\" is not one this suite "
				"accepts (plugins = %s)",
				d->backends.items[i], p->value);
	return 0;
}

/*
 * backend = *: every backend offering d's target that pin allows, in the
 * order of preference, written back into b's value so the cases expand
 * over them. Returns 0 or -ENOMEM.
 */
static int every_backend(const struct loader *ld, const struct draft *d,
			 const struct strlist *pin, struct setting *b)
{
	struct strlist order = { 0 };
	size_t len = 1;
	char *value;
	int rc = registry_backends(ld->reg, d->target, &order);

	for (size_t i = 0; i < order.n; i++)
		len += strlen(order.items[i]) + 2;
	value = rc ? NULL : calloc(1, len);
	for (size_t i = 0; value && i < order.n; i++) {
		if (pin->n && !strlist_has(pin, order.items[i]))
			continue;
		if (value[0])
			strcat(value, ", ");
		strcat(value, order.items[i]);
	}
	strlist_free(&order);
	if (!value)
		return -ENOMEM;
	free(b->value);
	b->value = value;
	return 0;
}

/* Resolve each backend of d to its plugin and target table. */
int suite_backend_resolve(struct loader *ld, struct draft *d)
{
	struct setting *b = suite_draft_get(d, "backend");
	struct strlist pin = { 0 };
	const struct plugin *def;
	char msg[256], names[512], origin[ORIGIN_MAX], hint[200];
	struct suite_hint h;
	int rc = pinned_plugins(ld, d, &pin);

	def = rc ? NULL : pinned_default(ld, d, &pin);
	if (!rc && b && strcmp(b->value, "*") == 0 &&
	    every_backend(ld, d, &pin, b))
		rc = suite_loader_nomem(ld);
	if (!rc && b) {
		rc = parse_list(b->value, &d->backends, msg, sizeof(msg));
		if (rc)
			rc = suite_loader_fail(ld, rc, b->origin, d->label,
					       "backend", "%s", msg);
	} else if (!rc) {
		rc = strlist_push(&d->backends, def ? def->desc->name : "none")
			     ? suite_loader_nomem(ld)
			     : 0;
	}
	if (!rc)
		rc = check_pin(ld, d, &pin);
	strlist_free(&pin);
	if (rc)
		return rc;
	d->plugins = calloc(d->backends.n, sizeof(const struct plugin *));
	d->tdescs = calloc(d->backends.n, sizeof(const struct hb_target *));
	if (!d->plugins || !d->tdescs)
		return suite_loader_nomem(ld);
	for (size_t i = 0; i < d->backends.n; i++) {
		const char *name = d->backends.items[i];

		d->plugins[i] =
			registry_find(ld->reg, d->target, name, &d->tdescs[i]);
		if (d->plugins[i])
			continue;
		if (ld->reg->nrefused || d->unoffered) {
			d->open = 1;
			continue;
		}
		h = (struct suite_hint){ .typed = name };
		offering_backends(ld->reg, d->target, names, sizeof(names), &h);
		return suite_loader_fail(
			ld, -EINVAL,
			b ? b->origin
			  : suite_draft_origin(d, origin, sizeof(origin)),
			d->label, "backend",
			"\"%s\" does not offer %s%s (backends that do: "
			"%s)",
			name, d->target,
			suite_hint_text(&h, hint, sizeof(hint)), names);
	}
	return 0;
}
