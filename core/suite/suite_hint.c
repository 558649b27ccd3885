/* SPDX-License-Identifier: Apache-2.0 */
/* "Did you mean": the nearest known word to a mistyped one in a suite. */
#include "suite/suite_hint.h"

#include <stdio.h>
#include <string.h>

#include "base/parse.h"
#include "plugin/core_key.h"

/* Consider candidate c, at edit distance d from the typed word. */
static void suite_hint_at(struct suite_hint *h, const char *c, size_t d)
{
	if ((!h->best[0] || d < h->dist) && strlen(c) < sizeof(h->best)) {
		strcpy(h->best, c);
		h->dist = d;
	}
}

void suite_hint_try(struct suite_hint *h, const char *c)
{
	suite_hint_at(h, c, parse_edit_distance(h->typed, c));
}

/*
 * " (did you mean "X"?)" into buf when the best candidate is close enough
 * to be what was meant (at most 2 edits, or a third of the word), else "".
 */
const char *suite_hint_text(const struct suite_hint *h, char *buf, size_t len)
{
	size_t n = strlen(h->typed);

	if (!h->best[0] || h->dist >= n || (h->dist > 2 && h->dist * 3 > n))
		return "";
	snprintf(buf, len, " (did you mean \"%s\"?)", h->best);
	return buf;
}

/* Offer every key job d takes to h. */
void suite_hint_keys(struct suite_hint *h, const struct draft *d)
{
	for (const char *const *k = core_key_names; *k; k++)
		suite_hint_try(h, *k);
	for (size_t b = 0; b < d->backends.n; b++)
		for (const struct hb_option *o = d->tdescs && d->tdescs[b]
							 ? d->tdescs[b]->options
							 : NULL;
		     o && o->name; o++)
			suite_hint_try(h, o->name);
}

/*
 * Offer every loaded target to h; a bare name ("aes-256-gcm") matches its
 * "group/name" exactly.
 */
void suite_hint_targets(struct suite_hint *h, const struct registry *reg)
{
	char full[256];

	for (size_t i = 0; i < reg->n; i++)
		for (const struct hb_target *t = reg->plugins[i].desc->targets;
		     t && t->name; t++) {
			plugin_target_name(t, full, sizeof(full));
			suite_hint_at(
				h, full,
				strcmp(h->typed, t->name) == 0
					? 0
					: parse_edit_distance(h->typed, full));
		}
}
