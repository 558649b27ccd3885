/* SPDX-License-Identifier: Apache-2.0 */
/* Change points of one series: E-divisive means with a t-test (Hunter). */
#include "history/changepoint.h"

#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
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

/* Sum of |x[p] - x[i]| over i in [a, b). */
static double distance_sum(const double *x, size_t p, size_t a, size_t b)
{
	double s = 0;

	for (size_t i = a; i < b; i++)
		s += fabs(x[p] - x[i]);
	return s;
}

/* Matteson and James' Q of a split into a points and b points. */
static double edivisive_q(double cross, double left, double right, double a,
			  double b)
{
	double within_l = a > 1 ? left / (a * (a - 1) / 2) : 0;
	double within_r = b > 1 ? right / (b * (b - 1) / 2) : 0;

	return a * b / (a + b) * (2 * cross / (a * b) - within_l - within_r);
}

/*
 * The split of x[s..e) that maximises Q, each side at least m points;
 * 0 when the stretch is too short. Moving one point from the right to the
 * left updates the three distance sums in O(n), so a stretch costs O(n^2).
 */
static size_t best_split(const double *x, size_t s, size_t e, size_t m)
{
	double left = 0, right = 0, cross = 0, best = -DBL_MAX;
	size_t tau = s + m, at = 0;

	if (e - s < 2 * m)
		return 0;
	for (size_t i = s; i < tau; i++) {
		left += distance_sum(x, i, i + 1, tau);
		cross += distance_sum(x, i, tau, e);
	}
	for (size_t i = tau; i < e; i++)
		right += distance_sum(x, i, i + 1, e);
	for (;;) {
		double q = edivisive_q(cross, left, right, (double)(tau - s),
				       (double)(e - tau));
		double row_l, row_r;

		if (q > best)
			best = q, at = tau;
		if (tau + 1 > e - m)
			break;
		row_l = distance_sum(x, tau, s, tau);
		row_r = distance_sum(x, tau, tau + 1, e);
		left += row_l;
		right -= row_r;
		cross += row_r - row_l;
		tau++;
	}
	return at;
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of x[a..b), sorted in scratch. */
static double median_of(const double *x, size_t a, size_t b, double *scratch)
{
	size_t n = b - a;

	memcpy(scratch, x + a, n * sizeof(*x));
	qsort(scratch, n, sizeof(*x), compare_double);
	return n % 2 ? scratch[n / 2]
		     : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
}

int changepoint_test(const double *x, const double *w, size_t s, size_t t,
		     size_t e, const struct changepoint_opts *o,
		     double *scratch, struct changepoint *cp)
{
	double ma, mb;

	cp->index = t;
	cp->p = changepoint_ttest(x, w, s, t, t, e, &ma, &mb);
	cp->before = median_of(x, s, t, scratch);
	cp->after = median_of(x, t, e, scratch);
	cp->change = cp->before != 0 ? cp->after / cp->before - 1 : 0;
	return cp->before != 0 && cp->p < o->alpha &&
	       fabs(cp->change) >= o->min_change;
}

/* Insert v into the sorted idx[0..*n). */
static void insert_sorted(size_t *idx, size_t *n, size_t v)
{
	size_t i = *n;

	while (i > 0 && idx[i - 1] > v) {
		idx[i] = idx[i - 1];
		i--;
	}
	idx[i] = v;
	(*n)++;
}

/*
 * Test every split against its neighbours and drop the weakest failing
 * one (highest p), until all hold: a split found inside a stretch may not
 * survive once the stretch is cut again beside it.
 */
static size_t prune(const double *x, const double *w, size_t n,
		    const struct changepoint_opts *o, size_t *idx, size_t k,
		    double *scratch, struct changepoint *cps)
{
	for (;;) {
		size_t worst = k;
		double worst_p = -1;

		for (size_t i = 0; i < k; i++) {
			size_t s = i ? idx[i - 1] : 0;
			size_t e = i + 1 < k ? idx[i + 1] : n;

			if (!changepoint_test(x, w, s, idx[i], e, o, scratch,
					      &cps[i]) &&
			    cps[i].p > worst_p)
				worst = i, worst_p = cps[i].p;
		}
		if (worst == k)
			return k;
		memmove(idx + worst, idx + worst + 1,
			(k - worst - 1) * sizeof(*idx));
		k--;
	}
}

int changepoint_find(const double *x, const double *w, size_t n,
		     const struct changepoint_opts *o, struct changepoint *cps,
		     size_t *ncp)
{
	size_t m = o->min_size ? o->min_size : 1, k = 0, top = 0;
	size_t *idx, *stack;
	double *scratch;

	*ncp = 0;
	if (n < 2 * m)
		return 0;
	idx = malloc(3 * n * sizeof(*idx));
	scratch = malloc(n * sizeof(*scratch));
	if (!idx || !scratch)
		goto fail_alloc;
	stack = idx + n;
	stack[top++] = 0;
	stack[top++] = n;
	while (top) {
		size_t e = stack[--top], s = stack[--top];
		size_t t = best_split(x, s, e, m);
		struct changepoint cp;

		if (!t || !changepoint_test(x, w, s, t, e, o, scratch, &cp))
			continue;
		insert_sorted(idx, &k, t);
		stack[top++] = s;
		stack[top++] = t;
		stack[top++] = t;
		stack[top++] = e;
	}
	*ncp = prune(x, w, n, o, idx, k, scratch, cps);
	free(scratch);
	free(idx);
	return 0;
fail_alloc:
	free(scratch);
	free(idx);
	return -ENOMEM;
}
