/* SPDX-License-Identifier: Apache-2.0 */
/* Lookups in a loaded registry: which plugin offers which target. */
#include "plugin/registry.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void plugin_target_name(const struct hb_target *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", t->group, t->name);
}

/* A target's "group/name" and its entry. */
struct named_target {
	char *full;
	const struct hb_target *t;
};

struct plugin_index {
	struct named_target *v;
	size_t n;
};

static int by_full(const void *a, const void *b)
{
	return strcmp(((const struct named_target *)a)->full,
		      ((const struct named_target *)b)->full);
}

int registry_index(struct plugin *p)
{
	struct plugin_index *ix = calloc(1, sizeof(*ix));
	const struct hb_target *t;
	char full[256];

	for (t = p->desc->targets; t->name; t++)
		;
	if (ix)
		ix->v = calloc((size_t)(t - p->desc->targets) + 1,
			       sizeof(*ix->v));
	p->index = ix;
	if (!ix || !ix->v)
		return -ENOMEM;
	for (t = p->desc->targets; t->name; t++, ix->n++) {
		plugin_target_name(t, full, sizeof(full));
		ix->v[ix->n] =
			(struct named_target){ .full = strdup(full), .t = t };
		if (!ix->v[ix->n].full)
			return -ENOMEM;
	}
	qsort(ix->v, ix->n, sizeof(*ix->v), by_full);
	return 0;
}

void registry_index_free(struct plugin *p)
{
	for (size_t i = 0; p->index && i < p->index->n; i++)
		free(p->index->v[i].full);
	if (p->index)
		free(p->index->v);
	free(p->index);
	p->index = NULL;
}

/* The entry of p's table named "group/name", or NULL. */
static const struct hb_target *plugin_target(const struct plugin *p,
					     const char *target)
{
	struct named_target key = { .full = (char *)target }, *hit;
	char full[256];

	if (p->index) {
		hit = bsearch(&key, p->index->v, p->index->n,
			      sizeof(*p->index->v), by_full);
		return hit ? hit->t : NULL;
	}
	for (const struct hb_target *t = p->desc->targets; t && t->name; t++) {
		plugin_target_name(t, full, sizeof(full));
		if (strcmp(full, target) == 0)
			return t;
	}
	return NULL;
}

const struct plugin *registry_find(const struct registry *reg,
				   const char *target, const char *backend,
				   const struct hb_target **out)
{
	for (size_t i = 0; i < reg->n; i++) {
		const struct plugin *p = &reg->plugins[i];
		const struct hb_target *t;

		if (strcmp(p->desc->name, backend) != 0)
			continue;
		t = plugin_target(p, target);
		if (t) {
			if (out)
				*out = t;
			return p;
		}
	}
	return NULL;
}

const char *registry_unusable(const struct plugin *p, const char *target)
{
	return kvlist_get(&p->unusable, target);
}

/*
 * The backends shipped with hostbench (built-ins), and the reference
 * backend of the groups whose targets several of them offer.
 */
static const char *const builtins[] = { "openssl", "gcrypt", "xxhash",
					"mem",	   "io",     "transfer" };
static const struct {
	const char *group, *backend;
} references[] = {
	{ "crypto", "openssl" },
	{ "hash", "openssl" },
	{ "mac", "openssl" },
};

/* p's tier for target: 0 the group's reference, 1 built-in, 2 other. */
static int preference_tier(const struct plugin *p, const char *target)
{
	const char *name = p->desc->name;
	size_t glen = strcspn(target, "/");

	for (size_t i = 0; i < sizeof(references) / sizeof(references[0]); i++)
		if (strlen(references[i].group) == glen &&
		    strncmp(references[i].group, target, glen) == 0 &&
		    strcmp(references[i].backend, name) == 0)
			return 0;
	for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++)
		if (strcmp(builtins[i], name) == 0)
			return 1;
	return 2;
}

/* Nonzero when p comes before q as a default backend for target. */
static int preferred(const struct plugin *p, const struct plugin *q,
		     const char *target)
{
	int tp = preference_tier(p, target), tq = preference_tier(q, target);

	if (tp != tq)
		return tp < tq;
	return strcmp(p->desc->name, q->desc->name) < 0;
}

int registry_backends(const struct registry *reg, const char *target,
		      struct strlist *out)
{
	/* an array of pointers to plugins: sizeof(*order) is meant */
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	const struct plugin **order = calloc(reg->n + 1, sizeof(*order));
	size_t n = 0;
	int rc = 0;

	if (!order)
		return -ENOMEM;
	for (size_t i = 0; i < reg->n; i++) {
		const struct plugin *p = &reg->plugins[i];
		size_t k = n;

		if (!plugin_target(p, target))
			continue;
		while (k > 0 && preferred(p, order[k - 1], target)) {
			order[k] = order[k - 1];
			k--;
		}
		order[k] = p;
		n++;
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = strlist_push(out, order[i]->desc->name);
	free(order);
	return rc;
}

const struct plugin *registry_default(const struct registry *reg,
				      const char *target)
{
	const struct plugin *best = NULL, *usable = NULL;

	for (size_t i = 0; i < reg->n; i++) {
		const struct plugin *p = &reg->plugins[i];

		if (!plugin_target(p, target))
			continue;
		if (!best || preferred(p, best, target))
			best = p;
		if (!registry_unusable(p, target) &&
		    (!usable || preferred(p, usable, target)))
			usable = p;
	}
	return usable ? usable : best;
}

const struct hb_option *plugin_option_find(const struct hb_target *t,
					   const char *key)
{
	for (const struct hb_option *o = t ? t->options : NULL; o && o->name;
	     o++)
		if (strcmp(o->name, key) == 0)
			return o;
	return NULL;
}

/* The option types and kinds of work by name, indexed by their enum. */
static const char *const type_names[] = {
	[HB_OPT_SIZE] = "size",		[HB_OPT_SIZE_LIST] = "size list",
	[HB_OPT_INT] = "int",		[HB_OPT_BOOL] = "bool",
	[HB_OPT_STRING] = "string",	[HB_OPT_ENUM] = "enum",
	[HB_OPT_DURATION] = "duration", [HB_OPT_SECRET] = "secret",
};

static const char *const work_names[] = {
	[HB_WORK_BYTES] = "bytes",
	[HB_WORK_FILES] = "files",
	[HB_WORK_MESSAGES] = "messages",
	[HB_WORK_OPS] = "operations",
};

/* The index of name in names[0..n), or -1. */
static int name_index(const char *const *names, size_t n, const char *name)
{
	for (size_t i = 0; name && i < n; i++)
		if (names[i] && strcmp(names[i], name) == 0)
			return (int)i;
	return -1;
}

const char *plugin_type_name(enum hb_opt_type type)
{
	size_t n = sizeof(type_names) / sizeof(type_names[0]);

	return (size_t)type < n && type_names[type] ? type_names[type] : "?";
}

int plugin_type_parse(const char *name, enum hb_opt_type *out)
{
	int i = name_index(type_names,
			   sizeof(type_names) / sizeof(type_names[0]), name);

	if (i < 0)
		return -EINVAL;
	*out = (enum hb_opt_type)i;
	return 0;
}

const char *plugin_work_name(enum hb_work work)
{
	size_t n = sizeof(work_names) / sizeof(work_names[0]);

	return (size_t)work < n && work_names[work] ? work_names[work] : "?";
}

int plugin_work_parse(const char *name, enum hb_work *out)
{
	int i = name_index(work_names,
			   sizeof(work_names) / sizeof(work_names[0]), name);

	if (i < 0)
		return -EINVAL;
	*out = (enum hb_work)i;
	return 0;
}
