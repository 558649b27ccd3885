/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fleet runs over MPI: the ranks agree on the suite through rank 0, rank 0
 * paces the cases and collects every result. Every wait has a deadline
 * (fleet_msg.c, fleet_round.c), so a rank lost at any moment costs a
 * wait, never the run.
 */
#define _GNU_SOURCE /* asprintf */
#include "fleet/fleet.h"

#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <mpi.h>

#include "base/exit.h"
#include "base/jsonw.h"
#include "fleet/fleet_int.h"
#include "run/isolate.h"
#include "result/result_json.h"

/* FNV-1a over n bytes of p into *h. */
static void hash_bytes(uint64_t *h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		*h ^= b[i];
		*h *= 1099511628211ULL;
	}
}

/* A string and its terminator, so "ab","c" and "a","bc" differ. */
static void hash_str(uint64_t *h, const char *s)
{
	hash_bytes(h, s ? s : "", strlen(s ? s : "") + 1);
}

/*
 * The expanded matrix as one number: what each rank would run, parameters
 * with their defaults filled, so another plugin version or a plugin
 * missing on one host shows too. Plugin paths are left out: hosts may
 * install in different places.
 */
static uint64_t hash_of_suite(const struct suite *s)
{
	uint64_t h = 14695981039346656037ULL;
	char num[256];

	for (size_t i = 0; i < s->ncases; i++) {
		const struct bench_case *c = &s->cases[i];

		hash_str(&h, c->title);
		hash_str(&h, c->target);
		hash_str(&h, c->backend);
		hash_str(&h, c->unit);
		for (size_t k = 0; k < c->params.n; k++) {
			hash_str(&h, c->params.items[k].key);
			hash_str(&h, c->params.items[k].value);
		}
		snprintf(num, sizeof(num),
			 "%u %.17g %u %u %.17g %llu %.17g %d %d %.17g "
			 "%u %d %.17g %u %.17g %d %d",
			 c->parallel, c->duration, c->repetitions, c->warmup,
			 c->timeout, (unsigned long long)c->memory_limit,
			 c->cpu_limit, c->isolate, c->fleet_sequential,
			 c->fleet_timeout, c->queue_depth, c->depth_given,
			 c->precision, c->min_repetitions, c->max_time,
			 c->warmup_auto, c->interleaved);
		hash_str(&h, num);
		/* the cpus value as written ("spread", "0-3"): each host
		 * resolves it on its own CPUs */
		hash_str(&h, c->cpus);
	}
	return h;
}

/* MPI_Init, bounded: a rank that died before it joined ends the wait. */
static int join(double wait)
{
	struct fleet_watchdog *w = NULL;
	int rc;

	fleet_watchdog_start(&w, wait, EXIT_CASE_FAILED, "MPI_Init");
	fleet_fault(-1, "init");
	rc = MPI_Init(NULL, NULL);
	fleet_watchdog_stop(w);
	return rc;
}

int fleet_init(struct fleet *f, enum report_format fmt, double wait, char *err,
	       size_t errlen)
{
	char host[MPI_MAX_PROCESSOR_NAME];
	int len = 0;

	(void)fmt; /* every format has a fleet report */
	*f = (struct fleet){ .size = 1 };
	if (join(wait) != MPI_SUCCESS)
		return hb_errorf(err, errlen, -EIO, "fleet: MPI_Init failed");
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
	MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &f->size);
	f->st = calloc(1, sizeof(*f->st));
	if (f->st)
		f->st->ranks = calloc((size_t)f->size, sizeof(*f->st->ranks));
	if (!f->st || !f->st->ranks) {
		fleet_end(f, 0);
		return hb_errorf(err, errlen, -ENOMEM, "fleet: out of memory");
	}
	f->st->wait = wait;
	for (int r = 0; r < f->size; r++)
		snprintf(f->st->ranks[r].host, FLEET_HOST_MAX, "unknown host");
	if (MPI_Get_processor_name(host, &len) != MPI_SUCCESS)
		snprintf(host, sizeof(host), "rank%d", f->rank);
	snprintf(f->st->ranks[f->rank].host, FLEET_HOST_MAX, "%s", host);
	return 0;
}

const char *fleet_rank_name(const struct fleet *f, int r, char *buf, size_t len)
{
	snprintf(buf, len, "rank %d (%s)", r, f->st->ranks[r].host);
	return buf;
}

