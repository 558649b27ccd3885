/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What values suite keys take: the core's own keys and their limits, and
 * a target option's type, bounds and choices. Pure checks with the reason
 * in a caller's buffer, shared by every place that validates a value.
 */
#ifndef HB_CORE_SUITE_SUITE_VALUE_H
#define HB_CORE_SUITE_SUITE_VALUE_H

#include <stddef.h>

#include <hostbench/plugin.h>

#include "base/util.h"

/*
 * Check one item of core key's value ("4" for parallel, "2s" for
 * duration): parallel 1..1024, repetitions 1..10000, warmup 0..1000 or
 * auto, min_repetitions 1..10000, duration above 0 and at most 1h,
 * max_time above 0 and at most 1h, precision 0 (off) or a percentage
 * above 0 and at most 50% ("1%", "0.5%"), order sequential or interleaved,
 * timeout and cpu_limit 0 or a duration, memory_limit a size, unit one of
 * unit_names(), fleet together or sequential. Returns 0, or -EINVAL / -ERANGE
 * with "\"ITEM\" is ..." in msg.
 */
int suite_value_core(const char *key, const char *item, char *msg, size_t len);

/*
 * precision's item as a fraction: "1%" is 0.01, "0" is 0 (off). Returns 0,
 * or -EINVAL / -ERANGE with "\"ITEM\" is ..." in msg.
 */
int suite_value_percent(const char *item, double *out, char *msg, size_t len);

/*
 * Check one item against option o: its type, its bounds when max > min
 * (DURATION bounds in ms) and its choices. Returns 0, or -EINVAL / -ERANGE
 * with "\"ITEM\" is ..." in msg.
 */
int suite_value_option(const struct hb_option *o, const char *item, char *msg,
		       size_t len);

/* What a report, title, journal or log shows for a secret value. */
#define SUITE_VALUE_SECRET "(secret)"

/*
 * Nonzero when key is an option of target t declared HB_OPT_SECRET (t may
 * be NULL: nothing is then secret).
 */
int suite_value_is_secret(const struct hb_target *t, const char *key);

/*
 * parse_list() of the value of a secret option: the same items and return
 * code, but a message that says what is wrong ("\"(secret)\" has an
 * unterminated quote") without any character of value.
 */
int suite_value_secret_list(const char *value, struct strlist *out, char *msg,
			    size_t len);

/*
 * value of key as it may be shown: SUITE_VALUE_SECRET for a secret option
 * of t, value itself otherwise.
 */
const char *suite_value_shown(const struct hb_target *t, const char *key,
			      const char *value);

#endif
