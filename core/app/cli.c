/* SPDX-License-Identifier: Apache-2.0 */
/* Command-line parsing into struct cli. */
#include "app/cli.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/command.h"
#include "base/parse.h"
#include "base/sanitize.h"
#include "base/timetext.h"
#include "compare/compare_by.h"
#include "result/runinfo.h"

// clang-format off
const char cli_usage[] =
	"Usage: hostbench [COMMAND] [OPTIONS] [ARGS]\n"
	"\n"
	"Commands:\n"
	"  (none)                   run the default host benchmark "
	"(conf/default.ini)\n"
	"  run SUITE.ini...         run suites\n"
	"  list                     plugins, targets, backends, usable here or "
	"not\n"
	"  describe TARGET          a target's options, defaults and units\n"
	"  sysinfo                  the system information of the report\n"
	"  report FILE...           saved JSON reports (or a journal) in any\n"
	"                           format, as the run wrote them\n"
	"  compare BASE.json NEW.json\n"
	"                           the cases of two JSON reports side by "
	"side,\n"
	"                           each improved, regressed or within noise;\n"
	"                           with --by KEY=A,B one report (or two): the\n"
	"                           cases that differ only in KEY, A against B\n"
	"  merge A.json B.json...   one table of hosts (or runs) by cases\n"
	"  check BACKEND            conformance of a crypto backend against a\n"
	"                           reference (--reference, default openssl)\n"
	"  store import FILE...     saved JSON reports and journals into the\n"
	"                           store (each run once)\n"
	"  history                  the series of the store (host x case x\n"
	"                           figure), their latest value and trend\n"
	"  regressions              change points of every series and the\n"
	"                           newest run judged against its series\n"
	"  dashboard -o DIR         a static site of the store's history\n"
	"  serve --listen ADDR:PORT --token TOKEN\n"
	"                           the receiving side of transfer targets\n"
	"\n"
	"Options:\n"
	"  --extended               run the extended matrix "
	"(conf/extended.ini)\n"
	"  -f, --format FMT         text (default), json, csv, md, html\n"
	"  -o, --output FILE        write the report to FILE (written whole)\n"
	"  -s, --set [SECTION.]KEY=VALUE\n"
	"                           override a suite value (repeatable)\n"
	"  --journal FILE           append each finished result to FILE as a\n"
	"                           JSON line, as soon as it is measured\n"
	"  --resume FILE            skip the cases FILE already holds, run "
	"the\n"
	"                           rest and append them to FILE\n"
	"  -P, --plugin-dir DIR     also load plugins from DIR (repeatable)\n"
	"  --threshold PERCENT      compare: the noise threshold (default 5)\n"
	"  --fail-on-regression     compare: exit 1 when a case regressed\n"
	"  --figure wall|cpu        compare: judge wall rates (default) or\n"
	"                           rates per CPU-second\n"
	"  --reference BACKEND      check: the backend to agree with\n"
	"  --by KEY=A,B             compare: KEY=A against KEY=B\n"
	"  --rank N                 report, compare, merge: rank N's host of\n"
	"                           a fleet report\n"
	"  --store URL              sqlite:PATH or postgresql://... (default\n"
	"                           HOSTBENCH_STORE, else sqlite:\n"
	"                           $XDG_DATA_HOME/hostbench/results.db)\n"
	"  --no-store               run: keep the report out of the store;\n"
	"                           compare: judge without its history\n"
	"  --history                run: each line against its series\n"
	"  --label TEXT             run: a label kept with the run (at most\n"
	"                           128 bytes of printable text)\n"
	"  --host H, --case PATTERN, --since DATE, --until DATE,\n"
	"  --label TEXT             history, regressions, dashboard: select\n"
	"                           (DATE: YYYY-MM-DD or an RFC 3339 time)\n"
	"  --fail                   regressions: exit 1 while one is open\n"
	"  --ack ID, --ignore ID    regressions: decide on a change point\n"
	"  --method pelt|binseg     regressions, dashboard: how\n"
	"                           change points are searched (default pelt)\n"
	"  --penalty VALUE          the price of a change point, in log(n)\n"
	"                           noise variances (default 6)\n"
	"  --min-change PERCENT     the least step reported (default 5)\n"
	"  -h, --help               this text\n"
	"  -V, --version            the version\n"
	"\n"
	"Environment: HOSTBENCH_PLUGIN_PATH=DIR:DIR adds plugin directories.\n"
	"Exit status: 0 every case ok or skipped, 1 a case failed (compare\n"
	"--fail-on-regression: a case regressed), 2 bad command line, suite "
	"or\n"
	"report, 4 the run's report was written but the store failed,\n"
	"130/143 interrupted.\n";
