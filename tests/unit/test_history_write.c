/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history views: each format lists the series with their latest figure
 * and trend, and escapes the document's strings for itself.
 */
#include "history_fixture.h"

#include <math.h>
#include <string.h>

#include "check.h"
#include "history/history_write.h"
#include "history/view.h"
#include "text_fixture.h"

/* What history_write() is given. */
struct written_as {
	const json_t *doc;
	enum report_format fmt;
};

static int write_as(FILE *out, const void *arg)
{
	const struct written_as *w = arg;
	char err[256] = "";
	int rc = history_write(w->doc, w->fmt, out, err, sizeof(err));

	if (rc)
		fprintf(stderr, "history_write: %s\n", err);
	return rc;
}

/* doc written in fmt, as a string (the caller's to free); *rc its code. */
static char *written(const json_t *doc, enum report_format fmt, int *rc)
{
	return text_written(write_as, &(struct written_as){ doc, fmt }, rc);
}

static int html_escapes_hostile_names(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *html = written(doc, REPORT_HTML, &rc);

	CHECK_INT(rc, 0);
	CHECK(!strstr(html, "<script"));
	CHECK(!strstr(html, "<b>"));
	CHECK_CONTAINS(html, "&lt;script&gt;alert(1)&lt;/script&gt;");
	CHECK_CONTAINS(html, "x&#39;); DROP TABLE result;--");
	free(html);
	json_decref(doc);
	return 0;
}

static int html_draws_a_trend_chart_per_series(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *html = written(doc, REPORT_HTML, &rc);

	CHECK_INT(rc, 0);
	CHECK_INT(text_count(html, "class=\"chart trend-chart\""), 3);
	CHECK_CONTAINS(html, "<tr class=\"verdict-regressed\">");
	free(html);
	json_decref(doc);
	return 0;
}

static int md_makes_no_link_nor_markup_of_names(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *md = written(doc, REPORT_MD, &rc);

	CHECK_INT(rc, 0);
	/* every "](" escaped: no link can form */
	CHECK_INT(text_count(md, "](javascript"),
		  text_count(md, "\\](javascript"));
	CHECK_CONTAINS(md, "[x\\](javascript:alert(1))");
	CHECK(!strstr(md, "<script"));
	CHECK_CONTAINS(md, "&lt;script&gt;");
	CHECK_CONTAINS(md, "`sqlite:/tmp/<b>results</b>.db`");
	free(md);
	json_decref(doc);
	return 0;
}

static int csv_quotes_commas_and_defuses_formulas(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *csv = written(doc, REPORT_CSV, &rc);

	CHECK_INT(rc, 0);
	CHECK_CONTAINS(csv, ",\"'=HYPERLINK(\"\"http://e\"\")\",\"a,b\",");
	CHECK(!strstr(csv, ",=HYPERLINK"));
	CHECK_CONTAINS(csv, ",x'); DROP TABLE result;--,");
	free(csv);
	json_decref(doc);
	return 0;
}

static int csv_has_a_row_per_point(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *csv = written(doc, REPORT_CSV, &rc);

	CHECK_INT(rc, 0);
	CHECK_INT(text_count(csv, "\n"), 1 + 8 + 4 + 3);
	CHECK_CONTAINS(csv, ",450000000,445500000,454500000,5,0.007,");
	CHECK_CONTAINS(csv, ",ch-1,regression,new,");
	free(csv);
	json_decref(doc);
	return 0;
}

static int text_lists_latest_and_trend_of_each_series(void)
{
	json_t *doc = history_fixture();
	int rc;
	char *text = written(doc, REPORT_TEXT, &rc);

	CHECK_INT(rc, 0);
	/* 3.6e8 B/s is 2.88Gbps, against 4.005e8 B/s (3.20Gbps) before it */
	CHECK_CONTAINS(text, "2.88Gbps");
	CHECK_CONTAINS(text, "3.20Gbps");
	CHECK_CONTAINS(text, "-10.1%");
	CHECK_CONTAINS(text, "regression");
	CHECK_CONTAINS(text, "2400000.0 ops/s");
	CHECK_CONTAINS(text, "-- [copy (libc) on x'); DROP TABLE result;--]");
	free(text);
	json_decref(doc);
	return 0;
}

