/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `hostbench report`, `hostbench compare` and `hostbench merge`: JSON
 * reports in, one report out. Each is a row of one table (what it builds
 * from the reports, how that is written and freed); reading, building,
 * writing through output_write() and freeing are written once. (docs: the
 * reports as read, cmp: comparison.)
 */
#include "app/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/compare_history.h"
#include "app/stored.h"
#include "ui/output.h"
#include "base/exit.h"
#include "base/jsonarena.h"
#include "compare/compare.h"
#include "compare/compare_by.h"
#include "compare/merge.h"
#include "compare/report_doc.h"
#include "compare/report_read.h"
#include "fleet/fleet.h"
#include "fleetreport/fleetreport.h"
#include "report/figure.h"
#include "report/report.h"

/* Free the n reports of docs and the array. */
static void free_reports(struct doc_report *docs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		report_read_free(&docs[i]);
	free(docs);
}

/* Say that a journal's lines cut off (its run died writing) were left out. */
static void note_torn(const struct doc_report *doc)
{
	if (doc->torn)
		fprintf(stderr,
			"hostbench: note: %s: %d line%s cut off (the run died "
			"writing %s), left out\n",
			doc->path, doc->torn, doc->torn == 1 ? "" : "s",
			doc->torn == 1 ? "it" : "them");
}

/*
 * Read the report arg names into doc: a file, or for `report` a stored
 * run's uuid (stored.h). Returns 0 or a negative code.
 */
static int read_one(const struct cli *cli, const char *arg,
		    struct doc_report *doc, char *err, size_t errlen)
{
	if (strcmp(cli->command, "report") == 0 && stored_is_run(arg))
		return stored_read(doc, cli->store, arg, err, errlen);
	return report_read_rank(doc, arg, cli->rank, err, errlen);
}

/*
 * Read the reports of cli->args into *docs (one each). Returns an exit
 * status; a report that cannot be read is bad input, said on one line.
 */
static int read_reports(const struct cli *cli, struct doc_report **docs)
{
	char err[1024];

	*docs = calloc(cli->args.n, sizeof(**docs));
	if (!*docs)
		return EXIT_INTERNAL;
	for (size_t i = 0; i < cli->args.n; i++) {
		if (read_one(cli, cli->args.items[i], &(*docs)[i], err,
			     sizeof(err)) == 0) {
			note_torn(&(*docs)[i]);
			continue;
		}
		fprintf(stderr, "hostbench: %s\n", err);
		free_reports(*docs, i);
		*docs = NULL;
		return EXIT_BAD_INPUT;
	}
	return EXIT_ALL_OK;
}

/*
 * The exit status of a build returning rc with err: reports that do not
 * go together are bad input, said on one line.
 */
static int built_status(int rc, const char *err)
{
	if (!rc)
		return EXIT_ALL_OK;
	fprintf(stderr, "hostbench: %s\n", err);
	return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_BAD_INPUT;
}

/* What report, compare or merge builds from the reports it read. */
struct reports_built {
	union {
		struct comparison cmp;
		struct report_doc rd;
		struct merge m;
	};
	struct compare_by_arg by; /* compare --by, which cmp points into */
};

/*
 * One of the commands of this file: how it builds what it writes from
 * cli->args.n reports in docs, how that is written and freed, and, when
 * not NULL, whether its result fails the command (a CI gate).
 */
struct reports_command {
	int (*build)(const struct cli *cli, const struct doc_report *docs,
		     struct reports_built *b, char *err, size_t errlen);
	output_writer *write;
	void (*free)(struct reports_built *b);
	int (*fails)(const struct cli *cli, const struct reports_built *b);
};

/*
 * compare_build_by() of the reports read: the second, else the first
 * again, as new; --by taken apart. Returns 0 or a negative code.
 */
static int build_comparison(const struct cli *cli,
			    const struct doc_report *docs,
			    struct reports_built *b, char *err, size_t errlen)
{
	const struct compare_rule rule = {
		.threshold = cli->threshold >= 0 ? cli->threshold
						 : COMPARE_THRESHOLD,
		.figure = cli->figure,
	};
	int rc = cli->by ? compare_by_parse(cli->by, &b->by, err, errlen) : 0;

	if (!rc)
		rc = compare_build_by(&b->cmp, &docs[0], &docs[cli->args.n > 1],
				      cli->by ? &b->by.by : NULL, &rule, err,
				      errlen);
	if (!rc && !cli->by)
		compare_history_apply(cli, &b->cmp);
	return rc;
}

/* output_writer for a comparison. */
static int write_comparison(const void *doc, enum report_format f, FILE *out,
			    char *err, size_t errlen)
{
	const struct reports_built *b = doc;

	return compare_write(&b->cmp, f, out, err, errlen);
}

static void free_comparison(struct reports_built *b)
{
	compare_free(&b->cmp);
	compare_by_free(&b->by);
}

/* A CI gate: a case that got slower, or one that now fails. */
static int regressed(const struct cli *cli, const struct reports_built *b)
{
	return cli->fail_on_regression &&
	       (b->cmp.nregressed || b->cmp.new_failed);
}

