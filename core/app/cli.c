/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Command-line parsing into struct cli: the command word first, then
 * every option against that command's list (app/command.c) and its one
 * definition (app/options.c), then the command's checks.
 */
#include "app/cli.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "app/command.h"
#include "app/options.h"
#include "base/parse.h"

/* Which options the command line gave, by their index in the table. */
struct given {
	char at[OPTIONS_MAX];
};

/* Nonzero when word is a command that may follow options. */
static int is_command(const char *word)
{
	const struct command *cmd = command_find(word);

	return cmd && !(cmd->flags & COMMAND_OWN_ARGS);
}

/* "unknown command" and the commands there are. */
static int unknown_command(const char *word, char *err, size_t errlen)
{
	char names[256];

	command_names(names, sizeof(names));
	return hb_errorf(err, errlen, -EINVAL,
			 "unknown command \"%s\" (try %s)", word, names);
}

/* An option, not an argument ("-" alone is one: stdin's name). */
static int is_option_word(const char *w)
{
	return w[0] == '-' && w[1] != '\0';
}

/* The "=VALUE" of a "--name=VALUE" word, or NULL. */
static const char *inline_value(const char *w)
{
	return w[1] == '-' ? strchr(w, '=') : NULL;
}

/*
 * The command word into cli->command and *at (none: NULL and 0), and
 * --help or --version anywhere into cli. Each option's value is skipped:
 * the one table of options says which take one.
 */
static int find_command(int argc, char **argv, struct cli *cli, int *at,
			char *err, size_t errlen)
{
	*at = 0;
	for (int i = 1; i < argc; i++) {
		const char *w = argv[i];
		const struct options_def *def = options_find(w);

		if (def && def->global && !inline_value(w) &&
		    def->set(cli, &(struct options_use){ .def = def }, err,
			     errlen))
			return -EINVAL;
		if (is_option_word(w)) {
			i += def && def->arg && !inline_value(w);
			continue;
		}
		if (*at)
			continue;
		if (!is_command(w))
			return unknown_command(w, err, errlen);
		cli->command = w;
		*at = i;
	}
	return 0;
}

/*
 * "unknown option W", with the nearest option cmd takes when it is close
 * enough to be what was meant (fewer edits than W has letters, and at
 * most half the other's).
 */
static int unknown_option(const struct command *cmd, const char *w, char *err,
			  size_t errlen)
{
	const struct options_def *def, *best = NULL;
	size_t typed = strcspn(w + 2, "="), dist = SIZE_MAX;
	char name[64];

	if (w[1] == '-' && typed < sizeof(name)) {
		memcpy(name, w + 2, typed);
		name[typed] = '\0';
		for (size_t i = 0; (def = options_at(i)) != NULL; i++) {
			size_t d = parse_edit_distance(name, def->name);

			if (command_takes(cmd, def->name) && d < dist) {
				dist = d;
				best = def;
			}
		}
	}
	if (best && dist < typed && 2 * dist <= strlen(best->name))
		return hb_errorf(err, errlen, -EINVAL,
				 "unknown option %s (try --%s)", w, best->name);
	return hb_errorf(err, errlen, -EINVAL, "unknown option %s", w);
}

/* "--X only goes with A, B and C": the commands whose list names it. */
static int not_for(const struct options_def *def, char *err, size_t errlen)
{
	const struct command *cmd;
	char names[256] = "";
	size_t n = 0, k = 0, used = 0;

	for (size_t i = 0; (cmd = command_at(i)) != NULL; i++)
		n += (size_t)command_takes(cmd, def->name);
	for (size_t i = 0; (cmd = command_at(i)) != NULL; i++) {
		if (!command_takes(cmd, def->name) || used >= sizeof(names))
			continue;
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s",
					 k == 0	      ? ""
					 : k == n - 1 ? " and "
						      : ", ",
					 cmd->name);
		k++;
	}
	return hb_errorf(err, errlen, -EINVAL, "--%s only goes with %s",
			 def->name, names);
}

