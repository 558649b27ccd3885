/* SPDX-License-Identifier: Apache-2.0 */
/* robust: a series' noise seen past its outliers. */
#include "check.h"
#include "history/robust.h"

#define N 60

/* 100 with a repeatable wobble of about 1 (no two neighbours alike). */
static void wobbly(double *x)
{
	static const double z[] = { 0.3,  -1.1, 0.8,  -0.4, 1.2,  -0.9, 0.1,
				    -0.2, 0.6,	-0.7, 1.0,  -1.3, 0.4 };

	for (size_t i = 0; i < N; i++)
		x[i] = 100 + z[i % 13];
}

static int wild_point_is_clipped_near_its_neighbours(void)
{
	double x[N], out[N], scratch[2 * N];
	struct robust_noise nz;

	wobbly(x);
	x[30] = 1000;
	CHECK_INT(robust_clip(x, N, out, scratch, &nz), 0);
	CHECK(out[30] < 100 + ROBUST_CLIP * nz.sigma + 1.5);
	CHECK_NEAR(out[29], x[29], 1e-12);
	CHECK_NEAR(nz.center, 100, 0.5);
	CHECK(nz.sigma > 0.3 && nz.sigma < 2);
	return 0;
}

static int correlated_noise_has_a_larger_long_run_scale(void)
{
	double x[N], out[N], scratch[2 * N];
	struct robust_noise nz;

	/* slow waves of 4 points up, 4 down: neighbours alike */
	for (size_t i = 0; i < N; i++)
		x[i] = 100 + ((i / 4) % 2 ? 1 : -1);
	CHECK_INT(robust_clip(x, N, out, scratch, &nz), 0);
	CHECK(nz.phi > 0.3);
	CHECK(nz.lr > nz.sigma);
	return 0;
}

static int constant_series_gets_a_tiny_scale(void)
{
	double x[N], out[N], scratch[2 * N];
	struct robust_noise nz;

	for (size_t i = 0; i < N; i++)
		x[i] = 50;
	CHECK_INT(robust_clip(x, N, out, scratch, &nz), 0);
	CHECK_NEAR(nz.sigma, 50e-6, 1e-12);
	CHECK_NEAR(out[7], 50, 0);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"wild_point_is_clipped_near_its_neighbours", wild_point_is_clipped_near_its_neighbours},
	{"correlated_noise_has_a_larger_long_run_scale", correlated_noise_has_a_larger_long_run_scale},
	{"constant_series_gets_a_tiny_scale", constant_series_gets_a_tiny_scale},
};
/* clang-format on */

TEST_MAIN(tests)
