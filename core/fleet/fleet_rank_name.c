/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A rank as messages and reports name it, and the name of its status; in
 * every build (the fleet report names ranks without MPI), below every
 * file that names one.
 */
#include "fleet/fleet_int.h"

#include <stdio.h>

const char *fleet_rank_name(const struct fleet *f, int r, char *buf, size_t len)
{
	snprintf(buf, len, "rank %d (%s)", r, f->st->ranks[r].host);
	return buf;
}

const char *fleet_rank_name_status(const struct fleet_rank *fr)
{
	return fr->lost ? "lost" : fr->late ? "late" : "ok";
}
