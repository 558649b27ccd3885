/* SPDX-License-Identifier: Apache-2.0 */
/* Command-line parsing. */
#include <errno.h>

#include "check.h"

#include "app/cli.h"

static int parse(struct cli *cli, char *err, int argc, char **argv)
{
	return cli_parse(argc, argv, cli, err, 256);
}

static int cli_defaults_to_run_of_default_suite(void)
{
	char *argv[] = { "hostbench" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 1, argv), 0);
	CHECK_STR(cli.command, "run");
	CHECK_INT(cli.args.n, 0);
	CHECK_INT(cli.format, REPORT_TEXT);
	cli_free(&cli);
	return 0;
}

static int cli_collects_suites_sets_and_options_anywhere(void)
{
	char *argv[] = { "hostbench",	"run",		"a.ini", "--set",
			 "size=1M",	"-f",		"json",	 "b.ini",
			 "--set=x.k=v", "--plugin-dir", "/p",	 "-o",
			 "out.json" };
	char err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 13, argv), 0);
	CHECK_INT(cli.args.n, 2);
	CHECK_STR(cli.args.items[1], "b.ini");
	CHECK_INT(cli.sets.n, 2);
	CHECK_STR(cli.sets.items[1], "x.k=v");
	CHECK_INT(cli.format, REPORT_JSON);
	CHECK_STR(cli.plugin_dirs.items[0], "/p");
	CHECK_STR(cli.output, "out.json");
	cli_free(&cli);
	return 0;
}

static int cli_rejects_unknown_option(void)
{
	char *argv[] = { "hostbench", "list", "--frob" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 3, argv), -EINVAL);
	CHECK_CONTAINS(err, "--frob");
	cli_free(&cli);
	return 0;
}

static int cli_rejects_unknown_command(void)
{
	char *argv[] = { "hostbench", "bench" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 2, argv), -EINVAL);
	CHECK_CONTAINS(err, "unknown command \"bench\"");
	cli_free(&cli);
	return 0;
}

static int cli_unknown_command_names_every_command(void)
{
	char *argv[] = { "hostbench", "nosuch" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 2, argv), -EINVAL);
	CHECK_STR(err, "unknown command \"nosuch\" (try run, list, presets, "
		       "describe, sysinfo, report, compare, merge, check, "
		       "store, history, regressions, dashboard, export, "
		       "serve)");
	cli_free(&cli);
	return 0;
}

static int cli_takes_serve_arguments_unparsed(void)
{
	char *argv[] = { "hostbench", "serve", "--listen", "0:0", "--help" },
	     err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 5, argv), 0);
	CHECK_STR(cli.command, "serve");
	CHECK_INT(cli.args.n, 3);
	CHECK_STR(cli.args.items[0], "--listen");
	CHECK_STR(cli.args.items[2], "--help");
	CHECK_INT(cli.help, 0);
	cli_free(&cli);
	return 0;
}

static int cli_rejects_serve_after_an_option(void)
{
	char *argv[] = { "hostbench", "-f", "json", "serve" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 4, argv), -EINVAL);
	CHECK_CONTAINS(err, "unknown command \"serve\"");
	cli_free(&cli);
	return 0;
}

static int cli_rejects_set_without_equals(void)
{
	char *argv[] = { "hostbench", "--set", "size" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 3, argv), -EINVAL);
	CHECK_CONTAINS(err, "[SECTION.]KEY=VALUE");
	cli_free(&cli);
	return 0;
}

/* An unquoted "--set file_size=1 GB": the shell made GB a word. */
static int cli_hints_to_quote_a_set_value_split_at_a_blank(void)
{
	char *argv[] = { "hostbench", "run",	     "a.ini",
			 "--set",     "file_size=1", "GB" },
	     err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 6, argv), -EINVAL);
	CHECK_CONTAINS(err, "quote it (--set 'file_size=1 GB')");
	CHECK_CONTAINS(err, "(file_size=1GB)");
	cli_free(&cli);
	return 0;
}

