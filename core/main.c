/*
 * hostbench: parse the command line and run the command it names. The
 * only file with process-wide state: the signal flag the runner polls.
 */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "app/cli.h"
#include "app/command.h"
#include "base/exit.h"

/* The signal that asked us to stop, 0 while running. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	if (stop_signal)
		_exit(EXIT_SIGNAL(sig)); /* a second signal ends at once */
	stop_signal = sig;
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

	if (cli_parse(argc, argv, &cli, err, sizeof(err))) {
		fprintf(stderr, "hostbench: %s\nTry 'hostbench --help'.\n",
			err);
		status = EXIT_BAD_INPUT;
	} else if (cli.help || cli.version) {
		fputs(cli.help ? cli_usage : "hostbench " HB_VERSION "\n",
		      stdout);
		status = EXIT_ALL_OK;
	} else {
		status = command_run(&cli, &stop_signal, install_signals);
	}
	cli_free(&cli);
	return status;
}
