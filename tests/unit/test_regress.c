/* SPDX-License-Identifier: Apache-2.0 */
/*
 * history_regressions on history documents built here: change points
 * inside a context and at a context change, the newest run's verdicts,
 * which way is better, and series too short to judge.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "history/regress.h"

/* A repeatable wobble of about cv around 1 (no two points alike). */
static double wobble(size_t i, double cv)
{
	static const double z[] = { 0.3,  -1.1, 0.8,  -0.4, 1.2,  -0.9, 0.1,
				    -0.2, 0.6,	-0.7, 1.0,  -1.3, 0.4 };

	return 1 + cv * z[i % (sizeof(z) / sizeof(z[0]))];
}

/* A point of median m with a 1% CI, in context ctx, with flags. */
static json_t *point(size_t i, double m, const char *ctx, json_t *flags)
{
	char run[32];

	snprintf(run, sizeof(run), "run-%zu", i);
	return json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:i, s:f, s:o, s:o}",
			 "run", run, "time", "2026-01-01T00:00:00Z", "context",
			 ctx, "median", m, "ci_low", m * 0.99, "ci_high",
			 m * 1.01, "n", 5, "cv", 0.01, "cpu_median",
			 json_null(), "flags", flags ? flags : json_array());
}

/*
 * A document of one series: n points at 100 with a 1% wobble, scaled by
 * step from index at on, in context "c-1" (from cut on: "c-2").
 */
static json_t *doc_of(size_t n, size_t at, double step, size_t cut,
		      const char *better)
{
	json_t *points = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(
			points,
			point(i, 100 * (i >= at ? step : 1) * wobble(i, 0.01),
			      i >= cut ? "c-2" : "c-1", NULL));
	return json_pack("{s:i, s:[{s:s, s:s, s:s, s:o}]}", "history_version",
			 1, "series", "id", "s-1", "figure", "rate", "better",
			 better, "points", points);
}

static json_t *series0(json_t *doc)
{
	return json_array_get(json_object_get(doc, "series"), 0);
}

static json_t *last_point(json_t *doc)
{
	json_t *pts = json_object_get(series0(doc), "points");

	return json_array_get(pts, json_array_size(pts) - 1);
}

static const char *verdict(json_t *doc)
{
	return json_string_value(json_object_get(
		json_object_get(series0(doc), "newest"), "verdict"));
}

static json_t *change(json_t *doc, size_t i)
{
	return json_array_get(json_object_get(series0(doc), "changes"), i);
}

static size_t nchanges(json_t *doc)
{
	return json_array_size(json_object_get(series0(doc), "changes"));
}

static int run(json_t *doc)
{
	char err[128] = "";

	return history_regressions(doc, NULL, err, sizeof(err));
}

static int step_is_a_new_regression_at_its_run(void)
{
	json_t *doc = doc_of(60, 40, 0.85, 60, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 1);
	CHECK_INT(json_integer_value(json_object_get(change(doc, 0), "index")),
		  40);
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "run")),
		  "run-40");
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "kind")),
		  "regression");
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "state")),
		  "new");
	CHECK_NEAR(json_real_value(json_object_get(change(doc, 0), "change")),
		   -0.15, 0.01);
	CHECK(json_is_false(json_object_get(change(doc, 0), "context_change")));
	json_decref(doc);
	return 0;
}

static int change_id_is_stable(void)
{
	json_t *a = doc_of(60, 40, 0.85, 60, "higher");
	json_t *b = doc_of(70, 40, 0.85, 70, "higher");
	const char *ida, *idb;

	CHECK_INT(run(a), 0);
	CHECK_INT(run(b), 0);
	ida = json_string_value(json_object_get(change(a, 0), "id"));
	idb = json_string_value(json_object_get(change(b, 0), "id"));
	CHECK_CONTAINS(ida, "ch-");
	CHECK_STR(idb, ida);
	json_decref(a);
	json_decref(b);
	return 0;
}

static int flat_series_has_no_change_and_newest_within_noise(void)
{
	json_t *doc = doc_of(60, 60, 1, 60, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 0);
	CHECK_STR(verdict(doc), "within noise");
	json_decref(doc);
	return 0;
}

static int small_step_is_no_change(void)
{
	json_t *doc = doc_of(60, 30, 0.97, 60, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 0);
	json_decref(doc);
	return 0;
}

