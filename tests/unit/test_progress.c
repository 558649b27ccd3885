/* SPDX-License-Identifier: Apache-2.0 */
/* The progress line: its estimate of the time left and its text. */
#include "ui/progress.h"
#include "check.h"

static int progress_left_is_the_plan_before_any_case(void)
{
	CHECK_NEAR(progress_left(0, 0, 120), 120, 1e-9);
	return 0;
}

static int progress_left_scales_the_plan_by_the_pace_so_far(void)
{
	/* 30 s of plan took 60 s: the 90 s left will take 180 s */
	CHECK_NEAR(progress_left(60, 30, 120), 180, 1e-9);
	return 0;
}

static int progress_left_is_never_negative(void)
{
	CHECK_NEAR(progress_left(10, 130, 120), 0, 1e-9);
	return 0;
}

static int progress_line_names_case_backend_and_time_left(void)
{
	struct bench_case c = { .title = "AES256/CBC [4 parallels]",
				.backend = "openssl" };
	char buf[128];

	progress_line(buf, sizeof(buf), 2, 17, &c, 42.4);
	CHECK_STR(buf, "[3/17] AES256/CBC [4 parallels] (openssl)  0:42 left");
	progress_line(buf, sizeof(buf), 0, 1, &c, 3725);
	CHECK_CONTAINS(buf, "  1:02:05 left");
	return 0;
}

static int progress_turns_line_names_the_job_and_its_cases(void)
{
	char buf[128];

	progress_turns_line(buf, sizeof(buf), 4, 8, 17, "memcpy", 90);
	CHECK_STR(buf, "[5-8/17] memcpy: 4 cases in turns  1:30 left");
	return 0;
}

/* Cases taking turns all start at once: each counts as started. */
static int progress_turns_counts_every_case_of_the_turns(void)
{
	struct job job = { .label = "memcpy" };
	struct bench_case c[3];
	struct suite s = { .jobs = &job, .njobs = 1, .cases = c, .ncases = 3 };
	struct progress p;

	for (size_t i = 0; i < 3; i++)
		c[i] = (struct bench_case){ .duration = 1, .repetitions = 4 };
	progress_begin(&p, &s, NULL, 0, 0);
	CHECK_NEAR(p.planned, 3 * progress_planned(&c[0]), 1e-9);
	progress_turns(&p, &s, 1, 3, 0);
	CHECK_NEAR(p.planned_done, 2 * progress_planned(&c[0]), 1e-9);
	return 0;
}

/*
 * The plan is the suite's own budget: warm-up and kept samples of
 * duration, a calibration of a fifth of one and a setup allowance.
 */
static int progress_planned_counts_warmup_samples_and_calibration(void)
{
	struct bench_case c = { .duration = 2, .repetitions = 5, .warmup = 1 };

	CHECK_NEAR(progress_planned(&c), 0.15 + (1 + 0.2 + 5) * 2, 1e-9);
	return 0;
}

/* A case sampled to a precision plans its max_time of kept samples. */
static int progress_planned_takes_max_time_for_a_precision_case(void)
{
	struct bench_case c = { .duration = 0.2,
				.precision = 0.01,
				.min_repetitions = 5,
				.max_time = 2,
				.warmup_auto = 1 };

	CHECK_NEAR(progress_planned(&c), 0.15 + (5 + 0.2) * 0.2 + 2, 1e-9);
	c.max_time = 0.5; /* min_repetitions x duration is more */
	CHECK_NEAR(progress_planned(&c), 0.15 + (5 + 0.2) * 0.2 + 1, 1e-9);
	return 0;
}

/*
 * A composite (cipher + MAC) is measured, then each of its halves for half
 * its max_time: three plans. On the 2-CPU VM the default suite's
 * AES256/CBC/HMAC[SHA256] took 7.5 s against a plan of 2.6 s when the
 * halves were not counted.
 */
static int progress_planned_counts_a_composites_parts(void)
{
	static const char *const parts[] = { "crypto/aes-256-cbc",
					     "mac/hmac-sha256", NULL };
	const struct hb_target whole = { .name = "aes-256-cbc-hmac-sha256",
					 .parts = parts };
	struct bench_case c = { .duration = 0.2,
				.precision = 0.01,
				.min_repetitions = 5,
				.max_time = 2,
				.warmup = 2 };
	double one = 0.15 + (2 + 0.2) * 0.2 + 2;
	double half = 0.15 + (2 + 0.2) * 0.2 + 1;

	CHECK_NEAR(progress_planned(&c), one, 1e-9);
	c.tdesc = &whole;
	CHECK_NEAR(progress_planned(&c), one + 2 * half, 1e-9);
	return 0;
}

/* During a case the time left counts down, never below what follows. */
static int progress_ticked_counts_down_to_the_cases_after(void)
{
	CHECK_NEAR(progress_ticked(30, 10, 5), 20, 1e-9);
	CHECK_NEAR(progress_ticked(30, 40, 5), 5, 1e-9);
	CHECK_NEAR(progress_ticked(30, -1, 5), 30, 1e-9);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"progress_left_is_the_plan_before_any_case", progress_left_is_the_plan_before_any_case},
	{"progress_left_scales_the_plan_by_the_pace_so_far", progress_left_scales_the_plan_by_the_pace_so_far},
	{"progress_left_is_never_negative", progress_left_is_never_negative},
	{"progress_line_names_case_backend_and_time_left", progress_line_names_case_backend_and_time_left},
	{"progress_planned_counts_warmup_samples_and_calibration", progress_planned_counts_warmup_samples_and_calibration},
	{"progress_planned_takes_max_time_for_a_precision_case", progress_planned_takes_max_time_for_a_precision_case},
	{"progress_planned_counts_a_composites_parts", progress_planned_counts_a_composites_parts},
	{"progress_ticked_counts_down_to_the_cases_after", progress_ticked_counts_down_to_the_cases_after},
	{"progress_turns_line_names_the_job_and_its_cases", progress_turns_line_names_the_job_and_its_cases},
	{"progress_turns_counts_every_case_of_the_turns", progress_turns_counts_every_case_of_the_turns},
};
/* clang-format on */

TEST_MAIN(tests)
