/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A case's samples, judged and counted (the runner's policy, apart from
 * its threads): what a run() call said it did, whether two rates agree,
 * whether there are samples enough.
 */
#ifndef HB_CORE_RUN_SAMPLING_H
#define HB_CORE_RUN_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "result/result.h"
#include "run/turns.h"
#include "suite/suite.h"

/*
 * Nonzero, with what says why, when d is a count no honest run() of
 * iterations reports for target t: negative (a wrapped unsigned), more
 * operations than iterations, or no work at all.
 */
int sampling_done_invalid(const struct hb_done *d, const struct hb_target *t,
			  uint64_t iterations, char *what, size_t len);

/* Nonzero when rates a and b differ by at most tol of the larger. */
int sampling_agree(double a, double b, double tol);

/*
 * Nonzero when r has samples enough: bc->repetitions of them, or, with a
 * precision, at least min_repetitions and a median known to it or
 * max_time spent measuring since started (hb_now()), after the warm-up
 * (turns t waited for are not counted).
 */
int sampling_enough(const struct bench_case *bc, const struct result *r,
		    double started, const struct turns *t);

/* Room for one more sample in r->samples, of *cap: 0 or -ENOMEM. */
int sampling_grow(struct result *r, size_t *cap);

/*
 * Whether to take another sample: until there are samples enough, or with
 * turns (an interleaved job) when the core gives this case its turn.
 */
int sampling_next(const struct bench_case *bc, const struct result *r,
		  double started, struct turns *t);

#endif