static int step_at_context_change_says_so(void)
{
	json_t *doc = doc_of(60, 40, 0.85, 40, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 1);
	CHECK_INT(json_integer_value(json_object_get(change(doc, 0), "index")),
		  40);
	CHECK(json_is_true(json_object_get(change(doc, 0), "context_change")));
	json_decref(doc);
	return 0;
}

/*
 * doc_of()'s series with contexts whose facts name the tool that
 * measured: version a before the cut, b from it.
 */
static json_t *tool_doc(const char *a, const char *b)
{
	json_t *doc = doc_of(60, 40, 0.85, 40, "higher");
	json_t *ctxs =
		json_pack("[{s:s, s:i, s:{s:{s:s, s:s}}}, "
			  "{s:s, s:i, s:{s:{s:s, s:s}}}]",
			  "id", "c-1", "first", 0, "facts", "tool", "name",
			  "fio", "version", a, "id", "c-2", "first", 40,
			  "facts", "tool", "name", "fio", "version", b);

	json_object_set_new(series0(doc), "contexts", ctxs);
	return doc;
}

static int step_where_the_tool_changed_is_inconclusive(void)
{
	json_t *doc = tool_doc("3.33", "3.35");

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 1);
	CHECK(json_is_true(json_object_get(change(doc, 0), "context_change")));
	CHECK(json_is_true(json_object_get(change(doc, 0), "tool_change")));
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "kind")),
		  "inconclusive");
	json_decref(doc);
	doc = tool_doc("3.33", "3.33"); /* the same tool: the host's step */
	CHECK_INT(run(doc), 0);
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "kind")),
		  "regression");
	CHECK(!json_object_get(change(doc, 0), "tool_change"));
	json_decref(doc);
	return 0;
}

static int context_change_without_step_is_no_change(void)
{
	json_t *doc = doc_of(60, 60, 1, 40, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 0);
	json_decref(doc);
	return 0;
}