static int cli_rejects_missing_option_value(void)
{
	char *argv[] = { "hostbench", "run", "-o" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 3, argv), -EINVAL);
	CHECK_CONTAINS(err, "--output needs a value");
	cli_free(&cli);
	return 0;
}

static int cli_describe_needs_one_target(void)
{
	char *argv[] = { "hostbench", "describe" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 2, argv), -EINVAL);
	CHECK_CONTAINS(err, "describe needs one TARGET");
	cli_free(&cli);
	return 0;
}

static int cli_extended_excludes_suite_files(void)
{
	char *argv[] = { "hostbench", "run", "--extended", "a.ini" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 4, argv), -EINVAL);
	CHECK_CONTAINS(err, "--extended");
	cli_free(&cli);
	return 0;
}

static int cli_refuses_ack_with_ignore(void)
{
	char *argv[] = { "hostbench", "regressions", "--ack",
			 "x",	      "--ignore",    "x" };
	char err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 6, argv), -EINVAL);
	CHECK_CONTAINS(err, "one decision at a time");
	cli_free(&cli);
	return 0;
}

static int cli_reads_the_change_point_options(void)
{
	char *argv[] = { "hostbench", "regressions", "--method",     "binseg",
			 "--penalty", "8",	     "--min-change", "10%" },
	     err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 8, argv), 0);
	CHECK_INT(cli.method, CHANGEPOINT_BINSEG);
	CHECK_NEAR(cli.penalty, 8, 0);
	CHECK_NEAR(cli.min_change, 0.10, 1e-12);
	cli_free(&cli);
	return 0;
}

static int cli_refuses_a_second_ack(void)
{
	char *argv[] = {
		"hostbench", "regressions", "--ack", "a", "--ack", "b"
	};
	char err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 6, argv), -EINVAL);
	CHECK_CONTAINS(err, "--ack given twice");
	cli_free(&cli);
	return 0;
}

static int cli_rejects_an_unknown_method(void)
{
	char *argv[] = { "hostbench", "regressions", "--method", "cusum" },
	     err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 4, argv), -EINVAL);
	CHECK_CONTAINS(err, "--method cusum: expected pelt or binseg");
	cli_free(&cli);
	return 0;
}

static int cli_rejects_a_zero_min_change(void)
{
	char *argv[] = { "hostbench", "regressions", "--min-change", "0" },
	     err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 4, argv), -EINVAL);
	CHECK_CONTAINS(err, "--min-change 0: expected more than 0");
	cli_free(&cli);
	return 0;
}

static int cli_rejects_change_point_options_outside_regressions(void)
{
	char *argv[] = { "hostbench", "history", "--penalty", "3" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 4, argv), -EINVAL);
	CHECK_STR(err, "--penalty only goes with regressions and dashboard");
	cli_free(&cli);
	return 0;
}

static int cli_refuses_another_commands_option_naming_its_commands(void)
{
	char *argv[] = { "hostbench", "merge", "a.json", "--threshold", "5" },
	     err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 5, argv), -EINVAL);
	CHECK_STR(err, "--threshold only goes with compare");
	cli_free(&cli);
	return 0;
}

static int cli_names_every_command_of_a_shared_option(void)
{
	char *argv[] = { "hostbench", "list", "--rank", "1" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 4, argv), -EINVAL);
	CHECK_STR(err, "--rank only goes with report, compare and merge");
	cli_free(&cli);
	return 0;
}

static int cli_suggests_the_nearest_option_of_a_typo(void)
{
	char *argv[] = { "hostbench", "compare", "a", "b", "--tresh", "5" },
	     err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 6, argv), -EINVAL);
	CHECK_STR(err, "unknown option --tresh (try --threshold)");
	cli_free(&cli);
	return 0;
}

