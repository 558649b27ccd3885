/* SPDX-License-Identifier: Apache-2.0 */
/* How long a case takes, and how long it may take. */
#include "suite/suite_time.h"

#include <math.h>

/* Seconds beyond suite_case_time() a case without a timeout may run. */
#define SUITE_TIMEOUT_ROOM 120.0

/* The samples of a case without a timeout, counted that many times over. */
#define SUITE_TIMEOUT_FACTOR 4.0

/*
 * Seconds of warm-up before a precision's max_time starts counting: its
 * samples, or with warmup = auto at most SUITE_AUTO_WARMUP_MAX of them and
 * no more than one sample past SUITE_AUTO_WARMUP_SECONDS (run/runner.c).
 */
static double warm_up_time(const struct bench_case *c)
{
	double most = SUITE_AUTO_WARMUP_SECONDS + c->duration;

	if (!c->warmup_auto)
		return c->warmup * c->duration;
	return SUITE_AUTO_WARMUP_MAX * c->duration < most
		       ? SUITE_AUTO_WARMUP_MAX * c->duration
		       : most;
}

double suite_case_time(const struct bench_case *c)
{
	/* the 3 samples' worth and the 2 s: setup and calibration */
	if (c->precision > 0)
		return warm_up_time(c) + c->max_time + 2 +
		       (c->min_repetitions + 3) * c->duration;
	return ((c->warmup_auto ? SUITE_AUTO_WARMUP_MAX : c->warmup) +
		c->repetitions + 3) *
	       c->duration;
}

/* Seconds suite_case_plan() allows a case to start: exec, load, setup. */
#define SUITE_PLAN_SETUP 0.15

/* Samples' worth suite_case_plan() allows calibration (runner.c). */
#define SUITE_PLAN_CALIBRATION 0.2

double suite_case_plan(const struct bench_case *c)
{
	double warmup = c->warmup_auto ? SUITE_PLAN_AUTO_WARMUP : c->warmup;
	double kept = c->precision > 0 ? fmax(c->max_time,
					      c->min_repetitions * c->duration)
				       : c->repetitions * c->duration;

	return SUITE_PLAN_SETUP +
	       (warmup + SUITE_PLAN_CALIBRATION) * c->duration + kept;
}

void suite_part_sampling(struct bench_case *part)
{
	part->max_time /= 2;
}

double suite_case_timeout(const struct bench_case *c)
{
	if (c->timeout > 0)
		return c->timeout;
	return SUITE_TIMEOUT_ROOM + SUITE_TIMEOUT_FACTOR * suite_case_time(c);
}
