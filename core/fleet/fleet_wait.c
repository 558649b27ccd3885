/* SPDX-License-Identifier: Apache-2.0 */
/* How long a fleet waits for a rank's result; in every build. */
#include "fleet/fleet_int.h"

double fleet_case_wait(const struct bench_case *c)
{
	/* setup and calibration, then every sample, without the fourfold
	   room and the 120 s isolate gives a case before it kills it */
	double own = c->timeout > 0
			     ? c->timeout
			     : (c->warmup + c->repetitions + 3) * c->duration;

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
