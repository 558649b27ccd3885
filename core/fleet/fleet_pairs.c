/* Who sends to whom in host-pair transfers; in every build. */
#include "fleet/fleet_int.h"

#include <string.h>

#include "suite/suite_value.h"

int fleet_partner(const char *mode, int rank, int size)
{
	if (strcmp(mode, "rank-pairs") == 0)
		return (rank ^ 1) < size ? rank ^ 1 : -1;
	if (strcmp(mode, "ring") == 0)
		return (rank + 1) % size;
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