static int newest_judged_within_its_context_only(void)
{
	/* three points in a new context are too few to judge against */
	json_t *doc = doc_of(43, 60, 1, 40, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_STR(verdict(doc), "inconclusive");
	CHECK_INT(json_integer_value(json_object_get(
			  json_object_get(series0(doc), "newest"), "window")),
		  2);
	json_decref(doc);
	return 0;
}

static int newest_drop_is_a_regression(void)
{
	json_t *doc = doc_of(40, 39, 0.8, 40, "higher");
	json_t *newest;

	CHECK_INT(run(doc), 0);
	newest = json_object_get(series0(doc), "newest");
	CHECK_STR(verdict(doc), "regression");
	CHECK(json_real_value(json_object_get(newest, "z")) < -4);
	CHECK_NEAR(json_real_value(json_object_get(newest, "change")), -0.2,
		   0.02);
	CHECK_INT(json_integer_value(json_object_get(newest, "window")), 20);
	json_decref(doc);
	return 0;
}

static int newest_rise_is_an_improvement(void)
{
	json_t *doc = doc_of(40, 39, 1.2, 40, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_STR(verdict(doc), "improvement");
	json_decref(doc);
	return 0;
}

static int newest_change_within_its_own_ci_is_within_noise(void)
{
	/* 8% off, far in z, but its own CI is +-5%: not beyond 2 x 5% */
	json_t *doc = doc_of(40, 39, 0.92, 40, "higher");
	json_t *last = last_point(doc);
	double m = json_real_value(json_object_get(last, "median"));

	json_object_set_new(last, "ci_low", json_real(m * 0.95));
	json_object_set_new(last, "ci_high", json_real(m * 1.05));
	CHECK_INT(run(doc), 0);
	CHECK_STR(verdict(doc), "within noise");
	json_decref(doc);
	return 0;
}

static int flagged(const char *flag, double cpu_median)
{
	json_t *doc = doc_of(40, 39, 0.7, 40, "higher");
	json_t *last = last_point(doc);

	json_array_append_new(json_object_get(last, "flags"),
			      json_string(flag));
	if (cpu_median > 0)
		json_object_set_new(last, "cpu_median", json_real(cpu_median));
	CHECK_INT(run(doc), 0);
	CHECK_STR(verdict(doc), "inconclusive");
	json_decref(doc);
	return 0;
}

static int starved_imprecise_or_noisy_newest_is_inconclusive(void)
{
	CHECK_INT(flagged("starved", 0), 0);
	CHECK_INT(flagged("imprecise", 0), 0);
	CHECK_INT(flagged("noisy", 0), 0);
	return 0;
}

static int starved_newest_judged_per_cpu_second(void)
{
	/* the wall figure fell by 30%, the CPU-second one by 20% */
	json_t *doc = doc_of(40, 39, 0.7, 40, "higher");
	json_t *pts = json_object_get(series0(doc), "points");

	for (size_t i = 0; i < 40; i++)
		json_object_set_new(
			json_array_get(pts, i), "cpu_median",
			json_real(i < 39 ? 200 * wobble(i, 0.01) : 160));
	json_array_append_new(json_object_get(last_point(doc), "flags"),
			      json_string("starved"));
	CHECK_INT(run(doc), 0);
	CHECK_STR(verdict(doc), "regression");
	CHECK_NEAR(json_real_value(json_object_get(
			   json_object_get(series0(doc), "newest"), "change")),
		   -0.2, 0.02);
	json_decref(doc);
	return 0;
}

/*
 * A series of 60 points whose wall figure falls by 30% over [20, 60), the
 * points there flagged starved; cpu_median 200 throughout (NAN: none).
 */
static json_t *starved_doc(double cpu)
{
	json_t *doc = doc_of(60, 20, 0.7, 60, "higher");
	json_t *pts = json_object_get(series0(doc), "points");

	for (size_t i = 0; i < 60; i++) {
		json_t *p = json_array_get(pts, i);

		if (!isnan(cpu))
			json_object_set_new(p, "cpu_median",
					    json_real(cpu * wobble(i, 0.01)));
		if (i >= 20)
			json_array_append_new(json_object_get(p, "flags"),
					      json_string("starved"));
	}
	return doc;
}

static int starved_stretch_flat_per_cpu_second_is_no_regression(void)
{
	json_t *doc = starved_doc(200);

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 0);
	CHECK_STR(verdict(doc), "within noise");
	json_decref(doc);
	return 0;
}

static int starved_step_without_cpu_figure_is_inconclusive(void)
{
	json_t *doc = starved_doc(NAN);

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 1);
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "kind")),
		  "inconclusive");
	CHECK_STR(verdict(doc), "inconclusive");
	json_decref(doc);
	return 0;
}

static int starved_series_step_per_cpu_second_is_found(void)
{
	/* the wall figure halves with the load; the CPU-second one drops 20% */
	json_t *doc = starved_doc(200);
	json_t *pts = json_object_get(series0(doc), "points");

	for (size_t i = 40; i < 60; i++)
		json_object_set_new(json_array_get(pts, i), "cpu_median",
				    json_real(160 * wobble(i, 0.01)));
	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 1);
	CHECK_INT(json_integer_value(json_object_get(change(doc, 0), "index")),
		  40);
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "kind")),
		  "regression");
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "figure")),
		  "cpu");
	json_decref(doc);
	return 0;
}

static int linear_drift_is_one_change_of_kind_drift(void)
{
	json_t *doc = doc_of(60, 60, 1, 60, "higher");
	json_t *pts = json_object_get(series0(doc), "points");

	for (size_t i = 0; i < 60; i++) {
		json_t *p = json_array_get(pts, i);
		double m = json_real_value(json_object_get(p, "median"));

		json_object_set_new(p, "median",
				    json_real(m * (1 - 0.3 * (double)i / 60)));
	}
	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 1);
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "kind")),
		  "drift");
	CHECK_STR(
		json_string_value(json_object_get(change(doc, 0), "direction")),
		"regression");
	CHECK_INT(json_integer_value(json_object_get(change(doc, 0), "end")),
		  60);
	json_decref(doc);
	return 0;
}

static int lower_is_better_flips_the_kind(void)
{
	json_t *doc = doc_of(60, 40, 1.15, 60, "lower");
	json_t *newest = doc_of(40, 39, 1.2, 40, "lower");

	CHECK_INT(run(doc), 0);
	CHECK_INT(run(newest), 0);
	CHECK_INT(nchanges(doc), 1);
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "kind")),
		  "regression");
	CHECK_STR(verdict(newest), "regression");
	json_decref(doc);
	json_decref(newest);
	return 0;
}

