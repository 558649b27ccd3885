/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet's test hook, linked only into hostbench-faults, the tests'
 * own build of hostbench (a shipped hostbench links core/fleet/
 * fleet_fault.c, which does nothing): make one rank die or hang at a
 * chosen point, so the tests of docs/fleet.md's failure table reach every
 * moment of a run (start-up, suite agreement, receivers, a case, the
 * final collection) without racing a kill from outside.
 */
#include "fleet/fleet_int.h"

#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* text as a rank into *rank: digits only. 0, or -1 when it is none. */
static int rank_of(const char *text, const char **end, int *rank)
{
	char *stop = NULL;
	long n;

	if (!text || *text < '0' || *text > '9')
		return -1;
	n = strtol(text, &stop, 10);
	if (n > INT_MAX)
		return -1;
	*rank = (int)n;
	if (end)
		*end = stop;
	return 0;
}

/* The rank the launcher gave this process, before MPI says it; -1. */
static int launcher_rank(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
					    "SLURM_PROCID" };
	int rank;

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (rank_of(getenv(vars[i]), NULL, &rank) == 0)
			return rank;
	return -1;
}

void fleet_fault(int rank, const char *point)
{
	const char *spec = getenv("HOSTBENCH_FLEET_FAULT"), *at = NULL;
	size_t len = strlen(point);
	int who, hang;

	if (rank_of(spec, &at, &who) || *at != ':' ||
	    strncmp(at + 1, point, len) != 0 ||
	    (at[1 + len] != '\0' && at[1 + len] != ':'))
		return;
	if (who != (rank >= 0 ? rank : launcher_rank()))
		return;
	hang = strcmp(at + 1 + len, ":hang") == 0;
	fprintf(stderr,
		"hostbench: fleet: HOSTBENCH_FLEET_FAULT: rank %d %s at %s\n",
		who, hang ? "hangs" : "dies", point);
	if (hang)
		for (;;)
			pause();
	raise(SIGKILL);
}
