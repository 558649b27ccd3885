/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Crash isolation: a case runs in a helper process started by exec
 * (proc/helper.h, run/task.h), so a plugin that crashes, aborts, exits,
 * hangs, leaks, forks or writes to stdout fails only its own case, and
 * nothing it started outlives the case. The result travels back over a
 * pipe as JSON.
 */
#ifndef HB_CORE_RUN_ISOLATE_H
#define HB_CORE_RUN_ISOLATE_H

#include <signal.h>

#include "result/result.h"
#include "suite/suite.h"

/*
 * Run c into r (zeroed by the caller): in a helper process with c's memory
 * and CPU limits and timeout, or in this process with the plugin loaded
 * here when the suite says isolate = no; a case without a usable plugin
 * gets its reason without any plugin code. When *stop becomes nonzero the
 * helper is stopped at once (with everything it started) and the case
 * reported skipped ("interrupted"). Temporary files a killed or crashed
 * case left in its directories (named ".hostbench-<pid>-*", see
 * docs/plugins.md) are removed. Returns 0, or -ENOMEM / -errno when no
 * helper could be started.
 */
int isolate_run_case(const struct bench_case *c,
		     const volatile sig_atomic_t *stop, struct result *r);

/* The FIFOs of a case's turns in an interleaved job (run/turns.h). */
struct isolate_turns {
	const char *go;
	const char *done;
	unsigned lanes; /* cases taking turns: the helper's time scales */
};

/*
 * Nonzero when c can take turns: it runs in a helper with a usable plugin
 * (not isolate = no, not a case that fails or skips without plugin code).
 */
int isolate_takes_turns(const struct bench_case *c);

/*
 * isolate_run_case() of a case that isolate_takes_turns(), in a helper
 * that takes turns on t's FIFOs, with its timeout times t->lanes.
 */
int isolate_run_turns(const struct bench_case *c, const struct isolate_turns *t,
		      const volatile sig_atomic_t *stop, struct result *r);

#endif
