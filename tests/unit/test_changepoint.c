/* SPDX-License-Identifier: Apache-2.0 */
/*
 * changepoint: Student's t against tabled values, and the detector on
 * series with known steps, flat noise, too small a step, wild points,
 * trends, seasons and heavy tails.
 */
#include <stdint.h>

#include "check.h"
#include "history/changepoint.h"

#define N 200

static const struct changepoint_opts opts = { .alpha = 0.01,
					      .min_change = 0.05 };

/* Normal noise of a fixed seed (splitmix64, Box-Muller): runs repeat. */
static double noise(uint64_t *s)
{
	double u[2];

	for (int i = 0; i < 2; i++) {
		uint64_t z = (*s += 0x9e3779b97f4a7c15u);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
		z ^= z >> 31;
		u[i] = ((double)(z >> 11) + 0.5) / 9007199254740992.0;
	}
	return sqrt(-2 * log(u[0])) * cos(6.283185307179586 * u[1]);
}

/* x[i] = level (level * (1 + step) from at on) with cv noise. */
static void series(double *x, size_t n, size_t at, double step, double cv,
		   uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		x[i] = 100 * (i >= at ? 1 + step : 1) * (1 + cv * noise(&seed));
}

static int student_p_matches_tables(void)
{
	CHECK_NEAR(changepoint_student_p(1, 1), 0.5, 1e-12);
	CHECK_NEAR(changepoint_student_p(2.2281388519649385, 10), 0.05, 1e-9);
	CHECK_NEAR(changepoint_student_p(-2.2281388519649385, 10), 0.05, 1e-9);
	CHECK_NEAR(changepoint_student_p(2.5758293035489, 1e9), 0.01, 1e-6);
	CHECK_NEAR(changepoint_student_p(0, 5), 1, 1e-12);
	return 0;
}

static int ttest_of_equal_constant_sides_is_not_significant(void)
{
	const double x[] = { 5, 5, 5, 5, 5, 5 };
	double ma, mb;

	CHECK_NEAR(changepoint_ttest(x, NULL, 0, 3, 3, 6, &ma, &mb), 1, 0);
	CHECK_NEAR(ma, 5, 0);
	CHECK_NEAR(mb, 5, 0);
	return 0;
}

static int step_found_at_its_index(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	series(x, N, 120, -0.10, 0.01, 42);
	CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
	CHECK_INT(n, 1);
	CHECK_INT(cps[0].index, 120);
	CHECK_NEAR(cps[0].change, -0.10, 0.01);
	CHECK(cps[0].p < 0.01);
	return 0;
}

static int two_steps_found_in_order(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	series(x, N, 60, 0.2, 0.01, 7);
	for (size_t i = 140; i < N; i++)
		x[i] *= 0.8;
	CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
	CHECK_INT(n, 2);
	CHECK_INT(cps[0].index, 60);
	CHECK_INT(cps[1].index, 140);
	return 0;
}

static int flat_noise_has_no_change(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	for (uint64_t seed = 1; seed <= 20; seed++) {
		series(x, N, N, 0, 0.02, seed);
		CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
		CHECK_INT(n, 0);
	}
	return 0;
}

static int step_below_min_change_not_reported(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	series(x, N, 100, 0.03, 0.002, 9);
	CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
	CHECK_INT(n, 0);
	return 0;
}

/* The number of changes of kind k among cps[0..n). */
static size_t count_kind(const struct changepoint *cps, size_t n,
			 enum changepoint_kind k)
{
	size_t c = 0;

	for (size_t i = 0; i < n; i++)
		c += cps[i].kind == k;
	return c;
}

static int ten_percent_step_at_two_percent_cv_found_at_its_index(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	for (uint64_t seed = 1; seed <= 10; seed++) {
		series(x, N, 77, 0.10, 0.02, seed);
		CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
		CHECK_INT(n, 1);
		CHECK_INT(cps[0].kind, CHANGEPOINT_STEP);
		CHECK(cps[0].index + 2 >= 77 && cps[0].index <= 77 + 2);
		CHECK_NEAR(cps[0].change, 0.10, 0.03);
	}
	return 0;
}

static int binary_segmentation_finds_the_same_step(void)
{
	struct changepoint_opts o = opts;
	double x[N];
	struct changepoint cps[N];
	size_t n;

	o.method = CHANGEPOINT_BINSEG;
	series(x, N, 120, -0.10, 0.01, 42);
	CHECK_INT(changepoint_find(x, NULL, N, &o, cps, &n), 0);
	CHECK_INT(n, 1);
	CHECK_INT(cps[0].index, 120);
	return 0;
}

