/* SPDX-License-Identifier: Apache-2.0 */
/* The options of the command line, one definition each, and their setters. */
#include "app/options.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "base/parse.h"
#include "base/sanitize.h"
#include "base/timetext.h"
#include "compare/compare_by.h"
#include "export/export.h"
#include "import/import.h"
#include "result/runinfo.h"
#include "result/sysinfo.h"

/* The field of cli at offset at. */
static void *field(struct cli *cli, size_t at)
{
	return (char *)cli + at;
}

/* A flag: 1 into the int field. */
static int set_flag(struct cli *cli, const struct options_use *use, char *err,
		    size_t errlen)
{
	(void)err;
	(void)errlen;
	*(int *)field(cli, use->def->at) = 1;
	return 0;
}

/* A text as given into the const char * field; once: a second refused. */
static int set_text(struct cli *cli, const struct options_use *use, char *err,
		    size_t errlen)
{
	const char **slot = field(cli, use->def->at);

	if (*slot && use->def->once)
		return hb_errorf(err, errlen, -EINVAL,
				 "--%s given twice: one decision at a time",
				 use->def->name);
	*slot = use->value;
	return 0;
}

/* One more text of a repeatable option into the struct strlist field. */
static int set_list(struct cli *cli, const struct options_use *use, char *err,
		    size_t errlen)
{
	if (strlist_push(field(cli, use->def->at), use->value))
		return hb_errorf(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	return 0;
}

/*
 * -s/--set [SECTION.]KEY=VALUE; a unit as the next word is a value the
 * shell split at its blank ("--set file_size=1 GB").
 */
static int set_suite_value(struct cli *cli, const struct options_use *use,
			   char *err, size_t errlen)
{
	const char *v = use->value, *next = use->next;

	if (!strchr(v, '='))
		return hb_errorf(err, errlen, -EINVAL,
				 "--set %s: expected [SECTION.]KEY=VALUE", v);
	if (next && parse_is_unit(next))
		return hb_errorf(err, errlen, -EINVAL,
				 "--set %s %s: the shell split the value at "
				 "its blank; quote it (--set '%s %s') or "
				 "write it without one (%s%s)",
				 v, next, v, next, v, next);
	return set_list(cli, use, err, errlen);
}

/*
 * -f/--format FMT. One report is written per run, so a second --format
 * is refused rather than silently winning. An export format (openmetrics,
 * bmf) is kept as typed: format_check() judges it once the command is
 * known.
 */
static int set_format(struct cli *cli, const struct options_use *use, char *err,
		      size_t errlen)
{
	enum export_format x;
	enum report_format f = REPORT_TEXT;

	if (report_format_parse(use->value, &f) &&
	    export_format_parse(use->value, &x))
		return hb_errorf(err, errlen, -EINVAL,
				 "--format %s: expected text, json, csv, md "
				 "or html (export: openmetrics or bmf)",
				 use->value);
	if (cli->format_arg)
		return hb_errorf(err, errlen, -EINVAL,
				 "--format given twice (%s, then %s): one "
				 "report is written per command; give one",
				 cli->format_arg, use->value);
	cli->format = f;
	cli->format_arg = use->value;
	return 0;
}

/* --format: export writes its own formats, the others a report's. */
static int format_check(struct cli *cli, char *err, size_t errlen)
{
	enum export_format x;
	int exporting = strcmp(cli->command, "export") == 0;

	if (exporting == !export_format_parse(cli->format_arg, &x))
		return 0;
	if (exporting)
		return hb_errorf(err, errlen, -EINVAL,
				 "--format %s: export writes openmetrics or "
				 "bmf",
				 cli->format_arg);
	return hb_errorf(err, errlen, -EINVAL,
			 "--format %s: only export writes it; expected text, "
			 "json, csv, md or html",
			 cli->format_arg);
}

/* --figure wall|cpu. */
static int set_figure(struct cli *cli, const struct options_use *use, char *err,
		      size_t errlen)
{
	if (strcmp(use->value, "wall") == 0)
		cli->figure = RESULT_FIGURE_WALL;
	else if (strcmp(use->value, "cpu") == 0)
		cli->figure = RESULT_FIGURE_CPU;
	else
		return hb_errorf(err, errlen, -EINVAL,
				 "--figure %s: expected wall or cpu",
				 use->value);
	return 0;
}

/* --by KEY=BASE,NEW, kept as typed once it parses. */
static int set_by(struct cli *cli, const struct options_use *use, char *err,
		  size_t errlen)
{
	cli->by = use->value;
	return compare_by_parse(cli->by, NULL, err, errlen);
}

/* A percentage ("5", "5%") as a fraction, in [0, 1000), into *out. */
static int percent_parse(const struct options_use *use, double *out, char *err,
			 size_t errlen)
{
	const char *v = use->value;
	char *end;
	double pct = strtod(v, &end);

	if (end != v && *end == '%')
		end++;
	if (end == v || *end || !(pct >= 0 && pct < 1000))
		return hb_errorf(err, errlen, -EINVAL,
				 "--%s %s: expected a percentage from 0 "
				 "to 1000 (5 means 5%%)",
				 use->def->name, v);
	*out = pct / 100;
	return 0;
}

/* --threshold PERCENT: the noise threshold of compare. */
static int set_threshold(struct cli *cli, const struct options_use *use,
			 char *err, size_t errlen)
{
	return percent_parse(use, &cli->threshold, err, errlen);
}

/* --rank N: a rank of a fleet report, 0 or more. */
static int set_rank(struct cli *cli, const struct options_use *use, char *err,
		    size_t errlen)
{
	int64_t n;

	if (parse_int(use->value, &n, NULL, 0) || n < 0 || n > INT32_MAX)
		return hb_errorf(err, errlen, -EINVAL,
				 "--rank %s: expected a rank (0, 1, ...)",
				 use->value);
	cli->rank = (int)n;
	return 0;
}

/* --method pelt|binseg. */
static int set_method(struct cli *cli, const struct options_use *use, char *err,
		      size_t errlen)
{
	if (strcmp(use->value, "pelt") == 0)
		cli->method = CHANGEPOINT_PELT;
	else if (strcmp(use->value, "binseg") == 0)
		cli->method = CHANGEPOINT_BINSEG;
	else
		return hb_errorf(err, errlen, -EINVAL,
				 "--method %s: expected pelt or binseg",
				 use->value);
	return 0;
}

/* --penalty VALUE: above 0, at most 1000. */
static int set_penalty(struct cli *cli, const struct options_use *use,
		       char *err, size_t errlen)
{
	char *end;

	cli->penalty = strtod(use->value, &end);
	if (end == use->value || *end || !(cli->penalty > 0) ||
	    !(cli->penalty <= 1000))
		return hb_errorf(err, errlen, -EINVAL,
				 "--penalty %s: expected a number above 0, at "
				 "most 1000 (default 6)",
				 use->value);
	return 0;
}

/* --min-change PERCENT: a percentage above 0. */
static int set_min_change(struct cli *cli, const struct options_use *use,
			  char *err, size_t errlen)
{
	if (percent_parse(use, &cli->min_change, err, errlen))
		return -EINVAL;
	if (!(cli->min_change > 0))
		return hb_errorf(err, errlen, -EINVAL,
				 "--min-change %s: expected more than 0 (5 "
				 "means 5%%)",
				 use->value);
	return 0;
}

/* --label TEXT: printable and bounded, as every report shows it. */
static int label_check(struct cli *cli, char *err, size_t errlen)
{
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

/* store import --from FORMAT: one the importers know. */
static int from_check(struct cli *cli, char *err, size_t errlen)
{
	if (import_format_known(cli->from))
		return 0;
	return hb_errorf(err, errlen, -EINVAL,
			 "--from %.64s: expected one of %s", cli->from,
			 import_format_names());
}

/* --host: printable, at most a host name's length. */
static int host_check(struct cli *cli, char *err, size_t errlen)
{
	if (*cli->host && strlen(cli->host) <= SYSINFO_HOSTNAME_MAX &&
	    sanitize_is_clean(cli->host))
		return 0;
	return hb_errorf(err, errlen, -EINVAL,
			 "--host: expected 1 to %d bytes of printable text",
			 SYSINFO_HOSTNAME_MAX);
}

/* --tool-version V: printable text. */
static int import_text_check(struct cli *cli, char *err, size_t errlen)
{
	const char *v = cli->tool_version;

	if (!v || (*v && strlen(v) <= 64 && sanitize_is_clean(v)))
		return 0;
	return hb_errorf(err, errlen, -EINVAL,
			 "--tool-version: expected 1 to 64 bytes of printable "
			 "text");
}

#define AT(f) .at = offsetof(struct cli, f)

/* In the order each command's --help lists them. */
// clang-format off
static const struct options_def defs[] = {
	{ .name = "extended", .help = "run the extended matrix (conf/extended.ini)",
	  AT(extended), .set = set_flag },
	{ .name = "fio", .help = "read every suite as a fio job file",
	  AT(fio), .set = set_flag },
	{ .name = "format", .shrt = 'f', .arg = "FMT",
	  .help = "text (default), json, csv, md, html;\n"
		  "export: openmetrics (default), bmf",
	  .set = set_format, .check = format_check },
	{ .name = "output", .shrt = 'o', .arg = "FILE",
	  .help = "write the report to FILE (written whole)",
	  AT(output), .set = set_text },
	{ .name = "set", .shrt = 's', .arg = "[SECTION.]KEY=VALUE",
	  .help = "override a suite value (repeatable)",
	  AT(sets), .set = set_suite_value },
	{ .name = "journal", .arg = "FILE",
	  .help = "append each finished result to FILE as a\n"
		  "JSON line, as soon as it is measured",
	  AT(journal), .set = set_text },
	{ .name = "resume", .arg = "FILE",
	  .help = "skip the cases FILE already holds, run the\n"
		  "rest and append them to FILE",
	  AT(resume), .set = set_text },
	{ .name = "plugin-dir", .shrt = 'P', .arg = "DIR",
	  .help = "also load plugins from DIR (repeatable)",
	  AT(plugin_dirs), .set = set_list },
	{ .name = "threshold", .arg = "PERCENT",
	  .help = "the noise threshold (default 5)", .set = set_threshold },
	{ .name = "fail-on-regression", .help = "exit 1 when a case regressed",
	  AT(fail_on_regression), .set = set_flag },
	{ .name = "figure", .arg = "wall|cpu",
	  .help = "compare: judge wall rates (default) or\n"
		  "rates per CPU-second; report: lead with one",
	  .set = set_figure },
	{ .name = "by", .arg = "KEY=A,B",
	  .help = "the cases that differ only in KEY, A against\n"
		  "B, in one report (or from the first to the\n"
		  "second)",
	  .set = set_by },
	{ .name = "rank", .arg = "N",
	  .help = "rank N's host of a fleet report", .set = set_rank },
	{ .name = "reference", .arg = "BACKEND",
	  .help = "the backend to agree with (default openssl)",
	  AT(reference), .set = set_text },
	{ .name = "store", .arg = "URL",
	  .help = "sqlite:PATH or postgresql://... (default\n"
		  "HOSTBENCH_STORE, else sqlite:\n"
		  "$XDG_DATA_HOME/hostbench/results.db)",
	  AT(store), .set = set_text },
	{ .name = "no-store",
	  .help = "run: keep the report out of the store;\n"
		  "compare: judge without its history",
	  AT(no_store), .set = set_flag },
	{ .name = "history", .help = "each line against its series",
	  AT(history), .set = set_flag },
	{ .name = "label", .arg = "TEXT",
	  .help = "run: a label kept with the run (at most\n"
		  "128 bytes of printable text); otherwise:\n"
		  "the runs of that label only",
	  AT(label), .set = set_text, .check = label_check },
	{ .name = "host", .arg = "H",
	  .help = "one host (id or name); store import: the\n"
		  "host of a file that names none",
	  AT(host), .set = set_text, .check = host_check },
	{ .name = "from", .arg = "FORMAT",
	  .help = "store import: the files' format: auto,\n"
		  "hostbench (default), fio, iperf3,\n"
		  "openssl-speed, gbench, hyperfine, pyperf",
	  AT(from), .set = set_text, .check = from_check },
	{ .name = "tool-version", .arg = "V",
	  .help = "store import: the tool's version, for a\n"
		  "file that says none (openssl speed's)",
	  AT(tool_version), .set = set_text, .check = import_text_check },
	{ .name = "case", .arg = "PATTERN",
	  .help = "cases whose job, title or target match",
	  AT(cases), .set = set_text },
	{ .name = "since", .arg = "DATE",
	  .help = "points from DATE on (YYYY-MM-DD or an\n"
		  "RFC 3339 time)",
	  AT(since), .set = set_text, .check = dates_check },
	{ .name = "until", .arg = "DATE",
	  .help = "points up to DATE (a whole day)",
	  AT(until), .set = set_text, .check = dates_check },
	{ .name = "fail", .help = "exit 1 while a regression is open",
	  AT(fail), .set = set_flag },
	{ .name = "ack", .arg = "ID", .help = "acknowledge a change point",
	  AT(ack), .once = 1, .set = set_text },
	{ .name = "ignore", .arg = "ID", .help = "ignore a change point",
	  AT(ignore), .once = 1, .set = set_text },
	{ .name = "method", .arg = "pelt|binseg",
	  .help = "how change points are searched (default\n"
		  "pelt)",
	  .set = set_method },
	{ .name = "penalty", .arg = "VALUE",
	  .help = "the price of a change point, in log(n)\n"
		  "noise variances (default 6)",
	  .set = set_penalty },
	{ .name = "min-change", .arg = "PERCENT",
	  .help = "the least step reported (default 5)",
	  .set = set_min_change },
	{ .name = "help", .shrt = 'h', .help = "this text", .global = 1,
	  AT(help), .set = set_flag },
	{ .name = "version", .shrt = 'V', .help = "the version", .global = 1,
	  AT(version), .set = set_flag },
};
// clang-format on

#define NDEFS (sizeof(defs) / sizeof(defs[0]))

_Static_assert(NDEFS <= OPTIONS_MAX, "raise OPTIONS_MAX");

const struct options_def *options_find(const char *word)
{
	if (word[0] != '-')
		return NULL;
	for (size_t i = 0; i < NDEFS; i++) {
		size_t n = strlen(defs[i].name);

		if (word[1] != '-') {
			if (defs[i].shrt && word[1] == defs[i].shrt &&
			    word[2] == '\0')
				return &defs[i];
		} else if (strncmp(word + 2, defs[i].name, n) == 0 &&
			   (word[2 + n] == '\0' || word[2 + n] == '=')) {
			return &defs[i];
		}
	}
	return NULL;
}

const struct options_def *options_named(const char *name)
{
	for (size_t i = 0; i < NDEFS; i++)
		if (strcmp(defs[i].name, name) == 0)
			return &defs[i];
	return NULL;
}

const struct options_def *options_at(size_t i)
{
	return i < NDEFS ? &defs[i] : NULL;
}

size_t options_index(const struct options_def *def)
{
	return (size_t)(def - defs);
}
