/*
 * Crash isolation: a case runs in a forked child, so a plugin that
 * crashes, aborts, exits, hangs, leaks or writes to stdout fails only its
 * own case. The result travels back over a pipe as JSON.
 */
#ifndef HB_CORE_RUN_ISOLATE_H
#define HB_CORE_RUN_ISOLATE_H

#include <signal.h>

#include "run/result.h"
#include "suite/suite.h"

/* Seconds a case may take when its suite sets no timeout. */
double isolate_timeout(const struct bench_case *c);

/*
 * Run c in a child process into r (zeroed by the caller), with c's memory
 * and CPU limits and timeout. When *stop becomes nonzero the child is
 * killed at once and the case reported skipped ("interrupted"). Temporary
 * files a
 * killed or crashed case left in its directories (named
 * ".hostbench-<pid>-*", see docs/plugins.md) are removed. Returns 0, or
 * -ENOMEM / -errno when the child could not be started.
 */
int isolate_run_case(const struct bench_case *c,
		     const volatile sig_atomic_t *stop, struct result *r);

#endif
