/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How long a case takes: the one budget that the helper's deadline
 * (run/isolate.c) and a fleet's wait for a rank (fleet/fleet_wait.c)
 * both start from, so the two cannot disagree about a case.
 */
#ifndef HB_CORE_SUITE_SUITE_TIME_H
#define HB_CORE_SUITE_SUITE_TIME_H

#include "suite/suite.h"

/* Warmup samples a case with warmup_auto takes at most. */
#define SUITE_AUTO_WARMUP_MAX 10

/* Seconds after which warmup_auto takes no more warm-up samples. */
#define SUITE_AUTO_WARMUP_SECONDS 2.0

/*
 * Seconds case c should take when nothing goes wrong, whatever its timeout
 * says: setup and calibration, then every sample (warmup, repetitions);
 * for a case sampled to a precision (precision > 0), its warm-up, then up
 * to max_time of samples after its first min_repetitions. Pure.
 */
double suite_case_time(const struct bench_case *c);

/*
 * Seconds case c is likely to take, what a progress estimate starts from:
 * a process and setup allowance, a calibration of a fifth of a sample,
 * the warm-up (SUITE_PLAN_AUTO_WARMUP samples for warmup = auto) and the
 * kept samples: repetitions x duration, or for a case sampled to a
 * precision its max_time (at least min_repetitions x duration), the most
 * it keeps. Pure.
 */
double suite_case_plan(const struct bench_case *c);

/*
 * Turn a copy of a composite case into the sampling of one of its parts:
 * a part says which half bounds the composite, a judgement that needs
 * less precision than the line itself, so it samples for half the
 * composite's max_time (still at least min_repetitions samples). Pure.
 */
void suite_part_sampling(struct bench_case *part);

/* Warm-up samples suite_case_plan() counts for warmup = auto. */
#define SUITE_PLAN_AUTO_WARMUP 5

/*
 * Seconds case c may run before it is stopped: its timeout when the suite
 * sets one, else suite_case_time() with room for a slow setup or a loaded
 * host (120 s, and four times the samples). Pure.
 */
double suite_case_timeout(const struct bench_case *c);

#endif
