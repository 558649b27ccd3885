/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The core keys: the suite keys the core reads in every job (target,
 * backend, parallel, ...). They sit in the plugin layer because the loader
 * refuses a plugin whose option table declares one of them, and the suite
 * code above uses the same list.
 */
#ifndef HB_CORE_PLUGIN_CORE_KEY_H
#define HB_CORE_PLUGIN_CORE_KEY_H

#include <hostbench/plugin.h>

/* Every core key, NULL-terminated, in the order docs/suites.md lists them. */
extern const char *const core_key_names[];

/* Nonzero when key is one of core_key_names. */
int core_key(const char *key);

/* Nonzero for the core keys that take one value, never a list. */
int core_key_single(const char *key);

/* Nonzero for timeout, memory_limit and cpu_limit, where "0" means none. */
int core_key_zero_is_none(const char *key);

/*
 * The ABI minor a core key came with (0: always there). A plugin built for
 * an older minor may declare an option of that name (vendors did, for
 * want of the core key): it stays that plugin's option.
 */
unsigned core_key_since(const char *key);

/*
 * Nonzero when key is a core key for a case of target t: a core key that
 * t does not declare as its own option (only a plugin older than the key
 * can, see core_key_since). t may be NULL.
 */
int core_key_for(const char *key, const struct hb_target *t);

/*
 * Nonzero when a plugin reads core key key of a case of target t through
 * the host's get_int (ABI 1.2): "queue_depth", the units the core keeps
 * in flight per worker (1 for a synchronous target), so setup can size
 * its slots. A plugin that declares queue_depth itself reads its own
 * option, as before.
 */
int core_key_readable(const char *key, const struct hb_target *t);

#endif
