/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet's pure rules: who sends to whom for peer = rank-pairs, ring,
 * all-to-one and all-to-all, which cases send to a rank, how long a lost
 * rank costs, and which host is the outlier of a case.
 */
#include <errno.h>
#include <stdio.h>

#include "check.h"
#include "fleet/fleet_int.h"
#include "fleetreport/fleetreport.h"

static int rank_pairs_pair_neighbours(void)
{
	CHECK_INT(fleet_partner("rank-pairs", 0, 4), 1);
	CHECK_INT(fleet_partner("rank-pairs", 1, 4), 0);
	CHECK_INT(fleet_partner("rank-pairs", 2, 4), 3);
	CHECK_INT(fleet_partner("rank-pairs", 3, 4), 2);
	return 0;
}

static int rank_pairs_leave_the_odd_rank_out(void)
{
	CHECK_INT(fleet_partner("rank-pairs", 2, 3), -1);
	CHECK_INT(fleet_partner("rank-pairs", 0, 1), -1);
	return 0;
}

static int ring_sends_to_the_next_rank_and_wraps(void)
{
	CHECK_INT(fleet_partner("ring", 0, 3), 1);
	CHECK_INT(fleet_partner("ring", 2, 3), 0);
	CHECK_INT(fleet_partner("ring", 0, 1), 0);
	return 0;
}

static int all_to_one_sends_to_rank_0_which_receives(void)
{
	CHECK_INT(fleet_partner("all-to-one", 1, 4), 0);
	CHECK_INT(fleet_partner("all-to-one", 3, 4), 0);
	CHECK_INT(fleet_partner("all-to-one", 0, 4), -3);
	return 0;
}

static int all_to_all_sends_to_every_other_rank(void)
{
	CHECK_INT(fleet_partner("all-to-all", 0, 3), FLEET_EVERY_OTHER);
	CHECK_INT(fleet_partner("all-to-all", 2, 3), FLEET_EVERY_OTHER);
	CHECK_STR(fleet_peer_mode_text("all-to-all"),
		  "every rank sends to every other at once; Total is what the "
		  "fleet sent");
	CHECK_STR(fleet_peer_mode_text("lab2:5201"), "");
	return 0;
}

static int a_lost_rank_costs_the_cases_own_time_and_fleet_timeout(void)
{
	struct bench_case derived = { .duration = 1,
				      .repetitions = 5,
				      .warmup = 1,
				      .fleet_timeout = 30 };
	struct bench_case timed = derived;

	/* (warmup + repetitions + 3) x duration, not isolate's 156 s */
	CHECK_NEAR(fleet_case_wait(&derived), 9 + 30, 1e-9);
	timed.timeout = 60;
	CHECK_NEAR(fleet_case_wait(&timed), 60 + 30, 1e-9);
	return 0;
}

static int a_precision_case_costs_its_max_time_and_fleet_timeout(void)
{
	struct bench_case precise = { .duration = 0.5,
				      .repetitions = 5,
				      .precision = 0.01,
				      .min_repetitions = 3,
				      .max_time = 20,
				      .fleet_timeout = 30 };

	/* max_time + 2 s of warm-up + (min_repetitions + 3) x duration */
	CHECK_NEAR(fleet_case_wait(&precise), 20 + 2 + 3 + 30, 1e-9);
	return 0;
}

static int steps_before_the_first_case_wait_the_largest_fleet_timeout(void)
{
	struct bench_case cases[] = { { .fleet_timeout = 5 },
				      { .fleet_timeout = 12 } };
	struct suite s = { .cases = cases, .ncases = 2 };

	CHECK_NEAR(fleet_setup_wait(&s, 0), 12, 1e-9);
	CHECK_NEAR(fleet_setup_wait(&s, -EINVAL), SUITE_FLEET_TIMEOUT, 1e-9);
	return 0;
}

static int a_host_and_port_is_no_peer_mode(void)
{
	CHECK_INT(fleet_partner("lab2:5201", 0, 2), -2);
	return 0;
}

/* A target with peer and token, like transfer/tcp, and one with token only. */
static const struct hb_option sender_opts[] = {
	{ .name = "peer", .type = HB_OPT_STRING, .def = "" },
	{ .name = "token", .type = HB_OPT_STRING, .def = "" },
	{ 0 },
};
static const struct hb_target sender = { .group = "transfer",
					 .name = "tcp",
					 .options = sender_opts };
