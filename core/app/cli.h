/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The command line (cli: command line interface): which command, its
 * arguments and the common options. Parsing is pure (no I/O) so it is unit
 * tested. The command words are those of app/command.c's table.
 */
#ifndef HB_CORE_APP_CLI_H
#define HB_CORE_APP_CLI_H

#include <stddef.h>

#include "history/changepoint.h"
#include "report/report.h"
#include "result/result.h"
#include "base/timetext.h"
#include "base/util.h"

/* A parsed command line. */
struct cli {
	const char *command; /* a name of app/command.c's table: "run", ... */
	struct strlist args; /* suites for run, a target for describe,
				reports for compare and merge, the
				backend for check, every
				later word for serve */
	struct strlist sets; /* --set texts, in order */
	struct strlist plugin_dirs; /* --plugin-dir, in order */
	enum report_format format;
	const char *format_arg; /* -f/--format as given; a second is refused */
	enum result_figure figure; /* --figure wall|cpu: what is judged */
	const char *output;	   /* --output FILE, NULL = stdout */
	const char *journal;	   /* --journal FILE: append each result */
	const char *resume;	   /* --resume FILE: skip what it holds */
	int extended;		   /* --extended */
	int fio;		   /* run --fio: suites are fio job files */
	double threshold;	/* --threshold as a fraction; -1 = not given */
	int fail_on_regression; /* compare: exit 1 when a case regressed */
	const char *reference;	/* check --reference BACKEND, NULL = openssl */
	const char *by;		/* compare --by KEY=BASE,NEW, as typed */
	int rank; /* --rank N: one host of fleet reports; -1 = not given */
	const char *store; /* --store URL, NULL = HOSTBENCH_STORE/default */
	int no_store;	   /* run --no-store */
	int history;	   /* run --history: each line against its series */
	const char *host;  /* history, regressions, dashboard --host; store
			      import: the host of a file naming none */
	const char *from;  /* store import --from FORMAT, NULL: hostbench's */
	const char *tool_version;    /* store import --tool-version V */
	const char *cases;	     /* --case PATTERN */
	const char *since;	     /* --since DATE, as typed */
	const char *until;	     /* --until DATE, as typed */
	char since_at[TIMETEXT_LEN]; /* --since as a UTC time (base/timetext.h)
				      */
	char until_at[TIMETEXT_LEN]; /* --until as a UTC time, a date's last ms
				      */
	const char *label;  /* run --label TEXT; history: select by it */
	int fail;	    /* regressions --fail */
	const char *ack;    /* regressions --ack ID */
	const char *ignore; /* regressions --ignore ID */
	/* regressions, dashboard: the change-point search */
	enum changepoint_method method; /* --method pelt|binseg */
	double penalty;			/* --penalty VALUE, 0 = default */
	double min_change; /* --min-change PCT as a fraction, 0 = default */
	int help;
	int version;
	int argc;	   /* the words as given, argv[0] the program */
	char *const *argv; /* (argmask() shows them in a report) */
};

/*
 * Parse argv: the command word (options may come before it), then each
 * option against the options that command takes (app/command.c's table):
 * another command's option is refused naming the commands that take it,
 * an unknown one with the nearest of this command's. With no command,
 * "run" of the default suite (or the extended one with --extended). With
 * --help or --version, only the command word is looked for. A command with
 * options of its own (serve) counts only as the first word, and takes every
 * later word as is. Returns 0, or -EINVAL (-ENOMEM) with a one-line message;
 * free cli with cli_free() either way.
 */
int cli_parse(int argc, char **argv, struct cli *cli, char *err, size_t errlen);

/* Free what cli_parse() filled in. */
void cli_free(struct cli *cli);

#endif
