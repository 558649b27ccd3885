/* SPDX-License-Identifier: Apache-2.0 */
/* The --help texts, written from the tables of commands and options. */
#include "app/usage.h"

#include <string.h>

#include "app/command.h"
#include "app/options.h"

/* The column where the help of a command or an option starts. */
#define USAGE_COLUMN 27

// clang-format off
static const char usage_head[] =
	"Usage: hostbench [COMMAND] [OPTIONS] [ARGS]\n"
	"\n"
	"Commands:\n"
	"  (none)                   run the default host benchmark "
	"(conf/default.ini)\n";

static const char usage_tail[] =
	"\n"
	"Options before the command word go with it (with none, with run).\n"
	"'hostbench COMMAND --help' lists the options of COMMAND.\n"
	"\n"
	"Environment: HOSTBENCH_PLUGIN_PATH=DIR:DIR adds plugin directories;\n"
	"HOSTBENCH_STORE is the store of --store's default.\n"
	"Exit status: 0 every case ok or skipped, 1 a case failed (compare\n"
	"--fail-on-regression: a case regressed), 2 bad command line, suite or\n"
	"report, 4 the run's report was written but the store failed,\n"
	"130/143 interrupted.\n";
// clang-format on

/*
 * "  " head, then text from USAGE_COLUMN on (on the next line when head
 * is too wide), each later line of text indented to it.
 */
static void usage_row(FILE *out, const char *head, const char *text)
{
	int used = fprintf(out, "  %s", head);

	if (used < 0)
		return;
	if (used + 1 >= USAGE_COLUMN) {
		fputc('\n', out);
		used = 0;
	}
	for (const char *line = text; *line;) {
		size_t n = strcspn(line, "\n");

		fprintf(out, "%*s%.*s\n", USAGE_COLUMN - used, "", (int)n,
			line);
		used = 0;
		line += n + (line[n] == '\n');
	}
}

/* One option's row: "-f, --format FMT" and its help. */
static void usage_option(FILE *out, const struct options_def *def)
{
	const char *arg = def->arg ? def->arg : "";
	char head[128];

	if (def->shrt)
		snprintf(head, sizeof(head), "-%c, --%s%s%s", def->shrt,
			 def->name, *arg ? " " : "", arg);
	else
		snprintf(head, sizeof(head), "--%s%s%s", def->name,
			 *arg ? " " : "", arg);
	usage_row(out, head, def->help);
}

void usage_global(FILE *out)
{
	const struct command *cmd;
	const struct options_def *def;

	fputs(usage_head, out);
	for (size_t i = 0; (cmd = command_at(i)) != NULL; i++)
		usage_row(out, cmd->synopsis, cmd->summary);
	fputs("\nOptions:\n", out);
	for (size_t i = 0; (def = options_at(i)) != NULL; i++)
		if (def->global)
			usage_option(out, def);
	fputs(usage_tail, out);
}

void usage_command(const struct command *cmd, FILE *out)
{
	const struct options_def *def;

	fprintf(out, "Usage: hostbench %s [OPTIONS]\n\n%s\n", cmd->synopsis,
		cmd->summary);
	if (cmd->about)
		fprintf(out, "\n%s", cmd->about);
	fputs("\nOptions:\n", out);
	for (size_t i = 0; (def = options_at(i)) != NULL; i++)
		if (command_takes(cmd, def->name))
			usage_option(out, def);
}
