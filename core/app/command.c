/* SPDX-License-Identifier: Apache-2.0 */
/* The table of commands, the lookup by name and the dispatch. */
#include "app/command.h"

#include <errno.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "app/cli.h"
#include "app/cmd.h"
#include "app/cmd_args.h"
#include "app/options.h"
#include "base/exit.h"
#include "ui/output.h"
#include "proc/guardian.h"
#include "fleet/fleet.h"
#include "history/dashboard.h"
#include "plugin/probe.h"
#include "plugin/registry.h"
#include "plugin/scan.h"
#include "conform/conform.h"
#include "run/task.h"

/* The options of the commands that read the store's series. */
#define SERIES_OPTIONS "store", "host", "case", "since", "until", "label"
/* The change-point search of regressions and dashboard. */
#define DETECT_OPTIONS "method", "penalty", "min-change"

/*
 * In the order of --help's "Commands:" (test_command.c checks it names
 * these, and the sdk test that the bash completion offers what --help
 * names) and of the "unknown command" message.
 */
// clang-format off
static const struct command commands[] = {
	{ .name = "run", .run = cmd_run,
	  .flags = COMMAND_PLUGINS | COMMAND_OUTPUT_OWN | COMMAND_FLEET,
	  .synopsis = "run [SUITE.ini|JOB.fio|PRESET...]",
	  .summary = "run suites (none: the default host benchmark)",
	  .about = "A SUITE may be a fio job file (named *.fio, recognised\n"
		   "by its keys, or any file with --fio) or a preset's\n"
		   "name (see hostbench presets).\n",
	  .options = (const char *const[]){ "extended", "fio", "format",
		"output",
		"set", "journal", "resume", "plugin-dir", "store", "no-store",
		"history", "label", NULL },
	  .check = cmd_args_run },
	{ .name = "list", .run = cmd_list, .flags = COMMAND_PLUGINS,
	  .synopsis = "list",
	  .summary = "plugins, targets, backends, usable here or not",
	  .options = (const char *const[]){ "format", "output", "plugin-dir",
		NULL },
	  .check = cmd_args_none },
	{ .name = "presets", .run = cmd_presets,
	  .synopsis = "presets",
	  .summary = "the shipped presets, run by name: hostbench run NAME",
	  .options = (const char *const[]){ "output", NULL },
	  .check = cmd_args_none },
	{ .name = "describe", .run = cmd_describe, .flags = COMMAND_PLUGINS,
	  .synopsis = "describe TARGET",
	  .summary = "a target's options, defaults and units",
	  .options = (const char *const[]){ "format", "output", "plugin-dir",
		NULL },
	  .min_args = 1, .max_args = 1,
	  .args_error = "describe needs one TARGET (see hostbench list)" },
	{ .name = "sysinfo", .run = cmd_sysinfo, .flags = COMMAND_PLUGINS,
	  .synopsis = "sysinfo",
	  .summary = "the system information of the report",
	  .options = (const char *const[]){ "format", "output", "plugin-dir",
		NULL },
	  .check = cmd_args_none },
	{ .name = "report", .run = cmd_report,
	  .synopsis = "report FILE...|UUID...",
	  .summary = "saved JSON reports (or a journal) in any format",
	  .about = "A run's UUID in place of a FILE renders the report the\n"
		   "store (--store) keeps of that run.\n",
	  .options = (const char *const[]){ "format", "output", "rank",
		"store", "figure", NULL },
	  .check = cmd_args_report },
	{ .name = "compare", .run = cmd_compare,
	  .synopsis = "compare BASE.json NEW.json",
	  .summary = "two reports side by side: improved, regressed, noise",
	  .options = (const char *const[]){ "format", "output", "threshold",
		"fail-on-regression", "figure", "by", "rank", "store",
		"no-store", NULL },
	  .check = cmd_args_compare },
	{ .name = "merge", .run = cmd_merge,
	  .synopsis = "merge A.json B.json...",
	  .summary = "one table of hosts (or runs) by cases",
	  .options = (const char *const[]){ "format", "output", "rank",
		NULL },
	  .min_args = 1, .max_args = SIZE_MAX,
	  .args_error = "merge needs JSON reports: A.json B.json ..." },
	{ .name = "check", .run = cmd_check, .flags = COMMAND_PLUGINS,
	  .synopsis = "check BACKEND",
	  .summary = "conformance of a crypto backend against a reference",
	  .about = cmd_check_about,
	  .options = (const char *const[]){ "reference", "format",
		"output", "plugin-dir", NULL },
	  .min_args = 1, .max_args = 1,
	  .args_error = "check needs one BACKEND (see hostbench list)" },
	{ .name = "store", .run = cmd_store,
	  .synopsis = "store import [--from FORMAT] FILE...",
	  .summary = "reports, journals and other tools' results into the "
		     "store",
	  .about = "--from reads fio, iperf3, openssl speed (machine\n"
		   "readable), Google Benchmark, hyperfine and pyperf results\n"
		   "(docs/interop.md); --from auto recognises each file's\n"
		   "format.\n",
	  .options = (const char *const[]){ "store", "from", "host",
		"tool-version", NULL },
	  .check = cmd_args_store },
	{ .name = "history", .run = cmd_history,
	  .synopsis = "history",
	  .summary = "the store's series, their latest value and trend",
	  .options = (const char *const[]){ "format", "output",
		SERIES_OPTIONS, NULL } },
	{ .name = "regressions", .run = cmd_regressions,
	  .synopsis = "regressions",
	  .summary = "change points of every series, the newest run judged",
	  .options = (const char *const[]){ "format", "output",
		SERIES_OPTIONS, "fail", "ack", "ignore", DETECT_OPTIONS,
		NULL },
	  .check = cmd_args_regressions },
	{ .name = "dashboard", .run = cmd_dashboard,
	  .flags = COMMAND_OUTPUT_DIR,
	  .synopsis = "dashboard -o DIR",
	  .summary = "a static site of the store's history",
	  .options = (const char *const[]){ "output", SERIES_OPTIONS,
		DETECT_OPTIONS, NULL },
	  .check = cmd_args_dashboard },
	{ .name = "export", .run = cmd_export,
	  .synopsis = "export [REPORT.json|UUID...]",
	  .summary = "figures as OpenMetrics or Bencher Metric Format",
	  .about = "Without a report, the newest point of each series of\n"
		   "the store (--host, --case, --since, --until and\n"
		   "--label select them); a run's UUID exports that\n"
		   "stored run.\n",
	  .options = (const char *const[]){ "format", "output",
		SERIES_OPTIONS, NULL },
	  .check = cmd_args_export },
	{ .name = "serve", .run = cmd_serve, .flags = COMMAND_OWN_ARGS,
	  .synopsis = "serve --listen ADDR:PORT --token TOKEN",
	  .summary = "the receiving side of transfer targets" },
};
// clang-format on

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
}

