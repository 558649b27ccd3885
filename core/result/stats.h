/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Statistics over a result's samples. Pure functions: known data sets give
 * known answers in tests.
 */
#ifndef HB_CORE_RUN_STATS_H
#define HB_CORE_RUN_STATS_H

#include <stddef.h>

/* Summary of n values. Percentiles interpolate linearly (type 7). */
struct stats {
	size_t n;
	double median;
	double min;
	double max;
	double mean;
	double stddev; /* sample standard deviation (n-1), Welford; 0 when n < 2
			*/
	double cv;     /* stddev / mean; 0 when mean is 0 */
	double p25;
	double p75;
	double ci95_low;  /* 95% confidence interval of the median, from */
	double ci95_high; /* order statistics (stats_median_ci_ranks) */
};

/*
 * Compute s over v[0..n). v is not modified. n == 0 gives all zeros.
 * Returns 0, or -ENOMEM when the sorted copy the percentiles need could not
 * be allocated (s is then all zeros).
 */
int stats_compute(const double *v, size_t n, struct stats *s);

/*
 * The q-quantile (0..1) of sorted[0..n): linear interpolation between the
 * two nearest ranks (Hyndman & Fan type 7, numpy's default); 0 when n == 0.
 */
double stats_quantile(const double *sorted, size_t n, double q);

/*
 * The 1-based ranks [*lo, *hi] of the sorted values that bound a
 * distribution-free 95% confidence interval of the median of n values
 * (Conover, "Practical Nonparametric Statistics", the binomial method):
 * lo is the largest k with P(B < k) <= 0.025 for B ~ Binomial(n, 1/2), and
 * hi = n + 1 - lo. Below n = 6 no pair of ranks reaches 95%: the interval
 * is then the whole range (1, n). n == 0 gives 0, 0.
 */
void stats_median_ci_ranks(size_t n, size_t *lo, size_t *hi);

/*
 * The half-width of s's confidence interval relative to its median: the
 * larger of (median - ci95_low) and (ci95_high - median), over the median.
 * 0 when the median is 0.
 */
double stats_ci_relative(const struct stats *s);

#endif
