/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cases of a fleet run: rank 0 releases each case (to every rank at
 * once, or one rank after the other), collects every result by its
 * deadline (fleet_case_wait()) and counts a rank that misses it lost; the
 * other ranks wait for its word, run, and send their results.
 */
#define _GNU_SOURCE /* asprintf */
#include "fleet/fleet.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/exit.h"
#include "base/jsonw.h"
#include "fleet/fleet_int.h"
#include "result/result_json.h"
#include "suite/suite_time.h"

/*
 * Decode rank r's result message text for case i into its results, and
 * keep the text in the spool (only its figures stay in memory).
 */
static void take_result(struct fleet *f, int r, size_t i, const char *text)
{
	struct fleet_rank *fr = &f->st->ranks[r];

	fleet_result_take(&f->st->suite->cases[i], i, text, &fr->res[i],
			  &fr->at[i]);
	if (fr->res[i].status == RESULT_FAILED)
		fr->failed = 1;
	fleet_spool(f, r, i, text);
}

/* Rank 0: wait for rank r's result of case i until st->due. */
static void collect_one(struct fleet *f, int r, size_t i)
{
	const struct bench_case *c = &f->st->suite->cases[i];
	char *text = NULL, why[160];
	int rc;

	if (fleet_rank_out(f, r))
		return;
	rc = fleet_recv_text(r, FLEET_TAG_RESULT, f->st->due, &text);
	if (rc == 0) {
		take_result(f, r, i, text);
		free(text);
		return;
	}
	if (fleet_rank_gave_up(f, r, i))
		return; /* rank 0 was the late one */
	if (f->st->ranks[0].late) {
		f->st->ranks[r].unheard = 1; /* no evidence against it */
		return;
	}
	snprintf(why, sizeof(why),
		 rc == -ETIMEDOUT ? "no result within %.0f s (the rank died "
				    "or hung; fleet_timeout sets this wait)"
				  : "its result could not be received",
		 fleet_case_wait(c));
	fleet_rank_lose(f, r, i, why);
}

/*
 * Rank 0 back after the deadline of case i's results: it was stopped or
 * hung, not the ranks. It says so, and gives their results, which may
 * still be on their way, fleet_timeout from now.
 */
static void late_back(struct fleet *f, size_t i)
{
	struct fleet_state *st = f->st;
	double now = hb_now();

	if (now <= st->due)
		return;
	fleet_rank_late(f, i, now - st->due);
	st->due = now + st->suite->cases[i].fleet_timeout;
}

/* Rank 0: collect the results of the together case still pending. */
static void collect_pending(struct fleet *f)
{
	struct fleet_state *st = f->st;

	if (!st->pending)
		return;
	late_back(f, st->pending - 1);
	fleet_trace(f, "case_done", (long)st->pending - 1);
	for (int r = 1; r < f->size; r++)
		collect_one(f, r, st->pending - 1);
	fleet_trace(f, "gathered", (long)st->pending - 1);
	st->pending = 0;
}

/*
 * Seconds beyond a deadline of rank 0's that its next word may take: the
 * results it collects by then, the stops it sends to ranks it lost.
 */
#define FLEET_LEASE_SLACK 2.0

/*
 * How long a rank above 0 waits for rank 0's next word once rank 0 is
 * busy with case i (runs it, collects it): what rank 0 waits for any rank
 * (fleet_case_wait()), and its slack. The same at 2 ranks as at 500.
 */
static double lease_of(const struct fleet *f, size_t i)
{
	return fleet_case_wait(&f->st->suite->cases[i]) + FLEET_LEASE_SLACK;
}

/*
 * Rank 0: tell every rank still in the run but skip that its next word
 * may take secs (a rank waiting while rank 0 or another rank runs a
 * sequential case, or while rank 0 writes its report).
 */
static void lease_all(struct fleet *f, int skip, double secs)
{
	for (int r = 1; r < f->size; r++)
		if (r != skip && !fleet_rank_out(f, r))
			fleet_send_double(r, FLEET_TAG_LEASE, secs,
					  hb_now() + 1);
}

/*
 * Where a rank above 0 waits for rank 0's word on case i: "at \"memcpy\""
 * (the case rank 0 last released), before the first case or after the
 * last.
 */
