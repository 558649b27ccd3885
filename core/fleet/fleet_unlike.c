/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fleet of unlike hosts: ranks whose plugins differ expand `backend = *`
 * (or a default backend) into different cases. Rank 0 takes the union of
 * every rank's cases, as long as each case a rank lacks is one whose
 * backend that rank has no plugin for; anything else still differs. Each
 * rank then runs the union: its own cases, and in place of each case it
 * lacks one that is skipped with the reason. No MPI here but through
 * fleet_round().
 */
#define _GNU_SOURCE /* asprintf */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "result/case_json.h"

/* Whether the rank's hello (from hello_of()) offers a plugin named name. */
static int offers(const json_t *hello, const char *name)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(hello, "plugins"), i, p) {
		if (json_is_string(p) &&
		    strcmp(json_string_value(p), name) == 0)
			return 1;
	}
	return 0;
}

/* The entry [hash, job, backend] of list whose hash is hash, or NULL. */
static const json_t *find_case(const json_t *list, const char *hash)
{
	const json_t *e;
	size_t i;

	json_array_foreach(list, i, e) {
		if (strcmp(json_string_value(json_array_get(e, 0)) ?: "",
			   hash) == 0)
			return e;
	}
	return NULL;
}

/*
 * Insert rank r's entry e into u, as [hash, job, backend, r], after the
 * last entry of the same job or an earlier one.
 */
static int add_case(json_t *u, const json_t *e, int r)
{
	json_int_t job = json_integer_value(json_array_get(e, 1));
	size_t at = json_array_size(u);
	json_t *mine = json_copy((json_t *)e);

	if (!mine || json_array_append_new(mine, json_integer(r)))
		return -ENOMEM;
	for (size_t k = json_array_size(u); k-- > 0;) {
		json_int_t j = json_integer_value(
			json_array_get(json_array_get(u, k), 1));

		if (j <= job)
			break;
		at = k;
	}
	return json_array_insert_new(u, at, mine);
}

/* Whether a rank's hello names job (a JSON integer) unoffered. */
static int unoffered(const json_t *hello, const json_t *job)
{
	char key[24];

	snprintf(key, sizeof(key), "%lld", (long long)json_integer_value(job));
	return json_object_get(json_object_get(hello, "unoffered"), key) !=
	       NULL;
}