static int one_wild_point_is_not_a_change(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	for (size_t at = 0; at < N; at += 33) {
		series(x, N, N, 0, 0.02, 5 + at);
		x[at] *= 3;
		CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
		CHECK_INT(n, 0);
		x[at] /= 30;
		CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
		CHECK_INT(n, 0);
	}
	return 0;
}

static int linear_trend_is_one_drift_not_steps(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	/* 100 to 130 over the series, 2% noise */
	series(x, N, N, 0, 0.02, 11);
	for (size_t i = 0; i < N; i++)
		x[i] *= 1 + 0.3 * (double)i / N;
	CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
	CHECK_INT(n, 1);
	CHECK_INT(cps[0].kind, CHANGEPOINT_DRIFT);
	CHECK_INT(cps[0].index, 0);
	CHECK_INT(cps[0].end, N);
	CHECK_NEAR(cps[0].change, 0.3, 0.05);
	return 0;
}

static int seasonal_sine_without_step_has_no_change(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	/* a swing of +-10% every 12 points, 1% noise */
	for (uint64_t seed = 1; seed <= 5; seed++) {
		series(x, N, N, 0, 0.01, seed);
		for (size_t i = 0; i < N; i++)
			x[i] += 10 * sin(6.283185307179586 * (double)i / 12);
		CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
		CHECK_INT(n, 0);
	}
	return 0;
}

/* Student's t with 2 degrees of freedom: normal over sqrt(chi2(2) / 2). */
static double student2(uint64_t *s)
{
	double z = noise(s), a = noise(s), b = noise(s);

	return z / sqrt((a * a + b * b) / 2);
}

static int heavy_tailed_noise_without_step_has_no_change(void)
{
	double x[N];
	struct changepoint cps[N];
	size_t n;

	for (uint64_t seed = 1; seed <= 20; seed++) {
		uint64_t s = seed * 7919;

		for (size_t i = 0; i < N; i++)
			x[i] = 100 * (1 + 0.02 * student2(&s));
		CHECK_INT(changepoint_find(x, NULL, N, &opts, cps, &n), 0);
		CHECK_INT(count_kind(cps, n, CHANGEPOINT_STEP), 0);
	}
	return 0;
}

static int weights_discount_imprecise_points(void)
{
	/* wide outliers towards the other level blur the step unweighted */
	double x[40], w[40];
	struct changepoint cps[40], plain[40];
	size_t n, nplain;

	series(x, 40, 20, -0.1, 0.005, 3);
	for (size_t i = 0; i < 40; i++)
		w[i] = i % 5 == 2 ? 0.01 : 1;
	for (size_t i = 2; i < 40; i += 5)
		x[i] *= i < 20 ? 0.9 : 1.1;
	CHECK_INT(changepoint_find(x, w, 40, &opts, cps, &n), 0);
	CHECK_INT(changepoint_find(x, NULL, 40, &opts, plain, &nplain), 0);
	CHECK_INT(n, 1);
	CHECK_INT(cps[0].index, 20);
	CHECK(nplain == 0 || plain[0].p > cps[0].p);
	return 0;
}

static int empty_and_one_point_series_have_no_change(void)
{
	double x[1] = { 1 };
	struct changepoint cps[1];
	size_t n = 7;

	CHECK_INT(changepoint_find(x, NULL, 0, &opts, cps, &n), 0);
	CHECK_INT(n, 0);
	n = 7;
	CHECK_INT(changepoint_find(x, NULL, 1, &opts, cps, &n), 0);
	CHECK_INT(n, 0);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"student_p_matches_tables", student_p_matches_tables},
	{"ttest_of_equal_constant_sides_is_not_significant", ttest_of_equal_constant_sides_is_not_significant},
	{"step_found_at_its_index", step_found_at_its_index},
	{"two_steps_found_in_order", two_steps_found_in_order},
	{"flat_noise_has_no_change", flat_noise_has_no_change},
	{"step_below_min_change_not_reported", step_below_min_change_not_reported},
	{"weights_discount_imprecise_points", weights_discount_imprecise_points},
	{"empty_and_one_point_series_have_no_change", empty_and_one_point_series_have_no_change},
	{"ten_percent_step_at_two_percent_cv_found_at_its_index", ten_percent_step_at_two_percent_cv_found_at_its_index},
	{"binary_segmentation_finds_the_same_step", binary_segmentation_finds_the_same_step},
	{"one_wild_point_is_not_a_change", one_wild_point_is_not_a_change},
	{"linear_trend_is_one_drift_not_steps", linear_trend_is_one_drift_not_steps},
	{"seasonal_sine_without_step_has_no_change", seasonal_sine_without_step_has_no_change},
	{"heavy_tailed_noise_without_step_has_no_change", heavy_tailed_noise_without_step_has_no_change},
};
/* clang-format on */

TEST_MAIN(tests)
