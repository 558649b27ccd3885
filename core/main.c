/*
 * hostbench: command dispatch. The only file with process-wide state: the
 * signal flag the runner polls.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/catalog.h"
#include "base/exit.h"
#include "app/cli.h"
#include "compare/compare.h"
#include "fleet/fleet.h"
#include "run/isolate.h"
#include "run/journal.h"
#include "compare/merge.h"
#include "app/output.h"
#include "run/precheck.h"
#include "plugin/registry.h"
#include "report/report.h"
#include "compare/report_read.h"
#include "run/runner.h"
#include "suite/suite.h"
#include "run/sysinfo.h"

/* The signal that asked us to stop, 0 while running. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	if (stop_signal)
		_exit(128 + sig); /* a second signal ends at once */
	stop_signal = sig;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The directory of the running binary into buf. */
static int self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -errno;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

/*
 * The shipped suite name ("default.ini") into path: beside the binary as
 * installed (a relocated prefix too), the source tree when the binary is
 * the build tree's, then the compiled-in install prefix.
 */
static int conf_path(const char *name, char *path, size_t len)
{
	char dir[PATH_MAX];
	int have_dir = self_dir(dir, sizeof(dir)) == 0;
	const char *built = have_dir && strcmp(dir, HB_BUILD_DIR) == 0
				    ? HB_SOURCE_CONF_DIR
				    : NULL;
	const char *fixed[] = { built, HB_INSTALL_CONF_DIR };

	if (have_dir &&
	    snprintf(path, len, "%s/%s/%s", dir, HB_REL_CONF_DIR, name) <
		    (int)len &&
	    access(path, R_OK) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (fixed[i] &&
		    snprintf(path, len, "%s/%s", fixed[i], name) < (int)len &&
		    access(path, R_OK) == 0)
			return 0;
	return -ENOENT;
}

/*
 * The transfer plugin's server program into path: beside the binary (build
 * tree), then in libexec (installed). Returns 0 or -ENOENT.
 */
static int serve_path(char *path, size_t len)
{
	const char *rel[] = { "hostbench-serve",
			      HB_REL_LIBEXEC_DIR "/hostbench-serve" };
	char dir[PATH_MAX];

	if (self_dir(dir, sizeof(dir)) == 0)
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
			if (snprintf(path, len, "%s/%s", dir, rel[i]) <
				    (int)len &&
			    access(path, X_OK) == 0)
				return 0;
	snprintf(path, len, "hostbench-serve");
	return -ENOENT;
}

/* `hostbench serve ...` is the transfer plugin's server program. */
static int exec_serve(char **argv)
{
	char path[2 * PATH_MAX];

	if (serve_path(path, sizeof(path)) == 0) {
		argv[0] = path;
		execv(path, argv);
	}
	fprintf(stderr, "hostbench: serve: hostbench-serve is not installed "
			"(the transfer plugin was not built)\n");
	return EXIT_BAD_INPUT;
}

/* Every --plugin-dir must be a directory: a typo is bad input. */
static int check_plugin_dirs(const struct cli *cli)
{
	struct stat st;

	for (size_t i = 0; i < cli->plugin_dirs.n; i++) {
		const char *d = cli->plugin_dirs.items[i], *why;

		if (stat(d, &st) != 0)
			why = strerror(errno);
		else if (!S_ISDIR(st.st_mode))
			why = "not a directory";
		else
			continue;
		fprintf(stderr, "hostbench: --plugin-dir %s: %s\n", d, why);
		return -ENOTDIR;
	}
	return 0;
}

/* Load the plugins from the usual directories plus --plugin-dir. */
static int load_plugins(const struct cli *cli, struct registry *reg)
{
	struct strlist dirs = { 0 };
	int rc = plugin_dirs(&dirs, &cli->plugin_dirs);

	if (!rc)
		rc = registry_load(reg, (const char *const *)dirs.items, dirs.n,
				   stderr);
	strlist_free(&dirs);
	return rc;
}

/*
 * Write a report of results (possibly none) to --output or stdout; the
 * fleet's report instead when this rank writes one for every rank.
 */
static int write_report(const struct cli *cli, const struct fleet *fl,
			const struct report *rep)
{
	char err[512];
	struct output out;
	int rc = output_open(&out, cli->output, err, sizeof(err));

	if (!rc && fleet_reports(fl))
		rc = fleet_report(fl, cli->format, rep, out.fp, err,
				  sizeof(err));
	else if (!rc)
		rc = report_write(cli->format, rep, out.fp, err, sizeof(err));
	if (!rc)
		rc = output_commit(&out, err, sizeof(err));
	else if (out.fp)
		output_abort(&out);
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	return rc;
}

/* The progress line, when someone watches stderr. */
static void progress(size_t i, size_t n, const struct bench_case *c)
{
	if (!isatty(STDERR_FILENO))
		return;
	fprintf(stderr, "[%zu/%zu] %s (%s) ...\n", i + 1, n, c->title,
		c->backend);
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

/* One case, in a child process unless the suite says isolate = false. */
static int run_case(const struct bench_case *c, struct result *r)
{
	if (c->isolate && c->plugin)
		return isolate_run_case(c, &stop_signal, r);
	return runner_run_case(c, &stop_signal, r);
}

/*
 * Run every case, or take it from the journal of an earlier run; journal
 * each finished case. In a fleet each case waits for its turn and its
 * result goes to rank 0. Returns the exit status the results call for.
 */
static int run_cases(const struct suite *s, struct journal *j,
		     struct result *results, struct fleet *fl)
{
	int status = EXIT_ALL_OK, rc;

	install_signals();
	for (size_t i = 0; i < s->ncases; i++) {
		struct result *r = &results[i];

		if (!fleet_case_begin(fl, i))
			break;
		rc = j->done ? journal_recall(j, s, &s->cases[i], r) : 0;
		if (rc == 0) {
			if (!stop_signal)
				progress(i, s->ncases, &s->cases[i]);
			rc = run_case(&s->cases[i], r);
			if (rc == 0 && j->fp && !stop_signal)
				rc = journal_append(j, s, r);
		} else if (rc > 0) {
			rc = 0; /* measured in the earlier run */
		}
		if (!rc)
			rc = fleet_case_end(fl, i, r);
		if (rc) {
			fprintf(stderr, "hostbench: %s: %s\n",
				s->cases[i].title, strerror(-rc));
			return EXIT_INTERNAL;
		}
		if (r->status == RESULT_FAILED)
			status = EXIT_CASE_FAILED;
	}
	return stop_signal ? 128 + stop_signal : status;
}

/* Open --journal or --resume, if asked; a bad path is bad input. */
static int open_journal(const struct cli *cli, struct journal *j)
{
	const char *path = cli->resume ? cli->resume : cli->journal;
	char err[512];

	if (!path)
		return 0;
	if (journal_open(j, path, cli->resume != NULL, err, sizeof(err)) == 0)
		return 0;
	fprintf(stderr, "hostbench: %s\n", err);
	journal_close(j);
	return -EINVAL;
}

/* The suite files to run: the arguments, or a shipped suite. */
static int suite_paths(const struct cli *cli, char *buf, size_t len,
		       const char **one)
{
	const char *name = cli->extended ? "extended.ini" : "default.ini";

	if (cli->args.n)
		return 0;
	if (conf_path(name, buf, len)) {
		fprintf(stderr, "hostbench: cannot find %s (installed in %s)\n",
			name, HB_INSTALL_CONF_DIR);
		return -ENOENT;
	}
	*one = buf;
	return 0;
}

static int cmd_run(const struct cli *cli, const struct registry *reg)
{
	char err[1024], buf[PATH_MAX], serve[2 * PATH_MAX];
	const char *one = NULL;
	struct suite s = { 0 };
	const struct suite *run = &s; /* s with host pairs resolved */
	struct sysinfo si = { 0 };
	struct result *results = NULL;
	struct journal j = { 0 };
	struct fleet fl;
	int status = EXIT_BAD_INPUT, rc;

	if (suite_paths(cli, buf, sizeof(buf), &one))
		return EXIT_BAD_INPUT;
	if (fleet_init(&fl, cli->format, err, sizeof(err))) {
		fprintf(stderr, "hostbench: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	serve_path(serve, sizeof(serve));
	rc = suite_load(&s, one ? &one : (const char *const *)cli->args.items,
			one ? 1 : cli->args.n, &cli->sets, reg, err,
			sizeof(err));
	rc = fleet_prepare(&fl, &s, rc, serve, &run, err, sizeof(err));
	if (!rc)
		rc = precheck_suite(run, err, sizeof(err));
	rc = fleet_agree(&fl, rc, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "hostbench: %s\n", err);
		goto out_suite;
	}
	status = EXIT_INTERNAL;
	results = calloc(s.ncases ? s.ncases : 1, sizeof(*results));
	if (!results)
		goto out_suite;
	if (open_journal(cli, &j)) {
		status = EXIT_BAD_INPUT;
		goto out_results;
	}
	sysinfo_read(&si);
	if (report_build_warning(&si))
		fprintf(stderr, "hostbench: warning: %s\n",
			report_build_warning(&si));
	note_dirs(&s, &si);
	if (fleet_start(&fl, &(struct report){ .sys = &si,
					       .reg = reg,
					       .suite = &(struct suite){ 0 } }))
		goto out_sysinfo;
	status = fleet_finish(&fl, run_cases(run, &j, results, &fl));
	if (status != EXIT_INTERNAL && !fleet_silent(&fl) &&
	    write_report(cli, &fl,
			 &(struct report){ .sys = &si,
					   .reg = reg,
					   .suite = &s,
					   .results = results,
					   .nresults = s.ncases }))
		status = EXIT_INTERNAL;
out_sysinfo:
	sysinfo_free(&si);
	journal_close(&j);
out_results:
	for (size_t i = 0; i < s.ncases; i++)
		result_free(&results[i]);
	free(results);
out_suite:
	status =
		fleet_end(&fl, status); /* before s: the fleet points into it */
	suite_free(&s);
	return status;
}

static int cmd_sysinfo(const struct cli *cli, const struct registry *reg)
{
	struct suite s = { 0 };
	struct sysinfo si = { 0 };
	int rc;

	sysinfo_read(&si);
	rc = write_report(
		cli, &(struct fleet){ .size = 1 },
		&(struct report){ .sys = &si, .reg = reg, .suite = &s });
	sysinfo_free(&si);
	return rc ? EXIT_INTERNAL : EXIT_ALL_OK;
}

/* list and describe: the catalog of what is loaded. */
static int cmd_catalog(const struct cli *cli, const struct registry *reg)
{
	char err[512];
	struct output out;
	int rc = output_open(&out, cli->output, err, sizeof(err));

	if (rc) {
		fprintf(stderr, "hostbench: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	if (strcmp(cli->command, "list") == 0)
		rc = catalog_list(reg, cli->format, out.fp, err, sizeof(err));
	else
		rc = catalog_describe(reg, cli->args.items[0], cli->format,
				      out.fp, err, sizeof(err));
	if (!rc)
		rc = output_commit(&out, err, sizeof(err));
	else
		output_abort(&out);
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	return rc == -ENOENT ? EXIT_BAD_INPUT : rc ? EXIT_INTERNAL : 0;
}

/* Read the reports of cli->args into docs; bad input says why on one line. */
static int read_reports(const struct cli *cli, struct doc_report *docs)
{
	char err[1024];

	for (size_t i = 0; i < cli->args.n; i++) {
		if (report_read(&docs[i], cli->args.items[i], err,
				sizeof(err)) == 0)
			continue;
		fprintf(stderr, "hostbench: %s\n", err);
		while (i--)
			report_read_free(&docs[i]);
		return -EINVAL;
	}
	return 0;
}

/* compare BASE NEW, or merge A B ...: reports in, one report out. */
static int cmd_reports(const struct cli *cli)
{
	struct doc_report *docs = calloc(cli->args.n, sizeof(*docs));
	int is_compare = strcmp(cli->command, "compare") == 0;
	struct comparison cmp = { 0 };
	struct merge m = { 0 };
	struct output out;
	char err[1024];
	int status = EXIT_BAD_INPUT, rc;

	if (!docs || read_reports(cli, docs)) {
		free(docs);
		return docs ? EXIT_BAD_INPUT : EXIT_INTERNAL;
	}
	if (is_compare)
		rc = compare_build(&cmp, &docs[0], &docs[1],
				   cli->threshold >= 0 ? cli->threshold
						       : COMPARE_THRESHOLD,
				   err, sizeof(err));
	else
		rc = merge_build(&m, docs, cli->args.n, err, sizeof(err));
	if (!rc)
		rc = output_open(&out, cli->output, err, sizeof(err));
	if (!rc) {
		rc = is_compare ? compare_write(&cmp, cli->format, out.fp, err,
						sizeof(err))
				: merge_write(&m, cli->format, out.fp, err,
					      sizeof(err));
		if (!rc)
			rc = output_commit(&out, err, sizeof(err));
		else
			output_abort(&out);
		status = rc ? EXIT_INTERNAL : EXIT_ALL_OK;
	} else {
		status = rc == -ENOMEM ? EXIT_INTERNAL : EXIT_BAD_INPUT;
	}
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	/* a CI gate: a slower case, or one that now fails */
	if (!rc && is_compare && cli->fail_on_regression &&
	    (cmp.nregressed || cmp.new_failed))
		status = EXIT_CASE_FAILED;
	compare_free(&cmp);
	merge_free(&m);
	for (size_t i = 0; i < cli->args.n; i++)
		report_read_free(&docs[i]);
	free(docs);
	return status;
}

int main(int argc, char **argv)
{
	struct registry reg = { 0 };
	char err[512];
	struct cli cli;
	int status;

	if (argc > 1 && strcmp(argv[1], "serve") == 0)
		return exec_serve(argv + 1);
	if (cli_parse(argc, argv, &cli, err, sizeof(err))) {
		fprintf(stderr, "hostbench: %s\nTry 'hostbench --help'.\n",
			err);
		cli_free(&cli);
		return EXIT_BAD_INPUT;
	}
	if (cli.help || cli.version) {
		fputs(cli.help ? cli_usage : "hostbench " HB_VERSION "\n",
		      stdout);
		cli_free(&cli);
		return EXIT_ALL_OK;
	}
	if (strcmp(cli.command, "compare") == 0 ||
	    strcmp(cli.command, "merge") == 0) {
		status = cmd_reports(&cli);
		cli_free(&cli);
		return status;
	}
	if (check_plugin_dirs(&cli)) {
		cli_free(&cli);
		return EXIT_BAD_INPUT;
	}
	if (load_plugins(&cli, &reg)) {
		fprintf(stderr, "hostbench: out of memory loading plugins\n");
		return EXIT_INTERNAL;
	}
	if (strcmp(cli.command, "run") == 0)
		status = cmd_run(&cli, &reg);
	else if (strcmp(cli.command, "sysinfo") == 0)
		status = cmd_sysinfo(&cli, &reg);
	else
		status = cmd_catalog(&cli, &reg);
	registry_free(&reg);
	cli_free(&cli);
	return status;
}
