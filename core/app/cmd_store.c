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
#include "app/output.h"
#include "base/exit.h"
#include "history/dashboard.h"
#include "history/history_write.h"
#include "history/regress.h"
#include "store/store.h"

/* Open the store of --store (or the default); one line when it fails. */
static struct store *open_store(const struct cli *cli)
{
	struct store *st;
	char err[1024];

	if (store_open(&st, cli->store, NULL, err, sizeof(err)) == 0)
		return st;
	fprintf(stderr, "hostbench: %s\n", err);
	return NULL;
}

int cmd_store(const struct command_env *env)
{
	const struct cli *cli = env->cli;
	struct store *st = open_store(cli);
	int status = EXIT_ALL_OK, added, rc, n = 0;
	char err[1024];

	if (!st)
		return EXIT_STORE;
	for (size_t i = 1; i < cli->args.n; i++) {
		rc = store_import(st, cli->args.items[i], &added, err,
				  sizeof(err));
		if (rc) {
			fprintf(stderr, "hostbench: %s\n", err);
			status = rc == -EINVAL ? EXIT_BAD_INPUT : EXIT_STORE;
			continue;
		}
		n += added;
	}
	fprintf(stderr, "hostbench: %d new run%s stored in %s\n", n,
		n == 1 ? "" : "s", store_where(st));
	store_close(st);
	return status;
}

int cmd_store_history(struct store *st, const struct cli *cli, int detect,
		      json_t **doc)
{
	const struct store_query q = { .host = cli->host,
				       .cases = cli->cases,
				       .since = cli->since,
				       .label = cli->label };
	char err[1024];
	int rc = store_history(st, &q, doc, err, sizeof(err));

	if (!rc && detect)
		rc = history_regressions(*doc, &(struct regress_opts){ 0 }, err,
					 sizeof(err));
	if (!rc && detect)
		rc = store_changes_save(st, *doc, err, sizeof(err));
	if (!rc)
		return 0;
	fprintf(stderr, "hostbench: store %s: %s\n", store_where(st), err);
	json_decref(*doc);
	*doc = NULL;
	return -1;
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
	struct store *st = open_store(env->cli);
	json_t *doc = NULL;
	int status = EXIT_STORE;

	if (st && cmd_store_history(st, env->cli, 0, &doc) == 0)
		status = write_doc(doc, env->cli);
	json_decref(doc);
	store_close(st);
	return status;
}

/* --ack ID or --ignore ID: the change point's new state. */
static int decide(struct store *st, const struct cli *cli)
{
	const char *id = cli->ack ? cli->ack : cli->ignore;
	char err[1024];
	int rc;

	rc = store_change_state(st, id, cli->ack ? "acknowledged" : "ignored",
				err, sizeof(err));
	if (rc) {
		fprintf(stderr, "hostbench: %s\n", err);
		return rc == -ENOENT ? EXIT_BAD_INPUT : EXIT_STORE;
	}
	fprintf(stderr, "hostbench: %s %s\n", id,
		cli->ack ? "acknowledged" : "ignored");
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
	struct store *st = open_store(cli);
	json_t *doc = NULL;
	int status = EXIT_STORE;

	if (st && (cli->ack || cli->ignore))
		status = decide(st, cli);
	else if (st && cmd_store_history(st, cli, 1, &doc) == 0)
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
	struct store *st = open_store(env->cli);
	json_t *doc = NULL;
	char err[1024];
	int status = EXIT_STORE;

	if (st && cmd_store_history(st, env->cli, 1, &doc) == 0) {
		status = EXIT_ALL_OK;
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
