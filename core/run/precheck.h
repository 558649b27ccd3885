/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Before anything runs: ask each case's plugin (ABI 1.1 validate) whether
 * the case can run on this host, so a missing directory or a bad template
 * is a suite error, not a failure after an hour of other cases.
 */
#ifndef HB_CORE_RUN_PRECHECK_H
#define HB_CORE_RUN_PRECHECK_H

#include <stddef.h>

#include "plugin/registry.h"
#include "suite/suite.h"

/*
 * Validate every case of s whose plugin (one of reg's) has validate(), in
 * one helper process per plugin. Returns 0, or -EINVAL with "FILE:LINE:
 * [SECTION] the plugin's reason" in err for the first case a plugin
 * refuses, or "backend NAME (PATH): crashed in validate(): SIGSEGV" when
 * its helper did not answer.
 */
int precheck_suite(const struct suite *s, const struct registry *reg, char *err,
		   size_t errlen);

#endif
