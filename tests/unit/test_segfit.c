/* SPDX-License-Identifier: Apache-2.0 */
/* segfit: a stretch's level or line from prefix sums. */
#include "check.h"
#include "history/segfit.h"

static int line_is_fitted_exactly_when_its_slope_pays(void)
{
	double x[10];
	struct segfit_sums s;
	struct segfit f;

	for (size_t i = 0; i < 10; i++)
		x[i] = 3 + 0.5 * (double)i;
	CHECK_INT(segfit_init(&s, x, NULL, 10), 0);
	segfit_fit(&s, 2, 10, 1, &f);
	CHECK_INT(f.sloped, 1);
	CHECK_NEAR(f.slope, 0.5, 1e-12);
	CHECK_NEAR(f.rss, 0, 1e-9);
	CHECK_NEAR(segfit_at(&f, 9), 7.5, 1e-12);
	segfit_free(&s);
	return 0;
}

static int slope_that_does_not_pay_is_a_level(void)
{
	const double x[] = { 1, 2, 1, 2, 1, 2 };
	struct segfit_sums s;
	struct segfit f;

	CHECK_INT(segfit_init(&s, x, NULL, 6), 0);
	segfit_fit(&s, 0, 6, 1, &f);
	CHECK_INT(f.sloped, 0);
	CHECK_NEAR(f.level, 1.5, 1e-12);
	CHECK_NEAR(f.rss, 1.5, 1e-12);
	CHECK_NEAR(segfit_var_at(&f, 0), 1.0 / 6, 1e-12);
	segfit_free(&s);
	return 0;
}

static int weights_count_as_points(void)
{
	const double x[] = { 1, 5 }, w[] = { 3, 1 };
	struct segfit_sums s;
	struct segfit f;

	CHECK_INT(segfit_init(&s, x, w, 2), 0);
	segfit_fit(&s, 0, 2, 1, &f);
	CHECK_NEAR(f.w, 4, 0);
	CHECK_NEAR(f.level, 2, 1e-12);
	segfit_free(&s);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"line_is_fitted_exactly_when_its_slope_pays", line_is_fitted_exactly_when_its_slope_pays},
	{"slope_that_does_not_pay_is_a_level", slope_that_does_not_pay_is_a_level},
	{"weights_count_as_points", weights_count_as_points},
};
/* clang-format on */

TEST_MAIN(tests)
