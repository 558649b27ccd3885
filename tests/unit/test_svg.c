/* SPDX-License-Identifier: Apache-2.0 */
/* The SVG chart writer: axis ticks, labels, escaping and chart elements. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "render/svg.h"

static int ticks_are_nice_steps_from_zero(void)
{
	double t[16];
	size_t n = svg_ticks(37, 5, t, 16);

	CHECK_INT(n, 5);
	CHECK_NEAR(t[1], 10, 1e-12);
	CHECK_NEAR(t[4], 40, 1e-12);
	n = svg_ticks(0.8, 4, t, 16);
	CHECK_NEAR(t[1], 0.2, 1e-12);
	CHECK_NEAR(t[n - 1], 0.8, 1e-12);
	return 0;
}

static int ticks_of_nothing_are_zero_and_one(void)
{
	double t[16];

	CHECK_INT(svg_ticks(0, 5, t, 16), 2);
	CHECK_NEAR(t[1], 1, 1e-12);
	return 0;
}

static int sizes_label_in_powers_of_1024(void)
{
	char buf[32];

	svg_format_x(65536, SVG_X_BYTES, buf, sizeof(buf));
	CHECK_STR(buf, "64K");
	svg_format_x(16777216, SVG_X_BYTES, buf, sizeof(buf));
	CHECK_STR(buf, "16M");
	svg_format_x(16, SVG_X_PLAIN, buf, sizeof(buf));
	CHECK_STR(buf, "16");
	return 0;
}

/* What a chart writer wrote, as a string. */
static char *capture_line(const struct svg_line_chart *c, int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	*rc = svg_line_chart(f, c);
	fclose(f);
	return text;
}

static int line_chart_has_series_ideal_and_escaped_names(void)
{
	const double x[] = { 1, 2, 4 }, y[] = { 10, 19, 30 },
		     ideal[] = { 10, 20, 40 };
	const struct svg_series s[] = {
		{ .name = "openssl <fast>", .x = x, .y = y, .n = 3 },
		{ .name = "ideal scaling",
		  .x = x,
		  .y = ideal,
		  .n = 3,
		  .dashed = 1 },
	};
	int rc;
	char *text = capture_line(&(struct svg_line_chart){ .title = "t",
							    .xlabel = "workers",
							    .ylabel = "Gbps",
							    .kind = "parallel",
							    .series = s,
							    .nseries = 2 },
				  &rc);

	CHECK_INT(rc, 0);
	CHECK_CONTAINS(text, "data-kind=\"parallel\"");
	CHECK_CONTAINS(text, "class=\"series\" data-series=\"openssl "
			     "&lt;fast&gt;\"");
	CHECK_CONTAINS(text, "class=\"ideal\"");
	CHECK_CONTAINS(text, "stroke-dasharray");
	free(text);
	return 0;
}

/* How many times needle occurs in text. */
static int occurrences(const char *text, const char *needle)
{
	int n = 0;

	for (const char *at = strstr(text, needle); at;
	     at = strstr(at + 1, needle))
		n++;
	return n;
}

static int axis_labels_use_si_prefixes(void)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = { { 0, "0" },      { 750, "750" },	    { 1500, "1.5k" },
		      { 2e6, "2M" },   { 12.5e9, "12.5G" }, { 400e12, "400T" },
		      { 0.25, "0.25" } };
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		svg_format_si(cases[i].v, buf, sizeof(buf));
		CHECK_STR(buf, cases[i].want);
	}
	return 0;
}

