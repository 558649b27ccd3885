/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `hostbench report`, `hostbench compare` and `hostbench merge`: JSON
 * reports in, one report out. All read their reports the same way and
 * write through output_write(). (docs: the reports as read, cmp:
 * comparison.)
 */
#include "app/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/cli.h"
#include "app/output.h"
#include "base/exit.h"
#include "compare/compare.h"
#include "compare/compare_by.h"
#include "compare/merge.h"
#include "compare/report_doc.h"
#include "compare/report_read.h"
#include "report/report.h"

/* Free the n reports of docs and the array. */
static void free_reports(struct doc_report *docs, size_t n)
{
	for (size_t i = 0; i < n; i++)
		report_read_free(&docs[i]);
	free(docs);
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
		if (report_read_rank(&(*docs)[i], cli->args.items[i], cli->rank,
				     err, sizeof(err)) == 0)
			continue;
		fprintf(stderr, "hostbench: %s\n", err);
		free_reports(*docs, i);
		*docs = NULL;
		return EXIT_BAD_INPUT;
	}
	return EXIT_ALL_OK;
}

/*
 * The exit status of compare_build() or merge_build() returning rc with
 * err: reports that do not go together are bad input, said on one line.
 */
static int built_status(int rc, const char *err)
{
	if (!rc)
		return EXIT_ALL_OK;
	fprintf(stderr, "hostbench: %s\n", err);
	return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_BAD_INPUT;
}

/*
 * Write what was built to --output (or stdout). An --output that cannot be
 * opened is bad input, unless memory ran out. Returns an exit status.
 */
static int write_built(const struct cli *cli, output_writer *write,
		       const void *doc)
{
	int opened;
	int rc = output_write(cli->output, cli->format, write, doc, &opened);

	if (!rc)
		return EXIT_ALL_OK;
	return opened || rc == -ENOMEM ? EXIT_INTERNAL : EXIT_BAD_INPUT;
}

/* output_writer for a struct comparison. */
static int write_comparison(const void *doc, enum report_format f, FILE *out,
			    char *err, size_t errlen)
{
	return compare_write(doc, f, out, err, errlen);
}

/* output_writer for a struct merge. */
static int write_merge(const void *doc, enum report_format f, FILE *out,
		       char *err, size_t errlen)
{
	return merge_write(doc, f, out, err, errlen);
}

/* output_writer for a struct report_doc: the report, as the run wrote it. */
static int write_report_doc(const void *doc, enum report_format f, FILE *out,
			    char *err, size_t errlen)
{
	const struct report_doc *rd = doc;

	return report_write(f, &rd->r, out, err, errlen);
}

/* A CI gate: a case that got slower, or one that now fails. */
static int regressed(const struct cli *cli, const struct comparison *cmp)
{
	return cli->fail_on_regression && (cmp->nregressed || cmp->new_failed);
}

/*
 * compare_build_by() of the reports read: the second, else the first
 * again, as new; --by taken apart. Returns 0 or a negative code.
 */
static int build_comparison(const struct cli *cli,
			    const struct doc_report *docs,
			    struct comparison *cmp, char *err, size_t errlen)
{
	double threshold =
		cli->threshold >= 0 ? cli->threshold : COMPARE_THRESHOLD;
	struct compare_by_arg by = { 0 };
	int rc = cli->by ? compare_by_parse(cli->by, &by, err, errlen) : 0;

	if (!rc)
		rc = compare_build_by(cmp, &docs[0], &docs[cli->args.n > 1],
				      cli->by ? &by.by : NULL, threshold, err,
				      errlen);
	compare_by_free(&by);
	return rc;
}

int cmd_compare(const struct command_env *env)
{
	const struct cli *cli = env->cli;
	struct comparison cmp = { 0 };
	struct doc_report *docs;
	char err[1024];
	int status = read_reports(cli, &docs);

	if (status)
		return status;
	status = built_status(
		build_comparison(cli, docs, &cmp, err, sizeof(err)), err);
	if (!status)
		status = write_built(cli, write_comparison, &cmp);
	if (!status && regressed(cli, &cmp))
		status = EXIT_CASE_FAILED;
	compare_free(&cmp);
	free_reports(docs, cli->args.n);
	return status;
}

int cmd_merge(const struct command_env *env)
{
	const struct cli *cli = env->cli;
	struct merge m = { 0 };
	struct doc_report *docs;
	char err[1024];
	int status = read_reports(cli, &docs);

	if (status)
		return status;
	status = built_status(
		merge_build(&m, docs, cli->args.n, err, sizeof(err)), err);
	if (!status)
		status = write_built(cli, write_merge, &m);
	merge_free(&m);
	free_reports(docs, cli->args.n);
	return status;
}

int cmd_report(const struct command_env *env)
{
	const struct cli *cli = env->cli;
	struct report_doc rd = { 0 };
	struct doc_report *docs;
	char err[1024];
	int status = read_reports(cli, &docs);

	if (status)
		return status;
	status = built_status(
		report_doc_build(&rd, docs, cli->args.n, err, sizeof(err)),
		err);
	if (!status)
		status = write_built(cli, write_report_doc, &rd);
	report_doc_free(&rd);
	free_reports(docs, cli->args.n);
	return status;
}
