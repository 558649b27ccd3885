/* SPDX-License-Identifier: Apache-2.0 */
/* The latency histogram: exact small values, bounded error, quantiles. */
#include <stdlib.h>

#include "check.h"
#include "result/latency.h"

/* 1..1000 ns once each: quantiles within 1/32 of the exact ones. */
static int quantiles_of_uniform_set_within_bucket_error(void)
{
	struct latency_hist *h = calloc(1, sizeof(*h));
	struct latency l;

	CHECK(h != NULL);
	for (uint64_t v = 1; v <= 1000; v++)
		latency_add(h, v);
	l = latency_summary(h);
	CHECK_INT(l.count, 1000);
	CHECK_NEAR(l.p50, 500, 500.0 / 32);
	CHECK_NEAR(l.p90, 900, 900.0 / 32);
	CHECK_NEAR(l.p99, 990, 990.0 / 32);
	CHECK_NEAR(l.max, 1000, 0);
	free(h);
	return 0;
}

static int values_below_32_are_exact(void)
{
	struct latency_hist *h = calloc(1, sizeof(*h));

	CHECK(h != NULL);
	for (int i = 0; i < 10; i++)
		latency_add(h, 7);
	latency_add(h, 31);
	CHECK_NEAR(latency_quantile(h, 0.5), 7, 0);
	CHECK_NEAR(latency_quantile(h, 1.0), 31, 0);
	free(h);
	return 0;
}

/* One slow unit in a thousand shows at p99.9, not at p99. */
static int rare_slow_unit_shows_at_p999(void)
{
	struct latency_hist *h = calloc(1, sizeof(*h));
	struct latency l;

	CHECK(h != NULL);
	for (int i = 0; i < 999; i++)
		latency_add(h, 10000);
	latency_add(h, 5000000);
	l = latency_summary(h);
	CHECK_NEAR(l.p99, 10000, 10000.0 / 32);
	CHECK_NEAR(l.p999, 10000, 10000.0 / 32);
	CHECK_NEAR(l.max, 5000000, 0);
	CHECK_NEAR(latency_quantile(h, 1.0), 5000000, 5000000.0 / 32);
	free(h);
	return 0;
}

static int huge_values_stay_in_range(void)
{
	struct latency_hist *h = calloc(1, sizeof(*h));

	CHECK(h != NULL);
	latency_add(h, UINT64_MAX);
	latency_add(h, (uint64_t)1 << 63);
	CHECK_INT(h->count, 2);
	CHECK(latency_quantile(h, 0.5) >= 9.2e18);
	free(h);
	return 0;
}

static int merge_adds_counts_and_keeps_max(void)
{
	struct latency_hist *a = calloc(1, sizeof(*a)),
			    *b = calloc(1, sizeof(*b));

	CHECK(a && b);
	latency_add(a, 100);
	latency_add(b, 100);
	latency_add(b, 9000);
	latency_merge(a, b);
	CHECK_INT(a->count, 3);
	CHECK_INT(a->max, 9000);
	CHECK_NEAR(latency_quantile(a, 0.5), 100, 100.0 / 32);
	free(a);
	free(b);
	return 0;
}

static int empty_histogram_says_zero(void)
{
	struct latency_hist *h = calloc(1, sizeof(*h));
	struct latency l;

	CHECK(h != NULL);
	l = latency_summary(h);
	CHECK_INT(l.count, 0);
	CHECK_NEAR(l.p50, 0, 0);
	free(h);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"quantiles_of_uniform_set_within_bucket_error", quantiles_of_uniform_set_within_bucket_error},
	{"values_below_32_are_exact", values_below_32_are_exact},
	{"rare_slow_unit_shows_at_p999", rare_slow_unit_shows_at_p999},
	{"huge_values_stay_in_range", huge_values_stay_in_range},
	{"merge_adds_counts_and_keeps_max", merge_adds_counts_and_keeps_max},
	{"empty_histogram_says_zero", empty_histogram_says_zero},
};
/* clang-format on */

TEST_MAIN(tests)