static int line_chart_points_carry_error_bars_and_si_axis(void)
{
	const double x[] = { 16, 1024 }, y[] = { 2e6, 4e6 };
	const double lo[] = { 1.9e6, 3e6 }, hi[] = { 2.1e6, 5e6 };
	const struct svg_series s[] = {
		{ .name = "openssl",
		  .x = x,
		  .y = y,
		  .lo = lo,
		  .hi = hi,
		  .n = 2 },
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK_INT(svg_line_chart(f, &(struct svg_line_chart){ .title = "t",
							      .xlabel = "size",
							      .ylabel = "kB/s",
							      .kind = "size",
							      .series = s,
							      .nseries = 1 }),
		  0);
	fclose(f);
	CHECK_INT(occurrences(text, "class=\"error-bar\""), 2);
	CHECK_CONTAINS(text, ">5M</text>");
	CHECK(!strstr(text, "e+"));
	CHECK_CONTAINS(text, "width=\"640\"");
	free(text);
	return 0;
}

static int value_chart_draws_bars_with_intervals(void)
{
	const struct svg_value_bar bars[] = {
		{ .label = "AES256/GCM (openssl)",
		  .value = 30,
		  .lo = 29,
		  .hi = 31 },
		{ .label = "AES256/CBC <x>", .value = 6, .lo = 6, .hi = 6 },
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK_INT(
		svg_value_chart(f, &(struct svg_value_chart){ .title = "lines",
							      .xlabel = "Gbps",
							      .bars = bars,
							      .nbars = 2 }),
		0);
	fclose(f);
	CHECK_CONTAINS(text, "class=\"chart value-chart\"");
	CHECK_CONTAINS(text, "data-case=\"AES256/GCM (openssl)\" "
			     "data-value=\"30\" data-lo=\"29\" data-hi=\"31\"");
	CHECK_CONTAINS(text, "AES256/CBC &lt;x&gt;");
	/* one interval to draw: one error bar */
	CHECK_INT(occurrences(text, "class=\"error-bar\""), 1);
	free(text);
	CHECK_INT(svg_value_chart(stdout, &(struct svg_value_chart){ 0 }),
		  -EINVAL);
	return 0;
}

/* Long legend names wrap at spaces: their ends stay readable. */
static int long_legend_names_wrap_and_keep_their_end(void)
{
	const double x[] = { 1, 2 }, y[] = { 1, 2 };
	const struct svg_series s[] = {
		{ .name = "AES256/CBC ipsec-mb, queue_depth 1",
		  .x = x,
		  .y = y,
		  .n = 2 },
		{ .name = "AES256/CBC ipsec-mb, queue_depth 16",
		  .x = x,
		  .y = y,
		  .n = 2,
		  .color = 1 },
	};
	const struct svg_line_chart c = { .title = "t",
					  .xlabel = "x",
					  .ylabel = "y",
					  .kind = "size",
					  .series = s,
					  .nseries = 2 };
	int rc;
	char *text = capture_line(&c, &rc);

	CHECK_INT(rc, 0);
	CHECK_CONTAINS(text, ">AES256/CBC ipsec-mb,</tspan>");
	CHECK_CONTAINS(text, ">queue_depth 1</tspan>");
	CHECK_CONTAINS(text, ">queue_depth 16</tspan>");
	free(text);
	return 0;
}

static int line_chart_without_points_is_refused(void)
{
	int rc;
	char *text = capture_line(
		&(struct svg_line_chart){ .title = "t", .kind = "size" }, &rc);

	CHECK_INT(rc < 0, 1);
	free(text);
	return 0;
}

static int bar_chart_draws_noise_band_and_verdicts(void)
{
	const struct svg_bar bars[] = {
		{ .label = "AES", .value = -50, .verdict = "regressed" },
		{ .label = "CTR", .value = 1, .verdict = "same" },
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	CHECK_INT(svg_bar_chart(f, &(struct svg_bar_chart){ .title = "c",
							    .band = 5,
							    .bars = bars,
							    .nbars = 2 }),
		  0);
	fclose(f);
	CHECK_CONTAINS(text, "class=\"noise-band\"");
	CHECK_CONTAINS(text, "class=\"bar regressed\" data-case=\"AES\" "
			     "data-value=\"-50.00\"");
	CHECK_CONTAINS(text, "class=\"bar same\" data-case=\"CTR\"");
	free(text);
	return 0;
}

/* Nanoseconds as the test reads them back: "2500ns". */
static void plain_ns(double ns, char *buf, size_t len)
{
	snprintf(buf, len, "%gns", ns);
}

/* What the latency chart writer wrote for rows, as a string. */
static char *capture_latency(const struct svg_latency_row *rows, size_t n,
			     int *rc)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	*rc = svg_latency_chart(
		f, &(struct svg_latency_chart){ .title = "AES <GCM> & 'x'",
						.rows = rows,
						.nrows = n,
						.format = plain_ns });
	fclose(f);
	return text;
}

static int latency_chart_has_every_percentile_of_every_row(void)
{
	const struct svg_latency_row rows[] = {
		{ "ipsec-mb, queue_depth 1",
		  { 2500, 3000, 9000, 20000, 41000 } },
		{ "ipsec-mb, queue_depth 16",
		  { 30000, 32000, 50000, 90000, 120000 } },
	};
	int rc;
	char *text = capture_latency(rows, 2, &rc);

	CHECK_INT(rc, 0);
	CHECK_CONTAINS(text, "class=\"chart latency-chart\"");
	CHECK_CONTAINS(
		text, "data-case=\"ipsec-mb, queue_depth 1\" data-p50=\"2500\" "
		      "data-p90=\"3000\" data-p99=\"9000\" "
		      "data-p999=\"20000\" data-max=\"41000\"");
	CHECK_CONTAINS(text, "data-case=\"ipsec-mb, queue_depth 16\"");
	CHECK_CONTAINS(text, "<title>p99.9 90000ns</title>");
	CHECK_CONTAINS(text, "p50 30000ns, p90 32000ns, p99 50000ns, p99.9 "
			     "90000ns, max 120000ns");
	/* The axis: decades from 1000 ns to 1000000 ns, no 2x and 5x. */
	CHECK_CONTAINS(text, "class=\"tick\">1000ns<");
	CHECK_CONTAINS(text, "class=\"tick\">1e+06ns<");
	CHECK(strstr(text, "class=\"tick\">2000ns<") == NULL);
	CHECK_CONTAINS(text, "AES &lt;GCM&gt; &amp; &#39;x&#39;");
	free(text);
	return 0;
}

/* The x of the nth (from 0) mark of class cls in text; -1 when absent. */
static double mark_x(const char *text, const char *cls, int nth)
{
	char key[64];
	const char *at = text;

	snprintf(key, sizeof(key), "class=\"mark %s\" cx=\"", cls);
	for (int i = 0; at && i <= nth; i++) {
		at = strstr(at, key);
		if (at)
			at += strlen(key);
	}
	return at ? strtod(at, NULL) : -1;
}

static int latency_axis_is_log_scale_in_time(void)
{
	const struct svg_latency_row rows[] = {
		{ "fast, queue_depth 1", { 10, 20, 30, 40, 100 } },
		{ "slow, queue_depth 8", { 1000, 2000, 3000, 4000, 10000 } },
	};
	int rc;
	char *text = capture_latency(rows, 2, &rc);
	double xa = mark_x(text, "p50", 0), xb = mark_x(text, "p50", 1);
	double xm = mark_x(text, "max", 1);

	CHECK_INT(rc, 0);
	/* 10 ns to 1000 ns is twice the way from 1000 ns to 10000 ns. */
	CHECK(xa > 0 && xb > xa && xm > xb);
	CHECK_NEAR((xb - xa) / (xm - xb), 2.0, 0.01);
	free(text);
	return 0;
}

static int latency_names_are_escaped(void)
{
	const struct svg_latency_row rows[] = {
		{ "<script>alert(1)</script>, queue_depth 4",
		  { 100, 200, 300, 400, 500 } },
	};
	int rc;
	char *text = capture_latency(rows, 1, &rc);

	CHECK_INT(rc, 0);
	CHECK(strstr(text, "<script>") == NULL);
	CHECK_CONTAINS(text, "data-case=\"&lt;script&gt;alert(1)&lt;/"
			     "script&gt;, queue_depth 4\"");
	free(text);
	return 0;
}

static int latency_chart_without_rows_is_refused(void)
{
	int rc;
	char *text = capture_latency(NULL, 0, &rc);

	CHECK_INT(rc, -EINVAL);
	CHECK_STR(text, "");
	free(text);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"ticks_are_nice_steps_from_zero", ticks_are_nice_steps_from_zero},
	{"ticks_of_nothing_are_zero_and_one", ticks_of_nothing_are_zero_and_one},
	{"sizes_label_in_powers_of_1024", sizes_label_in_powers_of_1024},
	{"axis_labels_use_si_prefixes", axis_labels_use_si_prefixes},
	{"line_chart_points_carry_error_bars_and_si_axis", line_chart_points_carry_error_bars_and_si_axis},
	{"value_chart_draws_bars_with_intervals", value_chart_draws_bars_with_intervals},
	{"line_chart_has_series_ideal_and_escaped_names", line_chart_has_series_ideal_and_escaped_names},
	{"long_legend_names_wrap_and_keep_their_end", long_legend_names_wrap_and_keep_their_end},
	{"line_chart_without_points_is_refused", line_chart_without_points_is_refused},
	{"bar_chart_draws_noise_band_and_verdicts", bar_chart_draws_noise_band_and_verdicts},
	{"latency_chart_has_every_percentile_of_every_row", latency_chart_has_every_percentile_of_every_row},
	{"latency_axis_is_log_scale_in_time", latency_axis_is_log_scale_in_time},
	{"latency_names_are_escaped", latency_names_are_escaped},
	{"latency_chart_without_rows_is_refused", latency_chart_without_rows_is_refused},
};
/* clang-format on */

TEST_MAIN(tests)