// clang-format on

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

/* The value of option argv[*i] ("--x=v" or "--x v"); advances *i. */
static const char *option_value(int argc, char **argv, int *i, const char *name,
				char *err, size_t errlen)
{
	const char *eq = strchr(argv[*i], '=');

	if (strncmp(argv[*i], "--", 2) == 0 && eq)
		return eq + 1;
	if (*i + 1 >= argc) {
		hb_error_fill(err, errlen, "option %s needs a value", name);
		return NULL;
	}
	return argv[++*i];
}

/* Does argv word match the short or long spelling of an option? */
static int opt_is(const char *word, const char *shrt, const char *lng)
{
	size_t n = strlen(lng);

	if (shrt && strcmp(word, shrt) == 0)
		return 1;
	return strncmp(word, lng, n) == 0 &&
	       (word[n] == '\0' || word[n] == '=');
}

/* --rank N: a rank of a fleet report, 0 or more, into *out. */
static int rank_parse(const char *v, int *out, char *err, size_t errlen)
{
	int64_t n;

	if (parse_int(v, &n, NULL, 0) || n < 0 || n > INT32_MAX)
		return hb_errorf(err, errlen, -EINVAL,
				 "--rank %s: expected a rank (0, 1, ...)", v);
	*out = (int)n;
	return 0;
}

/* --threshold PERCENT ("5", "2.5%") as a fraction into *out. */
/* A percentage after option opt ("5", "5%"), as a fraction, in [0, 1000). */
static int percent_parse(const char *opt, const char *v, double *out, char *err,
			 size_t errlen)
{
	char *end;
	double pct = strtod(v, &end);

	if (end != v && *end == '%')
		end++;
	if (end == v || *end || !(pct >= 0 && pct < 1000))
		return hb_errorf(err, errlen, -EINVAL,
				 "%s %s: expected a percentage from 0 "
				 "to 1000 (5 means 5%%)",
				 opt, v);
	*out = pct / 100;
	return 0;
}

static int threshold_parse(const char *v, double *out, char *err, size_t errlen)
{
	return percent_parse("--threshold", v, out, err, errlen);
}

/* --method pelt|binseg, --penalty VALUE, --min-change PCT: 1 if w was one. */
static int detect_option(int argc, char **argv, int *i, struct cli *cli,
			 char *err, size_t errlen)
{
	const char *w = argv[*i], *v;
	char *end;

	if (!opt_is(w, NULL, "--method") && !opt_is(w, NULL, "--penalty") &&
	    !opt_is(w, NULL, "--min-change"))
		return 0;
	v = option_value(argc, argv, i, w, err, errlen);
	if (!v)
		return -EINVAL;
	cli->detect_given = 1;
	if (opt_is(w, NULL, "--min-change")) {
		if (percent_parse("--min-change", v, &cli->min_change, err,
				  errlen))
			return -EINVAL;
		if (!(cli->min_change > 0))
			return hb_errorf(err, errlen, -EINVAL,
					 "--min-change %s: expected more than "
					 "0 (5 means 5%%)",
					 v);
		return 1;
	}
	if (opt_is(w, NULL, "--penalty")) {
		cli->penalty = strtod(v, &end);
		if (end == v || *end || !(cli->penalty > 0) ||
		    !(cli->penalty <= 1000))
			return hb_errorf(err, errlen, -EINVAL,
					 "--penalty %s: expected a number "
					 "above 0, at most 1000 (default 6)",
					 v);
		return 1;
	}
	if (strcmp(v, "pelt") == 0)
		cli->method = CHANGEPOINT_PELT;
	else if (strcmp(v, "binseg") == 0)
		cli->method = CHANGEPOINT_BINSEG;
	else
		return hb_errorf(err, errlen, -EINVAL,
				 "--method %s: expected pelt or binseg", v);
	return 1;
}

/*
 * --label TEXT: with run (kept with it) or a command reading the store
 * (selects by it); printable and bounded, as every report shows it.
 */
static int label_check(const struct cli *cli, char *err, size_t errlen)
{
	static const char *const with[] = { "run", "history", "regressions",
					    "dashboard" };
	int ok = 0;

	for (size_t i = 0; i < sizeof(with) / sizeof(with[0]); i++)
		ok |= strcmp(cli->command, with[i]) == 0;
	if (!ok)
		return hb_errorf(err, errlen, -EINVAL,
				 "--label only goes with run, history, "
				 "regressions and dashboard");
	if (strlen(cli->label) > RUNINFO_LABEL_MAX || !*cli->label ||
	    !sanitize_is_clean(cli->label))
		return hb_errorf(err, errlen, -EINVAL,
				 "--label: expected 1 to %d bytes of printable "
				 "text",
				 RUNINFO_LABEL_MAX);
	return 0;
}

