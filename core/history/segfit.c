/* SPDX-License-Identifier: Apache-2.0 */
/* Least-squares level or line of any stretch, from prefix sums. */
#include "history/segfit.h"

#include <errno.h>
#include <stdlib.h>

int segfit_init(struct segfit_sums *s, const double *x, const double *w,
		size_t n)
{
	double *all = calloc(6 * (n + 1), sizeof(*all));

	if (!all)
		return -ENOMEM;
	s->n = n;
	s->w = all;
	s->wt = all + (n + 1);
	s->wtt = all + 2 * (n + 1);
	s->wx = all + 3 * (n + 1);
	s->wtx = all + 4 * (n + 1);
	s->wxx = all + 5 * (n + 1);
	for (size_t i = 0; i < n; i++) {
		double wi = w ? w[i] : 1, t = (double)i;

		s->w[i + 1] = s->w[i] + wi;
		s->wt[i + 1] = s->wt[i] + wi * t;
		s->wtt[i + 1] = s->wtt[i] + wi * t * t;
		s->wx[i + 1] = s->wx[i] + wi * x[i];
		s->wtx[i + 1] = s->wtx[i] + wi * t * x[i];
		s->wxx[i + 1] = s->wxx[i] + wi * x[i] * x[i];
	}
	return 0;
}

void segfit_free(struct segfit_sums *s)
{
	free(s->w);
	s->w = NULL;
}

/* Clamp a residual sum that rounding took below zero. */
static double nonnegative(double v)
{
	return v > 0 ? v : 0;
}

void segfit_fit(const struct segfit_sums *s, size_t a, size_t b,
		double slope_price, struct segfit *f)
{
	double w = s->w[b] - s->w[a], t = s->wt[b] - s->wt[a];
	double x = s->wx[b] - s->wx[a];
	double sxx, stx, line;

	f->w = w;
	f->slope = 0;
	f->sloped = 0;
	f->tbar = w > 0 ? t / w : (double)(a + b - 1) / 2;
	f->level = w > 0 ? x / w : 0;
	f->stt = nonnegative(s->wtt[b] - s->wtt[a] - t * f->tbar);
	sxx = nonnegative(s->wxx[b] - s->wxx[a] - x * f->level);
	f->rss = sxx;
	f->cost = sxx;
	if (b - a < 3 || !(f->stt > 0))
		return;
	stx = s->wtx[b] - s->wtx[a] - t * f->level;
	line = nonnegative(sxx - stx * stx / f->stt);
	if (sxx - line <= slope_price)
		return;
	f->sloped = 1;
	f->slope = stx / f->stt;
	f->rss = line;
	f->cost = line + slope_price;
}

double segfit_at(const struct segfit *f, double t)
{
	return f->level + f->slope * (t - f->tbar);
}

double segfit_var_at(const struct segfit *f, double t)
{
	double v = f->w > 0 ? 1 / f->w : 0;

	if (f->sloped)
		v += (t - f->tbar) * (t - f->tbar) / f->stt;
	return v;
}
