/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Loading the registry without loading a plugin (plugin/registry.h says
 * what it holds), and freeing it.
 */
#ifndef HB_CORE_PLUGIN_SCAN_H
#define HB_CORE_PLUGIN_SCAN_H

#include <stddef.h>
#include <stdio.h>

#include "plugin/registry.h"

/*
 * Find every regular "*.so" in dirs, in order (files sorted by name within
 * a directory), and take its catalog from the registry cache or from a
 * probe, a helper process that loads it (plugin/probe.h): no plugin code
 * runs in this process. A file name seen in an earlier directory shadows
 * the same name in later ones, whether it loaded or was refused, so an
 * override given with --plugin-dir never silently falls back to another
 * build. A plugin is refused when it or a directory of its real path may
 * be changed by another user (plugin/trust.h), its probe crashes, exits,
 * hangs or answers garbage, it has no entry symbol, was built for another
 * ABI major or a newer minor, has an invalid descriptor or option table,
 * offers a target twice, offers a target its backend name already got from
 * an earlier file, or its describe() fails. A refusal is recorded with its
 * reason and written as one line to diag (if not NULL): "loader: PATH:
 * refused: REASON"; the others still load. A directory that does not exist
 * is skipped silently. Returns 0 (even with refusals) or -ENOMEM; on
 * -ENOMEM reg holds what loaded so far and still needs scan_free().
 */
int scan_load(struct registry *reg, const char *const *dirs, size_t ndirs,
	      FILE *diag);

/* Unload everything scan_load() loaded and free the registry. */
void scan_free(struct registry *reg);

#endif
