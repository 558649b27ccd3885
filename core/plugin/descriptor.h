/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A plugin's catalog as JSON: what a probe sends the core and what the
 * registry cache keeps. The catalog is the descriptor's data (ABI, names,
 * targets, options), which slots it fills, and what describe() reported;
 * never a function pointer. The core reads it back into a copy of the
 * descriptor that it owns, checking every field as input from elsewhere.
 */
#ifndef HB_CORE_PLUGIN_DESCRIPTOR_H
#define HB_CORE_PLUGIN_DESCRIPTOR_H

#include <stddef.h>

#include <jansson.h>

#include "plugin/registry.h"

/* Most targets one plugin may offer. */
#define DESCRIPTOR_MAX_TARGETS 100000
/* Longest name, summary, help or default text, in bytes. */
#define DESCRIPTOR_MAX_TEXT 4096

/*
 * The catalog of live plugin p (loaded in this process). Returns a new
 * object, or NULL with the reason in why: a string that is not UTF-8 is
 * refused with where it is ("target 3 summary is not UTF-8"), never
 * dropped.
 */
json_t *descriptor_put(const struct plugin *p, char *why, size_t len);

/*
 * Fill p (path and fd already set) from catalog o: p->desc becomes a copy
 * owned by p (p->copy), with no function slots, p->has_validate and the
 * libraries and unusable targets set. Takes a reference to o. Returns 0,
 * -EINVAL with the reason in why when o is not a well-formed catalog, or
 * -ENOMEM.
 */
int descriptor_get(json_t *o, struct plugin *p, char *why, size_t len);

/* Free the copy descriptor_get() made (p->copy), if any. */
void descriptor_free(struct plugin *p);

#endif
