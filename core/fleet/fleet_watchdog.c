/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A watchdog for the MPI calls no deadline of ours can bound: MPI_Init
 * waits until every rank of the job started (Open MPI waits forever for
 * one that died first, even with --enable-recovery), and MPI_Finalize may
 * wait for the others. A thread sleeps through the wait and ends the
 * process if the call has not come back, and the job with it: without
 * MPI there is no MPI_Abort, and Open MPI's launcher would wait forever
 * for a rank that is stopped or hung before it joined.
 */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* One armed watchdog. */
struct fleet_watchdog {
	pthread_t thread;
	double secs;
	int status;
	const char *what;
	int launcher; /* end the launcher too */
};

/*
 * Open MPI's processes that start ranks: its daemons on the hosts mpirun
 * reaches (also mpirun's own inside a Slurm allocation), then mpirun on
 * its own host. srun's slurmstepd is not one: srun ends its step itself.
 */
static const char *const launchers[] = { "orted",   "prted",   "mpirun",
					 "mpiexec", "orterun", "prte" };

/* How many of launchers[] are daemons. */
#define FLEET_DAEMONS 2

pid_t fleet_launcher_end(int daemon_only)
{
	pid_t parent = getppid();
	char path[64], comm[64] = "";
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)parent);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (!fgets(comm, sizeof(comm), f))
		comm[0] = '\0';
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	for (size_t i = 0;
	     i < (daemon_only ? FLEET_DAEMONS
			      : sizeof(launchers) / sizeof(*launchers));
	     i++)
		if (strcmp(comm, launchers[i]) == 0 &&
		    kill(parent, SIGTERM) == 0)
			return parent;
	return 0;
}

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
	fflush(stderr);
	/* the launcher forwards that line: leave it time to, then end it */
	t = (struct timespec){ .tv_nsec = 500 * 1000 * 1000 };
	while (nanosleep(&t, &t) && errno == EINTR)
		;
	if (w->launcher)
		fleet_launcher_end(0);
	_exit(w->status);
	return NULL;
}

int fleet_watchdog_start(struct fleet_watchdog **w, double secs, int status,
			 const char *what, int launcher)
{
	*w = calloc(1, sizeof(**w));
	if (!*w)
		return -EAGAIN;
	**w = (struct fleet_watchdog){ .secs = secs,
				       .status = status,
				       .what = what,
				       .launcher = launcher };
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
