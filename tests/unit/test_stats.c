/* SPDX-License-Identifier: Apache-2.0 */
/* Statistics over samples, and the figures and flags a result derives. */
#include <stdlib.h>

#include "check.h"
#include "result/result.h"
#include "result/stats.h"

#define TOL 1e-9

static int summary_of_textbook_set(void)
{
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	struct stats s;

	CHECK_INT(stats_compute(v, 8, &s), 0);
	CHECK_INT(s.n, 8);
	CHECK_NEAR(s.mean, 5, TOL);
	CHECK_NEAR(s.stddev, 2.138089935299395, TOL);
	CHECK_NEAR(s.cv, 2.138089935299395 / 5, TOL);
	CHECK_NEAR(s.min, 2, TOL);
	CHECK_NEAR(s.max, 9, TOL);
	CHECK_NEAR(s.median, 4.5, TOL);
	return 0;
}

static int percentiles_match_numpy_linear(void)
{
	/* numpy.percentile(v, [25, 75]) with the default linear method */
	const double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	const double w[] = { 1, 2, 3, 4 };
	struct stats s;

	CHECK_INT(stats_compute(v, 8, &s), 0);
	CHECK_NEAR(s.p25, 4.0, TOL);
	CHECK_NEAR(s.p75, 5.5, TOL);
	CHECK_INT(stats_compute(w, 4, &s), 0);
	CHECK_NEAR(s.p25, 1.75, TOL);
	CHECK_NEAR(s.median, 2.5, TOL);
	CHECK_NEAR(s.p75, 3.25, TOL);
	return 0;
}

static int unsorted_input_is_left_alone(void)
{
	double v[] = { 10, 1, 7, 3, 5 };
	struct stats s;

	CHECK_INT(stats_compute(v, 5, &s), 0);
	CHECK_NEAR(s.median, 5, TOL);
	CHECK_NEAR(s.p25, 3, TOL);
	CHECK_NEAR(s.p75, 7, TOL);
	CHECK_NEAR(s.mean, 5.2, TOL);
	CHECK_NEAR(v[0], 10, 0);
	CHECK_NEAR(v[1], 1, 0);
	CHECK_NEAR(v[4], 5, 0);
	return 0;
}

static int empty_set_gives_zeros(void)
{
	struct stats s;

	s.mean = 42;
	CHECK_INT(stats_compute(NULL, 0, &s), 0);
	CHECK_INT(s.n, 0);
	CHECK_NEAR(s.mean, 0, 0);
	CHECK_NEAR(s.median, 0, 0);
	CHECK_NEAR(s.stddev, 0, 0);
	CHECK_NEAR(s.cv, 0, 0);
	return 0;
}

static int single_value_has_no_spread(void)
{
	const double v[] = { 3.5 };
	struct stats s;

	CHECK_INT(stats_compute(v, 1, &s), 0);
	CHECK_NEAR(s.median, 3.5, 0);
	CHECK_NEAR(s.p25, 3.5, 0);
	CHECK_NEAR(s.p75, 3.5, 0);
	CHECK_NEAR(s.min, 3.5, 0);
	CHECK_NEAR(s.max, 3.5, 0);
	CHECK_NEAR(s.stddev, 0, 0);
	CHECK_NEAR(s.cv, 0, 0);
	return 0;
}

static int constant_data_has_zero_cv(void)
{
	const double v[] = { 1e9, 1e9, 1e9, 1e9, 1e9 };
	struct stats s;

	CHECK_INT(stats_compute(v, 5, &s), 0);
	CHECK_NEAR(s.mean, 1e9, 0);
	CHECK_NEAR(s.stddev, 0, 0);
	CHECK_NEAR(s.cv, 0, 0);
	return 0;
}

static int welford_keeps_precision_near_large_mean(void)
{
	/* a naive sum of squares loses every digit here */
	const double v[] = { 1e12 + 4, 1e12 + 7, 1e12 + 13, 1e12 + 16 };
	struct stats s;

	CHECK_INT(stats_compute(v, 4, &s), 0);
	CHECK_NEAR(s.mean, 1e12 + 10, 1e-3);
	CHECK_NEAR(s.stddev, 5.477225575051661, 1e-6);
	return 0;
}

