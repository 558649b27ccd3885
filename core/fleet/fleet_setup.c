/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Before the first case, one phase after another through rank 0: the
 * ranks compare their suites and resolve host pairs (fleet_prepare), agree
 * on the prechecks (fleet_agree), ship their contexts and read their
 * clocks (fleet_start). Each step is a round (fleet_round.c) bounded by
 * fleet_timeout.
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

#include "base/jsonw.h"
#include "fleet/fleet_int.h"

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
 * One case of the expanded matrix as one number: what the rank would run,
 * parameters with their defaults filled, so another plugin version shows
 * too. Plugin paths are left out: hosts may install in different places.
 */
static uint64_t hash_of_case(const struct bench_case *c)
{
	uint64_t h = 14695981039346656037ULL;
	char num[256];

	{
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

/* Each case's hash as text into hashes (s->ncases of 17 bytes). */
static void hash_cases(const struct suite *s, char (*hashes)[17])
{
	for (size_t i = 0; i < s->ncases; i++)
		snprintf(hashes[i], 17, "%016" PRIx64,
			 hash_of_case(&s->cases[i]));
}

/*
 * A rank's say on its suite: loaded (suite_load's code), the hash of the
 * whole matrix, each case as [hash, job, backend] and the plugins it has
 * (what an unlike host's cases are checked against: fleet_unlike.c).
 */
static json_t *hello_of(const struct fleet *f, const struct suite *s,
			const struct registry *reg, char (*hashes)[17],
			int loaded)
{
	char hash[32] = "";
	uint64_t h = 14695981039346656037ULL;
	int bad = 0;
	json_t *o = json_object(), *cases = json_array(), *plugins;

	for (size_t i = 0; !loaded && i < s->ncases; i++) {
		hash_str(&h, hashes[i]);
		jsonw_push(cases,
			   json_pack("[s, I, s]", hashes[i],
				     (json_int_t)s->cases[i].job,
				     s->cases[i].backend),
			   &bad);
	}
	plugins = json_array();
	for (size_t i = 0; reg && i < reg->n; i++)
		jsonw_push(plugins, jsonw_text(reg->plugins[i].desc->name),
			   &bad);
	jsonw_set(o, "unoffered", fleet_unlike_unoffered(s, loaded), &bad);
	if (!loaded)
		snprintf(hash, sizeof(hash), "%016" PRIx64, h);
	jsonw_set(o, "loaded", json_integer(loaded), &bad);
	jsonw_set(o, "hash", json_string(hash), &bad);
	jsonw_set(o, "host", jsonw_text(f->st->ranks[f->rank].host), &bad);
	jsonw_set(o, "cases", cases, &bad);
	jsonw_set(o, "plugins", plugins, &bad);
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

	if (!o || !hosts) {
		free(why);
		json_decref(o);
		json_decref(hosts);
		return NULL;
	}

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

/* "the suite differs" naming rank r (against rank 0), or NULL. */
static char *differs(struct fleet *f, int r)
{
	char a[FLEET_HOST_MAX + 32], b[FLEET_HOST_MAX + 32], *why = NULL;

	if (asprintf(&why,
		     "fleet: the suite differs between ranks: %s expands to "
		     "other cases than %s (same suite files, --set and "
		     "plugin versions on every host; a case may be missing "
		     "only on a host without its backend's plugin); nothing "
		     "ran",
		     fleet_rank_name(f, r, a, sizeof(a)),
		     fleet_rank_name(f, r ? 0 : 1, b, sizeof(b))) < 0)
		return NULL;
	return why;
}

/*
 * Rank 0: which rank's suite did not load, as the message every rank
 * prints; NULL when they all loaded it. *unlike: whether their cases
 * differ.
 */
static char *hello_problem(struct fleet *f, json_t *const *all, int *unlike)
{
	const char *mine = json_string_value(json_object_get(all[0], "hash"));
	char a[FLEET_HOST_MAX + 32], *why = NULL;

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
			*unlike = 1;
	}
	return NULL;
}

/*
 * Rank 0: every rank's host, then whether the suites agree; when their
 * cases differ only where a host lacks a plugin, the union every rank
 * runs ("union").
 */
static json_t *decide_hello(struct fleet *f, json_t *const *all, void *arg)
{
	json_t *u = NULL, *answer;
	char *why;
	int unlike = 0, other = 0;

	(void)arg;
	for (int r = 1; r < f->size; r++)
		if (all[r])
			snprintf(f->st->ranks[r].host, FLEET_HOST_MAX, "%s",
				 json_string_value(
					 json_object_get(all[r], "host")));
	why = hello_problem(f, all, &unlike);
	if (!why)
		why = fleet_unlike_nobody(f, all);
	if (!why && unlike) {
		u = fleet_unlike_union(f, all, &other);
		if (!u)
			return NULL;
		if (other)
			why = differs(f, other < 0 ? 0 : other);
	}
	answer = verdict(f, why);
	if (answer && u && !other && json_object_set(answer, "union", u)) {
		json_decref(answer);
		answer = NULL;
	}
	json_decref(u);
	return answer;
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

/*
 * One round with a verdict; a rank that gave up on rank 0 says so. *keep,
 * when not NULL, gets the answer (a new reference) after 0.
 */
static int verdict_round(struct fleet *f, int tag, json_t *mine,
			 const char *stage, fleet_decide_fn *decide,
			 json_t **keep, char *err, size_t errlen)
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
	if (!rc && keep)
		*keep = json_incref(answer);
	json_decref(answer);
	return rc;
}

/*
 * Every rank: when the ranks' cases differ only where a host lacks a
 * plugin (answer has "union"), s becomes the union (fleet_unlike.c).
 */
static int take_unlike(struct fleet *f, struct suite *s, char (*hashes)[17],
		       const json_t *answer, char *err, size_t errlen)
{
	const json_t *u = json_object_get(answer, "union");
	const char **names;
	int rc;

	if (!u)
		return 0;
	names = calloc(s->ncases + 1, sizeof(*names));
	for (size_t i = 0; names && i < s->ncases; i++)
		names[i] = hashes[i];
	rc = names ? fleet_unlike_take(f, s, names, u) : -ENOMEM;
	free(names);
	if (rc == -ETIMEDOUT)
		return hb_errorf(err, errlen, rc,
				 "fleet: no answer from rank 0 within %.0f s "
				 "(rank 0 died or hung)",
				 2 * f->st->wait);
	if (rc == -ECANCELED)
		f->st->stopped = 1;
	return rc ? hb_errorf(err, errlen, rc,
			      "fleet: the ranks could not share the cases "
			      "some lack: %s",
			      strerror(-rc))
		  : 0;
}

int fleet_prepare(struct fleet *f, struct suite *s, const struct registry *reg,
		  int loaded, const char *serve, const struct suite **resolved,
		  char *err, size_t errlen)
{
	struct fleet_state *st = f->st;
	char(*hashes)[17] = NULL;
	json_t *answer = NULL;
	int rc;

	*resolved = s;
	if (f->size == 1) { /* started without mpirun: nobody to send to */
		st->suite = loaded ? NULL : s;
		return loaded ? loaded : fleet_refuse_peers(s, err, errlen);
	}
	if (loaded)
		fprintf(stderr, "hostbench: %s\n", err);
	hashes = calloc(s->ncases + 1, sizeof(*hashes));
	if (!hashes)
		return hb_errorf(err, errlen, -ENOMEM, "fleet: out of memory");
	if (!loaded)
		hash_cases(s, hashes);
	fleet_fault(f->rank, "hello");
	rc = verdict_round(f, FLEET_TAG_HELLO,
			   hello_of(f, s, reg, hashes, loaded),
			   "while the ranks compared their suites",
			   decide_hello, &answer, err, errlen);
	if (!rc)
		rc = take_unlike(f, s, hashes, answer, err, errlen);
	json_decref(answer);
	free(hashes);
	fleet_trace(f, "suite_compare", -1);
	if (rc)
		return rc;
	st->suite = s;
	fleet_fault(f->rank, "peers");
	rc = fleet_peers_resolve(f, serve, err, errlen);
	if (!rc && st->resolved.cases)
		*resolved = &st->resolved;
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
			       decide_agree, NULL, err, errlen);
	fleet_trace(f, "suite_check", -1);
	if (rc && agreed != -ETIMEDOUT && agreed != -ECANCELED) {
		fprintf(stderr, "hostbench: %s\n", own);
		return agreed ? agreed : rc;
	}
	return agreed;
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
			   "before the first case", decide_context, NULL, err,
			   sizeof(err));
	fleet_trace(f, "contexts", -1);
	if (!rc) {
		fleet_fault(f->rank, "clock");
		rc = fleet_clock_sync(f, st->wait);
		/* rank 0 reads the others' clocks, then starts the first case
		 */
		st->at = SIZE_MAX; /* no case yet */
		st->heard = hb_now();
		st->lease = st->heard + 2 * st->wait;
	}
	fleet_trace(f, "clocks", -1);
	if (rc == -ETIMEDOUT || rc == -ECANCELED) {
		st->stopped = 1;
		return 0; /* fleet_case_begin() says stop */
	}
	return rc;
}
