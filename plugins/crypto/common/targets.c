/* SPDX-License-Identifier: Apache-2.0 */
/* Which primitives each shared crypto target is made of. */
#include "targets.h"

#include <string.h>

/* A spec and the "group/name" it belongs to. */
struct named_spec {
	const char *group;
	const char *name;
	struct cx_spec spec;
};

#define CX_SPEC_ENTRY(grp, nam, sum, cls, alg, mac, prt)                       \
	{ grp, nam, { alg, mac } },

static const struct named_spec specs[] = { CX_TARGETS(CX_SPEC_ENTRY) };

const struct cx_spec *cx_spec_find(const struct hb_target *t)
{
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++)
		if (strcmp(specs[i].group, t->group) == 0 &&
		    strcmp(specs[i].name, t->name) == 0)
			return &specs[i].spec;
	return NULL;
}
