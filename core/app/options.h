/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every option of the command line, defined once: its names, the name of
 * its argument, its help line and the setter that checks its value and
 * stores it into struct cli. Which command takes which option is the
 * table of commands' (app/command.c); app/cli.c parses with both.
 */
#ifndef HB_CORE_APP_OPTIONS_H
#define HB_CORE_APP_OPTIONS_H

#include <stddef.h>

struct cli;
struct options_def;

/* At most this many options (cli.c keeps which were given in an array). */
#define OPTIONS_MAX 64

/* One option as the command line gave it. */
struct options_use {
	const struct options_def *def;
	const char *value; /* its argument, NULL for a flag */
	const char *next;  /* the word after it, NULL at the end (--set) */
};

/* One option: read its row and you know the option. */
struct options_def {
	const char *name; /* the long name without "--": "threshold" */
	char shrt;	  /* the short name without "-": 'f', or 0 */
	const char *arg;  /* its argument in the help ("PERCENT"), NULL:
			     a flag */
	const char *help; /* the help, lines split by '\n' */
	int global;	  /* every command takes it (--help, --version) */
	size_t at;	  /* the field of struct cli the setter fills */
	int once;	  /* a decision: a second one is refused */
	/* Check use->value and store it into cli; 0 or -EINVAL with err. */
	int (*set)(struct cli *cli, const struct options_use *use, char *err,
		   size_t errlen);
	/* When given, checked once every word is read; NULL: none. */
	int (*check)(struct cli *cli, char *err, size_t errlen);
};

/*
 * The option an argv word names: "--name", "--name=VALUE" or "-s", or
 * NULL when none does.
 */
const struct options_def *options_find(const char *word);

/* The option called name (long, without "--"), or NULL. */
const struct options_def *options_named(const char *name);

/* The i-th option of the table, or NULL past its end. */
const struct options_def *options_at(size_t i);

/* The index of def in the table (a bit of a set of given options). */
size_t options_index(const struct options_def *def);

#endif