/* A rank's say on its suite: loaded (suite_load's code) and the hash. */
static json_t *hello_of(const struct fleet *f, const struct suite *s,
			int loaded)
{
	char hash[32] = "";
	int bad = 0;
	json_t *o = json_object();

	if (!loaded)
		snprintf(hash, sizeof(hash), "%016" PRIx64, hash_of_suite(s));
	jsonw_set(o, "loaded", json_integer(loaded), &bad);
	jsonw_set(o, "hash", json_string(hash), &bad);
	jsonw_set(o, "host", jsonw_text(f->st->ranks[f->rank].host), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* {"error": why} or {"error": null}, and the ranks rank 0 knows. */
static json_t *verdict(const struct fleet *f, char *why)
{
	json_t *o = json_object(), *hosts = json_array();
	int bad = 0;

	for (int r = 0; r < f->size; r++)
		jsonw_push(hosts, jsonw_text(f->st->ranks[r].host), &bad);
	jsonw_set(o, "hosts", hosts, &bad);
	jsonw_set(o, "error", why ? json_string(why) : json_null(), &bad);
	free(why);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * Rank 0: which rank's suite did not load or differs from rank 0's, as
 * the message every rank prints; NULL when they all agree.
 */
static char *hello_problem(struct fleet *f, json_t *const *all)
{
	const char *mine = json_string_value(json_object_get(all[0], "hash"));
	char a[FLEET_HOST_MAX + 32], b[FLEET_HOST_MAX + 32], *why = NULL;

	for (int r = 0; r < f->size; r++) {
		const char *hash;

		if (!all[r])
			continue; /* lost: the others go on */
		hash = json_string_value(json_object_get(all[r], "hash"));
		if (json_integer_value(json_object_get(all[r], "loaded")))
			return asprintf(&why,
					"fleet: %s could not load the suite "
					"(its message is above); nothing ran",
					fleet_rank_name(f, r, a, sizeof(a))) < 0
				       ? NULL
				       : why;
		if (!hash || !mine || strcmp(hash, mine) != 0)
			return asprintf(&why,
					"fleet: the suite differs between "
					"ranks: %s expands to other cases than "
					"%s (same suite files, --set and "
					"plugins on every host); nothing ran",
					fleet_rank_name(f, r, a, sizeof(a)),
					fleet_rank_name(f, 0, b, sizeof(b))) < 0
				       ? NULL
				       : why;
	}
	return NULL;
}

/* Rank 0: every rank's host, then whether the suites agree. */
static json_t *decide_hello(struct fleet *f, json_t *const *all, void *arg)
{
	(void)arg;
	for (int r = 1; r < f->size; r++)
		if (all[r])
			snprintf(f->st->ranks[r].host, FLEET_HOST_MAX, "%s",
				 json_string_value(
					 json_object_get(all[r], "host")));
	return verdict(f, hello_problem(f, all));
}

/*
 * What rank 0 answered, on every rank: the hosts it knows, then -EINVAL
 * with its message in err, -ECANCELED when this rank is out, or 0.
 */
static int take_verdict(struct fleet *f, const json_t *answer, char *err,
			size_t errlen)
{
	const json_t *hosts = json_object_get(answer, "hosts");
	const char *why = json_string_value(json_object_get(answer, "error"));

	for (int r = 0; r < f->size && r < (int)json_array_size(hosts); r++)
		snprintf(f->st->ranks[r].host, FLEET_HOST_MAX, "%s",
			 json_string_value(json_array_get(hosts, (size_t)r)));
	if (json_is_true(json_object_get(answer, "out"))) {
		f->st->stopped = 1;
		return hb_errorf(err, errlen, -ECANCELED,
				 "fleet: rank 0 counted this rank (%d) lost: "
				 "it was later than fleet_timeout",
				 f->rank);
	}
	if (why)
		return hb_errorf(err, errlen, -EINVAL, "%s", why);
	return 0;
}

/* One round with a verdict; a rank that gave up on rank 0 says so. */
static int verdict_round(struct fleet *f, int tag, json_t *mine,
			 const char *stage, fleet_decide_fn *decide, char *err,
			 size_t errlen)
{
	json_t *answer = NULL;
	int rc = mine ? fleet_round(f, tag, mine, f->st->wait, stage, decide,
				    NULL, &answer)
		      : -ENOMEM;

	json_decref(mine);
	if (rc == -ETIMEDOUT)
		return hb_errorf(err, errlen, rc,
				 "fleet: no answer from rank 0 within %.0f s "
				 "(rank 0 died or hung)",
				 2 * f->st->wait);
	if (rc)
		return hb_errorf(err, errlen, rc,
				 "fleet: the ranks could not exchange what "
				 "they run: %s",
				 strerror(-rc));
	rc = take_verdict(f, answer, err, errlen);
	json_decref(answer);
	return rc;
}

int fleet_prepare(struct fleet *f, const struct suite *s, int loaded,
		  const char *serve, const struct suite **run, char *err,
		  size_t errlen)
{
	struct fleet_state *st = f->st;
	int rc;

	*run = s;
	if (f->size == 1) { /* started without mpirun: nobody to send to */
		st->suite = loaded ? NULL : s;
		return loaded ? loaded : fleet_refuse_peers(s, err, errlen);
	}
	if (loaded)
		fprintf(stderr, "hostbench: %s\n", err);
	fleet_fault(f->rank, "hello");
	rc = verdict_round(f, FLEET_TAG_HELLO, hello_of(f, s, loaded),
			   "while the ranks compared their suites",
			   decide_hello, err, errlen);
	if (rc)
		return rc;
	st->suite = s;
	fleet_fault(f->rank, "peers");
	rc = fleet_peers_resolve(f, serve, err, errlen);
	if (!rc && st->run.cases)
		*run = &st->run;
	return rc;
}

/* Rank 0: the first rank whose precheck refused the suite, named. */
static json_t *decide_agree(struct fleet *f, json_t *const *all, void *arg)
{
	char who[FLEET_HOST_MAX + 32], *why = NULL;

	(void)arg;
	for (int r = 0; r < f->size && !why; r++)
		if (all[r] &&
		    json_integer_value(json_object_get(all[r], "rc")) &&
		    asprintf(&why,
			     "fleet: %s refused the suite (its message is "
			     "above); nothing ran",
			     fleet_rank_name(f, r, who, sizeof(who))) < 0)
			why = NULL;
	return verdict(f, why);
}

int fleet_agree(struct fleet *f, int rc, char *err, size_t errlen)
{
	json_t *mine = json_pack("{s:i}", "rc", rc);
	char own[1024];
	int agreed;

	if (rc == -ECANCELED || rc == -ETIMEDOUT || rc == -EIO ||
	    !f->st->suite || f->size == 1) {
		json_decref(mine);
		return rc; /* out of the fleet, or it never got this far */
	}
	if (rc)
		snprintf(own, sizeof(own), "%s", err);
	fleet_fault(f->rank, "agree");
	agreed = verdict_round(f, FLEET_TAG_AGREE, mine,
			       "while the ranks checked the suite",
			       decide_agree, err, errlen);
	if (rc && agreed != -ETIMEDOUT && agreed != -ECANCELED) {
		fprintf(stderr, "hostbench: %s\n", own);
		return agreed ? agreed : rc;
	}
	return agreed;
}

void fleet_mark_lost(struct fleet *f, int r, size_t i, const char *why)
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

/* Rank 0: keep every rank's context for the report. */
static json_t *decide_context(struct fleet *f, json_t *const *all, void *arg)
{
	(void)arg;
	for (int r = 0; r < f->size; r++)
		f->st->ranks[r].context = json_incref(all[r]);
	return verdict(f, NULL);
}

/* Rank 0: room for every rank's results and times. */
static int make_room(struct fleet *f)
{
	size_t n = f->st->suite->ncases ? f->st->suite->ncases : 1;

	for (int r = 0; r < f->size; r++) {
		struct fleet_rank *fr = &f->st->ranks[r];

		fr->res = calloc(n, sizeof(*fr->res));
		fr->at = calloc(n, sizeof(*fr->at));
		if (!fr->res || !fr->at)
			return -ENOMEM;
	}
	return 0;
}

int fleet_start(struct fleet *f, const struct report *ctx)
{
	struct fleet_state *st = f->st;
	char *text = NULL, err[512];
	json_error_t jerr;
	json_t *mine = NULL;
	int rc = fleet_context_text(ctx, &text);

	st->started = 1;
	if (!rc && f->rank == 0)
		rc = make_room(f);
	if (rc || f->size == 1) {
		free(text);
		return rc;
	}
	mine = json_loads(text, 0, &jerr);
	free(text);
	fleet_fault(f->rank, "context");
	rc = verdict_round(f, FLEET_TAG_CONTEXT, mine ? mine : json_object(),
			   "before the first case", decide_context, err,
			   sizeof(err));
	if (!rc) {
		fleet_fault(f->rank, "clock");
		rc = fleet_clock_sync(f, st->wait);
	}
	if (rc == -ETIMEDOUT || rc == -ECANCELED) {
		st->stopped = 1;
		return 0; /* fleet_case_begin() says stop */
	}
	return rc;
}

/* Decode rank r's result message text for case i into its results. */
static void take_result(struct fleet *f, int r, size_t i, const char *text)
{
	const struct bench_case *c = &f->st->suite->cases[i];
	struct fleet_rank *fr = &f->st->ranks[r];
	struct result *res = &fr->res[i];
	const char *const *parts = c->tdesc ? c->tdesc->parts : NULL;
	char why[256] = "not JSON";
	json_error_t jerr;
	json_t *doc = json_loads(text, 0, &jerr);
	json_t *jc = doc ? json_object_get(doc, "case") : NULL;

	result_free(res);
	memset(res, 0, sizeof(*res));
	if (!json_is_integer(jc) || (size_t)json_integer_value(jc) != i)
		snprintf(why, sizeof(why), "a result for another case");
	else if (!result_json_get(json_object_get(doc, "result"), parts, res,
				  why, sizeof(why)))
		why[0] = '\0';
	fr->at[i].start = json_number_value(json_object_get(doc, "start"));
	fr->at[i].end = json_number_value(json_object_get(doc, "end"));
	json_decref(doc);
	res->c = c;
	if (why[0]) {
		result_free(res);
		memset(res, 0, sizeof(*res));
		res->c = c;
		res->status = RESULT_FAILED;
		if (asprintf(&res->reason,
			     "rank 0 cannot read what this rank sent: %s",
			     why) < 0)
			res->reason = NULL;
	}
	if (res->status == RESULT_FAILED)
		fr->failed = 1;
}

/* Rank 0: wait for rank r's result of case i until st->due. */
static void collect_one(struct fleet *f, int r, size_t i)
{
	const struct bench_case *c = &f->st->suite->cases[i];
	char *text = NULL, why[160];
	int rc;

	if (f->st->ranks[r].lost)
		return;
	rc = fleet_recv_text(r, FLEET_TAG_RESULT, f->st->due, &text);
	if (rc == 0) {
		take_result(f, r, i, text);
		free(text);
		return;
	}
	snprintf(why, sizeof(why),
		 rc == -ETIMEDOUT ? "no result within %.0f s (the rank died "
				    "or hung; fleet_timeout sets this wait)"
				  : "its result could not be received",
		 fleet_case_wait(c));
	fleet_mark_lost(f, r, i, why);
}

/* Rank 0: collect the results of the together case still pending. */
static void collect_pending(struct fleet *f)
{
	struct fleet_state *st = f->st;

	if (!st->pending)
		return;
	for (int r = 1; r < f->size; r++)
		collect_one(f, r, st->pending - 1);
	st->pending = 0;
}

/*
 * A worker: how long rank 0 may take to say it may start case i (i ==
 * ncases: that the run is over). Rank 0 may still be running the case
 * before and collecting it, then, for a sequential case, running it
 * itself and waiting for every rank: generous, but bounded.
 */
static double control_wait(const struct fleet *f, size_t i)
{
	const struct suite *s = f->st->suite;
	double wait = f->st->wait;

	for (size_t k = i ? i - 1 : 0; k <= i && k < s->ncases; k++)
		wait += isolate_timeout(&s->cases[k]) +
			f->size * fleet_case_wait(&s->cases[k]);
	return wait;
}

/* A worker: wait for rank 0's word on case i. 1 to run it, else 0. */
static int wait_control(struct fleet *f, size_t i)
{
	double wait = control_wait(f, i);
	long value = FLEET_STOP;
	int rc = fleet_recv_long(0, FLEET_TAG_GO, &value, hb_now() + wait, 0);

	if (rc == -ETIMEDOUT) {
		f->st->orphan = 1;
		fprintf(stderr,
			"hostbench: fleet: rank %d (%s): no word from rank 0 "
			"within %.0f s (rank 0 died or hung); giving up\n",
			f->rank, f->st->ranks[f->rank].host, wait);
	}
	return rc == 0 && value == (long)i;
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
	fleet_mark_lost(f, r, i, "did not take the start signal");
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
	if (st->suite->cases[i].fleet_sequential)
		return begin_span(f, i); /* the others in fleet_case_end */
	st->due = due_for(f, i);
	for (int r = 1; r < f->size; r++)
		if (!st->ranks[r].lost)
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
		if (f->st->ranks[r].lost)
			continue;
		f->st->due = due_for(f, i);
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
	if (fleet_peer_blame(f, i, r))
		return -ENOMEM;
	if (f->rank != 0) {
		if (i + 1 == st->suite->ncases)
			fleet_fault(f->rank, "result");
		rc = result_message(f, i, r, &text);
		if (!rc)
			rc = fleet_send_text(0, FLEET_TAG_RESULT, text,
					     hb_now() + control_wait(f, i));
		free(text);
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

/* Rank 0: fill every result a lost rank never sent. */
static int fill_lost(struct fleet *f)
{
	struct fleet_state *st = f->st;
	char who[FLEET_HOST_MAX + 32];

	for (int r = 1; r < f->size; r++) {
		struct fleet_rank *fr = &st->ranks[r];

		for (size_t i = 0; fr->lost && fr->res && i < st->suite->ncases;
		     i++) {
			if (fr->res[i].c)
				continue;
			fr->res[i].c = &st->suite->cases[i];
			fr->res[i].status = RESULT_FAILED;
			if (asprintf(&fr->res[i].reason, "%s lost: %s",
				     fleet_rank_name(f, r, who, sizeof(who)),
				     fr->lost_why ? fr->lost_why : "") < 0)
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
		     !fr->lost && fr->res && i < st->suite->ncases; i++)
			if (!fr->res[i].c)
				fleet_mark_lost(f, r, i,
						"stopped before this case");
		if ((fr->lost || fr->failed) && status == 0)
			status = EXIT_CASE_FAILED;
	}
	if (fill_lost(f))
		fprintf(stderr, "hostbench: fleet: out of memory\n");
	return status;
}

int fleet_reports(const struct fleet *f)
{
	return f->size > 1 && f->rank == 0;
}

int fleet_silent(const struct fleet *f)
{
	return f->rank != 0;
}

/*
 * Rank 0: the run is over for every rank still in it (the report is
 * written). A worker: wait for that word, unless it already stopped.
 */
static void say_goodbye(struct fleet *f)
{
	struct fleet_state *st = f->st;
	const struct suite *s = st->suite;

	if (f->rank == 0) {
		for (int r = 1; st->started && r < f->size; r++)
			if (!st->ranks[r].lost)
				fleet_send_long(r, FLEET_TAG_GO, FLEET_STOP,
						hb_now() + st->wait);
		return;
	}
	if (st->started && !st->stopped && !st->orphan && s)
		wait_control(f, s->ncases);
	fleet_fault(f->rank, "end");
}

/* Free what st holds; returns whether a rank was lost. */
static int free_state(struct fleet_state *st, int size)
{
	int lost = 0;

	fleet_peers_release(st);
	for (int r = 0; st->ranks && r < size; r++) {
		struct fleet_rank *fr = &st->ranks[r];

		lost |= fr->lost;
		for (size_t i = 0;
		     fr->res && st->suite && i < st->suite->ncases; i++)
			result_free(&fr->res[i]);
		free(fr->res);
		free(fr->at);
		free(fr->lost_why);
		json_decref(fr->context);
	}
	free(st->ranks);
	free(st);
	return lost;
}

int fleet_end(struct fleet *f, int status)
{
	struct fleet_watchdog *w = NULL;
	int lost = 0, orphan = 0;

	if (f->st) {
		say_goodbye(f);
		orphan = f->st->orphan;
		lost = free_state(f->st, f->size);
		f->st = NULL;
	}
	fflush(stdout);
	fflush(stderr);
	if ((lost && f->rank == 0) || orphan)
		MPI_Abort(MPI_COMM_WORLD, status ? status : EXIT_CASE_FAILED);
	fleet_watchdog_start(&w, SUITE_FLEET_TIMEOUT, status, "MPI_Finalize");
	MPI_Finalize();
	fleet_watchdog_stop(w);
	if (f->rank == 0 || status >= EXIT_SIGNAL(0))
		return status;
	return EXIT_ALL_OK;
}
