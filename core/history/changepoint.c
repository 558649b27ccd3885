/* SPDX-License-Identifier: Apache-2.0 */
/* Steps and drifts of one series: penalised segmentation, then tests. */
#include "history/changepoint.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "history/cpsearch.h"
#include "history/robust.h"
#include "history/segfit.h"

/* A series prepared for the search, and the options resolved. */
struct detector {
	struct changepoint_opts o;
	struct robust_noise nz;
	struct segfit_sums sums; /* of (clipped x - center) / long-run scale */
	double slope_price;	 /* BIC price of a slope: log(n) */
	double point_var;	 /* one point's noise variance in those units */
};

static double segment_cost(const void *ctx, size_t a, size_t b)
{
	const struct detector *d = ctx;
	struct segfit f;

	segfit_fit(&d->sums, a, b, d->slope_price, &f);
	return f.cost;
}

/*
 * How much noisier than the series' noise the fit f leaves its stretch
 * (a seasonal swing a line cannot follow), at least 1: a jump or slope is
 * judged against the larger of the two.
 */
static double excess(const struct detector *d, const struct segfit *f)
{
	double dof = f->w - (f->sloped ? 2 : 1);

	if (!(dof > 0))
		return 1;
	return fmax(1, f->rss / (dof * d->point_var));
}

/* v, in the units of the series. */
static double unscaled(const struct detector *d, double v)
{
	return d->nz.center + d->nz.lr * v;
}

static double relative(double before, double after)
{
	if (before != 0)
		return (after - before) / fabs(before);
	return after == before ? 0 : copysign(INFINITY, after - before);
}

/* Whether cp passes both the significance and the magnitude. */
static int holds(const struct detector *d, const struct changepoint *cp)
{
	return cp->p < d->o.alpha && fabs(cp->change) >= d->o.min_change;
}

/*
 * The step between [s, t) and [t, e): the two fits' values where they
 * meet (t - 1/2), their jump against its standard error.
 */
static int step_test(const struct detector *d, size_t s, size_t t, size_t e,
		     struct changepoint *cp)
{
	struct segfit l, r;
	double at = (double)t - 0.5, jump, se, df;

	segfit_fit(&d->sums, s, t, d->slope_price, &l);
	segfit_fit(&d->sums, t, e, d->slope_price, &r);
	jump = segfit_at(&r, at) - segfit_at(&l, at);
	se = sqrt(excess(d, &l) * segfit_var_at(&l, at) +
		  excess(d, &r) * segfit_var_at(&r, at));
	df = l.w + r.w - (l.sloped ? 2 : 1) - (r.sloped ? 2 : 1);
	cp->kind = CHANGEPOINT_STEP;
	cp->index = t;
	cp->end = t;
	cp->before = unscaled(d, segfit_at(&l, at));
	cp->after = unscaled(d, segfit_at(&r, at));
	cp->change = relative(cp->before, cp->after);
	cp->p = se > 0 ? changepoint_student_p(jump / se, fmax(df, 1))
		       : (jump != 0 ? 0 : 1);
	return holds(d, cp);
}

/*
 * Whether two levels, cut anywhere in [s, e) and paying for the cut's
 * place, fit it better than the line f: a step too small to report is not
 * a drift either.
 */
static int step_fits_better(const struct detector *d, size_t s, size_t e,
			    const struct segfit *f)
{
	for (size_t t = s + d->o.min_size; t + d->o.min_size <= e; t++) {
		struct segfit l, r;

		segfit_fit(&d->sums, s, t, INFINITY, &l);
		segfit_fit(&d->sums, t, e, INFINITY, &r);
		if (l.rss + r.rss + d->slope_price < f->rss)
			return 1;
	}
	return 0;
}

/* The drift of [s, e) when its fit is a line that moves far enough. */
static int drift_test(const struct detector *d, size_t s, size_t e,
		      struct changepoint *cp)
{
	struct segfit f;
	double se;

	segfit_fit(&d->sums, s, e, d->slope_price, &f);
	if (!f.sloped || step_fits_better(d, s, e, &f))
		return 0;
	se = sqrt(excess(d, &f) / f.stt);
	cp->kind = CHANGEPOINT_DRIFT;
	cp->index = s;
	cp->end = e;
	cp->before = unscaled(d, segfit_at(&f, (double)s));
	cp->after = unscaled(d, segfit_at(&f, (double)(e - 1)));
	cp->change = relative(cp->before, cp->after);
	cp->p = changepoint_student_p(f.slope / se, fmax(f.w - 2, 1));
	return holds(d, cp);
}

/* How far cp is from failing: below 1 it fails. */
static double strength(const struct detector *d, const struct changepoint *cp)
{
	double sig = cp->p > 0 ? log(cp->p) / log(d->o.alpha) : INFINITY;

	return fmin(sig, fabs(cp->change) / d->o.min_change);
}

