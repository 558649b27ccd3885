/* SPDX-License-Identifier: Apache-2.0 */
/* How long a fleet waits for a rank's result; in every build. */
#include "fleet/fleet_int.h"
#include "suite/suite_time.h"

double fleet_case_wait(const struct bench_case *c)
{
	/* the case's own time, without the room its helper gets before it
	   is killed: the wait is for a rank, not for a slow case */
	double own = c->timeout > 0 ? c->timeout : suite_case_time(c);

	return own + c->fleet_timeout;
}

double fleet_setup_wait(const struct suite *s, int loaded)
{
	double most = 0;

	for (size_t i = 0; !loaded && i < s->ncases; i++)
		if (s->cases[i].fleet_timeout > most)
			most = s->cases[i].fleet_timeout;
	return most > 0 ? most : SUITE_FLEET_TIMEOUT;
}
