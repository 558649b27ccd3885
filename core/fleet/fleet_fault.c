/*
 * The fleet's test hook: make one rank die or hang at a chosen point, so
 * the tests of docs/fleet.md's failure table reach every moment of a run
 * (start-up, suite agreement, receivers, a case, the final collection)
 * without racing a kill from outside.
 */
#include "fleet/fleet_int.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The rank the launcher gave this process, before MPI says it; -1. */
static int launcher_rank(void)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK",
					    "SLURM_PROCID" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i]))
			return atoi(getenv(vars[i]));
	return -1;
}

void fleet_fault(int rank, const char *point)
{
	const char *spec = getenv("HOSTBENCH_FLEET_FAULT");
	char what[64];
	int who = -1, n = 0;

	if (!spec || sscanf(spec, "%d:%63[a-z]%n", &who, what, &n) != 2)
		return;
	if (who != (rank >= 0 ? rank : launcher_rank()) ||
	    strcmp(what, point) != 0)
		return;
	fprintf(stderr,
		"hostbench: fleet: HOSTBENCH_FLEET_FAULT: rank %d %s "
		"at %s\n",
		who, strcmp(spec + n, ":hang") == 0 ? "hangs" : "dies", point);
	if (strcmp(spec + n, ":hang") == 0)
		for (;;)
			pause();
	raise(SIGKILL);
}
