/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A case's samples, judged and counted: what a run() call said it did,
 * whether two rates agree, whether there are samples enough.
 */
#include "run/sampling.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/*
 * A count no honest run() reports: negative (a wrapped unsigned), more
 * operations than iterations asked for, or no work at all.
 */
int sampling_done_invalid(const struct hb_done *d, const struct hb_target *t,
			  uint64_t iterations, char *what, size_t len)
{
	if (d->bytes > INT64_MAX || d->ops > INT64_MAX)
		snprintf(what, len, "run reported a negative count");
	else if (d->ops > iterations)
		snprintf(what, len,
			 "run reported %llu operations for %llu iterations",
			 (unsigned long long)d->ops,
			 (unsigned long long)iterations);
	else if (d->bytes == 0 && d->ops == 0)
		snprintf(what, len, "run reported no work done");
	else if (t && t->work == HB_WORK_OPS && d->ops == 0)
		snprintf(what, len,
			 "run reported 0 operations (the target counts "
			 "operations)");
	else
		return 0;
	return 1;
}

/* Nonzero when rates a and b differ by at most tol of the larger. */
int sampling_agree(double a, double b, double tol)
{
	return a > 0 && b > 0 && fabs(a - b) <= tol * fmax(a, b);
}

/*
 * Nonzero when r has samples enough: bc->repetitions of them, or, with a
 * precision, at least min_repetitions and a median known to it or
 * max_time spent measuring since started, after the warm-up (turns
 * waited for are not counted).
 */
int sampling_enough(const struct bench_case *bc, const struct result *r,
		    double started, const struct turns *t)
{
	double waited = t ? t->waited : 0;

	if (bc->precision <= 0)
		return r->nsamples >= bc->repetitions;
	if (r->nsamples < bc->min_repetitions)
		return 0;
	return result_precise(r, bc->precision) ||
	       hb_now() - started - waited >= bc->max_time;
}

/* Room for one more sample in r->samples, of *cap. */
int sampling_grow(struct result *r, size_t *cap)
{
	struct sample *more;

	if (r->nsamples < *cap)
		return 0;
	*cap = *cap ? 2 * *cap : 16;
	more = realloc(r->samples, *cap * sizeof(*more));
	if (!more)
		return -ENOMEM;
	r->samples = more;
	return 0;
}

/*
 * Whether to take another sample: until there are samples enough, or with
 * turns (an interleaved job) when the core gives this case its turn.
 */
int sampling_next(const struct bench_case *bc, const struct result *r,
		  double started, struct turns *t)
{
	return t ? turns_wait(t) : !sampling_enough(bc, r, started, NULL);
}