static int cli_suggests_only_an_option_of_the_command(void)
{
	char *argv[] = { "hostbench", "list", "--tresh", "5" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 4, argv), -EINVAL);
	CHECK_STR(err, "unknown option --tresh");
	cli_free(&cli);
	return 0;
}

static int cli_finds_the_command_after_an_option_value(void)
{
	char
		*argv[] = { "hostbench", "-f",	 "json",
			    "--store",	 "list", "history" },
		err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 6, argv), 0);
	CHECK_STR(cli.command, "history");
	CHECK_STR(cli.store, "list");
	CHECK_INT(cli.format, REPORT_JSON);
	CHECK_INT(cli.args.n, 0);
	cli_free(&cli);
	return 0;
}

static int cli_takes_help_with_the_command_it_names(void)
{
	char *argv[] = { "hostbench", "compare", "--help" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 3, argv), 0);
	CHECK_INT(cli.help, 1);
	CHECK_STR(cli.command, "compare");
	cli_free(&cli);
	return 0;
}

static int cli_refuses_a_value_to_a_flag(void)
{
	char *argv[] = { "hostbench", "run", "--no-store=1" }, err[256];
	struct cli cli;

	CHECK_INT(parse(&cli, err, 3, argv), -EINVAL);
	CHECK_STR(err, "option --no-store takes no value");
	cli_free(&cli);
	return 0;
}

static const struct test tests[] = {
	{ "cli_refuses_another_commands_option_naming_its_commands",
	  cli_refuses_another_commands_option_naming_its_commands },
	{ "cli_names_every_command_of_a_shared_option",
	  cli_names_every_command_of_a_shared_option },
	{ "cli_suggests_the_nearest_option_of_a_typo",
	  cli_suggests_the_nearest_option_of_a_typo },
	{ "cli_suggests_only_an_option_of_the_command",
	  cli_suggests_only_an_option_of_the_command },
	{ "cli_finds_the_command_after_an_option_value",
	  cli_finds_the_command_after_an_option_value },
	{ "cli_takes_help_with_the_command_it_names",
	  cli_takes_help_with_the_command_it_names },
	{ "cli_refuses_a_value_to_a_flag", cli_refuses_a_value_to_a_flag },
	{ "cli_reads_the_change_point_options",
	  cli_reads_the_change_point_options },
	{ "cli_rejects_an_unknown_method", cli_rejects_an_unknown_method },
	{ "cli_rejects_a_zero_min_change", cli_rejects_a_zero_min_change },
	{ "cli_rejects_change_point_options_outside_regressions",
	  cli_rejects_change_point_options_outside_regressions },
	{ "cli_defaults_to_run_of_default_suite",
	  cli_defaults_to_run_of_default_suite },
	{ "cli_collects_suites_sets_and_options_anywhere",
	  cli_collects_suites_sets_and_options_anywhere },
	{ "cli_rejects_unknown_option", cli_rejects_unknown_option },
	{ "cli_rejects_unknown_command", cli_rejects_unknown_command },
	{ "cli_unknown_command_names_every_command",
	  cli_unknown_command_names_every_command },
	{ "cli_takes_serve_arguments_unparsed",
	  cli_takes_serve_arguments_unparsed },
	{ "cli_rejects_serve_after_an_option",
	  cli_rejects_serve_after_an_option },
	{ "cli_rejects_set_without_equals", cli_rejects_set_without_equals },
	{ "cli_hints_to_quote_a_set_value_split_at_a_blank",
	  cli_hints_to_quote_a_set_value_split_at_a_blank },
	{ "cli_rejects_missing_option_value",
	  cli_rejects_missing_option_value },
	{ "cli_describe_needs_one_target", cli_describe_needs_one_target },
	{ "cli_extended_excludes_suite_files",
	  cli_extended_excludes_suite_files },
	{ "cli_refuses_ack_with_ignore", cli_refuses_ack_with_ignore },
	{ "cli_refuses_a_second_ack", cli_refuses_a_second_ack },
};

TEST_MAIN(tests)
