/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The runner: sets up one state per worker, starts the workers together,
 * calibrates iterations, and times samples. It owns every clock reading.
 */
#ifndef HB_CORE_RUN_RUNNER_H
#define HB_CORE_RUN_RUNNER_H

#include <signal.h>

#include "result/result.h"
#include "run/turns.h"
#include "suite/suite.h"

/*
 * Run case c into r (zeroed by the caller). A plugin error, a skip or bad
 * output becomes r->status with r->reason; it never ends the process.
 * Composite targets also measure their parts into r->parts. When *stop
 * becomes nonzero (a signal), no further sample starts and the case is
 * reported skipped ("interrupted"). Returns 0, or -ENOMEM.
 */
int runner_run_case(const struct bench_case *c,
		    const volatile sig_atomic_t *stop, struct result *r);

/*
 * runner_run_case() taking turns (an interleaved job, run/turns.h): the
 * case says TURN_READY once set up, calibrates and warms up on its first
 * turn and takes one sample per turn until the core says TURN_QUIT;
 * composite parts are measured after, without turns. t NULL is
 * runner_run_case().
 */
int runner_run_turns(const struct bench_case *c, struct turns *t,
		     const volatile sig_atomic_t *stop, struct result *r);

#endif
