/* SPDX-License-Identifier: Apache-2.0 */
/* The table of commands: lookup by name, and the --help text that names them.
 */
#include <string.h>

#include "check.h"

#include "app/cli.h"
#include "app/command.h"

static int command_find_returns_null_for_unknown_name(void)
{
	CHECK(command_find("nosuch") == NULL);
	CHECK(command_find("") == NULL);
	CHECK(command_find("Run") == NULL);
	return 0;
}

static int command_find_returns_the_named_command(void)
{
	const struct command *cmd = command_find("merge");

	CHECK(cmd != NULL);
	CHECK_STR(cmd->name, "merge");
	CHECK(cmd->run != NULL);
	return 0;
}

static int command_flags_say_what_each_command_needs(void)
{
	CHECK(command_find("run")->flags & COMMAND_PLUGINS);
	CHECK(command_find("describe")->flags & COMMAND_PLUGINS);
	CHECK(!(command_find("compare")->flags & COMMAND_PLUGINS));
	CHECK(command_find("serve")->flags & COMMAND_OWN_ARGS);
	return 0;
}

static int command_names_lists_the_table_in_order(void)
{
	char buf[256];

	command_names(buf, sizeof(buf));
	CHECK_STR(buf, "run, list, describe, sysinfo, report, compare, merge, "
		       "check, store, history, regressions, dashboard, serve");
	return 0;
}

static int command_names_cuts_short_within_the_buffer(void)
{
	char buf[8];

	command_names(buf, sizeof(buf));
	CHECK_STR(buf, "run, li");
	return 0;
}

/* The next word of the "Commands:" section of --help at *pos, or 0. */
static int usage_command(const char **pos, char *word, size_t len)
{
	const char *line = *pos;

	while ((line = strstr(line, "\n  ")) != NULL) {
		size_t n = strcspn(line + 3, " \n");

		line += 3;
		if (n == 0 || line[0] == '-' || line[0] == '(')
			continue;
		if (n >= len)
			return 0;
		memcpy(word, line, n);
		word[n] = '\0';
		*pos = line + n;
		return 1;
	}
	return 0;
}

static int usage_names_every_command_of_the_table(void)
{
	const char *start = strstr(cli_usage, "Commands:\n");
	const char *end = strstr(cli_usage, "\nOptions:\n");
	char names[256], word[32], want[256] = "";
	const char *pos = start;

	CHECK(start != NULL && end != NULL);
	while (usage_command(&pos, word, sizeof(word)) && pos < end) {
		CHECK(command_find(word) != NULL);
		if (want[0])
			strcat(want, ", ");
		strcat(want, word);
	}
	command_names(names, sizeof(names));
	CHECK_STR(want, names);
	return 0;
}

static const struct test tests[] = {
	{ "command_find_returns_null_for_unknown_name",
	  command_find_returns_null_for_unknown_name },
	{ "command_find_returns_the_named_command",
	  command_find_returns_the_named_command },
	{ "command_flags_say_what_each_command_needs",
	  command_flags_say_what_each_command_needs },
	{ "command_names_lists_the_table_in_order",
	  command_names_lists_the_table_in_order },
	{ "command_names_cuts_short_within_the_buffer",
	  command_names_cuts_short_within_the_buffer },
	{ "usage_names_every_command_of_the_table",
	  usage_names_every_command_of_the_table },
};

TEST_MAIN(tests)
