/* SPDX-License-Identifier: Apache-2.0 */
/* The table of commands, the lookup by name and the dispatch. */
#include "app/command.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "app/cli.h"
#include "app/cmd.h"
#include "base/exit.h"
#include "app/output.h"
#include "base/guardian.h"
#include "fleet/fleet.h"
#include "history/dashboard.h"
#include "plugin/probe.h"
#include "plugin/registry.h"
#include "plugin/scan.h"
#include "run/conform.h"
#include "run/task.h"

/*
 * In the order of --help's "Commands:" (test_command.c checks it names
 * these, and the sdk test that the bash completion offers what --help
 * names) and of the "unknown command" message.
 */
static const struct command commands[] = {
	{ "run", cmd_run, COMMAND_PLUGINS | COMMAND_OUTPUT_OWN | COMMAND_FLEET,
	  NULL },
	{ "list", cmd_list, COMMAND_PLUGINS, NULL },
	{ "describe", cmd_describe, COMMAND_PLUGINS, NULL },
	{ "sysinfo", cmd_sysinfo, COMMAND_PLUGINS, NULL },
	{ "report", cmd_report, 0, NULL },
	{ "compare", cmd_compare, 0, NULL },
	{ "merge", cmd_merge, 0, NULL },
	{ "check", cmd_check, COMMAND_PLUGINS, cmd_check_help },
	{ "store", cmd_store, 0, NULL },
	{ "history", cmd_history, 0, NULL },
	{ "regressions", cmd_regressions, 0, NULL },
	{ "dashboard", cmd_dashboard, COMMAND_OUTPUT_DIR, NULL },
	{ "serve", cmd_serve, COMMAND_OWN_ARGS, NULL },
};

#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct command *command_find(const char *name)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (strcmp(commands[i].name, name) == 0)
			return &commands[i];
	return NULL;
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