static int json_is_the_document(void)
{
	json_t *doc = history_fixture(), *back;
	int rc;
	char *text = written(doc, REPORT_JSON, &rc);

	CHECK_INT(rc, 0);
	back = json_loads(text, 0, NULL);
	CHECK(back && json_equal(back, doc));
	json_decref(back);
	free(text);
	json_decref(doc);
	return 0;
}

static int trend_compares_within_the_latest_context(void)
{
	json_t *doc = history_fixture();
	struct view_trend t;

	CHECK_INT(view_trend(history_fixture_series(doc, 1), &t), 0);
	CHECK_INT(t.nbase, 2); /* c-2's points before the latest */
	CHECK_NEAR(t.base, 4.005e8, 1);
	CHECK_NEAR(t.change, 3.6e8 / 4.005e8 - 1, 1e-9);
	CHECK_STR(t.verdict, "regression");
	json_decref(doc);
	return 0;
}

static int trend_of_one_point_has_no_change(void)
{
	json_t *s = json_pack("{s:[{s:f,s:s}]}", "points", "median", 1.0,
			      "context", "c");
	struct view_trend t;
	char buf[32];

	CHECK_INT(view_trend(s, &t), 0);
	CHECK(isnan(t.change));
	view_change(&t, buf, sizeof(buf));
	CHECK_STR(buf, "-");
	json_decref(s);
	return 0;
}

/* A series of an imported figure: its unit and name as given. */
static json_t *imported(const char *figure, const char *unit)
{
	return json_pack("{s:s, s:s, s:{s:s, s:s}}", "figure", figure, "unit",
			 unit, "case", "title", "seqread read", "backend",
			 "fio");
}

static int imported_figures_are_shown_in_their_own_units(void)
{
	static const struct {
		const char *figure, *unit;
		double v;
		const char *shown;
	} cases[] = {
		/* designated: a test table's rows start with a quote */
		{ .figure = "clat_p99", .unit = "ns", 57270.0, "57.27us" },
		{ .figure = "time", .unit = "s", 0.0133, "13.3ms" },
		{ .figure = "cpu_host", .unit = "%", 54.96, "54.96%" },
		{ .figure = "retransmits", .unit = "count", 10, "10" },
		{ .figure = "memory", .unit = "bytes", 52428800, "52.43MB" },
		{ .figure = "iops", .unit = "ops/s", 15030.3, "15030.3 ops/s" },
		{ .figure = "bw",
		  .unit = "MiB/s",
		  1048576 * 100.0,
		  "100.00MiB/s" },
	};
	char buf[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		json_t *s = imported(cases[i].figure, cases[i].unit);

		view_figure(s, cases[i].v, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].shown);
		json_decref(s);
	}
	return 0;
}

static int imported_figure_is_named_in_its_label(void)
{
	json_t *s = imported("clat_p99", "ns");
	char buf[VIEW_LINE];

	view_label(s, buf, sizeof(buf));
	CHECK_STR(buf, "seqread read (fio) clat_p99");
	json_decref(s);
	return 0;
}

static const struct test tests[] = {
	{ "imported_figures_are_shown_in_their_own_units",
	  imported_figures_are_shown_in_their_own_units },
	{ "imported_figure_is_named_in_its_label",
	  imported_figure_is_named_in_its_label },
	{ "html_escapes_hostile_names", html_escapes_hostile_names },
	{ "html_draws_a_trend_chart_per_series",
	  html_draws_a_trend_chart_per_series },
	{ "md_makes_no_link_nor_markup_of_names",
	  md_makes_no_link_nor_markup_of_names },
	{ "csv_quotes_commas_and_defuses_formulas",
	  csv_quotes_commas_and_defuses_formulas },
	{ "csv_has_a_row_per_point", csv_has_a_row_per_point },
	{ "text_lists_latest_and_trend_of_each_series",
	  text_lists_latest_and_trend_of_each_series },
	{ "json_is_the_document", json_is_the_document },
	{ "trend_compares_within_the_latest_context",
	  trend_compares_within_the_latest_context },
	{ "trend_of_one_point_has_no_change",
	  trend_of_one_point_has_no_change },
};

TEST_MAIN(tests)
