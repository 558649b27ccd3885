/* SPDX-License-Identifier: Apache-2.0 */
/*
 * history_spread on series built here: the largest move between runs back
 * to back, of the pair's context only, never from the pair's own runs,
 * over the last 20 moves, and no spread from a series too short.
 */
#include <stdio.h>

#include "check.h"
#include "history/spread.h"

/* A series of n points "run-0".. with medians m[i] (cpu_median twice
   that), in context ctx[i] ("c-1" when ctx is NULL). */
static json_t *series_of(const double *m, size_t n, const char *const *ctx)
{
	json_t *points = json_array();
	char run[32];

	for (size_t i = 0; i < n; i++) {
		snprintf(run, sizeof(run), "run-%zu", i);
		json_array_append_new(points,
				      json_pack("{s:s, s:s, s:f, s:f}", "run",
						run, "context",
						ctx ? ctx[i] : "c-1", "median",
						m[i], "cpu_median", 2 * m[i]));
	}
	return json_pack("{s:s, s:o}", "figure", "rate", "points", points);
}

static int largest_move_back_to_back_without_the_pair(void)
{
	/* the pair (run-0, run-6) moves 1800%; the others at most 20% */
	const double m[] = { 10, 100, 110, 88, 90, 100, 190 };
	json_t *s = series_of(m, 7, NULL);
	struct history_spread sp;

	CHECK_INT(history_spread(s, "run-0", "run-6", 0, &sp), 1);
	CHECK_INT((int)sp.runs, 5);
	CHECK_NEAR(sp.floor, 0.2, 1e-9); /* 110 -> 88 */
	CHECK_INT(history_spread(s, "run-0", "run-6", 1, &sp), 1);
	CHECK_NEAR(sp.floor, 0.2, 1e-9); /* cpu_median moves alike */
	json_decref(s);
	return 0;
}

static int fewer_than_five_other_runs_give_none(void)
{
	const double m[] = { 100, 101, 102, 103, 104, 105 };
	json_t *s = series_of(m, 6, NULL);
	struct history_spread sp;

	CHECK_INT(history_spread(s, "run-0", "run-5", 0, &sp), 0);
	CHECK_INT(history_spread(s, "run-0", "run-0", 0, &sp), 0);
	CHECK_INT(history_spread(s, "run-0", "run-9", 0, &sp), 0);
	json_decref(s);
	return 0;
}

static int only_the_pairs_context_counts(void)
{
	const double m[] = { 100, 200, 100, 200, 100, 101, 102, 103, 104, 105 };
	const char *const ctx[] = { "c-1", "c-1", "c-2", "c-2", "c-2",
				    "c-2", "c-2", "c-2", "c-2", "c-2" };
	json_t *s = series_of(m, 10, ctx);
	struct history_spread sp;

	/* a pair across contexts has no spread */
	CHECK_INT(history_spread(s, "run-0", "run-9", 0, &sp), 0);
	/* the moves of c-1 (100%) are not c-2's */
	CHECK_INT(history_spread(s, "run-8", "run-9", 0, &sp), 1);
	CHECK_INT((int)sp.runs, 6);
	CHECK_NEAR(sp.floor, 1.0, 1e-9); /* 200 -> 100 in c-2 */
	CHECK_INT(history_spread(s, "run-2", "run-3", 0, &sp), 1);
	CHECK_NEAR(sp.floor, 0.01, 1e-9); /* 100 -> 101 ... 105 */
	json_decref(s);
	return 0;
}

static int only_the_last_twenty_moves_count(void)
{
	double m[40];
	struct history_spread sp;
	json_t *s;

	for (size_t i = 0; i < 40; i++)
		m[i] = 100 + (double)(i % 2); /* 1% moves */
	m[5] = 200;			      /* 100% moves, 34 runs ago */
	s = series_of(m, 40, NULL);
	CHECK_INT(history_spread(s, "run-38", "run-39", 0, &sp), 1);
	CHECK_INT((int)sp.runs, HISTORY_SPREAD_RUNS);
	CHECK_NEAR(sp.floor, 0.01, 1e-9);
	CHECK_INT(history_spread(s, "run-0", "run-1", 0, &sp), 1);
	CHECK_NEAR(sp.floor, 0.01, 1e-9); /* the newest 21 runs */
	json_decref(s);
	return 0;
}

static int points_without_a_median_are_left_out(void)
{
	const double m[] = { 100, 0, 100, 110, 0, 100, 110, 100, 105, 100 };
	json_t *s = series_of(m, 10, NULL);
	struct history_spread sp;

	CHECK_INT(history_spread(s, "run-0", "run-9", 0, &sp), 1);
	CHECK_INT((int)sp.runs, 6);
	CHECK_NEAR(sp.floor, 0.1, 1e-9); /* 100 -> 110, never from 0 */
	CHECK_INT(history_spread(s, "run-0", "run-7", 0, &sp), 1);
	CHECK_INT((int)sp.runs, 6);
	json_decref(s);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"largest_move_back_to_back_without_the_pair", largest_move_back_to_back_without_the_pair},
	{"fewer_than_five_other_runs_give_none", fewer_than_five_other_runs_give_none},
	{"only_the_pairs_context_counts", only_the_pairs_context_counts},
	{"only_the_last_twenty_moves_count", only_the_last_twenty_moves_count},
	{"points_without_a_median_are_left_out", points_without_a_median_are_left_out},
};
/* clang-format on */

TEST_MAIN(tests)