static void stage_of(const struct fleet *f, size_t i, char *buf, size_t len)
{
	const struct suite *s = f->st->suite;

	if (i >= s->ncases)
		snprintf(buf, len, "after the last case");
	else if (f->st->at < s->ncases)
		snprintf(buf, len, "at \"%s\"", s->cases[f->st->at].title);
	else
		snprintf(buf, len, "before the first case");
}

/*
 * A rank above 0: wait for rank 0's word on case i until rank 0's lease
 * ends. 1 to run it, else 0.
 */
static int wait_control(struct fleet *f, size_t i)
{
	struct fleet_state *st = f->st;
	long value = FLEET_STOP;
	char stage[300];
	int rc =
		fleet_recv_leased(FLEET_TAG_GO, &value, &st->lease, &st->heard);

	if (rc == -ETIMEDOUT) {
		stage_of(f, i, stage, sizeof(stage));
		fleet_rank_give_up(f, hb_now() - st->heard, stage);
	}
	if (value == FLEET_STOP_ABORT)
		st->abandon = 1;
	if (rc || value != (long)i)
		return 0;
	st->at = i;
	st->heard = hb_now();
	st->lease = st->heard + lease_of(f, i);
	return 1;
}

/* Rank 0: the deadline for results of case i started now. */
static double due_for(const struct fleet *f, size_t i)
{
	return hb_now() + fleet_case_wait(&f->st->suite->cases[i]);
}

/* Rank 0: tell rank r to start case i, or count it lost. */
static int release(struct fleet *f, int r, size_t i)
{
	if (fleet_send_long(r, FLEET_TAG_GO, (long)i, f->st->due) == 0)
		return 0;
	fleet_rank_lose(f, r, i, "did not take the start signal");
	return -EIO;
}

/* This rank starts case i now; returns 1 (run it). */
static int begin_span(struct fleet *f, size_t i)
{
	f->st->span_start = fleet_wall();
	if (f->rank == 0)
		f->st->ranks[0].at[i].start = f->st->span_start;
	fleet_fault(f->rank, "case");
	return 1;
}

int fleet_case_begin(struct fleet *f, size_t i)
{
	struct fleet_state *st = f->st;

	if (f->size == 1)
		return 1;
	if (f->rank != 0) {
		if (st->stopped || !wait_control(f, i)) {
			st->stopped = 1;
			return 0;
		}
		return begin_span(f, i);
	}
	collect_pending(f);
	if (st->suite->cases[i].fleet_sequential) {
		/* the others in fleet_case_end; until then they wait */
		lease_all(f, 0, lease_of(f, i));
		return begin_span(f, i);
	}
	st->due = due_for(f, i);
	for (int r = 1; r < f->size; r++)
		if (!fleet_rank_out(f, r) && !fleet_rank_gave_up(f, r, i))
			release(f, r, i);
	st->pending = i + 1;
	return begin_span(f, i);
}

/* r's measurement and times as {"case": i, "result": {...}} text. */
static int result_message(const struct fleet *f, size_t i,
			  const struct result *r, char **text)
{
	json_t *doc = json_object(), *res = json_object();
	int rc = -ENOMEM, bad = 0;

	jsonw_set(doc, "case", json_integer((json_int_t)i), &bad);
	jsonw_set(doc, "start", json_real(f->st->span_start), &bad);
	jsonw_set(doc, "end", json_real(fleet_wall()), &bad);
	if (!bad && !result_json_put(res, r) &&
	    !json_object_set(doc, "result", res)) {
		*text = json_dumps(doc, JSON_COMPACT | JSON_REAL_PRECISION(17));
		rc = *text ? 0 : -ENOMEM;
	}
	json_decref(res);
	json_decref(doc);
	return rc;
}

/* Rank 0, a sequential case i: every other rank's turn, one by one. */
static void take_turns(struct fleet *f, size_t i)
{
	for (int r = 1; r < f->size; r++) {
		if (fleet_rank_out(f, r))
			continue;
		f->st->due = due_for(f, i);
		lease_all(f, r, lease_of(f, i));
		if (release(f, r, i) == 0)
			collect_one(f, r, i);
	}
}