/* --since or --until (name) text as a UTC time into at; a day's end for
 * --until. */
static int date_check(const char *name, const char *text, char *at, size_t len,
		      char *err, size_t errlen)
{
	if (timetext_parse(text, strcmp(name, "--until") == 0, at, len) == 0)
		return 0;
	return hb_errorf(err, errlen, -EINVAL,
			 "%s \"%.64s%s\": not a date; expected " TIMETEXT_FORMS,
			 name, text, strlen(text) > 64 ? "..." : "");
}

/* --since and --until: dates, in order. */
static int dates_check(struct cli *cli, char *err, size_t errlen)
{
	if (cli->since && date_check("--since", cli->since, cli->since_at,
				     sizeof(cli->since_at), err, errlen))
		return -EINVAL;
	if (cli->until && date_check("--until", cli->until, cli->until_at,
				     sizeof(cli->until_at), err, errlen))
		return -EINVAL;
	if (cli->since && cli->until &&
	    strcmp(cli->since_at, cli->until_at) > 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--since %s is after --until %s", cli->since,
				 cli->until);
	return 0;
}

/*
 * -f/--format FMT into cli. One report is written per run, so a second
 * --format is refused rather than silently winning.
 */
static int format_parse(const char *v, struct cli *cli, char *err,
			size_t errlen)
{
	enum report_format f;

	if (report_format_parse(v, &f))
		return hb_errorf(err, errlen, -EINVAL,
				 "--format %s: expected text, json, csv, md "
				 "or html",
				 v);
	if (cli->format_arg)
		return hb_errorf(err, errlen, -EINVAL,
				 "--format given twice (%s, then %s): one "
				 "report is written per command; give one",
				 cli->format_arg, v);
	cli->format = f;
	cli->format_arg = v;
	return 0;
}

/* --figure wall|cpu into cli. */
static int figure_parse(const char *v, struct cli *cli, char *err,
			size_t errlen)
{
	if (strcmp(v, "wall") == 0)
		cli->figure = RESULT_FIGURE_WALL;
	else if (strcmp(v, "cpu") == 0)
		cli->figure = RESULT_FIGURE_CPU;
	else
		return hb_errorf(err, errlen, -EINVAL,
				 "--figure %s: expected wall or cpu", v);
	cli->figure_given = 1;
	return 0;
}

/* The store's options taking a value: 1 if w was one, <0 on error. */
static int store_option(int argc, char **argv, int *i, struct cli *cli,
			char *err, size_t errlen)
{
	static const struct {
		const char *name;
		size_t at;
		int once; /* a decision: applied once, a second is refused */
	} opts[] = {
		{ "--store", offsetof(struct cli, store), 0 },
		{ "--host", offsetof(struct cli, host), 0 },
		{ "--case", offsetof(struct cli, cases), 0 },
		{ "--since", offsetof(struct cli, since), 0 },
		{ "--until", offsetof(struct cli, until), 0 },
		{ "--label", offsetof(struct cli, label), 0 },
		{ "--ack", offsetof(struct cli, ack), 1 },
		{ "--ignore", offsetof(struct cli, ignore), 1 },
	};

	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		const char **slot;

		if (!opt_is(argv[*i], NULL, opts[k].name))
			continue;
		slot = (const char **)((char *)cli + opts[k].at);
		if (*slot && opts[k].once)
			return hb_errorf(err, errlen, -EINVAL,
					 "%s given twice: one decision at a "
					 "time",
					 opts[k].name);
		*slot = option_value(argc, argv, i, opts[k].name, err, errlen);
		return *slot ? 1 : -EINVAL;
	}
	return 0;
}

