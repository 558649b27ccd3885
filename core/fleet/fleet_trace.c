/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where rank 0's time goes, for bench/fleet_scale.py: with
 * HOSTBENCH_FLEET_TRACE=FILE, rank 0 appends one line per phase it ends:
 * PHASE CASE WALL MAXRSS_KB CPU_SECONDS (its own, user and system).
 * Without the variable nothing is written. No MPI here.
 */
#include "fleet/fleet_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/time.h>

void fleet_trace_at(const struct fleet *f, const char *phase, long i,
		    double wall)
{
	const char *path = getenv("HOSTBENCH_FLEET_TRACE");
	struct rusage ru = { 0 };
	FILE *out;

	if (!path || !*path || f->rank != 0 || f->size < 2)
		return;
	out = fopen(path, "a");
	if (!out)
		return;
	getrusage(RUSAGE_SELF, &ru);
	fprintf(out, "%s %ld %.6f %ld %.6f\n", phase, i, wall, ru.ru_maxrss,
		(double)ru.ru_utime.tv_sec + (double)ru.ru_stime.tv_sec +
			((double)ru.ru_utime.tv_usec +
			 (double)ru.ru_stime.tv_usec) /
				1e6);
	fclose(out);
}

void fleet_trace(const struct fleet *f, const char *phase, long i)
{
	fleet_trace_at(f, phase, i, fleet_wall());
}
