/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A job's target and backends resolved to the loaded plugins that offer
 * them (plugins = pins them, backend = * takes every one).
 */
#ifndef HB_CORE_SUITE_SUITE_BACKEND_H
#define HB_CORE_SUITE_SUITE_BACKEND_H

#include "suite/suite_loader.h"

/*
 * Read d's target: one "group/name" that a loaded plugin offers. Returns
 * 0, or a negative code with ld's err filled.
 */
int suite_backend_target(struct loader *ld, struct draft *d);

/*
 * Resolve each backend of d to its plugin and target table. Returns 0, or
 * a negative code with ld's err filled.
 */
int suite_backend_resolve(struct loader *ld, struct draft *d);

#endif
