/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a plugin's descriptor must be before anything of it is used: the
 * ABI it was built for, the slots the runner calls, and well-formed target
 * and option tables. Each check returns 0, or -EINVAL with the reason in
 * why ("target mem/x offered twice"), or -ENOMEM.
 */
#ifndef HB_CORE_PLUGIN_CHECK_H
#define HB_CORE_PLUGIN_CHECK_H

#include <stddef.h>

#include <hostbench/plugin.h>

#include "plugin/registry.h"

/*
 * The version fields come first in every ABI, so they are safe to read
 * whatever the plugin was built for: refuse another major, a newer minor,
 * or a descriptor smaller than its minor defines.
 */
int check_abi(const struct hb_plugin *d, char *why, size_t len);

/* A backend name, setup, run and teardown, and at least one target. */
int check_slots(const struct hb_plugin *d, char *why, size_t len);

/*
 * Whether d fills the asynchronous slots (ABI 1.2): 1 both submit and
 * poll, 0 neither (or an older ABI), -1 only one of them.
 */
int check_has_async(const struct hb_plugin *d);

/*
 * Every target of d: named and grouped, a known kind of work, offered
 * once (in O(n log n), so a plugin of 10,000 targets loads at once), not
 * offered under d's backend name by a plugin of reg already (reg may be
 * NULL), parts that d offers, and options that are well formed: a name
 * that is not a core key, a known type, choices for an enum, a default
 * that reads as its type within its bounds, no name twice.
 */
int check_targets(const struct registry *reg, const struct hb_plugin *d,
		  char *why, size_t len);

#endif
