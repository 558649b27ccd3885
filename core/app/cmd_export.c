/* SPDX-License-Identifier: Apache-2.0 */
/*
 * export: figures for a lab's dashboards (export/export.h) from saved
 * reports, stored runs by uuid, or the store's newest point of every
 * series, written whole to --output (a .prom file a node_exporter
 * textfile collector reads is never seen half written).
 */
#include "app/cmd.h"

#include <errno.h>
#include <stdio.h>

#include "app/cli.h"
#include "app/cmd_store.h"
#include "app/stored.h"
#include "base/exit.h"
#include "export/export.h"
#include "ui/output.h"

/* What the output writer is handed. */
struct export_job {
	const struct export_set *set;
	enum export_format format;
};

/* output_writer for an export. */
static int write_export(const void *doc, enum report_format f, FILE *out,
			char *err, size_t errlen)
{
	const struct export_job *job = doc;

	(void)f;
	return export_write(job->set, job->format, out, err, errlen);
}

/* The report or stored run arg into set. Returns an exit status. */
static int add_one(const struct cli *cli, const char *arg,
		   struct export_set *set)
{
	struct doc_report doc = { 0 };
	char err[1024];
	int rc = stored_is_run(arg)
			 ? stored_read(&doc, cli->store, arg, err, sizeof(err))
			 : report_read(&doc, arg, err, sizeof(err));

	if (!rc) {
		rc = export_add_report(set, &doc, err, sizeof(err));
		report_read_free(&doc);
	}
	if (!rc)
		return EXIT_ALL_OK;
	fprintf(stderr, "hostbench: %s\n", err);
	return rc == -ENOMEM ? EXIT_INTERNAL : EXIT_BAD_INPUT;
}

/* The newest point of each series the selectors keep. Exit status. */
static int add_store(const struct cli *cli, struct export_set *set)
{
	struct store *st = cmd_store_open(cli);
	json_t *doc = NULL;
	char err[1024];
	int status = st ? cmd_store_doc(st, cli, 0, &doc) : EXIT_STORE;

	if (doc && export_add_history(set, doc, err, sizeof(err))) {
		fprintf(stderr, "hostbench: %s\n", err);
		status = EXIT_INTERNAL;
	}
	json_decref(doc);
	store_close(st);
	return status;
}

int cmd_export(const struct command_env *env)
{
	const struct cli *cli = env->cli;
	struct export_set set = { 0 };
	struct export_job job = { .set = &set, .format = EXPORT_OPENMETRICS };
	int status = EXIT_ALL_OK;

	if (cli->format_arg)
		export_format_parse(cli->format_arg, &job.format);
	for (size_t i = 0; status == EXIT_ALL_OK && i < cli->args.n; i++)
		status = add_one(cli, cli->args.items[i], &set);
	if (!cli->args.n)
		status = add_store(cli, &set);
	if (status == EXIT_ALL_OK) {
		export_sort(&set);
		if (set.repeated)
			fprintf(stderr,
				"hostbench: %zu older figure%s of a series "
				"named alike left out (the newest kept)\n",
				set.repeated, set.repeated == 1 ? "" : "s");
		status = output_write_status(cli->output, cli->format,
					     write_export, &job);
	}
	export_free(&set);
	return status;
}