static int newest_after_a_step_is_judged_against_the_new_level(void)
{
	json_t *doc = doc_of(60, 40, 0.85, 60, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_STR(verdict(doc), "within noise");
	json_decref(doc);
	return 0;
}

static int empty_series_has_no_newest(void)
{
	json_t *doc = doc_of(0, 0, 1, 0, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 0);
	CHECK(json_is_null(json_object_get(series0(doc), "newest")));
	json_decref(doc);
	return 0;
}

static int one_point_series_is_inconclusive(void)
{
	json_t *doc = doc_of(1, 1, 1, 1, "higher");

	CHECK_INT(run(doc), 0);
	CHECK_INT(nchanges(doc), 0);
	CHECK_STR(verdict(doc), "inconclusive");
	CHECK(json_is_null(
		json_object_get(json_object_get(series0(doc), "newest"), "z")));
	json_decref(doc);
	return 0;
}

static int point_without_median_is_skipped_and_the_rest_judged(void)
{
	json_t *doc = doc_of(60, 40, 0.85, 60, "higher");
	json_t *pts = json_object_get(series0(doc), "points"), *skipped;

	json_object_set_new(json_array_get(pts, 10), "median", json_null());
	CHECK_INT(run(doc), 0);
	skipped = json_object_get(series0(doc), "skipped");
	CHECK_INT((int)json_array_size(skipped), 1);
	CHECK_INT(json_integer_value(
			  json_object_get(json_array_get(skipped, 0), "index")),
		  10);
	CHECK_STR(json_string_value(
			  json_object_get(json_array_get(skipped, 0), "run")),
		  "run-10");
	/* the step is still found, at its index among all points */
	CHECK_INT(nchanges(doc), 1);
	CHECK_INT(json_integer_value(json_object_get(change(doc, 0), "index")),
		  40);
	CHECK_STR(json_string_value(json_object_get(change(doc, 0), "run")),
		  "run-40");
	CHECK_STR(verdict(doc), "within noise");
	json_decref(doc);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"step_where_the_tool_changed_is_inconclusive", step_where_the_tool_changed_is_inconclusive},
	{"step_is_a_new_regression_at_its_run", step_is_a_new_regression_at_its_run},
	{"change_id_is_stable", change_id_is_stable},
	{"flat_series_has_no_change_and_newest_within_noise", flat_series_has_no_change_and_newest_within_noise},
	{"small_step_is_no_change", small_step_is_no_change},
	{"step_at_context_change_says_so", step_at_context_change_says_so},
	{"context_change_without_step_is_no_change", context_change_without_step_is_no_change},
	{"newest_judged_within_its_context_only", newest_judged_within_its_context_only},
	{"newest_drop_is_a_regression", newest_drop_is_a_regression},
	{"newest_rise_is_an_improvement", newest_rise_is_an_improvement},
	{"newest_change_within_its_own_ci_is_within_noise", newest_change_within_its_own_ci_is_within_noise},
	{"starved_imprecise_or_noisy_newest_is_inconclusive", starved_imprecise_or_noisy_newest_is_inconclusive},
	{"starved_newest_judged_per_cpu_second", starved_newest_judged_per_cpu_second},
	{"starved_stretch_flat_per_cpu_second_is_no_regression", starved_stretch_flat_per_cpu_second_is_no_regression},
	{"starved_step_without_cpu_figure_is_inconclusive", starved_step_without_cpu_figure_is_inconclusive},
	{"starved_series_step_per_cpu_second_is_found", starved_series_step_per_cpu_second_is_found},
	{"linear_drift_is_one_change_of_kind_drift", linear_drift_is_one_change_of_kind_drift},
	{"lower_is_better_flips_the_kind", lower_is_better_flips_the_kind},
	{"newest_after_a_step_is_judged_against_the_new_level", newest_after_a_step_is_judged_against_the_new_level},
	{"empty_series_has_no_newest", empty_series_has_no_newest},
	{"one_point_series_is_inconclusive", one_point_series_is_inconclusive},
	{"point_without_median_is_skipped_and_the_rest_judged", point_without_median_is_skipped_and_the_rest_judged},
};
/* clang-format on */

TEST_MAIN(tests)
