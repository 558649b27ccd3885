/* SPDX-License-Identifier: Apache-2.0 */
/* PELT and binary segmentation over a segment cost. */
#include "history/cpsearch.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

/* Walk last[] back from n and write the cuts in ascending order. */
static void backtrack(const size_t *last, size_t n, size_t *cuts, size_t *k)
{
	size_t m = 0;

	for (size_t e = last[n]; e > 0; e = last[e])
		cuts[m++] = e;
	for (size_t i = 0; i < m / 2; i++) {
		size_t t = cuts[i];

		cuts[i] = cuts[m - 1 - i];
		cuts[m - 1 - i] = t;
	}
	*k = m;
}

/*
 * One step of PELT: the best last cut before e among cand[0..*nc) that
 * leave a segment of min_size, then the candidates that can never win
 * again dropped (F(s) + cost(s, e) + K > F(e)).
 */
static void pelt_step(const struct cpsearch *q, double *f, size_t *last,
		      size_t *cand, size_t *nc, size_t e)
{
	double best = INFINITY;
	size_t at = 0, keep = 0;

	for (size_t i = 0; i < *nc; i++) {
		size_t s = cand[i];
		double v;

		if (e - s < q->min_size)
			continue;
		v = f[s] + q->cost(q->ctx, s, e) + q->beta;
		if (v < best)
			best = v, at = s;
	}
	f[e] = best;
	last[e] = at;
	for (size_t i = 0; i < *nc; i++) {
		size_t s = cand[i];

		if (e - s < q->min_size ||
		    f[s] + q->cost(q->ctx, s, e) + q->slack <= best)
			cand[keep++] = s;
	}
	*nc = keep;
}

int cpsearch_pelt(const struct cpsearch *q, size_t *cuts, size_t *k)
{
	size_t m = q->min_size ? q->min_size : 1, nc = 1;
	struct cpsearch p = *q;
	double *f = malloc((q->n + 1) * sizeof(*f));
	size_t *last = malloc(2 * (q->n + 1) * sizeof(*last)), *cand;

	*k = 0;
	if (!f || !last)
		goto fail_alloc;
	p.min_size = m;
	cand = last + q->n + 1;
	cand[0] = 0;
	f[0] = 0;
	last[0] = 0;
	if (q->n < 2 * m)
		goto out;
	for (size_t e = m; e <= q->n; e++) {
		pelt_step(&p, f, last, cand, &nc, e);
		/* e opens a segment only once min_size points can follow */
		if (e + m <= q->n && isfinite(f[e]))
			cand[nc++] = e;
	}
	backtrack(last, q->n, cuts, k);
out:
	free(last);
	free(f);
	return 0;
fail_alloc:
	free(last);
	free(f);
	return -ENOMEM;
}

/* The split of [a, b) that lowers the cost most; 0 when none fits. */
static size_t best_split(const struct cpsearch *q, size_t a, size_t b,
			 double *gain)
{
	double whole = q->cost(q->ctx, a, b), best = -INFINITY;
	size_t at = 0;

	for (size_t t = a + q->min_size; t + q->min_size <= b; t++) {
		double g =
			whole - q->cost(q->ctx, a, t) - q->cost(q->ctx, t, b);

		if (g > best)
			best = g, at = t;
	}
	*gain = best;
	return at;
}

/* Insert v into the ascending cuts[0..*k). */
static void insert_sorted(size_t *cuts, size_t *k, size_t v)
{
	size_t i = *k;

	while (i > 0 && cuts[i - 1] > v) {
		cuts[i] = cuts[i - 1];
		i--;
	}
	cuts[i] = v;
	(*k)++;
}

int cpsearch_binseg(const struct cpsearch *q, size_t *cuts, size_t *k)
{
	struct cpsearch p = *q;
	size_t *stack = malloc(2 * (q->n + 1) * sizeof(*stack)), top = 0;

	*k = 0;
	if (!stack)
		return -ENOMEM;
	p.min_size = q->min_size ? q->min_size : 1;
	stack[top++] = 0;
	stack[top++] = q->n;
	while (top) {
		size_t b = stack[--top], a = stack[--top], t;
		double gain;

		if (b - a < 2 * p.min_size)
			continue;
		t = best_split(&p, a, b, &gain);
		if (!t || !(gain > p.beta))
			continue;
		insert_sorted(cuts, k, t);
		stack[top++] = a;
		stack[top++] = t;
		stack[top++] = t;
		stack[top++] = b;
	}
	free(stack);
	return 0;
}
