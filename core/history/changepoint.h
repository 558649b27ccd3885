/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Change points in one series: E-divisive means (Matteson and James, 2014)
 * by recursive bisection, each split kept only when Student's t-test finds
 * it significant (Fleming et al., "Hunter", arXiv 2301.03034, in place of
 * the permutation test) and its magnitude reaches a minimum. Pure
 * functions, no I/O.
 */
#ifndef HB_CORE_HISTORY_CHANGEPOINT_H
#define HB_CORE_HISTORY_CHANGEPOINT_H

#include <stddef.h>

/* What makes a split a change point. */
struct changepoint_opts {
	double alpha;	   /* two-sided p below which a split is real */
	double min_change; /* least |after / before - 1| worth reporting */
	size_t min_size;   /* fewest points on each side of a split */
};

/* One change point: the level of the series either side of it. */
struct changepoint {
	size_t index;  /* first point after the step */
	double before; /* median from the previous change point */
	double after;  /* median up to the next change point */
	double change; /* after / before - 1 */
	double p;      /* Student's t-test between the two stretches */
};

/*
 * Find the change points of x[0..n), oldest first, each point weighted by
 * w[i] (NULL: all alike; asv weighs a point by 1 / its confidence
 * interval). Every split is tested again against its final neighbours and
 * the weakest failing one dropped until all pass, as Hunter does. cps must
 * hold n entries; *ncp gets their number, in the order of index. Returns 0
 * or -ENOMEM.
 */
int changepoint_find(const double *x, const double *w, size_t n,
		     const struct changepoint_opts *o, struct changepoint *cps,
		     size_t *ncp);

/*
 * Whether the split of x[s..e) at t is a change point: Student's t-test of
 * the two sides (weighted by w, NULL: alike) gives p < o->alpha, and their
 * medians differ by at least o->min_change (a median, so one outlier in a
 * short stretch cannot make a step). Fills cp either way; scratch holds
 * e - s values.
 */
int changepoint_test(const double *x, const double *w, size_t s, size_t t,
		     size_t e, const struct changepoint_opts *o,
		     double *scratch, struct changepoint *cp);

/*
 * Two-sided p of Student's t-test between x[a0..a1) and x[b0..b1), weighted
 * by w (NULL: alike; the effective count of a weighted side is Kish's
 * (sum w)^2 / sum w^2). The weighted means go to *ma and *mb. A side of one
 * point borrows its variance from the other. 1 when the test cannot be made.
 */
double changepoint_ttest(const double *x, const double *w, size_t a0, size_t a1,
			 size_t b0, size_t b1, double *ma, double *mb);

/* P(|T| >= |t|) for Student's t with df degrees of freedom. */
double changepoint_student_p(double t, double df);

#endif
