/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Who sends to whom in host-pair transfers, and the refusal of a peer mode
 * in a fleet of one; in every build.
 */
#include "fleet/fleet_int.h"

#include <errno.h>
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
	return -2;
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
