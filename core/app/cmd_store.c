/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The commands of the results store: `store import`, `history`,
 * `regressions` and `dashboard`. Each opens the store, builds the
 * history document (store/store.h) and hands it to history/.
 */
#include "app/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "app/cli.h"
#include "app/cmd_store.h"
#include "ui/output.h"
#include "base/exit.h"
#include "base/sanitize.h"
#include "history/context_diff.h"
#include "history/dashboard.h"
#include "history/history_write.h"
#include "history/regress.h"
#include "history/view.h"
#include "import/import.h"
#include "store/store.h"

struct store *cmd_store_open(const struct cli *cli)
{
	struct store *st;
	char err[1024];

	if (store_open(&st, cli->store, NULL, err, sizeof(err)) == 0)
		return st;
	fprintf(stderr, "hostbench: %s\n", err);
	return NULL;
}

/*
 * Import the file at path as cli's --from says; its new runs counted in
 * *n, those stored already said, and what the importer assumed. Returns
 * an exit status: a file refused is bad input, and the others go on.
 */
static int import_one(struct store *st, const struct cli *cli, const char *path,
		      int *n)
{
	const struct import_opts o = { .from = cli->from,
				       .host = cli->host,
				       .tool_version = cli->tool_version };
	struct store_tally t = { 0 };
	struct strlist notes = { 0 };
	char err[2048];
	int rc = import_file(st, path, &o, &t, &notes, err, sizeof(err));

	for (size_t k = 0; k < notes.n; k++)
		fprintf(stderr, "hostbench: %s\n", notes.items[k]);
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	for (size_t k = 0; !rc && k < t.skipped.n; k++)
		fprintf(stderr,
			"hostbench: skipped: run %s already stored, from %s\n",
			t.skipped.items[k], path);
	*n += rc ? 0 : t.added;
	store_tally_free(&t);
	strlist_free(&notes);
	if (rc)
		return rc == -EINVAL ? EXIT_BAD_INPUT : EXIT_STORE;
	return EXIT_ALL_OK;
}

int cmd_store(const struct command_env *env)
{
	const struct cli *cli = env->cli;
	struct store *st = cmd_store_open(cli);
	int status = EXIT_ALL_OK, one, n = 0;

	if (!st)
		return EXIT_STORE;
	for (size_t i = 1; i < cli->args.n; i++) {
		one = import_one(st, cli, cli->args.items[i], &n);
		status = one != EXIT_ALL_OK ? one : status;
	}
	fprintf(stderr, "hostbench: %d new run%s stored in %s\n", n,
		n == 1 ? "" : "s", store_where(st));
	store_close(st);
	return status;
}

/* One line on stderr for each point the detector left out. */
static void say_skipped(const json_t *doc)
{
	const json_t *s, *k;
	char label[VIEW_LINE];
	size_t i, j;

	json_array_foreach(json_object_get(doc, "series"), i, s) {
		view_label(s, label, sizeof(label));
		json_array_foreach(json_object_get(s, "skipped"), j, k) {
			fprintf(stderr,
				"hostbench: run %s, %s on %s: %s, left out of "
				"the judgement\n",
				view_str(k, "run") ? view_str(k, "run") : "?",
				label, view_host_name(doc, view_str(s, "host")),
				view_str(k, "reason"));
		}
	}
}

/* The selection of cli's --host, --case, --since, --until, --label. */
static struct store_query query_of(const struct cli *cli)
{
	return (struct store_query){
		.host = cli->host,
		.cases = cli->cases,
		.since = cli->since ? cli->since_at : NULL,
		.until = cli->until ? cli->until_at : NULL,
		.label = cli->label,
	};
}

int cmd_store_history(struct store *st, const struct cli *cli, int detect,
		      json_t **doc)
{
	const struct store_query q = query_of(cli);
	const struct regress_opts o = { .method = cli->method,
					.penalty = cli->penalty,
					.min_change = cli->min_change };
	char err[1024];
	int rc = store_history(st, &q, doc, err, sizeof(err));

	if (!rc && context_diff_doc(*doc))
		rc = hb_errorf(err, sizeof(err), -ENOMEM, "out of memory");
	if (!rc && detect)
		rc = history_regressions(*doc, &o, err, sizeof(err));
	if (!rc && detect) {
		say_skipped(*doc);
		rc = store_changes_save(st, *doc, err, sizeof(err));
	}
	if (!rc)
		return 0;
	fprintf(stderr, "hostbench: store %s: %s\n", store_where(st), err);
	json_decref(*doc);
	*doc = NULL;
	return -1;
}

