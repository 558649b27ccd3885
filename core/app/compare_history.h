/* SPDX-License-Identifier: Apache-2.0 */
/* compare judged also by the store's history of the two runs' host. */
#ifndef HB_CORE_APP_COMPARE_HISTORY_H
#define HB_CORE_APP_COMPARE_HISTORY_H

#include "app/cli.h"
#include "compare/compare.h"

/*
 * When the store (--store, HOSTBENCH_STORE or the default; none with
 * --no-store) holds both runs of cmp and earlier runs of their host and
 * context, judge each case again by how far those runs moved one to the
 * next (compare_history()); never for a fleet's runs, whose ranks may
 * share a host. A store that does not exist is not made; one
 * that cannot be read is said on one line and the comparison stands.
 */
void compare_history_apply(const struct cli *cli, struct comparison *cmp);

#endif