json_t *fleet_unlike_unoffered(const struct suite *s, int loaded)
{
	json_t *o = json_object();
	char key[24];
	int bad = 0;

	for (size_t j = 0; !loaded && j < s->njobs; j++) {
		if (!s->jobs[j].unoffered)
			continue;
		snprintf(key, sizeof(key), "%zu", j);
		jsonw_set(o, key, jsonw_text(s->jobs[j].unoffered), &bad);
	}
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

char *fleet_unlike_nobody(const struct fleet *f, json_t *const *all)
{
	const char *job, *target = NULL;
	char *why = NULL;
	json_t *v;

	json_object_foreach(json_object_get(all[0], "unoffered"), job, v) {
		target = json_string_value(v);
		for (int r = 1; target && r < f->size; r++)
			if (all[r] &&
			    !json_object_get(
				    json_object_get(all[r], "unoffered"), job))
				target = NULL;
		if (target)
			break;
	}
	if (target && asprintf(&why,
			       "fleet: no loaded plugin on any rank offers "
			       "\"%s\" (`hostbench list` on each host shows "
			       "its targets); nothing ran",
			       target) < 0)
		return NULL;
	return why;
}

/*
 * Whether a rank (its hello) lacks a case of other (a hello, or the
 * union) whose backend it has a plugin for, in a job whose target it
 * offers: a case may be missing only where its backend is not installed
 * or its target offered by none of the rank's plugins.
 */
static int lacks(const json_t *rank, const json_t *other)
{
	const json_t *list =
		json_is_array(other) ? other : json_object_get(other, "cases");
	const json_t *e;
	size_t i;

	if (!rank || !other)
		return 0; /* lost: the others go on */
	json_array_foreach(list, i, e) {
		const char *backend = json_string_value(json_array_get(e, 2));

		if (!find_case(json_object_get(rank, "cases"),
			       json_string_value(json_array_get(e, 0))) &&
		    offers(rank, backend ?: "") &&
		    !unoffered(rank, json_array_get(e, 1)))
			return 1;
	}
	return 0;
}

json_t *fleet_unlike_union(const struct fleet *f, json_t *const *all,
			   int *differs)
{
	json_t *u = json_array();

	*differs = 0;
	for (int r = 0; u && r < f->size; r++) {
		const json_t *e;
		size_t i;

		json_array_foreach(json_object_get(all[r], "cases"), i, e) {
			if (!find_case(u, json_string_value(
						  json_array_get(e, 0))) &&
			    add_case(u, e, r)) {
				json_decref(u);
				return NULL;
			}
		}
	}
	/* against rank 0 first, so the rank named is the one that deviates */
	for (int r = 1; u && r < f->size && !*differs; r++)
		if (lacks(all[r], all[0]) || lacks(all[0], all[r]))
			*differs = r;
	for (int r = 0; u && r < f->size && !*differs; r++)
		if (lacks(all[r], u))
			*differs = r ? r : -1;
	return u;
}

/* c as the description a rank that lacks it builds its stand-in from. */
static json_t *describe(const struct bench_case *c)
{
	json_t *o = json_object();
	int bad = 0;

	jsonw_set(o, "case", case_json_put(c), &bad);
	jsonw_set(o, "job", json_integer((json_int_t)c->job), &bad);
	jsonw_set(o, "fleet_sequential", json_boolean(c->fleet_sequential),
		  &bad);
	jsonw_set(o, "fleet_timeout", jsonw_number(c->fleet_timeout), &bad);
	jsonw_set(o, "store", json_boolean(c->store), &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Rank 0: the first description of each case any rank sent. */
static json_t *decide_describe(struct fleet *f, json_t *const *all, void *arg)
{
	json_t *known = json_object(), *o = json_object();
	int bad = 0;

	(void)arg;
	for (int r = 0; r < f->size; r++) {
		const char *hash;
		json_t *d;

		json_object_foreach(all[r], hash, d) {
			if (!json_object_get(known, hash))
				jsonw_set(known, hash, json_incref(d), &bad);
		}
	}
	jsonw_set(o, "cases", known, &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/*
 * This rank's stand-in for the case it lacks, from its description d; s
 * says whether its job's target is one no plugin here offers.
 */
static int stand_in(const struct fleet *f, const struct suite *s,
		    const json_t *d, struct bench_case *c)
{
	const char *target;
	char err[256];
	int rc = case_json_get(json_object_get(d, "case"), c, err, sizeof(err));

	if (rc)
		return rc;
	c->job = (size_t)json_integer_value(json_object_get(d, "job"));
	c->fleet_sequential =
		json_is_true(json_object_get(d, "fleet_sequential"));
	c->fleet_timeout =
		json_number_value(json_object_get(d, "fleet_timeout"));
	c->store = json_is_true(json_object_get(d, "store"));
	c->plugin = NULL;
	target = c->job < s->njobs ? s->jobs[c->job].unoffered : NULL;
	if (asprintf(&c->reason,
		     "rank %d (%s) has no plugin %s\"%s\": the case runs on "
		     "the ranks that have it",
		     f->rank, f->st->ranks[f->rank].host,
		     target ? "offering " : "",
		     target ? target : c->backend) < 0) {
		c->reason = NULL;
		return -ENOMEM;
	}
	return 0;
}

/* s's case i whose hash is hash, or s->ncases. */
static size_t own_case(const char *const *hashes, size_t n, const char *hash)
{
	size_t i = 0;

	while (i < n && strcmp(hashes[i], hash) != 0)
		i++;
	return i;
}

/* s becomes the union u: its own cases moved, stand-ins for the others. */
static int take_union(struct fleet *f, struct suite *s,
		      const char *const *hashes, const json_t *u,
		      const json_t *known)
{
	size_t n = json_array_size(u);
	struct bench_case *cases = calloc(n + 1, sizeof(*cases));
	unsigned char *absent = calloc(n + 1, 1);
	int rc = cases && absent ? 0 : -ENOMEM;

	for (size_t k = 0; !rc && k < n; k++) {
		const char *hash = json_string_value(
			json_array_get(json_array_get(u, k), 0));
		size_t i = own_case(hashes, s->ncases, hash);

		if (i < s->ncases) {
			cases[k] = s->cases[i];
			continue;
		}
		absent[k] = 1;
		rc = stand_in(f, s, json_object_get(known, hash), &cases[k]);
	}
	if (rc) {
		for (size_t k = 0; cases && k < n; k++)
			if (absent[k])
				suite_case_free(&cases[k]);
		free(cases);
		free(absent);
		return rc;
	}
	free(s->cases);
	s->cases = cases;
	s->ncases = n;
	free(f->st->absent);
	f->st->absent = absent;
	return 0;
}

int fleet_unlike_take(struct fleet *f, struct suite *s,
		      const char *const *hashes, const json_t *u)
{
	json_t *mine = json_object(), *answer = NULL;
	int bad = 0, rc;

	/* each case described by the first rank that has it */
	for (size_t i = 0; i < s->ncases; i++)
		if (json_integer_value(json_array_get(
			    (json_t *)find_case(u, hashes[i]), 3)) == f->rank)
			jsonw_set(mine, hashes[i], describe(&s->cases[i]),
				  &bad);
	rc = bad ? -ENOMEM
		 : fleet_round(f, FLEET_TAG_UNLIKE, mine, f->st->wait,
			       "while the ranks described the cases some "
			       "lack",
			       decide_describe, NULL, &answer);
	json_decref(mine);
	if (!rc && json_is_true(json_object_get(answer, "out")))
		rc = -ECANCELED;
	if (!rc)
		rc = take_union(f, s, hashes, u,
				json_object_get(answer, "cases"));
	json_decref(answer);
	return rc;
}

int fleet_absent(const struct fleet *f, size_t i, struct result *r)
{
	const struct bench_case *c = &f->st->suite->cases[i];

	if (!f->st->absent || !f->st->absent[i])
		return 0;
	result_free(r);
	*r = (struct result){ .c = c, .status = RESULT_SKIPPED };
	r->reason = strdup(c->reason ? c->reason : "no plugin here");
	return r->reason ? 0 : -ENOMEM;
}
