/*
 * The runner: sets up one state per worker, starts the workers together,
 * calibrates iterations, and times samples. It owns every clock reading.
 */
#ifndef HB_CORE_RUNNER_H
#define HB_CORE_RUNNER_H

#include <stdio.h>

#include "result.h"
#include "suite.h"

/* Called before each case starts (progress line), may be NULL. */
typedef void (*runner_progress_fn)(size_t index, size_t total,
				   const struct bench_case *c, void *ctx);

/*
 * Run case c into r (zeroed by the caller). Never fails the process: a
 * plugin error, skip or bad output becomes r->status with r->reason.
 * Composite targets also measure their parts into r->parts.
 * Returns 0, or -ENOMEM.
 */
int runner_run_case(const struct bench_case *c, struct result *r);

#endif
