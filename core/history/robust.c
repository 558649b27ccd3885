/* SPDX-License-Identifier: Apache-2.0 */
/* A series' noise seen past its outliers: running median, clip, scale. */
#include "history/robust.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* MAD of a normal sample is 0.6745 sigma. */
#define ROBUST_MAD_SIGMA 1.4826

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double robust_median(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), compare_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* Median of x[i - ROBUST_HALF .. i + ROBUST_HALF], cut at the ends. */
static double running_median(const double *x, size_t n, size_t i)
{
	double v[2 * ROBUST_HALF + 1];
	size_t a = i > ROBUST_HALF ? i - ROBUST_HALF : 0;
	size_t b = i + ROBUST_HALF + 1 < n ? i + ROBUST_HALF + 1 : n;

	memcpy(v, x + a, (b - a) * sizeof(*x));
	return robust_median(v, b - a);
}

/* Scale of res[0..n) by its MAD, by its mean absolute value if that is 0. */
static double scale_of(const double *res, size_t n, double *tmp)
{
	double mad, mean = 0;

	for (size_t i = 0; i < n; i++)
		tmp[i] = fabs(res[i]);
	mad = robust_median(tmp, n);
	if (mad > 0)
		return ROBUST_MAD_SIGMA * mad;
	for (size_t i = 0; i < n; i++)
		mean += fabs(res[i]);
	return 1.2533 * mean / (double)n; /* sqrt(pi / 2): normal's mean |e| */
}

/* Lag-1 autocorrelation of the clipped residuals, in 0..ROBUST_PHI_MAX. */
static double lag1_of(const double *res, size_t n, double sigma)
{
	double c0 = 0, c1 = 0, lim = ROBUST_CLIP * sigma, phi;

	for (size_t i = 0; i < n; i++) {
		double e = fmax(-lim, fmin(lim, res[i]));

		c0 += e * e;
		if (i + 1 < n)
			c1 += e * fmax(-lim, fmin(lim, res[i + 1]));
	}
	phi = c0 > 0 ? c1 / c0 : 0;
	return fmax(0, fmin(ROBUST_PHI_MAX, phi));
}

int robust_clip(const double *x, size_t n, double *out, double *scratch,
		struct robust_noise *nz)
{
	double *res = scratch, *tmp = scratch + n, floor;

	if (!n)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		out[i] = running_median(x, n, i);
		res[i] = x[i] - out[i];
	}
	memcpy(tmp, x, n * sizeof(*x));
	nz->center = robust_median(tmp, n);
	floor = fabs(nz->center) > 0 ? 1e-6 * fabs(nz->center) : 1e-12;
	nz->sigma = fmax(scale_of(res, n, tmp), floor);
	nz->phi = lag1_of(res, n, nz->sigma);
	nz->lr = nz->sigma * sqrt((1 + nz->phi) / (1 - nz->phi));
	for (size_t i = 0; i < n; i++) {
		double lim = ROBUST_CLIP * nz->sigma;

		out[i] += fmax(-lim, fmin(lim, res[i]));
	}
	return 0;
}
