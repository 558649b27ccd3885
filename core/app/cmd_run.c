/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `hostbench run`: load the suites, agree on them across a fleet, describe
 * the host, run every case and write the report. Everything one run holds
 * is in a struct run_ctx, freed in one place. (ctx: context.)
 */
#include "app/cmd.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/cli.h"
#include "app/cmd_store.h"
#include "ui/output.h"
#include "app/paths.h"
#include "app/presets.h"
#include "ui/progress.h"
#include "ui/run_end.h"
#include "base/argmask.h"
#include "base/exit.h"
#include "fleet/fleet.h"
#include "fleetreport/fleetreport.h"
#include "report/context.h"
#include "report/report.h"
#include "run/cycles.h"
#include "run/interleave.h"
#include "run/isolate.h"
#include "result/journal.h"
#include "result/runinfo.h"
#include "run/leftovers.h"
#include "run/precheck.h"
#include "run/runner.h"
#include "result/sysinfo.h"
#include "suite/suite.h"

/* Everything one run holds; run_ctx_free() frees it. */
struct run_ctx {
	struct fleet fleet;
	int joined;	    /* fleet_init() succeeded: fleet_end() is due */
	struct suite suite; /* as loaded: what the report shows */
	const struct suite
		*resolved;	/* suite, host pairs resolved: what runs */
	struct result *results; /* suite.ncases of them, in its order */
	struct journal journal; /* --journal or --resume, when asked */
	struct output out;	/* --output (or stdout), open before any case */
	struct sysinfo sys;	/* the host */
	struct progress progress; /* the line on a terminal's stderr */
	struct runinfo run;	  /* its uuid, times, command line, suites */
	char *stored;		  /* where the store keeps it; NULL: not */
	char stored_uuid[37];	  /* the run's uuid there */
};

/* What the fleet report writer needs: the fleet and this rank's report. */
struct run_report {
	const struct fleet *fleet;
	const struct report *own;
};

/*
 * The suite files to run into files: each argument, a preset's name
 * (app/presets.h) as its file, or without any a shipped suite. Returns 0
 * or a negative code, said on one line.
 */
static int find_suites(const struct cli *cli, struct strlist *files)
{
	const char *name = cli->extended ? "extended.ini" : "default.ini";
	char path[PATH_MAX], err[512];

	for (size_t i = 0; i < cli->args.n; i++) {
		const char *arg = cli->args.items[i];
		int rc = presets_is_name(arg)
				 ? presets_find(arg, path, sizeof(path), err,
						sizeof(err))
				 : 0;

		if (rc) {
			fprintf(stderr, "hostbench: %s\n", err);
			return rc;
		}
		if (strlist_push(files, presets_is_name(arg) ? path : arg))
			return -ENOMEM;
	}
	if (cli->args.n)
		return 0;
	if (paths_conf(name, path, sizeof(path))) {
		fprintf(stderr, "hostbench: cannot find %s (installed in %s)\n",
			name, HB_INSTALL_CONF_DIR);
		return -ENOENT;
	}
	return strlist_push(files, path) ? -ENOMEM : 0;
}

/* argmask_secret_fn: an option some loaded target declares secret. */
static int registry_secret(const char *key, void *ctx)
{
	const struct registry *reg = ctx;

	for (size_t p = 0; reg && p < reg->n; p++) {
		const struct hb_target *t = reg->plugins[p].desc->targets;

		for (; t && t->name; t++) {
			const struct hb_option *o = plugin_option_find(t, key);

			if (o && o->type == HB_OPT_SECRET)
				return 1;
		}
	}
	return 0;
}

/*
 * The run's identity: a uuid, the start time, the command line with its
 * secrets masked and the suite files with their SHA-256. Returns 0 or a
 * negative code, said on one line.
 */