int cmd_store_doc(struct store *st, const struct cli *cli, int detect,
		  json_t **doc)
{
	const struct store_query q = query_of(cli);
	char err[1024];
	int rc = store_select_check(st, &q, err, sizeof(err));

	*doc = NULL;
	if (rc == -ENOENT) {
		fprintf(stderr, "hostbench: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	if (rc) {
		fprintf(stderr, "hostbench: store %s: %s\n", store_where(st),
			err);
		return EXIT_STORE;
	}
	return cmd_store_history(st, cli, detect, doc) ? EXIT_STORE
						       : EXIT_ALL_OK;
}

/* output_writer for a history document. */
static int write_history(const void *doc, enum report_format f, FILE *out,
			 char *err, size_t errlen)
{
	return history_write(doc, f, out, err, errlen);
}

/* Write doc in --format to --output (or stdout). Returns an exit status. */
static int write_doc(const json_t *doc, const struct cli *cli)
{
	return output_write_status(cli->output, cli->format, write_history,
				   doc);
}

int cmd_history(const struct command_env *env)
{
	struct store *st = cmd_store_open(env->cli);
	json_t *doc = NULL;
	int status = EXIT_STORE;

	if (st)
		status = cmd_store_doc(st, env->cli, 0, &doc);
	if (doc)
		status = write_doc(doc, env->cli);
	json_decref(doc);
	store_close(st);
	return status;
}

/*
 * --ack ID or --ignore ID: the change point's new state. The line that
 * says so, or why not, is sanitized: the id is anyone's text (a script
 * may pass on what it read), and err may name it.
 */
static int decide(struct store *st, const struct cli *cli)
{
	const char *id = cli->ack ? cli->ack : cli->ignore;
	const char *state = cli->ack ? "acknowledged" : "ignored";
	char err[1024];
	int rc = store_change_state(st, id, state, err, sizeof(err));

	if (!rc)
		snprintf(err, sizeof(err), "%s %s", id, state);
	sanitize_text(err);
	fprintf(stderr, "hostbench: %s\n", err);
	if (rc)
		return rc == -ENOENT ? EXIT_BAD_INPUT : EXIT_STORE;
	return EXIT_ALL_OK;
}

/* Whether change c is a regression neither acknowledged nor ignored. */
static int is_open_regression(const json_t *c)
{
	const char *kind = json_string_value(json_object_get(c, "kind"));
	const char *state = json_string_value(json_object_get(c, "state"));

	return kind && state && strcmp(kind, "regression") == 0 &&
	       strcmp(state, "new") == 0;
}

/* Regressions of doc neither acknowledged nor ignored. */
static size_t open_regressions(const json_t *doc)
{
	const json_t *series = json_object_get(doc, "series");
	size_t n = 0;

	for (size_t i = 0; i < json_array_size(series); i++) {
		const json_t *changes =
			json_object_get(json_array_get(series, i), "changes");

		for (size_t k = 0; k < json_array_size(changes); k++)
			n += (size_t)is_open_regression(
				json_array_get(changes, k));
	}
	return n;
}

int cmd_regressions(const struct command_env *env)
{
	const struct cli *cli = env->cli;
	struct store *st = cmd_store_open(cli);
	json_t *doc = NULL;
	int status = EXIT_STORE;

	if (st && (cli->ack || cli->ignore))
		status = decide(st, cli);
	else if (st &&
		 (status = cmd_store_doc(st, cli, 1, &doc)) == EXIT_ALL_OK)
		status = write_doc(doc, cli);
	if (status == EXIT_ALL_OK && cli->fail && doc &&
	    open_regressions(doc)) {
		fprintf(stderr, "hostbench: %zu regression%s open\n",
			open_regressions(doc),
			open_regressions(doc) == 1 ? "" : "s");
		status = EXIT_CASE_FAILED;
	}
	json_decref(doc);
	store_close(st);
	return status;
}

int cmd_dashboard(const struct command_env *env)
{
	struct store *st = cmd_store_open(env->cli);
	json_t *doc = NULL;
	char err[1024];
	int status = EXIT_STORE;

	if (st)
		status = cmd_store_doc(st, env->cli, 1, &doc);
	if (doc) {
		if (dashboard_write(doc, env->cli->output, err, sizeof(err))) {
			fprintf(stderr, "hostbench: %s\n", err);
			status = EXIT_INTERNAL;
		} else {
			fprintf(stderr, "hostbench: dashboard in %s\n",
				env->cli->output);
		}
	}
	json_decref(doc);
	store_close(st);
	return status;
}
