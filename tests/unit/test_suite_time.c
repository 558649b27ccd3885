/* SPDX-License-Identifier: Apache-2.0 */
/* A case's time budget and the deadline of its helper. */
#include "check.h"
#include "suite/suite_time.h"

static int fixed_samples_take_warmup_repetitions_and_three_more(void)
{
	struct bench_case c = { .duration = 2, .repetitions = 5, .warmup = 1 };

	CHECK_NEAR(suite_case_time(&c), (1 + 5 + 3) * 2, 1e-9);
	return 0;
}

static int an_automatic_warmup_counts_its_most_samples(void)
{
	struct bench_case c = { .duration = 1,
				.repetitions = 5,
				.warmup_auto = 1 };

	CHECK_NEAR(suite_case_time(&c), SUITE_AUTO_WARMUP_MAX + 5 + 3, 1e-9);
	return 0;
}

static int a_precision_case_takes_up_to_its_max_time(void)
{
	struct bench_case c = { .duration = 0.5,
				.repetitions = 100,
				.precision = 0.01,
				.min_repetitions = 5,
				.max_time = 10 };

	/* repetitions are not used: max_time, 2 s warm-up, the first ones */
	CHECK_NEAR(suite_case_time(&c), 10 + 2 + (5 + 3) * 0.5, 1e-9);
	return 0;
}

static int a_precision_case_counts_its_warm_up_before_max_time(void)
{
	struct bench_case c = { .duration = 0.5,
				.warmup = 20,
				.precision = 0.01,
				.min_repetitions = 5,
				.max_time = 10 };
	struct bench_case a = c;

	/* max_time counts from the end of the warm-up: 20 samples here */
	CHECK_NEAR(suite_case_time(&c), 20 * 0.5 + 10 + 2 + (5 + 3) * 0.5,
		   1e-9);
	/* automatic: at most one sample past its 2 s */
	a.warmup = 0;
	a.warmup_auto = 1;
	CHECK_NEAR(suite_case_time(&a),
		   SUITE_AUTO_WARMUP_SECONDS + 0.5 + 10 + 2 + (5 + 3) * 0.5,
		   1e-9);
	return 0;
}

static int a_case_without_timeout_gets_120_s_and_four_times_its_time(void)
{
	struct bench_case c = { .duration = 1, .repetitions = 5, .warmup = 1 };

	CHECK_NEAR(suite_case_timeout(&c), 120 + 4 * 9, 1e-9);
	return 0;
}

static int a_set_timeout_is_the_timeout(void)
{
	struct bench_case c = { .duration = 1, .repetitions = 5, .timeout = 7 };

	CHECK_NEAR(suite_case_timeout(&c), 7, 1e-9);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"fixed_samples_take_warmup_repetitions_and_three_more", fixed_samples_take_warmup_repetitions_and_three_more},
	{"an_automatic_warmup_counts_its_most_samples", an_automatic_warmup_counts_its_most_samples},
	{"a_precision_case_takes_up_to_its_max_time", a_precision_case_takes_up_to_its_max_time},
	{"a_precision_case_counts_its_warm_up_before_max_time", a_precision_case_counts_its_warm_up_before_max_time},
	{"a_case_without_timeout_gets_120_s_and_four_times_its_time", a_case_without_timeout_gets_120_s_and_four_times_its_time},
	{"a_set_timeout_is_the_timeout", a_set_timeout_is_the_timeout},
};
/* clang-format on */

TEST_MAIN(tests)