static int begin_run(struct run_ctx *ctx, const struct command_env *env,
		     const char *const *suites, size_t nsuites)
{
	const struct cli *cli = env->cli;
	struct strlist cmd = { 0 };
	char err[256];
	int rc = argmask(cli->argc, cli->argv, registry_secret,
			 (void *)env->reg, &cmd);

	rc = rc ? hb_errorf(err, sizeof(err), rc, "run: out of memory")
		: runinfo_begin(&ctx->run, &cmd, err, sizeof(err));
	if (!rc && runinfo_suites(&ctx->run, suites, nsuites))
		rc = hb_errorf(err, sizeof(err), -ENOMEM, "run: out of memory");
	if (!rc && cli->label && !(ctx->run.label = strdup(cli->label)))
		rc = hb_errorf(err, sizeof(err), -ENOMEM, "run: out of memory");
	strlist_free(&cmd);
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	return rc;
}

/*
 * Every rank: with what suite_load() returned here (loaded), resolve the
 * host pairs into ctx->resolved, let the plugins check it and agree with every
 * rank. Returns 0 or a negative code with err filled.
 */
static int agree_on_suite(struct run_ctx *ctx, const struct registry *reg,
			  int loaded, char *err, size_t errlen)
{
	char serve[2 * PATH_MAX];
	int rc;

	paths_serve(serve, sizeof(serve));
	rc = fleet_prepare(&ctx->fleet, &ctx->suite, reg, loaded, serve,
			   &ctx->resolved, err, errlen);
	if (!rc)
		rc = precheck_suite(ctx->resolved, reg, err, errlen);
	return fleet_agree(&ctx->fleet, rc, err, errlen);
}

/*
 * Join the fleet, load the suite and agree on it with every rank. Returns
 * an exit status, the reason said on one line.
 */
static int load_suite(struct run_ctx *ctx, const struct command_env *env)
{
	const struct cli *cli = env->cli;
	char err[1024], init_err[256];
	struct strlist files = { 0 };
	int rc, status = EXIT_BAD_INPUT;

	if (find_suites(cli, &files))
		goto free_files;
	status = EXIT_INTERNAL;
	if (begin_run(ctx, env, (const char *const *)files.items, files.n))
		goto free_files;
	rc = suite_load_as(&ctx->suite, (const char *const *)files.items,
			   files.n, &cli->sets, env->reg,
			   cli->fio ? SUITE_FIO : 0, err, sizeof(err));
	/* the suite first: its fleet_timeout bounds the wait for every rank */
	status = EXIT_BAD_INPUT;
	if (fleet_init(&ctx->fleet, cli->format,
		       fleet_setup_wait(&ctx->suite, rc), init_err,
		       sizeof(init_err))) {
		fprintf(stderr, "hostbench: %s\n", init_err);
		goto free_files;
	}
	ctx->joined = 1;
	status = EXIT_INTERNAL;
	if (runinfo_fleet(&ctx->run, ctx->fleet.rank, ctx->fleet.size))
		goto free_files;
	rc = agree_on_suite(ctx, env->reg, rc, err, sizeof(err));
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	status = rc ? EXIT_BAD_INPUT : EXIT_ALL_OK;
free_files:
	strlist_free(&files);
	return status;
}

/* Open --journal or --resume, if asked; a bad path is bad input. */
static int open_journal(const struct cli *cli, const struct runinfo *run,
			struct journal *j)
{
	const char *path = cli->resume ? cli->resume : cli->journal;
	char err[512];

	if (!path)
		return 0;
	if (journal_open(j, path, cli->resume != NULL, run, err, sizeof(err)) ==
	    0)
		return 0;
	fprintf(stderr, "hostbench: %s\n", err);
	journal_close(j);
	return -EINVAL;
}

/*
 * Open --output, unless another rank writes the report: a path that
 * cannot be written is bad input found before anything is measured.
 */
