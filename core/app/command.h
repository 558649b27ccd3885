/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The commands of hostbench as one table, as git.c's commands[]: each
 * command word, the function that runs it and what it needs before it
 * runs. The command line parser checks words against the table and main()
 * dispatches through it, so adding a command is one line in command.c.
 * (env: environment, reg: registry.)
 */
#ifndef HB_CORE_APP_COMMAND_H
#define HB_CORE_APP_COMMAND_H

#include <signal.h>
#include <stddef.h>

struct cli;
struct registry;

/* What a command needs before it runs. */
enum command_flags {
	/* Check --plugin-dir and load the plugins into env->reg first. */
	COMMAND_PLUGINS = 1 << 0,
	/*
	 * Only as the first word: every later word is the command's own and
	 * goes into cli->args unparsed (serve has options of its own).
	 */
	COMMAND_OWN_ARGS = 1 << 1,
	/* --output names a directory (the dashboard's site), not a file. */
	COMMAND_OUTPUT_DIR = 1 << 2,
	/*
	 * The command opens --output itself before any work (run: only the
	 * rank that writes the report opens it).
	 */
	COMMAND_OUTPUT_OWN = 1 << 3,
	/*
	 * A rank of a fleet (fleet_launched()) reads suites with
	 * registry.open_targets: a target only other ranks offer is theirs.
	 */
	COMMAND_FLEET = 1 << 4,
};

/*
 * What main() hands a command. The stop flag is the process's only
 * mutable state and stays in main.c; a command that runs cases installs
 * the handlers that set it with catch_signals(), when it starts them.
 */
struct command_env {
	const struct cli *cli;
	const struct registry *reg;	   /* empty unless COMMAND_PLUGINS */
	const volatile sig_atomic_t *stop; /* the signal that asked to stop */
	void (*catch_signals)(void);	   /* SIGINT and SIGTERM set *stop */
};

/*
 * One command: its word, the function that runs it, enum command_flags,
 * what `hostbench CMD --help` says of it and the options it takes (the
 * global ones of app/options.c besides). Its arguments are counted when
 * args_error is set, and judged by check when there is one.
 */
struct command {
	const char *name;
	int (*run)(const struct command_env *env); /* returns an exit status */
	unsigned flags;
	const char *synopsis;	    /* "compare BASE.json NEW.json" */
	const char *summary;	    /* one line: what it does */
	const char *about;	    /* a longer description, or NULL */
	const char *const *options; /* long names, NULL-terminated */
	size_t min_args;	    /* with args_error: at least, */
	size_t max_args;	    /* and at most this many arguments */
	const char *args_error;	    /* the message when they are not */
	/* After parsing: 0, or -EINVAL with err filled; NULL: none. */
	int (*check)(const struct cli *cli, char *err, size_t errlen);
};

/* The command named name, or NULL when there is none. */
const struct command *command_find(const char *name);

/* The i-th command of the table, in its order, or NULL past its end. */
const struct command *command_at(size_t i);

/* Whether cmd takes the option called name (long, without "--"). */
int command_takes(const struct command *cmd, const char *name);

/*
 * Every command's name in table order, ", " between them ("run, list,
 * ..."), into buf; cut short when len is too small.
 */
void command_names(char *buf, size_t len);

/*
 * Run the command cli names (cli->command, which cli_parse() checked):
 * check --plugin-dir and load the plugins first when the command needs
 * them, and free them after. stop and catch_signals are passed on in
 * struct command_env. Returns the command's exit status (base/exit.h), or
 * EXIT_BAD_INPUT / EXIT_INTERNAL when the plugins could not be loaded.
 */
int command_run(const struct cli *cli, const volatile sig_atomic_t *stop,
		void (*catch_signals)(void));

/*
 * Be a helper process (`hostbench __helper MODE PARENT`, proc/helper.h):
 * probe a plugin, validate cases or run one. Returns the exit status.
 */
int command_helper(int argc, char **argv);

#endif