const struct command *command_at(size_t i)
{
	return i < NCOMMANDS ? &commands[i] : NULL;
}

int command_takes(const struct command *cmd, const char *name)
{
	const struct options_def *def = options_named(name);

	if (!def)
		return 0;
	if (def->global)
		return 1;
	for (const char *const *o = cmd->options; o && *o; o++)
		if (strcmp(*o, name) == 0)
			return 1;
	return 0;
}

void command_names(char *buf, size_t len)
{
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < NCOMMANDS && used < len; i++) {
		int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
				 commands[i].name);

		if (n < 0)
			break;
		used += (size_t)n;
	}
}

/* Every --plugin-dir must be a directory: a typo is bad input. */
static int check_plugin_dirs(const struct cli *cli)
{
	struct stat st;

	for (size_t i = 0; i < cli->plugin_dirs.n; i++) {
		const char *d = cli->plugin_dirs.items[i], *why;

		if (stat(d, &st) != 0)
			why = strerror(errno);
		else if (!S_ISDIR(st.st_mode))
			why = "not a directory";
		else
			continue;
		fprintf(stderr, "hostbench: --plugin-dir %s: %s\n", d, why);
		return -ENOTDIR;
	}
	return 0;
}

/* Load the plugins from the usual directories plus --plugin-dir. */
static int load_plugins(const struct cli *cli, struct registry *reg)
{
	struct strlist dirs = { 0 };
	int rc = plugin_dirs(&dirs, &cli->plugin_dirs, stderr);

	if (!rc)
		rc = scan_load(reg, (const char *const *)dirs.items, dirs.n,
			       stderr);
	strlist_free(&dirs);
	return rc;
}

/*
 * --output judged before any work (a store opened, plugins loaded, a
 * query run): a path the command would refuse at the end is bad input
 * at the start, and nothing is made on the way.
 */
static int check_output(const struct command *cmd, const struct cli *cli)
{
	char err[1024];
	int rc;

	if (!cli->output || (cmd->flags & COMMAND_OUTPUT_OWN))
		return 0;
	rc = cmd->flags & COMMAND_OUTPUT_DIR
		     ? dashboard_check(cli->output, err, sizeof(err))
		     : output_check(cli->output, err, sizeof(err));
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	return rc;
}

/*
 * What cmd needs before it runs: its output judged, the plugins. Returns
 * an exit status.
 */
static int setup(const struct command *cmd, const struct cli *cli,
		 struct registry *reg)
{
	if (check_output(cmd, cli))
		return EXIT_BAD_INPUT;
	if (!(cmd->flags & COMMAND_PLUGINS))
		return EXIT_ALL_OK;
	if (check_plugin_dirs(cli))
		return EXIT_BAD_INPUT;
	if (load_plugins(cli, reg)) {
		fprintf(stderr, "hostbench: out of memory loading plugins\n");
		return EXIT_INTERNAL;
	}
	reg->open_targets = (cmd->flags & COMMAND_FLEET) && fleet_launched();
	return EXIT_ALL_OK;
}

int command_run(const struct cli *cli, const volatile sig_atomic_t *stop,
		void (*catch_signals)(void))
{
	const struct command *cmd = command_find(cli->command);
	struct registry reg = { 0 };
	int status = setup(cmd, cli, &reg);

	if (status == EXIT_ALL_OK)
		status = cmd->run(&(struct command_env){
			.cli = cli,
			.reg = &reg,
			.stop = stop,
			.catch_signals = catch_signals,
		});
	scan_free(&reg);
	return status;
}

/* What a helper process may be asked to do. */
static const struct guardian_task helper_tasks[] = {
	{ .mode = "probe", .run = probe_task },
	{ .mode = "validate", .run = task_validate },
	{ .mode = "case", .run = task_case },
	{ .mode = "check", .run = conform_task },
	{ .mode = NULL },
};

int command_helper(int argc, char **argv)
{
	return guardian_main(argc, argv, helper_tasks);
}