static int open_output(struct run_ctx *ctx, const struct cli *cli)
{
	char err[1024];

	if (fleet_silent(&ctx->fleet) ||
	    output_open(&ctx->out, cli->output, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "hostbench: %s\n", err);
	return -EINVAL;
}

/* Room for the results, the output and the journal; an exit status. */
static int open_results(struct run_ctx *ctx, const struct cli *cli)
{
	size_t n = ctx->suite.ncases;

	ctx->results = calloc(n ? n : 1, sizeof(*ctx->results));
	if (!ctx->results)
		return EXIT_INTERNAL;
	if (open_output(ctx, cli) ||
	    open_journal(cli, &ctx->run, &ctx->journal))
		return EXIT_BAD_INPUT;
	/* what an earlier run killed with -9 left behind */
	leftovers_sweep(ctx->resolved);
	return EXIT_ALL_OK;
}

/* Record the filesystem under every directory a case works in. */
static void note_dirs(const struct suite *s, struct sysinfo *si)
{
	for (size_t i = 0; i < s->ncases; i++) {
		const char *dir = kvlist_get(&s->cases[i].params, "dir");

		if (dir)
			sysinfo_add_fs(si, dir);
	}
}

/*
 * Read the host's system information, warn when this build's figures are
 * not representative, and ship the host to rank 0. Returns an exit status.
 */
static int describe_host(struct run_ctx *ctx, const struct registry *reg)
{
	const char *warning;

	sysinfo_read(&ctx->sys);
	warning = report_build_warning(&ctx->sys);
	if (warning)
		fprintf(stderr, "hostbench: warning: %s\n", warning);
	note_dirs(&ctx->suite, &ctx->sys);
	if (fleet_start(&ctx->fleet,
			&(struct report){ .sys = &ctx->sys,
					  .reg = reg,
					  .suite = &(struct suite){ 0 } }))
		return EXIT_INTERNAL;
	return EXIT_ALL_OK;
}

/* One case, in a child process unless the suite says isolate = false. */
static int measure_case(const struct bench_case *c,
			const volatile sig_atomic_t *stop, struct result *r)
{
	return isolate_run_case(c, stop, r);
}

/*
 * Case i: measured, or taken from the journal of an earlier run; journal
 * it when measured; in a fleet wait for its turn and send its result to
 * rank 0. Returns 0 or a negative code.
 */
static int take_case(struct run_ctx *ctx, size_t i,
		     const volatile sig_atomic_t *stop)
{
	const struct suite *s = ctx->resolved;
	struct journal *j = &ctx->journal;
	struct result *r = &ctx->results[i];
	int rc = j->done ? journal_recall(j, s, &s->cases[i], r) : 0;

	if (rc == 0) {
		if (!*stop)
			progress_case(&ctx->progress, i, s->ncases,
				      &s->cases[i], hb_now());
		rc = measure_case(&s->cases[i], stop, r);
		/* the journal says what the fleet's report says */
		if (rc == 0 && j->fp && !*stop &&
		    fleet_case_counted(&ctx->fleet))
			rc = journal_append(j, s, r);
	} else if (rc > 0) {
		rc = 0; /* measured in the earlier run */
		/* cycles per byte only from cycles its samples counted */
		if (cycles_counted(r))
			cycles_finish(r, 1);
		progress_skip(&ctx->progress, &s->cases[i]);
	}
	return rc ? rc : fleet_case_end(&ctx->fleet, i, r);
}

/*
 * The end of the cases that take turns from case i on: the rest of its job
 * when it says order = interleaved, else i + 1. In a fleet or a resumed
 * run every case runs on its own.
 */
static size_t turns_end(const struct run_ctx *ctx, size_t i)
{
	const struct suite *s = ctx->resolved;
	size_t end = i + 1;

	if (!s->cases[i].interleaved || ctx->fleet.size > 1 ||
	    ctx->journal.done)
		return end;
	while (end < s->ncases && s->cases[end].job == s->cases[i].job &&
	       s->cases[end].interleaved)
		end++;
	return end;
}

/*
 * Cases [i, end) of one job, interleaved (run/interleave.h), then
 * journaled and shipped as take_case() does. Returns 0 or a negative code.
 */
static int take_turns(struct run_ctx *ctx, size_t i, size_t end,
		      const volatile sig_atomic_t *stop)
{
	const struct suite *s = ctx->resolved;
	char err[256];
	int rc;

	progress_turns(&ctx->progress, s, i, end, hb_now());
	rc = interleave_run_job(&s->cases[i], &ctx->results[i], end - i, stop,
				err, sizeof(err));
	for (size_t k = i; k < end && !rc; k++) {
		if (ctx->journal.fp && !*stop &&
		    fleet_case_counted(&ctx->fleet))
			rc = journal_append(&ctx->journal, s, &ctx->results[k]);
		if (!rc)
			rc = fleet_case_end(&ctx->fleet, k, &ctx->results[k]);
	}
	return rc;
}

/*
 * Run every case until the end, a stop signal or rank 0 giving up on
 * this rank. Returns the exit status the results call for.
 */
static int take_cases(struct run_ctx *ctx, const struct command_env *env)
{
	const struct suite *s = ctx->resolved;
	int status = EXIT_ALL_OK, rc;

	env->catch_signals();
	/* the host benchmark says what it will run, as the vendor's does;
	   any run does on a terminal */
	if (!fleet_silent(&ctx->fleet) &&
	    (isatty(STDERR_FILENO) || !env->cli->args.n))
		progress_plan(stderr, s);
	progress_begin(&ctx->progress, s, stderr, isatty(STDERR_FILENO),
		       hb_now());
	for (size_t i = 0, end; i < s->ncases; i = end) {
		end = turns_end(ctx, i);
		if (!fleet_case_begin(&ctx->fleet, i))
			break;
		rc = end > i + 1 ? take_turns(ctx, i, end, env->stop)
				 : take_case(ctx, i, env->stop);
		if (rc) {
			progress_end(&ctx->progress);
			fprintf(stderr, "hostbench: %s: %s\n",
				s->cases[i].title, strerror(-rc));
			return EXIT_INTERNAL;
		}
		for (size_t k = i; k < end; k++)
			if (ctx->results[k].status == RESULT_FAILED)
				status = EXIT_CASE_FAILED;
	}
	progress_end(&ctx->progress);
	return *env->stop ? EXIT_SIGNAL(*env->stop) : status;
}

/* output_writer for a struct run_report: the fleet's, or this rank's. */
static int write_run_report(const void *doc, enum report_format f, FILE *out,
			    char *err, size_t errlen)
{
	const struct run_report *rr = doc;

	if (fleet_writes_report(rr->fleet))
		return fleet_report(rr->fleet, f, rr->own, out, err, errlen);
	return report_write(f, rr->own, out, err, errlen);
}

/* This rank's report of its results and its run. */
static struct report own_report(struct run_ctx *ctx,
				const struct command_env *env)
{
	return (struct report){ .sys = &ctx->sys,
				.reg = env->reg,
				.suite = &ctx->suite,
				.results = ctx->results,
				.nresults = ctx->suite.ncases,
				.run = &ctx->run };
}

/*
 * Write the report of the results to --output or stdout; the fleet's
 * report instead when this rank writes one for every rank, none when
 * another rank does. Returns 0 or a negative code, said on one line.
 */
static int report_results(struct run_ctx *ctx, const struct command_env *env)
{
	const struct report own = own_report(ctx, env);

	if (fleet_silent(&ctx->fleet))
		return 0;
	runinfo_end(&ctx->run);
	return output_finish(&ctx->out, env->cli->format, write_run_report,
			     &(struct run_report){ &ctx->fleet, &own });
}

/* The JSON report this rank wrote (or would have): what the store keeps. */
static json_t *report_json(struct run_ctx *ctx, const struct command_env *env)
{
	/* with its run: the store keeps the uuid, times and label written */
	const struct report own = own_report(ctx, env);
	char *text = NULL, err[256];
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);
	json_t *doc = NULL;
	int rc;

	if (!m)
		return NULL;
	rc = write_run_report(&(struct run_report){ &ctx->fleet, &own },
			      REPORT_JSON, m, err, sizeof(err));
	if (fclose(m) == 0 && rc == 0)
		doc = json_loadb(text, len, 0, NULL);
	free(text);
	return doc;
}

