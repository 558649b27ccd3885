/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Clocks: each rank's wall clock against rank 0's, estimated by ping-pong
 * over MPI before the first case, so the report can show when every rank
 * started a case on one time line ("together" shown, not assumed).
 */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <stdint.h>
#include <time.h>

/* Pings per rank; the one with the shortest round trip is kept. */
#define FLEET_PINGS 16

double fleet_wall(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/*
 * Rank 0: ping rank r FLEET_PINGS times; its clock read halfway through
 * the shortest round trip gives the offset (Cristian's algorithm).
 */
static void ping_rank(struct fleet *f, int r, double deadline)
{
	struct fleet_rank *fr = &f->st->ranks[r];
	double t0, t1, t2;

	fr->rtt = -1;
	for (long k = 0; k < FLEET_PINGS; k++) {
		t0 = fleet_wall();
		if (fleet_send_long(r, FLEET_TAG_PING, k, deadline) ||
		    fleet_recv_double(r, FLEET_TAG_PING, &t1, deadline)) {
			fleet_rank_lose(f, r, SIZE_MAX,
					"no answer to rank 0's clock pings "
					"(the rank died or hung; fleet_timeout "
					"sets this wait)");
			return;
		}
		t2 = fleet_wall();
		if (fr->rtt < 0 || t2 - t0 < fr->rtt) {
			fr->rtt = t2 - t0;
			fr->offset = t1 - (t0 + t2) / 2;
		}
	}
	fleet_send_long(r, FLEET_TAG_PING, FLEET_STOP, deadline);
}

/* A rank above 0: answer rank 0's pings with this clock until it says stop. */
static int answer_pings(struct fleet *f, double deadline)
{
	double from = hb_now();
	long k = 0;
	int rc;

	while ((rc = fleet_recv_long(0, FLEET_TAG_PING, &k, deadline, 1)) ==
		       0 &&
	       k != FLEET_STOP)
		if ((rc = fleet_send_double(0, FLEET_TAG_PING, fleet_wall(),
					    deadline)))
			break;
	if (rc == -ETIMEDOUT)
		fleet_rank_give_up(f, deadline - from,
				   "while rank 0 read the clocks");
	return rc;
}

int fleet_clock_sync(struct fleet *f, double wait)
{
	/* rank 0 pings the ranks one after the other: theirs comes later */
	double deadline = hb_now() + wait;

	if (f->rank != 0)
		return answer_pings(f, deadline + wait);
	for (int r = 1; r < f->size; r++)
		if (!f->st->ranks[r].lost)
			ping_rank(f, r, deadline);
	return 0;
}
