/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Who sends to whom in host-pair transfers, the refusal of a peer mode
 * in a fleet of one, and a pair's failure among a result's warnings; in
 * every build.
 */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "suite/suite_value.h"

int fleet_partner(const char *mode, int rank, int size)
{
	if (strcmp(mode, "rank-pairs") == 0)
		return (rank ^ 1) < size ? rank ^ 1 : -1;
	if (strcmp(mode, "ring") == 0)
		return (rank + 1) % size;
	if (strcmp(mode, "all-to-one") == 0)
		return rank ? 0 : -3;
	if (strcmp(mode, "all-to-all") == 0)
		return FLEET_EVERY_OTHER;
	return -2;
}

const char *fleet_peer_mode_text(const char *mode)
{
	static const char *const what[][2] = {
		{ "rank-pairs", "ranks send to each other in pairs" },
		{ "ring", "each rank sends to the next" },
		{ "all-to-one", "every rank sends to rank 0 at once; Total is "
				"what rank 0 took in" },
		{ "all-to-all", "every rank sends to every other at once; "
				"Total is what the fleet sent" },
	};

	for (size_t i = 0; i < sizeof(what) / sizeof(what[0]); i++)
		if (strcmp(mode, what[i][0]) == 0)
			return what[i][1];
	return "";
}

const char *fleet_peer_mode(const struct bench_case *c)
{
	const char *peer = kvlist_get(&c->params, "peer");

	if (!peer || !plugin_option_find(c->tdesc, "peer") ||
	    !plugin_option_find(c->tdesc, "token"))
		return NULL;
	return fleet_partner(peer, 0, 2) == -2 ? NULL : peer;
}

int fleet_refuse_peers(const struct suite *s, char *err, size_t errlen)
{
	for (size_t i = 0; i < s->ncases; i++) {
		const struct bench_case *c = &s->cases[i];
		const struct job *j = &s->jobs[c->job];

		if (fleet_peer_mode(c))
			return hb_errorf(
				err, errlen, -EINVAL,
				"%s:%u: [%s] peer: \"%s\" sends to "
				"another rank of an MPI job: it needs "
				"hostbench built with -DHOSTBENCH_MPI=ON "
				"and started by mpirun or srun with two "
				"ranks or more (docs/fleet.md)",
				j->file, j->line, j->label, fleet_peer_mode(c));
	}
	return 0;
}

int fleet_pair_warning(const char *warning)
{
	return strncmp(warning, "pair ", 5) == 0 &&
	       strstr(warning, " failed: ");
}