static int quantile_endpoints_are_min_and_max(void)
{
	const double sorted[] = { 1, 2, 3 };

	CHECK_NEAR(stats_quantile(sorted, 3, 0), 1, 0);
	CHECK_NEAR(stats_quantile(sorted, 3, 1), 3, 0);
	CHECK_NEAR(stats_quantile(sorted, 3, 0.5), 2, 0);
	CHECK_NEAR(stats_quantile(sorted, 0, 0.5), 0, 0);
	return 0;
}

/* A target table entry for the result tests. */
static struct hb_target target_of(const char *group, enum hb_work work)
{
	return (struct hb_target){ .group = group, .name = "t", .work = work };
}

/* n samples of 1 s each moving bytes[i], with cpu seconds each. */
static void fill_samples(struct result *r, const double *bytes, size_t n,
			 double cpu)
{
	r->samples = calloc(n, sizeof(*r->samples));
	r->nsamples = n;
	for (size_t i = 0; i < n; i++) {
		r->samples[i].seconds = 2;
		r->samples[i].bytes = 2 * bytes[i];
		r->samples[i].ops = bytes[i] / 1000;
		r->samples[i].cpu_seconds = cpu;
	}
}

static int rates_are_bytes_over_seconds(void)
{
	const double b[] = { 1e9, 1e9, 1e9 };
	struct hb_target t = target_of("mem", HB_WORK_BYTES);
	struct bench_case c = { .target = "mem/memcpy",
				.parallel = 1,
				.tdesc = &t };
	struct result r = { .c = &c };

	fill_samples(&r, b, 3, 2.0);
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_NEAR(r.rate.median, 1e9, 1e-3);
	CHECK_NEAR(r.ops_rate.median, 5e5, 1e-6);
	CHECK_NEAR(r.cpu_ratio, 1.0, TOL);
	CHECK_INT(r.noisy, 0);
	CHECK_INT(r.starved, 0);
	CHECK_INT(r.warnings.n, 0);
	result_free(&r);
	return 0;
}

static int noisy_result_gets_flag_and_warning(void)
{
	const double b[] = { 1e9, 1.2e9, 0.8e9, 1e9, 1.1e9 };
	struct hb_target t = target_of("mem", HB_WORK_BYTES);
	struct bench_case c = { .target = "mem/memcpy",
				.parallel = 1,
				.tdesc = &t };
	struct result r = { .c = &c };

	fill_samples(&r, b, 5, 2.0);
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_INT(r.noisy, 1);
	CHECK_INT(r.warnings.n, 1);
	CHECK_STR(r.warnings.items[0],
		  "noisy: CV 14.5% over 5 samples (threshold 5%)");
	result_free(&r);
	return 0;
}

static int starved_compares_with_usable_cpus(void)
{
	const double b[] = { 1e9, 1e9 };
	struct hb_target t = target_of("crypto", HB_WORK_BYTES);
	struct bench_case c = { .target = "crypto/aes-256-ctr",
				.parallel = 8,
				.tdesc = &t };
	struct result r = { .c = &c };

	/* 8 workers on 2 CPUs busy 2 s of 2 s wall: all they could get */
	fill_samples(&r, b, 2, 4.0);
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_NEAR(r.cpu_ratio, 1.0, TOL);
	CHECK_INT(r.starved, 0);
	/* the same CPU time on a 16-CPU host: only a quarter of it */
	CHECK_INT(result_finish_cpus(&r, 16), 0);
	CHECK_NEAR(r.cpu_ratio, 0.25, TOL);
	CHECK_INT(r.starved, 1);
	CHECK_INT(r.warnings.n, 1);
	CHECK_STR(r.warnings.items[0],
		  "starved: workers got 25% of the CPU time they needed "
		  "(contended host?)");
	result_free(&r);
	return 0;
}

static int io_and_transfer_are_never_starved(void)
{
	const double b[] = { 1e9, 1e9 };
	struct hb_target t = target_of("io", HB_WORK_BYTES);
	struct bench_case c = { .target = "io/fwrite",
				.parallel = 1,
				.tdesc = &t };
	struct result r = { .c = &c };

	fill_samples(&r, b, 2, 0.2);
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_NEAR(r.cpu_ratio, 0.1, TOL);
	CHECK_INT(r.starved, 0);
	c.target = "transfer/tcp";
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_INT(r.starved, 0);
	c.target = "crypto/aes-256-gcm";
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_INT(r.starved, 1);
	result_free(&r);
	return 0;
}

