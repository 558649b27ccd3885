/* SPDX-License-Identifier: Apache-2.0 */
/* The table of commands: lookup by name, and the --help text that names them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "app/cli.h"
#include "app/command.h"
#include "app/usage.h"

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
	CHECK_STR(buf, "run, list, presets, describe, sysinfo, report, "
		       "compare, merge, check, store, history, regressions, "
		       "dashboard, export, serve");
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
static int usage_word(const char **pos, char *word, size_t len)
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

/* What usage_global() (cmd NULL) or usage_command(cmd) writes; free it. */
static char *help_of(const struct command *cmd)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	if (!out)
		return NULL;
	if (cmd)
		usage_command(cmd, out);
	else
		usage_global(out);
	fclose(out);
	return text;
}

static int usage_names_every_command_of_the_table(void)
{
	char *help = help_of(NULL);
	const char *start = help ? strstr(help, "Commands:\n") : NULL;
	const char *end = help ? strstr(help, "\nOptions:\n") : NULL;
	char names[256], word[32], want[256] = "";
	const char *pos = start;

	CHECK(start != NULL && end != NULL);
	while (usage_word(&pos, word, sizeof(word)) && pos < end) {
		CHECK(command_find(word) != NULL);
		if (want[0])
			strcat(want, ", ");
		strcat(want, word);
	}
	free(help);
	command_names(names, sizeof(names));
	CHECK_STR(want, names);
	return 0;
}

static int every_command_has_a_synopsis_and_a_summary(void)
{
	const struct command *cmd;
	size_t n = 0;

	for (size_t i = 0; (cmd = command_at(i)) != NULL; i++, n++) {
		CHECK(cmd->synopsis != NULL && cmd->summary != NULL);
		CHECK(strncmp(cmd->synopsis, cmd->name, strlen(cmd->name)) ==
		      0);
		CHECK(cmd->summary[0] && !strchr(cmd->summary, '\n'));
	}
	CHECK_INT(n, 15);
	return 0;
}

static int compare_help_lists_its_options_only(void)
{
	char *help = help_of(command_find("compare"));

	CHECK(help != NULL);
	CHECK_CONTAINS(help, "Usage: hostbench compare BASE.json NEW.json");
	CHECK_CONTAINS(help, "\n  --threshold PERCENT ");
	CHECK_CONTAINS(help, "\n  -f, --format FMT ");
	CHECK_CONTAINS(help, "\n  -h, --help ");
	CHECK(strstr(help, "--journal") == NULL);
	CHECK(strstr(help, "--plugin-dir") == NULL);
	CHECK(strstr(help, "Commands:") == NULL);
	free(help);
	return 0;
}

static int check_help_keeps_its_description(void)
{
	char *help = help_of(command_find("check"));

	CHECK(help != NULL);
	CHECK(strncmp(help, "Usage: hostbench check BACKEND", 30) == 0);
	CHECK_CONTAINS(help, "  counter  CTR: a counter carried");
	CHECK_CONTAINS(help, "\n  --reference BACKEND ");
	CHECK(strstr(help, "--threshold") == NULL);
	free(help);
	return 0;
}

static int command_takes_its_own_and_the_global_options(void)
{
	CHECK(command_takes(command_find("compare"), "threshold"));
	CHECK(!command_takes(command_find("merge"), "threshold"));
	CHECK(command_takes(command_find("merge"), "help"));
	CHECK(!command_takes(command_find("serve"), "format"));
	CHECK(!command_takes(command_find("list"), "nosuch"));
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
	{ "every_command_has_a_synopsis_and_a_summary",
	  every_command_has_a_synopsis_and_a_summary },
	{ "compare_help_lists_its_options_only",
	  compare_help_lists_its_options_only },
	{ "check_help_keeps_its_description",
	  check_help_keeps_its_description },
	{ "command_takes_its_own_and_the_global_options",
	  command_takes_its_own_and_the_global_options },
};

TEST_MAIN(tests)