/*
 * run --history: each line of this run against its series, on stderr
 * (the report itself stays as it is).
 */
static void print_history(struct store *st, const struct command_env *env,
			  const char *uuid)
{
	json_t *doc = NULL, *s;
	size_t i;

	if (cmd_store_history(st, env->cli, 1, &doc))
		return;
	fprintf(stderr, "history (this run against its series):\n");
	json_array_foreach(json_object_get(doc, "series"), i, s) {
		const json_t *pts = json_object_get(s, "points");
		const json_t *last =
			json_array_get(pts, json_array_size(pts) - 1);
		const json_t *newest = json_object_get(s, "newest");

		if (strcmp(json_string_value(json_object_get(last, "run"))
				   ?: "",
			   uuid) != 0)
			continue;
		fprintf(stderr, "  %-40s %+7.1f%%  %s (%zu points)\n",
			json_string_value(json_object_get(
				json_object_get(s, "case"), "title"))
				?: "?",
			100 * json_number_value(
				      json_object_get(newest, "change")),
			json_string_value(json_object_get(newest, "verdict"))
				?: "first point",
			json_array_size(pts));
	}
	json_decref(doc);
}

/* Whether a suite lets its run be stored: no job of it says store = no. */
static int suite_stores(const struct suite *s)
{
	for (size_t i = 0; s && i < s->ncases; i++)
		if (!s->cases[i].store)
			return 0;
	return 1;
}