static int ops_targets_judge_noise_on_ops(void)
{
	const double b[] = { 1e6, 1e6, 1e6 };
	struct hb_target t = target_of("crypto", HB_WORK_OPS);
	struct bench_case c = { .target = "crypto/rsa-sign",
				.parallel = 1,
				.tdesc = &t };
	struct result r = { .c = &c };

	fill_samples(&r, b, 3, 2.0);
	/* bytes vary wildly, operations do not */
	r.samples[0].bytes = 0;
	r.samples[2].bytes = 1e9;
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK(r.rate.cv > 1);
	CHECK_NEAR(r.ops_rate.cv, 0, TOL);
	CHECK_INT(r.noisy, 0);
	CHECK(result_headline(&r) == &r.ops_rate);
	result_free(&r);
	return 0;
}

static int finishing_twice_keeps_one_warning(void)
{
	const double b[] = { 1e9, 2e9 };
	struct hb_target t = target_of("mem", HB_WORK_BYTES);
	struct bench_case c = { .target = "mem/memcpy",
				.parallel = 1,
				.tdesc = &t };
	struct result r = { .c = &c };

	fill_samples(&r, b, 2, 2.0);
	strlist_push(&r.warnings, "buffer smaller than the cache");
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_INT(r.warnings.n, 2);
	CHECK_STR(r.warnings.items[0], "buffer smaller than the cache");
	CHECK_CONTAINS(r.warnings.items[1], "noisy: CV 47.1%");
	result_free(&r);
	return 0;
}

static int failed_results_raise_no_flags(void)
{
	struct hb_target t = target_of("mem", HB_WORK_BYTES);
	struct bench_case c = { .target = "mem/memcpy",
				.parallel = 1,
				.tdesc = &t };
	struct result r = { .c = &c, .status = RESULT_FAILED };

	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_INT(r.noisy, 0);
	CHECK_INT(r.starved, 0);
	CHECK_INT(r.rate.n, 0);
	result_free(&r);
	return 0;
}

static int free_releases_parts(void)
{
	struct result r = { 0 };

	r.parts = calloc(2, sizeof(*r.parts));
	r.nparts = 2;
	r.parts[0].reason = strdup("part reason");
	strlist_push(&r.parts[1].warnings, "w");
	kvlist_set(&r.info, "provider", "default");
	result_free(&r);
	CHECK(r.parts == NULL);
	CHECK_INT(r.nparts, 0);
	CHECK_INT(r.info.n, 0);
	return 0;
}

/*
 * Ranks of the median's 95% interval, by hand from the binomial tail
 * (Conover's table A3): n = 9 has P(B <= 1) = 10/512 = 0.0195 <= 0.025 and
 * P(B <= 2) = 46/512 = 0.0898 > 0.025, so rank 2 and 9 + 1 - 2 = 8.
 */
static int median_ci_ranks_match_binomial_table(void)
{
	static const size_t want[][3] = {
		{ 1, 1, 1 },	 { 5, 1, 5 },	{ 6, 1, 6 },	{ 8, 1, 8 },
		{ 9, 2, 8 },	 { 10, 2, 9 },	{ 12, 3, 10 },	{ 15, 4, 12 },
		{ 20, 6, 15 },	 { 25, 8, 18 }, { 30, 10, 21 }, { 50, 18, 33 },
		{ 100, 40, 61 },
	};
	size_t lo, hi;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		stats_median_ci_ranks(want[i][0], &lo, &hi);
		CHECK_INT(lo, want[i][1]);
		CHECK_INT(hi, want[i][2]);
	}
	stats_median_ci_ranks(0, &lo, &hi);
	CHECK_INT(lo, 0);
	CHECK_INT(hi, 0);
	return 0;
}

/* Values 1..20 given backwards: the interval is the 6th and 15th value. */
static int median_ci_is_order_statistics(void)
{
	double v[20];
	struct stats s;

	for (size_t i = 0; i < 20; i++)
		v[i] = (double)(20 - i);
	CHECK_INT(stats_compute(v, 20, &s), 0);
	CHECK_NEAR(s.ci95_low, 6, TOL);
	CHECK_NEAR(s.ci95_high, 15, TOL);
	CHECK_NEAR(s.median, 10.5, TOL);
	/* the wider side: 10.5 - 6 = 4.5 over 10.5 */
	CHECK_NEAR(stats_ci_relative(&s), 4.5 / 10.5, TOL);
	return 0;
}

