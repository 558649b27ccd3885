/*
 * What values suite keys take: the core's own keys and their limits, and
 * a target option's type, bounds and choices. Pure checks with the reason
 * in a caller's buffer, shared by every place that validates a value.
 */
#ifndef HB_CORE_SUITE_SUITE_VALUE_H
#define HB_CORE_SUITE_SUITE_VALUE_H

#include <stddef.h>

#include <hostbench/plugin.h>

/* SUITE_CORE_KEYS as a NULL-terminated array, for lookups and hints. */
extern const char *const suite_core_keys[];

/* Nonzero when key is one of SUITE_CORE_KEYS. */
int core_key(const char *key);

/* Nonzero for the core keys that take one value, never a list. */
int core_key_single(const char *key);

/* Nonzero for timeout, memory_limit and cpu_limit, where "0" means none. */
int core_key_zero_is_none(const char *key);

/*
 * Check one item of core key's value ("4" for parallel, "2s" for
 * duration): parallel 1..1024, repetitions 1..10000, warmup 0..1000,
 * duration above 0 and at most 1h, timeout and cpu_limit 0 or a duration,
 * memory_limit a size, unit one of unit_names(), fleet together or
 * sequential. Returns 0, or -EINVAL / -ERANGE with "\"ITEM\" is ..." in
 * msg.
 */
int core_key_check(const char *key, const char *item, char *msg, size_t len);

/* The option called key in t's table (t may be NULL), or NULL. */
const struct hb_option *option_find(const struct hb_target *t, const char *key);

/*
 * Check one item against option o: its type, its bounds when max > min
 * (DURATION bounds in ms) and its choices. Returns 0, or -EINVAL / -ERANGE
 * with "\"ITEM\" is ..." in msg.
 */
int option_check(const struct hb_option *o, const char *item, char *msg,
		 size_t len);

#endif
