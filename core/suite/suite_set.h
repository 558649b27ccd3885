/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --set: "[SECTION.]KEY=VALUE" parsed, then applied to the jobs it names
 * in two phases (target and backend first, which decide the option
 * tables; then every other key).
 */
#ifndef HB_CORE_SUITE_SUITE_SET_H
#define HB_CORE_SUITE_SUITE_SET_H

#include <stddef.h>

#include "suite/suite_loader.h"

/* One parsed --set. */
struct suite_set {
	const char *text;
	char *section; /* NULL: every job that takes key */
	char *key;
	char *value;
};

/*
 * Split text, "[SECTION.]KEY=VALUE" (the last '.' before '=' ends
 * SECTION), into ov. Returns 0, -ENOMEM or -EINVAL with ld's err filled.
 */
int suite_set_parse(struct loader *ld, const char *text, struct suite_set *ov);

/* Free what suite_set_parse() allocated in ov (not ov itself). */
void suite_set_free(struct suite_set *ov);

/*
 * Apply the n settings of ovs to the jobs they name, only the keys of
 * phase (1: target and backend; 2: every other key). Returns 0, or a
 * negative code with ld's err filled.
 */
int suite_set_apply(struct loader *ld, struct suite_set *ovs, size_t n,
		    int phase);

#endif
