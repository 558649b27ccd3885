/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Loading a plugin into this process. The core never does (only for a
 * case with isolate = no); a helper does, for a probe, a validation or a
 * case (docs/reliability.md).
 */
#ifndef HB_CORE_PLUGIN_LOADER_H
#define HB_CORE_PLUGIN_LOADER_H

#include <stddef.h>

#include "plugin/registry.h"

/* A plugin's validate slot (ABI 1.1). */
typedef int (*validate_fn)(const struct hb_case *c, char *err, size_t errlen);

/*
 * Load p from p->fd (opened and checked by trust_open(); p->path names it
 * in messages): dlopen /proc/self/fd/N, call its entry, check the
 * descriptor (plugin/check.h), call describe() into p->libraries and
 * p->unusable (a NULL or empty reason reads "no reason given"). Returns 0,
 * or -EINVAL with the reason in why ("needs libfoo.so.1, which is not
 * installed"), or -ENOMEM. What was loaded stays for loader_close().
 */
int loader_open(struct plugin *p, char *why, size_t len);

/* The validate slot of p loaded here, or NULL (absent, ABI 1.0, a copy). */
validate_fn loader_validate_fn(const struct plugin *p);

/* A plugin's transform slot (ABI 1.2). */
typedef int (*transform_fn)(const struct hb_case *c, struct hb_message *m,
			    char *err, size_t errlen);

/* The transform slot of p loaded here, or NULL (absent, older, a copy). */
transform_fn loader_transform_fn(const struct plugin *p);

/*
 * p loaded in this process, for a case with isolate = no (the user trusts
 * the plugin): loaded once from p's checked descriptor, and kept. Returns
 * NULL with the reason in why when it cannot be loaded or its descriptor
 * differs from the probe's.
 */
const struct plugin *loader_live(const struct plugin *p, char *why, size_t len);

/* Forget what loading p made: its lists, the handle, the path and fd. */
void loader_close(struct plugin *p);

#endif
