/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host API table handed to plugins: typed getters over a case's
 * parameters, notes, warnings and log lines, all routed into the result.
 */
#ifndef HB_CORE_RUN_HOSTAPI_H
#define HB_CORE_RUN_HOSTAPI_H

#include <hostbench/plugin.h>

#include "result/result.h"
#include "suite/suite.h"

/* What hb_case.core points to while a case is set up, run, torn down. */
struct host_ctx {
	const struct bench_case *bc;
	struct result *r; /* NULL in validate(): notes and warnings dropped */
	/* per worker, the tool_time() of the run() call under way (runner);
	 * NULL: tool_time() is dropped */
	double *tool_seconds;
};

/* The one host API table; its functions read hb_case.core. */
extern const struct hb_host host_api;

#endif
