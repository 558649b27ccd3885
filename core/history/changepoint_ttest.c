/* SPDX-License-Identifier: Apache-2.0 */
/* Student's t-test of two stretches, and the test of one split. */
#include "history/changepoint.h"
#include "history/robust.h"

#include <math.h>
#include <string.h>

/* Continued fraction of the incomplete beta function (modified Lentz). */
static double beta_fraction(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;

	d = 1 / (fabs(d) < tiny ? tiny : d);
	h = d;
	for (int m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a - 1 + m2) * (a + m2));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1 + m2));
		d = 1 + aa * d;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* The regularised incomplete beta function I_x(a, b). */
static double beta_regularised(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
		    b * log1p(-x));
	/* the fraction converges fast on this side of the mean only */
	if (x < (a + 1) / (a + b + 2))
		return front * beta_fraction(a, b, x) / a;
	return 1 - front * beta_fraction(b, a, 1 - x) / b;
}

double changepoint_student_p(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return 1;
	if (isinf(t))
		return 0;
	return beta_regularised(df / 2, 0.5, df / (df + t * t));
}

/* Weighted mean, variance and Kish's effective count of x[a..b). */
struct side {
	double mean, var, n;
};

static struct side side_of(const double *x, const double *w, size_t a, size_t b)
{
	struct side s = { 0, 0, 0 };
	double v1 = 0, v2 = 0, ss = 0;

	for (size_t i = a; i < b; i++) {
		double wi = w ? w[i] : 1;

		v1 += wi;
		v2 += wi * wi;
		s.mean += wi * x[i];
	}
	if (!(v1 > 0))
		return s;
	s.mean /= v1;
	/* two passes: figures near 1e10 lose every digit in sum(x^2) */
	for (size_t i = a; i < b; i++)
		ss += (w ? w[i] : 1) * (x[i] - s.mean) * (x[i] - s.mean);
	s.n = v1 * v1 / v2;
	if (b - a > 1)
		s.var = ss / (v1 - v2 / v1);
	return s;
}

double changepoint_ttest(const double *x, const double *w, size_t a0, size_t a1,
			 size_t b0, size_t b1, double *ma, double *mb)
{
	struct side a = side_of(x, w, a0, a1), b = side_of(x, w, b0, b1);
	double df = a.n + b.n - 2, pooled, se;

	*ma = a.mean;
	*mb = b.mean;
	if (!(a.n > 0) || !(b.n > 0) || !(df > 0))
		return 1;
	pooled = ((a.n - 1) * a.var + (b.n - 1) * b.var) / df;
	se = sqrt(pooled * (1 / a.n + 1 / b.n));
	if (!(se > 0))
		return a.mean == b.mean ? 1 : 0;
	return changepoint_student_p((b.mean - a.mean) / se, df);
}

/* Median of x[a..b), sorted in scratch. */
static double median_of(const double *x, size_t a, size_t b, double *scratch)
{
	memcpy(scratch, x + a, (b - a) * sizeof(*x));
	return robust_median(scratch, b - a);
}

int changepoint_test(const double *x, const double *w, size_t s, size_t t,
		     size_t e, const struct changepoint_opts *o,
		     double *scratch, struct changepoint *cp)
{
	double ma, mb;

	cp->kind = CHANGEPOINT_STEP;
	cp->index = t;
	cp->end = t;
	cp->p = changepoint_ttest(x, w, s, t, t, e, &ma, &mb);
	cp->before = median_of(x, s, t, scratch);
	cp->after = median_of(x, t, e, scratch);
	cp->change = cp->before != 0 ? cp->after / cp->before - 1 : 0;
	return cp->before != 0 && cp->p < o->alpha &&
	       fabs(cp->change) >= o->min_change;
}