int fleet_case_end(struct fleet *f, size_t i, struct result *r)
{
	struct fleet_state *st = f->st;
	char *text = NULL;
	int rc;

	r->c = &st->suite->cases[i];
	if (f->size == 1)
		return 0;
	if (fleet_peer_blame(f, i, r) || fleet_absent(f, i, r))
		return -ENOMEM;
	if (f->rank != 0) {
		if (st->stopped)
			return 0; /* rank 0 counted this rank lost */
		if (i + 1 == st->suite->ncases)
			fleet_fault(f->rank, "result");
		rc = result_message(f, i, r, &text);
		/* kept under way past the lease: rank 0 may be only late */
		if (!rc)
			rc = fleet_send_text_kept(0, FLEET_TAG_RESULT, text,
						  st->lease, &st->kept);
		/* a result rank 0 did not get makes it count this rank lost */
		return rc == -EIO || rc == -ETIMEDOUT ? 0 : rc;
	}
	st->ranks[0].at[i].end = fleet_wall();
	if (fleet_peer_receives(f, i))
		r->status = RESULT_SKIPPED; /* its figure is the others' */
	if (st->suite->cases[i].fleet_sequential)
		take_turns(f, i);
	return 0;
}

int fleet_case_counted(struct fleet *f)
{
	struct fleet_state *st = f->st;
	long value = FLEET_STOP;

	if (f->size == 1 || f->rank == 0)
		return 1;
	if (st->stopped || st->orphan)
		return 0;
	/*
	 * rank 0 says nothing to this rank before its result but to stop
	 * (fleet_rank_lose()): a word now is that
	 */
	if (fleet_recv_long(0, FLEET_TAG_GO, &value, hb_now(), 0) == 0) {
		st->stopped = 1;
		st->abandon |= value == FLEET_STOP_ABORT;
		return 0;
	}
	/* rank 0's deadline for it ended no later than this one did */
	if (hb_now() > st->heard + fleet_case_wait(&st->suite->cases[st->at])) {
		st->stopped = 1;
		return 0;
	}
	return 1;
}

/* Rank 0: fill every result a lost rank never sent. */
static int fill_lost(struct fleet *f)
{
	struct fleet_state *st = f->st;
	char who[FLEET_HOST_MAX + 32];

	for (int r = 1; r < f->size; r++) {
		struct fleet_rank *fr = &st->ranks[r];

		for (size_t i = 0;
		     fleet_rank_out(f, r) && fr->res && i < st->suite->ncases;
		     i++) {
			if (fr->res[i].c)
				continue;
			fr->res[i].c = &st->suite->cases[i];
			fr->res[i].status = RESULT_FAILED;
			if (asprintf(&fr->res[i].reason, "%s %s: %s",
				     fleet_rank_name(f, r, who, sizeof(who)),
				     fr->lost	   ? "lost"
				     : fr->gave_up ? "gave up on rank 0"
						   : "not heard from",
				     fr->lost ? fr->lost_why
				     : st->ranks[0].lost_why
					     ? st->ranks[0].lost_why
					     : "") < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

int fleet_finish(struct fleet *f, int own)
{
	struct fleet_state *st = f->st;
	int status = own;

	if (f->size == 1 || f->rank != 0)
		return own;
	collect_pending(f);
	for (int r = 1; r < f->size; r++) {
		struct fleet_rank *fr = &st->ranks[r];

		for (size_t i = 0;
		     !fleet_rank_out(f, r) && fr->res && i < st->suite->ncases;
		     i++)
			if (!fr->res[i].c && !fleet_rank_gave_up(f, r, i))
				fleet_rank_lose(f, r, i,
						"stopped before this case");
		if ((fleet_rank_out(f, r) || fr->failed) && status == 0)
			status = EXIT_CASE_FAILED;
	}
	/* the others wait while this rank writes its report */
	lease_all(f, 0, st->wait + FLEET_LEASE_SLACK);
	if (fill_lost(f))
		fprintf(stderr, "hostbench: fleet: out of memory\n");
	return status;
}

void fleet_case_goodbye(struct fleet *f)
{
	struct fleet_state *st = f->st;
	const struct suite *s = st->suite;

	if (f->rank == 0) {
		long stop = FLEET_STOP;

		for (int r = 1; r < f->size; r++)
			if (fleet_rank_out(f, r))
				stop = FLEET_STOP_ABORT;
		for (int r = 1; st->started && r < f->size; r++)
			if (!fleet_rank_out(f, r))
				fleet_send_long(r, FLEET_TAG_GO, stop,
						hb_now() + st->wait);
		return;
	}
	fleet_fault(f->rank, "goodbye");
	if (st->started && !st->stopped && !st->orphan && s)
		wait_control(f, s->ncases);
	fleet_fault(f->rank, "end");
}