/* The value of option argv[*i] ("--x=v" or "--x v") into use; advances *i. */
static int option_value(int argc, char **argv, int *i, struct options_use *use,
			char *err, size_t errlen)
{
	const char *eq = inline_value(argv[*i]);

	if (!use->def->arg) {
		if (eq)
			return hb_errorf(err, errlen, -EINVAL,
					 "option --%s takes no value",
					 use->def->name);
		return 0;
	}
	if (eq)
		use->value = eq + 1;
	else if (*i + 1 >= argc)
		return hb_errorf(err, errlen, -EINVAL,
				 "option --%s needs a value", use->def->name);
	else
		use->value = argv[++*i];
	use->next = *i + 1 < argc ? argv[*i + 1] : NULL;
	return 0;
}

/* The option at argv[*i], for cmd; advances *i past its value. */
static int parse_option(int argc, char **argv, int *i,
			const struct command *cmd, struct cli *cli,
			struct given *given, char *err, size_t errlen)
{
	struct options_use use = { .def = options_find(argv[*i]) };

	if (!use.def)
		return unknown_option(cmd, argv[*i], err, errlen);
	if (!command_takes(cmd, use.def->name))
		return not_for(use.def, err, errlen);
	if (option_value(argc, argv, i, &use, err, errlen))
		return -EINVAL;
	given->at[options_index(use.def)] = 1;
	return use.def->set(cli, &use, err, errlen);
}

/* Every word but the command's (at) as an option of cmd or an argument. */
static int parse_words(int argc, char **argv, int at, const struct command *cmd,
		       struct cli *cli, struct given *given, char *err,
		       size_t errlen)
{
	for (int i = 1; i < argc; i++) {
		int rc = 0;

		if (i == at)
			continue;
		if (is_option_word(argv[i]))
			rc = parse_option(argc, argv, &i, cmd, cli, given, err,
					  errlen);
		else if (strlist_push(&cli->args, argv[i]))
			rc = hb_errorf(err, errlen, -ENOMEM, "%s",
				       strerror(ENOMEM));
		if (rc)
			return rc;
	}
	return 0;
}

/* Once every word is read: the given options' checks, then cmd's. */
static int cli_check(const struct command *cmd, struct cli *cli,
		     const struct given *given, char *err, size_t errlen)
{
	const struct options_def *def;

	for (size_t i = 0; (def = options_at(i)) != NULL; i++)
		if (given->at[i] && def->check && def->check(cli, err, errlen))
			return -EINVAL;
	if (cmd->args_error &&
	    (cli->args.n < cmd->min_args || cli->args.n > cmd->max_args))
		return hb_errorf(err, errlen, -EINVAL, "%s", cmd->args_error);
	return cmd->check ? cmd->check(cli, err, errlen) : 0;
}

/*
 * A first word naming a command with options of its own (serve): the
 * command, and every later word its argument, unparsed. Returns 1 when
 * argv is such a command line, 0 when not, or -ENOMEM with err filled.
 */
static int own_args_command(int argc, char **argv, struct cli *cli, char *err,
			    size_t errlen)
{
	const struct command *cmd = argc > 1 ? command_find(argv[1]) : NULL;

	if (!cmd || !(cmd->flags & COMMAND_OWN_ARGS))
		return 0;
	cli->command = argv[1];
	for (int i = 2; i < argc; i++)
		if (strlist_push(&cli->args, argv[i]))
			return hb_errorf(err, errlen, -ENOMEM, "%s",
					 strerror(ENOMEM));
	return 1;
}

int cli_parse(int argc, char **argv, struct cli *cli, char *err, size_t errlen)
{
	struct given given = { { 0 } };
	const struct command *cmd;
	int rc, at;

	memset(cli, 0, sizeof(*cli));
	cli->format = REPORT_TEXT;
	cli->threshold = -1; /* not given */
	cli->rank = -1;
	cli->argc = argc;
	cli->argv = argv;
	rc = own_args_command(argc, argv, cli, err, errlen);
	if (rc)
		return rc < 0 ? rc : 0;
	rc = find_command(argc, argv, cli, &at, err, errlen);
	if (rc || cli->help || cli->version)
		return rc;
	if (!cli->command)
		cli->command = "run";
	cmd = command_find(cli->command);
	rc = parse_words(argc, argv, at, cmd, cli, &given, err, errlen);
	return rc ? rc : cli_check(cmd, cli, &given, err, errlen);
}

void cli_free(struct cli *cli)
{
	strlist_free(&cli->args);
	strlist_free(&cli->sets);
	strlist_free(&cli->plugin_dirs);
}