/* Whether this run's report goes to the store (store_results()). */
static int run_stores(const struct run_ctx *ctx, const struct cli *cli)
{
	return !cli->no_store && !store_off(cli->store) &&
	       !fleet_silent(&ctx->fleet) && suite_stores(&ctx->suite);
}

/*
 * Open the store once before the first measurement and close it: a store
 * refused (a shared directory, a file of another user's, a server that
 * refuses) is said then, on one line, not after the whole run. A stop
 * signal while a server keeps it waiting ends the run as one does.
 * Returns EXIT_ALL_OK, EXIT_STORE or the signal's status.
 */
static int judge_store(const struct run_ctx *ctx, const struct command_env *env)
{
	const struct cli *cli = env->cli;
	struct store *st = NULL;
	char err[1024];

	if (!run_stores(ctx, cli))
		return EXIT_ALL_OK;
	env->catch_signals();
	if (store_open(&st, cli->store, env->stop, err, sizeof(err))) {
		if (*env->stop)
			return EXIT_SIGNAL(*env->stop);
		fprintf(stderr,
			"hostbench: %s; nothing was run (--no-store runs "
			"without the store)\n",
			err);
		return EXIT_STORE;
	}
	store_close(st);
	return *env->stop ? EXIT_SIGNAL(*env->stop) : EXIT_ALL_OK;
}

/*
 * Keep this rank's report (the fleet's, every rank's, on rank 0) in the
 * store unless --no-store; the closing line of the run says where. The report
 * is written already: a store that fails costs the store, never the run.
 * Returns 0, or -1 said on one line.
 */