/* Handle one option taking a value; returns 1 if it was one, <0 on error. */
static int value_option(int argc, char **argv, int *i, struct cli *cli,
			char *err, size_t errlen)
{
	const char *w = argv[*i], *v;
	int rc = 0;

	if (opt_is(w, "-f", "--format")) {
		v = option_value(argc, argv, i, "--format", err, errlen);
		if (!v)
			return -EINVAL;
		rc = format_parse(v, cli, err, errlen);
	} else if (opt_is(w, NULL, "--figure")) {
		v = option_value(argc, argv, i, "--figure", err, errlen);
		if (!v)
			return -EINVAL;
		rc = figure_parse(v, cli, err, errlen);
	} else if (opt_is(w, "-o", "--output")) {
		v = option_value(argc, argv, i, "--output", err, errlen);
		if (!v)
			return -EINVAL;
		cli->output = v;
	} else if (opt_is(w, "-s", "--set")) {
		v = option_value(argc, argv, i, "--set", err, errlen);
		if (!v)
			return -EINVAL;
		if (!strchr(v, '='))
			return hb_errorf(
				err, errlen, -EINVAL,
				"--set %s: expected [SECTION.]KEY=VALUE", v);
		if (*i + 1 < argc && parse_is_unit(argv[*i + 1]))
			return hb_errorf(
				err, errlen, -EINVAL,
				"--set %s %s: the shell split the value at its "
				"blank; quote it (--set '%s %s') or write it "
				"without one (%s%s)",
				v, argv[*i + 1], v, argv[*i + 1], v,
				argv[*i + 1]);
		rc = strlist_push(&cli->sets, v);
	} else if (opt_is(w, NULL, "--journal")) {
		cli->journal =
			option_value(argc, argv, i, "--journal", err, errlen);
		if (!cli->journal)
			return -EINVAL;
	} else if (opt_is(w, NULL, "--resume")) {
		cli->resume =
			option_value(argc, argv, i, "--resume", err, errlen);
		if (!cli->resume)
			return -EINVAL;
	} else if (opt_is(w, "-P", "--plugin-dir")) {
		v = option_value(argc, argv, i, "--plugin-dir", err, errlen);
		if (!v)
			return -EINVAL;
		rc = strlist_push(&cli->plugin_dirs, v);
	} else if (opt_is(w, NULL, "--reference")) {
		cli->reference =
			option_value(argc, argv, i, "--reference", err, errlen);
		if (!cli->reference)
			return -EINVAL;
	} else if (opt_is(w, NULL, "--by")) {
		cli->by = option_value(argc, argv, i, "--by", err, errlen);
		if (!cli->by)
			return -EINVAL;
		rc = compare_by_parse(cli->by, NULL, err, errlen);
	} else if (opt_is(w, NULL, "--threshold")) {
		v = option_value(argc, argv, i, "--threshold", err, errlen);
		if (!v)
			return -EINVAL;
		rc = threshold_parse(v, &cli->threshold, err, errlen);
	} else if ((rc = store_option(argc, argv, i, cli, err, errlen)) != 0) {
		return rc;
	} else if ((rc = detect_option(argc, argv, i, cli, err, errlen)) != 0) {
		return rc;
	} else if (opt_is(w, NULL, "--rank")) {
		v = option_value(argc, argv, i, "--rank", err, errlen);
		if (!v)
			return -EINVAL;
		rc = rank_parse(v, &cli->rank, err, errlen);
	} else {
		return 0;
	}
	return rc ? rc : 1;
}

/* Handle one word of argv. */
static int cli_word(int argc, char **argv, int *i, struct cli *cli, char *err,
		    size_t errlen)
{
	const char *w = argv[*i];
	int rc;

	if (strcmp(w, "-h") == 0 || strcmp(w, "--help") == 0)
		cli->help = 1;
	else if (strcmp(w, "-V") == 0 || strcmp(w, "--version") == 0)
		cli->version = 1;
	else if (strcmp(w, "--extended") == 0)
		cli->extended = 1;
	else if (strcmp(w, "--fail-on-regression") == 0)
		cli->fail_on_regression = 1;
	else if (strcmp(w, "--no-store") == 0)
		cli->no_store = 1;
	else if (strcmp(w, "--history") == 0)
		cli->history = 1;
	else if (strcmp(w, "--fail") == 0)
		cli->fail = 1;
	else if ((rc = value_option(argc, argv, i, cli, err, errlen)) != 0)
		return rc < 0 ? rc : 0;
	else if (w[0] == '-' && w[1] != '\0')
		return hb_errorf(err, errlen, -EINVAL, "unknown option %s", w);
	else if (!cli->command && is_command(w))
		cli->command = w;
	else if (!cli->command)
		return unknown_command(w, err, errlen);
	else
		return strlist_push(&cli->args, w);
	return 0;
}

