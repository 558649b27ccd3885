/* SPDX-License-Identifier: Apache-2.0 */
/* cpsearch: PELT and binary segmentation over a segment cost. */
#include "check.h"
#include "history/cpsearch.h"
#include "history/segfit.h"

/* The residual sum of squares of a level: a piecewise-constant cost. */
static double level_cost(const void *ctx, size_t a, size_t b)
{
	struct segfit f;

	segfit_fit(ctx, a, b, INFINITY, &f);
	return f.rss;
}

/* x: 0 on [0, 20), 10 on [20, 45), 4 on [45, 60), a small wobble. */
static void three_levels(double *x)
{
	for (size_t i = 0; i < 60; i++)
		x[i] = (i < 20 ? 0 : i < 45 ? 10 : 4) + (i % 2 ? 0.1 : -0.1);
}

static int pelt_and_binseg_find_the_same_two_cuts(void)
{
	double x[60];
	size_t cuts[60], k;
	struct segfit_sums s;
	struct cpsearch q = { .cost = level_cost,
			      .ctx = &s,
			      .n = 60,
			      .min_size = 3,
			      .beta = 10 };

	three_levels(x);
	CHECK_INT(segfit_init(&s, x, NULL, 60), 0);
	CHECK_INT(cpsearch_pelt(&q, cuts, &k), 0);
	CHECK_INT(k, 2);
	CHECK_INT(cuts[0], 20);
	CHECK_INT(cuts[1], 45);
	CHECK_INT(cpsearch_binseg(&q, cuts, &k), 0);
	CHECK_INT(k, 2);
	CHECK_INT(cuts[0], 20);
	CHECK_INT(cuts[1], 45);
	segfit_free(&s);
	return 0;
}

static int no_cut_pays_a_penalty_above_its_gain(void)
{
	double x[60];
	size_t cuts[60], k = 7;
	struct segfit_sums s;
	struct cpsearch q = { .cost = level_cost,
			      .ctx = &s,
			      .n = 60,
			      .min_size = 3,
			      .beta = 1e6 };

	three_levels(x);
	CHECK_INT(segfit_init(&s, x, NULL, 60), 0);
	CHECK_INT(cpsearch_pelt(&q, cuts, &k), 0);
	CHECK_INT(k, 0);
	CHECK_INT(cpsearch_binseg(&q, cuts, &k), 0);
	CHECK_INT(k, 0);
	segfit_free(&s);
	return 0;
}

static int segments_keep_their_minimum_size(void)
{
	/* a lone point far off would be a segment of its own with size 1 */
	double x[30] = { 0 };
	size_t cuts[30], k;
	struct segfit_sums s;
	struct cpsearch q = {
		.cost = level_cost, .ctx = &s, .n = 30, .min_size = 5, .beta = 1
	};

	x[14] = 100;
	CHECK_INT(segfit_init(&s, x, NULL, 30), 0);
	CHECK_INT(cpsearch_pelt(&q, cuts, &k), 0);
	for (size_t i = 0; i < k; i++) {
		CHECK(cuts[i] >= (i ? cuts[i - 1] + 5 : 5));
		CHECK(cuts[i] + 5 <= 30);
	}
	segfit_free(&s);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"pelt_and_binseg_find_the_same_two_cuts", pelt_and_binseg_find_the_same_two_cuts},
	{"no_cut_pays_a_penalty_above_its_gain", no_cut_pays_a_penalty_above_its_gain},
	{"segments_keep_their_minimum_size", segments_keep_their_minimum_size},
};
/* clang-format on */

TEST_MAIN(tests)
