/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Least-squares fits of any stretch of a weighted series in O(1): a level,
 * or a level and a slope when the slope pays for itself. The change-point
 * search prices a segment with it and the detector reads the steps and
 * drifts off its fits. Pure functions, no I/O.
 */
#ifndef HB_CORE_HISTORY_SEGFIT_H
#define HB_CORE_HISTORY_SEGFIT_H

#include <stddef.h>

/* Prefix sums of w, w t, w t^2, w x, w t x and w x^2; n + 1 entries each. */
struct segfit_sums {
	double *w, *wt, *wtt, *wx, *wtx, *wxx;
	size_t n;
};

/* The fit of one stretch [a, b). */
struct segfit {
	double w;     /* sum of the weights: the stretch's effective size */
	double level; /* fitted value at tbar */
	double slope; /* per point; 0 when the fit is a level */
	double tbar;  /* weighted mean index */
	double stt;   /* weighted sum of (t - tbar)^2 */
	double rss;   /* weighted residual sum of squares of the fit */
	double cost;  /* rss, plus the slope's price when it has one */
	int sloped;   /* 1 when a line fits better than a level by the price */
};

/*
 * Build the sums of x[0..n) weighted by w (NULL: all 1) into s, one block
 * that segfit_free() releases. Returns 0 or -ENOMEM.
 */
int segfit_init(struct segfit_sums *s, const double *x, const double *w,
		size_t n);

void segfit_free(struct segfit_sums *s);

/*
 * Fit [a, b) (a < b <= s->n): a line when it lowers the residual sum of
 * squares by more than slope_price (a BIC price for one more parameter),
 * else a level. A stretch of fewer than 3 points is a level.
 */
void segfit_fit(const struct segfit_sums *s, size_t a, size_t b,
		double slope_price, struct segfit *f);

/* The fitted value of f at index t. */
double segfit_at(const struct segfit *f, double t);

/* Variance of segfit_at(f, t) for a unit noise variance per unit weight. */
double segfit_var_at(const struct segfit *f, double t);

#endif