static const struct hb_target other = { .group = "mem",
					.name = "memcpy",
					.options = sender_opts + 1 };

/* The peer mode of a case of target t with peer = value. */
static const char *mode_of(const struct hb_target *t, const char *value,
			   char *buf, size_t len)
{
	struct bench_case c = { .tdesc = t };
	const char *mode;

	if (kvlist_set(&c.params, "peer", value))
		return "out of memory";
	mode = fleet_peer_mode(&c);
	snprintf(buf, len, "%s", mode ? mode : "(none)");
	kvlist_free(&c.params);
	return buf;
}

static int only_rank_modes_of_senders_send_to_a_rank(void)
{
	char buf[64];

	CHECK_STR(mode_of(&sender, "ring", buf, sizeof(buf)), "ring");
	CHECK_STR(mode_of(&sender, "rank-pairs", buf, sizeof(buf)),
		  "rank-pairs");
	CHECK_STR(mode_of(&sender, "all-to-one", buf, sizeof(buf)),
		  "all-to-one");
	CHECK_STR(mode_of(&sender, "all-to-all", buf, sizeof(buf)),
		  "all-to-all");
	CHECK_STR(mode_of(&sender, "lab2:5201", buf, sizeof(buf)), "(none)");
	CHECK_STR(mode_of(&sender, "lab2:5201,lab3:5201", buf, sizeof(buf)),
		  "(none)");
	CHECK_STR(mode_of(&other, "ring", buf, sizeof(buf)), "(none)");
	return 0;
}

static int outlier_is_farthest_from_the_median(void)
{
	double v[] = { 10, 11, 4, 10.5 }, median = 0;

	CHECK_INT(fleet_outlier(v, 4, &median), 2);
	CHECK_NEAR(median, 10.25, 1e-9);
	return 0;
}

static int outlier_of_two_is_the_slower(void)
{
	double v[] = { 9, 7 }, median = 0;

	CHECK_INT(fleet_outlier(v, 2, &median), 1);
	CHECK_NEAR(median, 8, 1e-9);
	return 0;
}

static int outlier_of_two_ignores_rounding(void)
{
	/* the two distances from the median differ in the last bits */
	double v[] = { 87446409285.845, 70213985797.1996 }, median = 0;

	CHECK_INT(fleet_outlier(v, 2, &median), 1);
	return 0;
}

static int outlier_of_none_is_none(void)
{
	double median = 0;

	CHECK_INT(fleet_outlier(NULL, 0, &median), -1);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
    {"rank_pairs_pair_neighbours", rank_pairs_pair_neighbours},
    {"rank_pairs_leave_the_odd_rank_out", rank_pairs_leave_the_odd_rank_out},
    {"ring_sends_to_the_next_rank_and_wraps", ring_sends_to_the_next_rank_and_wraps},
    {"all_to_one_sends_to_rank_0_which_receives", all_to_one_sends_to_rank_0_which_receives},
    {"all_to_all_sends_to_every_other_rank", all_to_all_sends_to_every_other_rank},
    {"a_lost_rank_costs_the_cases_own_time_and_fleet_timeout", a_lost_rank_costs_the_cases_own_time_and_fleet_timeout},
    {"a_precision_case_costs_its_max_time_and_fleet_timeout", a_precision_case_costs_its_max_time_and_fleet_timeout},
    {"steps_before_the_first_case_wait_the_largest_fleet_timeout", steps_before_the_first_case_wait_the_largest_fleet_timeout},
    {"a_host_and_port_is_no_peer_mode", a_host_and_port_is_no_peer_mode},
    {"only_rank_modes_of_senders_send_to_a_rank", only_rank_modes_of_senders_send_to_a_rank},
    {"outlier_is_farthest_from_the_median", outlier_is_farthest_from_the_median},
    {"outlier_of_two_is_the_slower", outlier_of_two_is_the_slower},
    {"outlier_of_two_ignores_rounding", outlier_of_two_ignores_rounding},
    {"outlier_of_none_is_none", outlier_of_none_is_none},
};
/* clang-format on */

TEST_MAIN(tests)