static int store_results(struct run_ctx *ctx, const struct command_env *env)
{
	const struct cli *cli = env->cli;
	json_t *doc = NULL;
	struct store *st = NULL;
	char err[1024], uuid[37];
	int rc;

	if (!run_stores(ctx, cli))
		return 0;
	/*
	 * a signal ends the store's waits; after one that stopped the cases,
	 * the store goes on and a second ends hostbench at once
	 */
	rc = store_open(&st, cli->store, *env->stop ? NULL : env->stop, err,
			sizeof(err));
	if (!rc) {
		doc = report_json(ctx, env);
		rc = doc ? store_put(st, doc, err, sizeof(err)) : -ENOMEM;
		if (!doc)
			snprintf(err, sizeof(err), "out of memory");
	}
	if (rc) {
		if (st && doc)
			fprintf(stderr, "hostbench: store %s: %s\n",
				store_where(st), err);
		else
			fprintf(stderr, "hostbench: %s\n", err);
	} else {
		store_run_uuid(doc, uuid);
		/* said by the closing line of the run (say_end()) */
		ctx->stored = xstrdup(store_where(st));
		snprintf(ctx->stored_uuid, sizeof(ctx->stored_uuid), "%s",
			 uuid);
		if (cli->history)
			print_history(st, env, uuid);
	}
	json_decref(doc);
	store_close(st);
	return rc ? -1 : 0;
}

/*
 * The run's status once its report is stored: EXIT_STORE for a store
 * that failed a run that was all ok, 128 + the signal that stopped the
 * store's wait (a signal before that keeps the status it gave).
 */
static int store_status(struct run_ctx *ctx, const struct command_env *env,
			int status)
{
	int stopped = *env->stop;

	if (store_results(ctx, env) && status == EXIT_ALL_OK)
		status = EXIT_STORE;
	return !stopped && *env->stop ? EXIT_SIGNAL(*env->stop) : status;
}

/*
 * The closing line on stderr where the report was written: the cases, the
 * wall time, where the report and the store went; after a stop signal,
 * the command that resumes the run.
 */
static void say_end(const struct run_ctx *ctx, const struct command_env *env)
{
	const struct cli *cli = env->cli;
	char line[4096];

	if (fleet_silent(&ctx->fleet))
		return;
	run_end_summary(line, sizeof(line),
			run_end_tally(ctx->results, ctx->suite.ncases),
			ctx->run.duration, cli->output, ctx->stored,
			ctx->stored_uuid);
	fprintf(stderr, "hostbench: %s\n", line);
	if (!*env->stop)
		return;
	run_end_resume(line, sizeof(line), &ctx->run.command_line,
		       cli->resume ? cli->resume : cli->journal);
	fprintf(stderr, "hostbench: interrupted; %s\n", line);
}

/*
 * Free everything ctx holds and leave the fleet (before the suite: the
 * fleet points into it). Returns the exit status fleet_end() settles on.
 */
static int run_ctx_free(struct run_ctx *ctx, int status)
{
	sysinfo_free(&ctx->sys);
	runinfo_free(&ctx->run);
	free(ctx->stored);
	output_abort(&ctx->out); /* when no report was written */
	journal_close(&ctx->journal);
	for (size_t i = 0; ctx->results && i < ctx->suite.ncases; i++)
		result_free(&ctx->results[i]);
	free(ctx->results);
	if (ctx->joined)
		status = fleet_end(&ctx->fleet, status);
	suite_free(&ctx->suite);
	return status;
}

int cmd_run(const struct command_env *env)
{
	struct run_ctx ctx = { .resolved = &ctx.suite };
	int status = load_suite(&ctx, env);

	if (status == EXIT_ALL_OK)
		status = open_results(&ctx, env->cli);
	if (status == EXIT_ALL_OK)
		status = judge_store(&ctx, env);
	if (status == EXIT_ALL_OK)
		status = describe_host(&ctx, env->reg);
	if (status == EXIT_ALL_OK) {
		status = fleet_finish(&ctx.fleet, take_cases(&ctx, env));
		if (status != EXIT_INTERNAL && report_results(&ctx, env))
			status = EXIT_INTERNAL;
		else if (status != EXIT_INTERNAL)
			status = store_status(&ctx, env, status);
		if (status != EXIT_INTERNAL)
			say_end(&ctx, env);
	}
	return run_ctx_free(&ctx, status);
}