/* Below six values the interval is the whole range. */
static int median_ci_of_five_is_min_to_max(void)
{
	const double v[] = { 100, 99, 101, 100.5, 99.8 };
	struct stats s;

	CHECK_INT(stats_compute(v, 5, &s), 0);
	CHECK_NEAR(s.ci95_low, 99, TOL);
	CHECK_NEAR(s.ci95_high, 101, TOL);
	CHECK_NEAR(stats_ci_relative(&s), 1.0 / 100, TOL);
	return 0;
}

/* One wild sample of a hundred moves the median's interval very little. */
static int median_ci_ignores_one_outlier(void)
{
	double v[100];
	struct stats s;

	for (size_t i = 0; i < 100; i++)
		v[i] = 1000 + (double)(i % 10);
	v[37] = 1e6;
	CHECK_INT(stats_compute(v, 100, &s), 0);
	/* sorted: ten of each 1000..1009 with one 1007 replaced by 1e6 */
	CHECK_NEAR(s.ci95_low, 1003, TOL);
	CHECK_NEAR(s.ci95_high, 1006, TOL);
	CHECK(stats_ci_relative(&s) < 0.003);
	return 0;
}

/* Sampled to 1%: a spread of +-5% around the median is imprecise. */
static int imprecise_result_gets_flag_and_warning(void)
{
	const double wide[] = { 0.95e9, 1e9, 1.05e9, 1e9, 1e9 };
	const double tight[] = { 0.999e9, 1e9, 1.001e9, 1e9, 1e9 };
	struct hb_target t = target_of("mem", HB_WORK_BYTES);
	struct bench_case c = { .target = "mem/memcpy",
				.parallel = 1,
				.tdesc = &t,
				.precision = 0.01 };
	struct result r = { .c = &c };

	fill_samples(&r, wide, 5, 2.0);
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_INT(r.imprecise, 1);
	CHECK_NEAR(r.precision, 0.01, 0);
	CHECK_INT(r.warnings.n, 1);
	CHECK_STR(r.warnings.items[0],
		  "imprecise: the median is known to ±5.0% after 5 samples "
		  "(asked ±1%)");
	CHECK(!result_precise(&r, 0.01));
	CHECK(result_precise(&r, 0.05));
	result_free(&r);
	r = (struct result){ .c = &c };
	fill_samples(&r, tight, 5, 2.0);
	CHECK_INT(result_finish_cpus(&r, 2), 0);
	CHECK_INT(r.imprecise, 0);
	CHECK_INT(r.warnings.n, 0);
	result_free(&r);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"summary_of_textbook_set", summary_of_textbook_set},
	{"percentiles_match_numpy_linear", percentiles_match_numpy_linear},
	{"unsorted_input_is_left_alone", unsorted_input_is_left_alone},
	{"empty_set_gives_zeros", empty_set_gives_zeros},
	{"single_value_has_no_spread", single_value_has_no_spread},
	{"constant_data_has_zero_cv", constant_data_has_zero_cv},
	{"welford_keeps_precision_near_large_mean", welford_keeps_precision_near_large_mean},
	{"quantile_endpoints_are_min_and_max", quantile_endpoints_are_min_and_max},
	{"rates_are_bytes_over_seconds", rates_are_bytes_over_seconds},
	{"noisy_result_gets_flag_and_warning", noisy_result_gets_flag_and_warning},
	{"starved_compares_with_usable_cpus", starved_compares_with_usable_cpus},
	{"io_and_transfer_are_never_starved", io_and_transfer_are_never_starved},
	{"ops_targets_judge_noise_on_ops", ops_targets_judge_noise_on_ops},
	{"finishing_twice_keeps_one_warning", finishing_twice_keeps_one_warning},
	{"failed_results_raise_no_flags", failed_results_raise_no_flags},
	{"free_releases_parts", free_releases_parts},
	{"median_ci_ranks_match_binomial_table", median_ci_ranks_match_binomial_table},
	{"median_ci_is_order_statistics", median_ci_is_order_statistics},
	{"median_ci_of_five_is_min_to_max", median_ci_of_five_is_min_to_max},
	{"median_ci_ignores_one_outlier", median_ci_ignores_one_outlier},
	{"imprecise_result_gets_flag_and_warning", imprecise_result_gets_flag_and_warning},
};
/* clang-format on */

TEST_MAIN(tests)
