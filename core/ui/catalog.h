/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `hostbench list` and `hostbench describe`: what the loaded plugins offer,
 * as text or JSON.
 */
#ifndef HB_CORE_UI_CATALOG_H
#define HB_CORE_UI_CATALOG_H

#include <stdio.h>

#include "plugin/registry.h"
#include "report/report.h"

/* Every plugin, target and refusal. Returns 0 or a negative code. */
int catalog_list(const struct registry *reg, enum report_format f, FILE *out,
		 char *err, size_t errlen);

/*
 * One target's options, defaults and units, for each backend offering it.
 * Returns 0, or -ENOENT with "unknown target" and a suggestion in err.
 */
int catalog_describe(const struct registry *reg, const char *target,
		     enum report_format f, FILE *out, char *err, size_t errlen);

#endif
