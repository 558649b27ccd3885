/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Steps and drifts in one series. The series is seen past its outliers
 * (each point clipped around a running median, robust.h); penalised model
 * selection (PELT, or binary segmentation) cuts it into segments, each a
 * level or, when a slope pays its BIC price, a line (segfit.h); a cut is
 * kept as a step only where the two fits jump apart there, significantly
 * and by at least min_change; a kept segment whose line rises or falls by
 * min_change is a drift, one entry, never a row of steps. Pure functions,
 * no I/O.
 */
#ifndef HB_CORE_HISTORY_CHANGEPOINT_H
#define HB_CORE_HISTORY_CHANGEPOINT_H

#include <stddef.h>

/* The defaults a zeroed field of struct changepoint_opts takes. */
#define CHANGEPOINT_ALPHA      0.01
#define CHANGEPOINT_MIN_CHANGE 0.05
#define CHANGEPOINT_MIN_SIZE   5
#define CHANGEPOINT_PENALTY    6.0

/* How the segments are searched. */
enum changepoint_method {
	CHANGEPOINT_PELT,   /* exact penalised optimum (the default) */
	CHANGEPOINT_BINSEG, /* binary segmentation, greedy */
};

/* What makes a cut a change point; zeroed fields take the defaults. */
struct changepoint_opts {
	double alpha;	   /* two-sided p below which a jump or slope is real */
	double min_change; /* least |after / before - 1| worth reporting */
	size_t min_size;   /* fewest points of a segment */
	enum changepoint_method method;
	double penalty; /* price of a cut, in log(n) long-run noise variances */
};

/* A step between two levels, or a drift along one segment. */
enum changepoint_kind {
	CHANGEPOINT_STEP,
	CHANGEPOINT_DRIFT,
};

/* One change: a step at index, or a drift over [index, end). */
struct changepoint {
	enum changepoint_kind kind;
	size_t index;  /* step: first point after it; drift: its first point */
	size_t end;    /* drift: one past its last point; step: index */
	double before; /* the fit just before the step, or at the drift's start
			*/
	double after;  /* the fit just after the step, or at the drift's end */
	double change; /* (after - before) / |before| */
	double p;      /* of the jump, or of the slope */
};

/*
 * Find the steps and drifts of x[0..n), oldest first, each point weighted
 * by w[i] (NULL: all alike; asv weighs a point by 1 / its confidence
 * interval). One wild point is never a step: it is clipped before the
 * search and a segment holds at least min_size points. cps must hold n
 * entries; *ncp gets their number, in the order of index. Returns 0 or
 * -ENOMEM.
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
