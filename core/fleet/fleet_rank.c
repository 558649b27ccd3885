/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What rank 0 knows of each rank, below every file that marks it: giving
 * up on a rank (its name for messages is in fleet_pairs.c, every build).
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
	/* in case it is only slow; a dead rank's message goes nowhere */
	fleet_send_long(r, FLEET_TAG_GO, FLEET_STOP, hb_now() + 1);
}