/* merge_build() of every report read. */
static int build_merge(const struct cli *cli, const struct doc_report *docs,
		       struct reports_built *b, char *err, size_t errlen)
{
	return merge_build(&b->m, docs, cli->args.n, err, errlen);
}

/* output_writer for a merge. */
static int write_merge(const void *doc, enum report_format f, FILE *out,
		       char *err, size_t errlen)
{
	const struct reports_built *b = doc;

	return merge_write(&b->m, f, out, err, errlen);
}

static void free_merge(struct reports_built *b)
{
	merge_free(&b->m);
}

/* report_doc_build() of every report read: one report again. */
static int build_report_doc(const struct cli *cli,
			    const struct doc_report *docs,
			    struct reports_built *b, char *err, size_t errlen)
{
	int rc = report_doc_build(&b->rd, docs, cli->args.n, err, errlen);

	if (rc || cli->figure != RESULT_FIGURE_CPU)
		return rc;
	b->rd.r.figure = RESULT_FIGURE_CPU;
	for (size_t i = 0; i < b->rd.r.nresults; i++)
		report_show_per_cpu(&b->rd.results[i]);
	return 0;
}

/* output_writer for a report laid out again: as the run wrote it. */
static int write_report_doc(const void *doc, enum report_format f, FILE *out,
			    char *err, size_t errlen)
{
	const struct reports_built *b = doc;

	return report_write(f, &b->rd.r, out, err, errlen);
}

static void free_report_doc(struct reports_built *b)
{
	report_doc_free(&b->rd);
}

/* The commands of this file. */
enum reports_kind { REPORTS_REPORT, REPORTS_COMPARE, REPORTS_MERGE };

/* Each command of this file: one row. */
static const struct reports_command commands[] = {
	[REPORTS_REPORT] = { build_report_doc, write_report_doc,
			     free_report_doc, NULL },
	[REPORTS_COMPARE] = { build_comparison, write_comparison,
			      free_comparison, regressed },
	[REPORTS_MERGE] = { build_merge, write_merge, free_merge, NULL },
};

/*
 * Read the reports, build what cmd makes of them, write it and free both.
 * Returns an exit status.
 */
static int reports_run(const struct command_env *env, enum reports_kind kind)
{
	const struct reports_command *cmd = &commands[kind];
	const struct cli *cli = env->cli;
	struct reports_built b;
	struct doc_report *docs;
	char err[1024];
	int status;

	/* the documents read are freed only at the end: cut from an arena */
	jsonarena_begin();
	status = read_reports(cli, &docs);
	if (status) {
		jsonarena_end();
		return status;
	}
	/* every member of the union zero, whichever cmd builds */
	memset(&b, 0, sizeof(b));
	status = built_status(cmd->build(cli, docs, &b, err, sizeof(err)), err);
	if (!status)
		status = output_write_status(cli->output, cli->format,
					     cmd->write, &b);
	if (!status && cmd->fails && cmd->fails(cli, &b))
		status = EXIT_CASE_FAILED;
	cmd->free(&b);
	free_reports(docs, cli->args.n);
	jsonarena_end();
	return status;
}

int cmd_compare(const struct command_env *env)
{
	return reports_run(env, REPORTS_COMPARE);
}

int cmd_merge(const struct command_env *env)
{
	return reports_run(env, REPORTS_MERGE);
}

/* output_writer for a fleet report read back: rank 0's writers again. */
static int write_fleet(const void *doc, enum report_format f, FILE *out,
		       char *err, size_t errlen)
{
	const struct fleet_saved *fs = doc;

	return fleet_report(&fs->fleet, f, &fs->own.r, out, err, errlen);
}

/*
 * `hostbench report fleet.json`: the fleet report written again in any
 * format. Returns an exit status, or -1 when the file holds no fleet
 * report (it is read as one host's).
 */
static int report_fleet(const struct cli *cli)
{
	struct fleet_saved fs;
	char err[1024];
	int rc = fleet_saved_read(&fs, cli->args.items[0], err, sizeof(err));

	if (rc == -ENOTSUP)
		return -1;
	if (!rc && cli->figure == RESULT_FIGURE_CPU) {
		fleet_saved_free(&fs);
		rc = hb_errorf(err, sizeof(err), -EINVAL,
			       "--figure cpu: a fleet report shows both "
			       "figures already (the spread's median per "
			       "CPU-s); take one host with --rank N");
	}
	if (rc)
		return built_status(rc, err);
	rc = output_write_status(cli->output, cli->format, write_fleet, &fs);
	fleet_saved_free(&fs);
	return rc;
}

int cmd_report(const struct command_env *env)
{
	int status = -1;

	/* --rank N takes one host's report out of a fleet report; a stored
	 * run is one host's */
	if (env->cli->rank < 0 && env->cli->args.n == 1 &&
	    !stored_is_run(env->cli->args.items[0]))
		status = report_fleet(env->cli);
	return status >= 0 ? status : reports_run(env, REPORTS_REPORT);
}