/*
 * Test every cut against its neighbours and drop the weakest failing one
 * until all hold: a kink between two lines, or a swing a level cannot
 * follow, is not a step. steps[i] gets cut i's step.
 */
static size_t keep_steps(const struct detector *d, size_t n, size_t *cuts,
			 size_t k, struct changepoint *steps)
{
	for (;;) {
		size_t worst = k;
		double weakest = INFINITY;

		for (size_t i = 0; i < k; i++) {
			size_t s = i ? cuts[i - 1] : 0;
			size_t e = i + 1 < k ? cuts[i + 1] : n;
			double st;

			if (step_test(d, s, cuts[i], e, &steps[i]))
				continue;
			st = strength(d, &steps[i]);
			if (worst == k || st < weakest)
				worst = i, weakest = st;
		}
		if (worst == k)
			return k;
		for (size_t i = worst; i + 1 < k; i++)
			cuts[i] = cuts[i + 1];
		k--;
	}
}

/* Steps and drifts in order of index: a step, then its segment's drift. */
static size_t emit(const struct detector *d, size_t n, const size_t *cuts,
		   size_t k, const struct changepoint *steps,
		   struct changepoint *cps)
{
	size_t m = 0;

	for (size_t i = 0; i <= k; i++) {
		size_t s = i ? cuts[i - 1] : 0, e = i < k ? cuts[i] : n;

		if (i)
			cps[m++] = steps[i - 1];
		if (drift_test(d, s, e, &cps[m]))
			m++;
	}
	return m;
}

static void resolve(struct changepoint_opts *o)
{
	if (!(o->alpha > 0))
		o->alpha = CHANGEPOINT_ALPHA;
	if (!(o->min_change > 0))
		o->min_change = CHANGEPOINT_MIN_CHANGE;
	if (!o->min_size)
		o->min_size = CHANGEPOINT_MIN_SIZE;
	if (!(o->penalty > 0))
		o->penalty = CHANGEPOINT_PENALTY;
}

/*
 * Clip x, scale it by its long-run noise, and sum it for the fits; w is
 * scaled to a mean of 1 so a fit's weight counts points. buf holds 3 n.
 */
static int prepare(struct detector *d, const double *x, const double *w,
		   size_t n, double *buf)
{
	double *z = buf, *wn = NULL, mean = 0;

	robust_clip(x, n, z, buf + n, &d->nz);
	for (size_t i = 0; i < n; i++)
		z[i] = (z[i] - d->nz.center) / d->nz.lr;
	d->point_var = (d->nz.sigma / d->nz.lr) * (d->nz.sigma / d->nz.lr);
	d->slope_price = log((double)n);
	if (w) {
		wn = buf + n;
		for (size_t i = 0; i < n; i++)
			mean += w[i] / (double)n;
		for (size_t i = 0; i < n; i++)
			wn[i] = mean > 0 ? w[i] / mean : 1;
	}
	return segfit_init(&d->sums, z, mean > 0 ? wn : NULL, n);
}

/* The cuts of the search o asks for. */
static int search(const struct detector *d, size_t n, size_t *cuts, size_t *k)
{
	struct cpsearch q = {
		.cost = segment_cost,
		.ctx = d,
		.n = n,
		.min_size = d->o.min_size,
		.beta = d->o.penalty * log((double)n),
		.slack = d->slope_price,
	};

	if (d->o.method == CHANGEPOINT_BINSEG)
		return cpsearch_binseg(&q, cuts, k);
	return cpsearch_pelt(&q, cuts, k);
}

int changepoint_find(const double *x, const double *w, size_t n,
		     const struct changepoint_opts *o, struct changepoint *cps,
		     size_t *ncp)
{
	struct detector d = { .o = *o };
	struct changepoint *steps = NULL;
	size_t *cuts = NULL, k = 0;
	double *buf;
	int rc = -ENOMEM;

	*ncp = 0;
	if (n < 3)
		return 0;
	resolve(&d.o);
	buf = malloc(3 * n * sizeof(*buf));
	if (!buf || prepare(&d, x, w, n, buf))
		goto out_buf;
	cuts = malloc(n * sizeof(*cuts));
	steps = malloc(n * sizeof(*steps));
	if (!cuts || !steps)
		goto out_sums;
	rc = search(&d, n, cuts, &k);
	if (rc)
		goto out_sums;
	k = keep_steps(&d, n, cuts, k, steps);
	*ncp = emit(&d, n, cuts, k, steps, cps);
out_sums:
	free(steps);
	free(cuts);
	segfit_free(&d.sums);
out_buf:
	free(buf);
	return rc;
}
