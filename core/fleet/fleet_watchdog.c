/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A watchdog for the MPI calls no deadline of ours can bound: MPI_Init
 * waits until every rank of the job started (Open MPI waits forever for
 * one that died first, even with --enable-recovery), and MPI_Finalize may
 * wait for the others. A thread sleeps through the wait and ends the
 * process if the call has not come back.
 */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* One armed watchdog. */
struct fleet_watchdog {
	pthread_t thread;
	double secs;
	int status;
	const char *what;
};

/* The thread: sleep secs, then say why and end the process. */
static void *watch(void *arg)
{
	const struct fleet_watchdog *w = arg;
	struct timespec t = {
		.tv_sec = (time_t)w->secs,
		.tv_nsec = (long)((w->secs - (double)(time_t)w->secs) * 1e9)
	};

	/* nanosleep is a cancellation point: stop() ends us here */
	while (nanosleep(&t, &t) && errno == EINTR)
		;
	fprintf(stderr,
		"hostbench: fleet: %s did not come back within %.0f "
		"s (a rank died or hung); giving up\n",
		w->what, w->secs);
	_exit(w->status);
	return NULL;
}

int fleet_watchdog_start(struct fleet_watchdog **w, double secs, int status,
			 const char *what)
{
	*w = calloc(1, sizeof(**w));
	if (!*w)
		return -EAGAIN;
	**w = (struct fleet_watchdog){ .secs = secs,
				       .status = status,
				       .what = what };
	if (pthread_create(&(*w)->thread, NULL, watch, *w)) {
		free(*w);
		*w = NULL;
		return -EAGAIN;
	}
	return 0;
}

void fleet_watchdog_stop(struct fleet_watchdog *w)
{
	if (!w)
		return;
	pthread_cancel(w->thread);
	pthread_join(w->thread, NULL);
	free(w);
}
