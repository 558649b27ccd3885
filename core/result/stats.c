/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Summary statistics of a sample set: Welford moments, type-7 quantiles,
 * and the order-statistic confidence interval of the median.
 */
#include "result/stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* qsort order for doubles; samples are never NaN (they are rates). */
static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double stats_quantile(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t lo, hi;

	if (n == 0)
		return 0;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	h = (double)(n - 1) * q;
	lo = (size_t)h;
	hi = lo + 1 < n ? lo + 1 : n - 1;
	frac = h - (double)lo;
	return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
}

void stats_median_ci_ranks(size_t n, size_t *lo, size_t *hi)
{
	/* log of 2^-n, so the terms stay finite for any n */
	double log_half_n = -(double)n * log(2.0), cdf = 0;
	size_t k = 0;

	*lo = *hi = 0;
	if (n == 0)
		return;
	/* cdf is P(B <= k - 1) = P(B < k) on entry to each turn */
	for (; k < n; k++) {
		double term =
			exp(lgamma((double)n + 1) - lgamma((double)k + 1) -
			    lgamma((double)(n - k) + 1) + log_half_n);

		if (cdf + term > 0.025)
			break;
		cdf += term;
	}
	*lo = k ? k : 1;
	*hi = n + 1 - *lo;
}

double stats_ci_relative(const struct stats *s)
{
	double below = s->median - s->ci95_low,
	       above = s->ci95_high - s->median;

	return s->median != 0 ? fmax(below, above) / fabs(s->median) : 0;
}

/*
 * Mean and sample variance in one pass (Welford): stable even when the
 * values are large and close together, as throughput samples are.
 */
static void welford(const double *v, size_t n, struct stats *s)
{
	double mean = 0, m2 = 0;

	for (size_t i = 0; i < n; i++) {
		double delta = v[i] - mean;

		mean += delta / (double)(i + 1);
		m2 += delta * (v[i] - mean);
	}
	s->mean = mean;
	s->stddev = n > 1 ? sqrt(m2 / (double)(n - 1)) : 0;
	s->cv = mean != 0 ? s->stddev / mean : 0;
}

int stats_compute(const double *v, size_t n, struct stats *s)
{
	double *sorted;
	size_t lo, hi;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, v, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_double);

	s->n = n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = stats_quantile(sorted, n, 0.5);
	s->p25 = stats_quantile(sorted, n, 0.25);
	s->p75 = stats_quantile(sorted, n, 0.75);
	stats_median_ci_ranks(n, &lo, &hi);
	s->ci95_low = sorted[lo - 1];
	s->ci95_high = sorted[hi - 1];
	welford(v, n, s);
	free(sorted);
	return 0;
}
