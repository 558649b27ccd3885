/* Lookups in a loaded registry: which plugin offers which target. */
#include "plugin/registry.h"

#include <stddef.h>
#include <stdio.h>
#include <string.h>

void plugin_target_name(const struct hb_target *t, char *buf, size_t len)
{
	snprintf(buf, len, "%s/%s", t->group, t->name);
}

/* The entry of p's table named "group/name", or NULL. */
static const struct hb_target *plugin_target(const struct plugin *p,
					     const char *target)
{
	char full[256];

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

const struct plugin *registry_default(const struct registry *reg,
				      const char *target)
{
	const struct plugin *first = NULL;

	for (size_t i = 0; i < reg->n; i++) {
		const struct plugin *p = &reg->plugins[i];

		if (!plugin_target(p, target))
			continue;
		if (!registry_unusable(p, target))
			return p;
		if (!first)
			first = p;
	}
	return first;
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
