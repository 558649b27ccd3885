/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench: parse the command line and run the command it names, or be
 * one of the core's helper processes (`hostbench __helper MODE PARENT`,
 * proc/guardian.h). The only file with process-wide state: the signal
 * flag the runner polls.
 */
#define _GNU_SOURCE /* newlocale, uselocale */
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "app/cli.h"
#include "app/command.h"
#include "app/usage.h"
#include "proc/childenv.h"
#include "base/exit.h"
#include "proc/helper.h"
#include "proc/setid.h"

/* The signal that asked us to stop, 0 while running. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	if (stop_signal)
		_exit(EXIT_SIGNAL(sig)); /* a second signal ends at once */
	stop_signal = sig;
}

/*
 * Numbers are read and printed the C way whatever the environment or a
 * trusted plugin (isolate = no) does to the global locale; the signals
 * the core relies on are unblocked and SIGCHLD is default, whatever the
 * parent left.
 */
static void settle_process(void)
{
	locale_t c_locale = newlocale(LC_ALL_MASK, "C", (locale_t)0);
	sigset_t relied;

	if (c_locale)
		uselocale(c_locale);
	sigemptyset(&relied);
	sigaddset(&relied, SIGINT);
	sigaddset(&relied, SIGTERM);
	sigaddset(&relied, SIGCHLD);
	sigaddset(&relied, SIGHUP);
	sigprocmask(SIG_UNBLOCK, &relied, NULL);
	signal(SIGCHLD, SIG_DFL);
}

/* From now on SIGINT and SIGTERM set stop_signal (run calls it). */
static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
	char err[512];
	struct cli cli;
	int status;

	if (setid_check(err, sizeof(err))) {
		fprintf(stderr, "hostbench: %s\n", err);
		return EXIT_BAD_INPUT;
	}
	settle_process();
	if (argc > 1 && strcmp(argv[1], HELPER_ARG) == 0)
		return command_helper(argc, argv);
	/* helpers run as this user: they must not read a password in our
	   /proc/PID/environ, nor trace us to read our memory */
	if (childenv_has_password())
		prctl(PR_SET_DUMPABLE, 0);
	if (cli_parse(argc, argv, &cli, err, sizeof(err))) {
		fprintf(stderr, "hostbench: %s\nTry 'hostbench --help'.\n",
			err);
		status = EXIT_BAD_INPUT;
	} else if (cli.help || cli.version) {
		const struct command *cmd =
			cli.command ? command_find(cli.command) : NULL;

		if (!cli.help)
			fputs("hostbench " HB_VERSION "\n", stdout);
		else if (cmd)
			usage_command(cmd, stdout);
		else
			usage_global(stdout);
		status = EXIT_ALL_OK;
	} else {
		status = command_run(&cli, &stop_signal, install_signals);
	}
	cli_free(&cli);
	return status;
}
