/* SPDX-License-Identifier: Apache-2.0 */
/* The command line of compare and merge: arguments and their options. */
#include <errno.h>

#include "check.h"
#include "app/cli.h"
#include "compare/compare_by.h"

/* Parse a NULL-terminated argv; returns cli_parse()'s code. */
static int parse(struct cli *cli, char *err, const char **words)
{
	int argc = 0;

	while (words[argc])
		argc++;
	return cli_parse(argc, (char **)words, cli, err, 256);
}

static int compare_takes_threshold_in_percent(void)
{
	const char *argv[] = { "hostbench",
			       "compare",
			       "a.json",
			       "b.json",
			       "--threshold",
			       "2.5%",
			       "--fail-on-regression",
			       NULL };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, argv), 0);
	CHECK_STR(cli.command, "compare");
	CHECK_INT(cli.args.n, 2);
	CHECK_NEAR(cli.threshold, 0.025, 1e-12);
	CHECK_INT(cli.fail_on_regression, 1);
	cli_free(&cli);
	return 0;
}

static int compare_without_threshold_leaves_default(void)
{
	const char *argv[] = { "hostbench", "compare", "a.json", "b.json",
			       "--format",  "html",    NULL };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, argv), 0);
	CHECK(cli.threshold < 0);
	CHECK_INT(cli.format, REPORT_HTML);
	cli_free(&cli);
	return 0;
}

static int compare_needs_two_reports(void)
{
	const char *argv[] = { "hostbench", "compare", "a.json", NULL };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, argv), -EINVAL);
	CHECK_CONTAINS(err, "compare needs two reports");
	cli_free(&cli);
	return 0;
}

static int threshold_must_be_a_percentage(void)
{
	const char *argv[] = { "hostbench",   "compare", "a", "b",
			       "--threshold", "five",	 NULL };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, argv), -EINVAL);
	CHECK_CONTAINS(err, "--threshold five");
	cli_free(&cli);
	return 0;
}

static int compare_options_only_go_with_compare(void)
{
	const char *argv[] = { "hostbench", "merge", "a.json",
			       "--fail-on-regression", NULL };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, argv), -EINVAL);
	CHECK_CONTAINS(err, "--fail-on-regression only goes with compare");
	cli_free(&cli);
	return 0;
}

static int a_second_format_is_refused(void)
{
	const char *argv[] = { "hostbench", "compare", "a.json",       "b.json",
			       "-f",	    "json",    "--format=csv", NULL };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, argv), -EINVAL);
	CHECK_CONTAINS(err, "--format given twice (json, then csv)");
	cli_free(&cli);
	return 0;
}

static int compare_takes_the_figure_to_judge(void)
{
	const char *cpu[] = { "hostbench", "compare",	   "a.json",
			      "b.json",	   "--figure=cpu", NULL };
	const char *merge[] = { "hostbench", "merge", "a.json",
				"--figure",  "cpu",   NULL };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, cpu), 0);
	CHECK_INT(cli.figure, RESULT_FIGURE_CPU);
	cli_free(&cli);
	CHECK_INT(parse(&cli, err, merge), -EINVAL);
	CHECK_CONTAINS(err, "--figure only goes with report and compare");
	cli_free(&cli);
	return 0;
}

static int compare_by_takes_one_report(void)
{
	const char *argv[] = { "hostbench",
			       "compare",
			       "r.json",
			       "--by",
			       "backend=openssl,gcrypt",
			       NULL };
	struct compare_by_arg by = { 0 };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, argv), 0);
	CHECK_INT(compare_by_parse(cli.by, &by, err, sizeof(err)), 0);
	CHECK_STR(by.by.key, "backend");
	CHECK_STR(by.by.base, "openssl");
	CHECK_STR(by.by.new, "gcrypt");
	compare_by_free(&by);
	cli_free(&cli);
	return 0;
}

static int compare_by_needs_two_values(void)
{
	const char *argv[] = { "hostbench", "compare", "r.json",
			       "--by=backend=openssl", NULL };
	struct cli cli;
	char err[256];

	CHECK_INT(parse(&cli, err, argv), -EINVAL);
	CHECK_CONTAINS(err, "--by backend=openssl: expected KEY=A,B");
	cli_free(&cli);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"a_second_format_is_refused", a_second_format_is_refused},
	{"compare_takes_the_figure_to_judge", compare_takes_the_figure_to_judge},
	{"compare_takes_threshold_in_percent", compare_takes_threshold_in_percent},
	{"compare_without_threshold_leaves_default", compare_without_threshold_leaves_default},
	{"compare_needs_two_reports", compare_needs_two_reports},
	{"threshold_must_be_a_percentage", threshold_must_be_a_percentage},
	{"compare_options_only_go_with_compare", compare_options_only_go_with_compare},
	{"compare_by_takes_one_report", compare_by_takes_one_report},
	{"compare_by_needs_two_values", compare_by_needs_two_values},
};
/* clang-format on */

TEST_MAIN(tests)
