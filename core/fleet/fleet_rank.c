/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What rank 0 knows of each rank, below every file that marks it: giving
 * up on a rank, and a rank giving up on rank 0: then rank 0, should it
 * come back, learns it was the late one and blames no healthy rank (a
 * rank's name and status for messages are in fleet_rank_name.c, every
 * build).
 */
#define _GNU_SOURCE /* asprintf */
#include "fleet/fleet_int.h"

#include <stdio.h>
#include <stdlib.h>

void fleet_rank_lose(struct fleet *f, int r, size_t i, const char *why)
{
	struct fleet_rank *fr = &f->st->ranks[r];
	const struct suite *s = f->st->suite;
	const char *title = s && i < s->ncases ? s->cases[i].title : NULL;

	fr->lost = 1;
	free(fr->lost_why);
	if (title) {
		if (asprintf(&fr->lost_why, "%s at \"%s\"", why, title) < 0)
			fr->lost_why = NULL;
	} else {
		fr->lost_why = xstrdup(why);
	}
	fprintf(stderr, "hostbench: fleet: rank %d (%s) lost: %s\n", r,
		fr->host, fr->lost_why ? fr->lost_why : why);
	/* in case it is only slow; a dead rank's message goes nowhere */
	fleet_send_long(r, FLEET_TAG_GO, FLEET_STOP, hb_now() + 1);
}

int fleet_rank_out(const struct fleet *f, int r)
{
	const struct fleet_rank *fr = &f->st->ranks[r];

	return fr->lost || fr->gave_up || fr->unheard;
}

void fleet_rank_late(struct fleet *f, size_t i, double secs)
{
	struct fleet_rank *zero = &f->st->ranks[0];
	const struct suite *s = f->st->suite;
	char me[FLEET_HOST_MAX + 32];

	if (zero->late)
		return;
	zero->late = 1;
	free(zero->lost_why);
	if (asprintf(&zero->lost_why,
		     "rank 0 came back %.0f s after the deadline of the "
		     "results%s%s%s: rank 0 was stopped or hung",
		     secs, s && i < s->ncases ? " of \"" : "",
		     s && i < s->ncases ? s->cases[i].title : "",
		     s && i < s->ncases ? "\"" : "") < 0)
		zero->lost_why = NULL;
	fprintf(stderr, "hostbench: fleet: %s late: %s; no rank is blamed\n",
		fleet_rank_name(f, 0, me, sizeof(me)),
		zero->lost_why ? zero->lost_why : "stopped or hung");
}

void fleet_rank_give_up(struct fleet *f, double waited, const char *stage)
{
	char me[FLEET_HOST_MAX + 32], zero[FLEET_HOST_MAX + 32];

	if (f->st->orphan)
		return;
	f->st->orphan = 1;
	fprintf(stderr,
		"hostbench: fleet: %s: no word from %s within %.0f s %s (rank "
		"0 died or hung; fleet_timeout sets this wait); giving up\n",
		fleet_rank_name(f, f->rank, me, sizeof(me)),
		fleet_rank_name(f, 0, zero, sizeof(zero)), waited, stage);
	/* a small message: it waits in rank 0's buffers if it is stopped */
	fleet_send_double(0, FLEET_TAG_GAVE_UP, waited, hb_now() + 1);
}

int fleet_rank_gave_up(struct fleet *f, int r, size_t i)
{
	struct fleet_rank *zero = &f->st->ranks[0];
	const struct suite *s = f->st->suite;
	char who[FLEET_HOST_MAX + 32];
	double waited = 0;

	if (f->st->ranks[r].gave_up)
		return 1;
	if (fleet_recv_double(r, FLEET_TAG_GAVE_UP, &waited, hb_now()))
		return 0;
	f->st->ranks[r].gave_up = 1;
	if (zero->late)
		return 1;
	zero->late = 1;
	free(zero->lost_why);
	if (asprintf(
		    &zero->lost_why,
		    "%s heard nothing from rank 0 within %.0f s%s%s%s and gave "
		    "up: rank 0 was stopped or hung",
		    fleet_rank_name(f, r, who, sizeof(who)), waited,
		    s && i < s->ncases ? " at \"" : "",
		    s && i < s->ncases ? s->cases[i].title : "",
		    s && i < s->ncases ? "\"" : "") < 0)
		zero->lost_why = NULL;
	return 1;
}
