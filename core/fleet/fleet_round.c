/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A round: every rank tells rank 0 something and rank 0 answers them all.
 * It stands in for MPI_Allgather before the first case (suite agreement,
 * host-pair receivers, contexts): a collective waits forever on a rank
 * that died, a round waits fleet_timeout and goes on without it.
 */
#define _GNU_SOURCE /* asprintf */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Rank 0: receive rank r's message of tag by deadline; NULL if none. */
static json_t *receive_one(int r, int tag, double deadline)
{
	char *text = NULL;
	json_error_t jerr;
	json_t *j = NULL;

	if (fleet_recv_text(r, tag, deadline, &text) == 0)
		j = json_loads(text, 0, &jerr);
	free(text);
	return j;
}

/* Rank 0: every rank's message into all[], the silent ones lost. */
static void gather(struct fleet *f, int tag, json_t *mine, double wait,
		   const char *stage, json_t **all)
{
	double deadline = hb_now() + wait;
	char *why = NULL;

	all[0] = json_incref(mine);
	for (int r = 1; r < f->size; r++) {
		if (f->st->ranks[r].lost)
			continue;
		all[r] = receive_one(r, tag, deadline);
		if (all[r])
			continue;
		if (asprintf(&why,
			     "no word within %.0f s %s (the rank died or hung; "
			     "fleet_timeout sets this wait)",
			     wait, stage) < 0)
			why = NULL;
		fleet_rank_lose(f, r, SIZE_MAX, why ? why : stage);
		free(why);
		why = NULL;
	}
}

/* Rank 0: send answer to every rank, marked "out" for the lost ones. */
static int scatter(struct fleet *f, int tag, json_t *answer, double wait)
{
	char *in = json_dumps(answer, JSON_COMPACT), *out = NULL;
	json_t *copy = json_deep_copy(answer);
	int rc = in && copy ? 0 : -ENOMEM;

	if (!rc && json_object_set_new(copy, "out", json_true()) == 0)
		out = json_dumps(copy, JSON_COMPACT);
	for (int r = 1; !rc && out && r < f->size; r++)
		/* a dead rank's message goes nowhere: a short wait on it */
		fleet_send_text(r, tag + 1, f->st->ranks[r].lost ? out : in,
				hb_now() + (f->st->ranks[r].lost ? 1 : wait));
	if (!out)
		rc = -ENOMEM;
	free(in);
	free(out);
	json_decref(copy);
	return rc;
}

/* Rank 0's side: gather, decide, answer. */
static int lead(struct fleet *f, int tag, json_t *mine, double wait,
		const char *stage, fleet_decide_fn *decide, void *arg,
		json_t **answer)
{
	json_t **all = calloc((size_t)f->size, sizeof(json_t *));
	int rc = -ENOMEM;

	if (!all)
		return rc;
	gather(f, tag, mine, wait, stage, all);
	*answer = decide(f, all, arg);
	if (*answer)
		rc = scatter(f, tag, *answer, wait);
	for (int r = 0; r < f->size; r++)
		json_decref(all[r]);
	free(all);
	return rc;
}

/* The side of a rank above 0: tell rank 0, then wait for its answer. */
static int follow(struct fleet *f, int tag, json_t *mine, double wait,
		  const char *stage, json_t **answer)
{
	double deadline = hb_now() + 2 * wait;
	char *text = json_dumps(mine, JSON_COMPACT);
	json_error_t jerr;
	int rc = text ? fleet_send_text(0, tag, text, deadline) : -ENOMEM;

	free(text);
	text = NULL;
	if (!rc)
		rc = fleet_recv_text(0, tag + 1, deadline, &text);
	if (rc == -ETIMEDOUT)
		fleet_rank_give_up(f, 2 * wait, stage);
	if (!rc && !(*answer = json_loads(text, 0, &jerr)))
		rc = -EIO;
	free(text);
	return rc;
}

int fleet_round(struct fleet *f, int tag, json_t *mine, double wait,
		const char *stage, fleet_decide_fn *decide, void *arg,
		json_t **answer)
{
	*answer = NULL;
	if (f->rank == 0)
		return lead(f, tag, mine, wait, stage, decide, arg, answer);
	return follow(f, tag, mine, wait, stage, answer);
}