/* Check the arguments fit the command. */
static int cli_check(struct cli *cli, char *err, size_t errlen)
{
	if (cli->extended && cli->command && strcmp(cli->command, "run") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--extended only goes with run");
	if (!cli->command)
		cli->command = "run";
	if (strcmp(cli->command, "describe") == 0 && cli->args.n != 1)
		return hb_errorf(
			err, errlen, -EINVAL,
			"describe needs one TARGET (see hostbench list)");
	if ((strcmp(cli->command, "list") == 0 ||
	     strcmp(cli->command, "sysinfo") == 0) &&
	    cli->args.n)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s takes no argument: %s", cli->command,
				 cli->args.items[0]);
	if (strcmp(cli->command, "compare") == 0 && cli->by &&
	    (cli->args.n < 1 || cli->args.n > 2))
		return hb_errorf(err, errlen, -EINVAL,
				 "compare --by needs one report (or two): "
				 "REPORT.json [NEW.json]");
	if (strcmp(cli->command, "compare") == 0 && !cli->by &&
	    cli->args.n != 2)
		return hb_errorf(
			err, errlen, -EINVAL,
			"compare needs two reports: BASE.json NEW.json (or "
			"one with --by KEY=A,B)");
	if (strcmp(cli->command, "report") == 0 && cli->args.n < 1)
		return hb_errorf(err, errlen, -EINVAL,
				 "report needs JSON reports or journals: "
				 "FILE ...");
	if (strcmp(cli->command, "check") == 0 && cli->args.n != 1)
		return hb_errorf(err, errlen, -EINVAL,
				 "check needs one BACKEND (see hostbench "
				 "list)");
	if (cli->reference && strcmp(cli->command, "check") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--reference only goes with check");
	if (strcmp(cli->command, "merge") == 0 && cli->args.n < 1)
		return hb_errorf(err, errlen, -EINVAL,
				 "merge needs JSON reports: A.json B.json ...");
	if ((cli->threshold >= 0 || cli->fail_on_regression || cli->by ||
	     cli->figure_given) &&
	    strcmp(cli->command, "compare") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--threshold, --fail-on-regression, --by and "
				 "--figure only go with compare");
	if (cli->rank >= 0 && strcmp(cli->command, "compare") != 0 &&
	    strcmp(cli->command, "merge") != 0 &&
	    strcmp(cli->command, "report") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--rank only goes with report, compare and "
				 "merge");
	if ((cli->journal || cli->resume) && strcmp(cli->command, "run") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--journal and --resume only go with run");
	if (cli->journal && cli->resume &&
	    strcmp(cli->journal, cli->resume) != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--resume appends to its own file; drop "
				 "--journal %s",
				 cli->journal);
	if (cli->no_store && strcmp(cli->command, "run") != 0 &&
	    strcmp(cli->command, "compare") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--no-store only goes with run and compare");
	if (cli->history && strcmp(cli->command, "run") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--history only goes with run");
	if (cli->label && label_check(cli, err, errlen))
		return -EINVAL;
	if (dates_check(cli, err, errlen))
		return -EINVAL;
	if ((cli->fail || cli->ack || cli->ignore) &&
	    strcmp(cli->command, "regressions") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--fail, --ack and --ignore only go with "
				 "regressions");
	if (cli->ack && cli->ignore)
		return hb_errorf(err, errlen, -EINVAL,
				 "--ack and --ignore: one decision at a time "
				 "(give one of them)");
	if (cli->detect_given && strcmp(cli->command, "regressions") != 0 &&
	    strcmp(cli->command, "dashboard") != 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "--method, --penalty and --min-change only go "
				 "with regressions and dashboard");
	if (strcmp(cli->command, "store") == 0 &&
	    (cli->args.n < 2 || strcmp(cli->args.items[0], "import") != 0))
		return hb_errorf(err, errlen, -EINVAL,
				 "store needs import FILE...");
	if (strcmp(cli->command, "dashboard") == 0 && !cli->output)
		return hb_errorf(err, errlen, -EINVAL,
				 "dashboard needs -o DIR");
	if (strcmp(cli->command, "run") == 0 && cli->extended && cli->args.n)
		return hb_errorf(err, errlen, -EINVAL,
				 "--extended runs its own suite; drop %s",
				 cli->args.items[0]);
	return 0;
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
	int rc;

	memset(cli, 0, sizeof(*cli));
	cli->format = REPORT_TEXT;
	cli->threshold = -1; /* not given */
	cli->rank = -1;
	cli->argc = argc;
	cli->argv = argv;
	rc = own_args_command(argc, argv, cli, err, errlen);
	if (rc)
		return rc < 0 ? rc : 0;
	for (int i = 1; i < argc; i++) {
		rc = cli_word(argc, argv, &i, cli, err, errlen);
		if (rc)
			return rc;
	}
	if (cli->help || cli->version)
		return 0;
	return cli_check(cli, err, errlen);
}

void cli_free(struct cli *cli)
{
	strlist_free(&cli->args);
	strlist_free(&cli->sets);
	strlist_free(&cli->plugin_dirs);
}
