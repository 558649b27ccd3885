/* SPDX-License-Identifier: Apache-2.0 */
/* Draft jobs: the settings of a job as read, before it becomes cases. */
#include "suite/suite_draft.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/core_key.h"

struct setting *suite_draft_get(const struct draft *d, const char *key)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->set[i].key, key) == 0)
			return &d->set[i];
	return NULL;
}

int suite_draft_set(struct draft *d, const char *key, const char *value,
		    const char *origin, long global)
{
	struct setting *st = suite_draft_get(d, key);
	char *v = strdup(value), *o = strdup(origin);

	if (!v || !o)
		goto free_copies;
	if (st) {
		free(st->value);
		free(st->origin);
		st->value = v;
		st->origin = o;
		st->inherited = global >= 0;
		if (global >= 0)
			st->global = global;
		return 0;
	}
	if (array_grow((void **)&d->set, d->n, &d->cap, sizeof(*st)))
		goto free_copies;
	st = &d->set[d->n];
	memset(st, 0, sizeof(*st));
	st->key = strdup(key);
	if (!st->key)
		goto free_copies;
	st->value = v;
	st->origin = o;
	st->global = global;
	st->inherited = global >= 0;
	d->n++;
	return 0;
free_copies:
	free(v);
	free(o);
	return -ENOMEM;
}

void suite_draft_free(struct draft *d)
{
	for (size_t i = 0; i < d->n; i++) {
		free(d->set[i].key);
		free(d->set[i].value);
		free(d->set[i].origin);
		strlist_free(&d->set[i].items);
	}
	free(d->set);
	free(d->label);
	free(d->file);
	free(d->target);
	strlist_free(&d->backends);
	free(d->plugins);
	free(d->tdescs);
}

/* The option table entry for key in the first of d's tables declaring it. */
const struct hb_option *suite_draft_option(const struct draft *d,
					   const char *key)
{
	for (size_t b = 0; b < d->backends.n; b++) {
		const struct hb_option *o =
			plugin_option_find(d->tdescs[b], key);

		if (o)
			return o;
	}
	return NULL;
}

/* Nonzero when job d takes key: a core key, or one its targets declare. */
int suite_draft_accepts(const struct draft *d, const char *key)
{
	if (core_key(key) || d->open)
		return 1;
	for (size_t b = 0; b < d->backends.n; b++)
		if (plugin_option_find(d->tdescs[b], key) ||
		    (d->tdescs[b]->flags & HB_TARGET_EXTRA_KEYS))
			return 1;
	return 0;
}

/* "FILE:LINE" of d's section header into buf. */
const char *suite_draft_origin(const struct draft *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", d->file, d->line);
	return buf;
}
