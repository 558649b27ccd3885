/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A JSON report into the store's rows, in one transaction: its host (by
 * a fingerprint of facts an upgrade does not change), its context (what
 * an upgrade does change), the run with the whole report, and each
 * result's headline figure with its samples.
 */
#include "store/store_put.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/digest.h"
#include "host/placement.h"
#include "base/util.h"
#include "base/uuid.h"
#include "compare/report_read.h"
#include "store/store_figure.h"

/* What a report is stored as, besides its own fields. */
struct put_as {
	const char *uuid;  /* the run's uuid */
	const char *time;  /* started, when the report has no "run" */
	const char *job;   /* a fleet's job, or NULL */
	long long rank;	   /* a fleet rank, or -1 */
	const char *place; /* a rank sharing its node: where it ran, or NULL */
	const char *text;  /* the report's compact text, or NULL: written */
	const char *now;   /* when stored: one time for one transaction */
};

/* obj[key] as a string, or NULL. */
static const char *text_of(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

/* obj[key] as a bound value: text, number or NULL. */
static struct store_val val_of(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);

	if (json_is_integer(v))
		return store_int(json_integer_value(v));
	if (json_is_real(v))
		return store_real(json_real_value(v));
	return store_text(json_string_value(v));
}

void store_uuid_of(const void *data, size_t len, char out[37])
{
	uint8_t d[32];
	char hex[33];

	digest_sha256(data, len, d);
	d[6] = (uint8_t)((d[6] & 0x0f) | 0x80); /* version 8: custom */
	d[8] = (uint8_t)((d[8] & 0x3f) | 0x80); /* RFC 4122 variant */
	for (int i = 0; i < 16; i++)
		sprintf(hex + 2 * i, "%02x", d[i]);
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
		 hex + 16, hex + 20);
}

/* Compact JSON text of o with sorted keys; NULL when out of memory. */
static char *canonical(const json_t *o)
{
	return json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/* The keys of a result that make it the same measurement, whatever the
 * layout of the report it came in (a fleet report's older layout keeps
 * each host's results elsewhere and with other companions). */
static const char *const same_keys[] = { "job",	   "target", "backend",
					 "params", "status", "samples",
					 "figures" };

/* Whether reports a and b hold the same results, in the same order. */
static int same_results(const json_t *a, const json_t *b)
{
	const json_t *ra = json_object_get(a, "results");
	const json_t *rb = json_object_get(b, "results");
	size_t n = json_array_size(ra);

	if (!json_is_array(ra) || !json_is_array(rb) ||
	    n != json_array_size(rb))
		return 0;
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(same_keys) / sizeof(*same_keys);
		     k++) {
			const json_t *x = json_object_get(json_array_get(ra, i),
							  same_keys[k]);
			const json_t *y = json_object_get(json_array_get(rb, i),
							  same_keys[k]);

			if (!(x == y || (x && y && json_equal(x, y))))
				return 0;
		}
	return 1;
}

/*
 * Whether run uuid is stored already: 0 when not, 1 when with report rep
 * (the same results: the same file imported again, or the same run in
 * another layout), else -EINVAL with err filled: one uuid
 * names one run, and another report under it would be a second run
 * hidden behind the first. The stored report is read as it is kept
 * (store_report: compressed since schema 4, text before).
 */
static int stored_as(struct store *st, const char *uuid, const json_t *rep,
		     char *err, size_t errlen)
{
	json_t *stored = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc = store_report(st, uuid, &text, &len, err, errlen);

	if (rc == -ENOENT)
		return 0;
	if (rc)
		return rc;
	stored = json_loadb(text, len, 0, NULL);
	free(text);
	rc = stored && same_results(stored, rep)
		     ? 1
		     : hb_errorf(err, errlen, -EINVAL,
				 "run %s is stored already with "
				 "other results; one uuid names one "
				 "run, so none of it is stored",
				 uuid);
	json_decref(stored);
	return rc;
}

/*
 * Refuse a run uuid that is not one (a report from elsewhere may say
 * anything there): as->uuid, and rep's own when it has one.
 */
static int uuid_check(const json_t *rep, const struct put_as *as, char *err,
		      size_t errlen)
{
	const char *own = text_of(json_object_get(rep, "run"), "uuid");
	const char *uuid = own && !uuid_is_text(own) ? own : as->uuid;

	if (uuid_is_text(uuid))
		return 0;
	uuid = uuid ? uuid : "";
	return hb_errorf(err, errlen, -EINVAL,
			 "run uuid \"%.40s%s\" is not a UUID "
			 "(8-4-4-4-12 hex digits)",
			 uuid, strlen(uuid) > 40 ? "..." : "");
}

/*
 * The host of sys, its id into id: the fingerprint keeps to what a
 * kernel or library upgrade leaves alone (not the RAM the kernel
 * reserves, not the kernel). A fleet rank that shared its node with
 * another (place) is a host of its own there (its fingerprint ends with
 * its place; its name is the node's), so the series of two ranks on one
 * node never mix; a host's runs alone stay one host.
 */
static int put_host(struct store *st, const json_t *sys, const char *place,
		    const char *now, char id[32], char *err, size_t errlen)
{
	const char *host = text_of(sys, "hostname");
	char fp[1024];

	snprintf(fp, sizeof(fp), "%s\n%s\n%s\n%lld\n%lld%s%s", host ? host : "",
		 text_of(sys, "arch") ? text_of(sys, "arch") : "",
		 text_of(sys, "cpu_model") ? text_of(sys, "cpu_model") : "",
		 json_integer_value(json_object_get(sys, "logical_cpus")),
		 json_integer_value(json_object_get(sys, "physical_cores")),
		 place ? "\n" : "", place ? place : "");
	store_hash_id("h-", fp, strlen(fp), 8, id, 32);
	return store_exec(
		st,
		"INSERT INTO host (id, fingerprint, name, arch, cpu_model, "
		"logical_cpus, physical_cores, ram_kb, first_seen) VALUES "
		"(?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
		(struct store_val[]){
			store_text(id), store_text(fp), val_of(sys, "hostname"),
			val_of(sys, "arch"), val_of(sys, "cpu_model"),
			val_of(sys, "logical_cpus"),
			val_of(sys, "physical_cores"), val_of(sys, "ram_kb"),
			store_text(now) },
		9, err, errlen);
}

/* The facts of a context: what changes under a host without moving it. */
static json_t *context_facts(const json_t *rep)
{
	const json_t *sys = json_object_get(rep, "system");
	json_t *f = json_object();

	if (!f)
		return NULL;
	json_object_set(f, "kernel", json_object_get(sys, "kernel"));
	json_object_set(f, "os", json_object_get(sys, "os"));
	json_object_set(f, "libraries", json_object_get(rep, "libraries"));
	json_object_set(f, "cpu_flags", json_object_get(sys, "cpu_flags"));
	json_object_set(f, "governor", json_object_get(sys, "governor"));
	json_object_set(
		f, "hostbench",
		json_object_get(json_object_get(rep, "hostbench"), "version"));
	/* an imported run's tool (import/): none in hostbench's own */
	json_object_set(f, "tool", json_object_get(rep, "tool"));
	return f;
}

/* The context of rep on host, its id into id. */
static int put_context(struct store *st, const json_t *rep, const char *host,
		       char id[32], char *err, size_t errlen)
{
	json_t *facts = context_facts(rep);
	char *text = facts ? canonical(facts) : NULL, *keyed = NULL;
	int rc = -ENOMEM;

	if (text)
		keyed = store_join(host, NULL, text);
	if (keyed) {
		store_hash_id("c-", keyed, strlen(keyed), 8, id, 32);
		rc = store_exec(st,
				"INSERT INTO context (id, host, facts) VALUES "
				"(?, ?, ?) ON CONFLICT DO NOTHING",
				(struct store_val[]){ store_text(id),
						      store_text(host),
						      store_text(text) },
				3, err, errlen);
	} else {
		hb_error_fill(err, errlen, "out of memory");
	}
	free(keyed);
	free(text);
	json_decref(facts);
	return rc;
}

/*
 * The case of result r, its id into id: job, target, backend and params
 * (two jobs may run one target alike, e.g. on other CPUs).
 */
static int put_case(struct store *st, const json_t *r, char id[32], char *err,
		    size_t errlen)
{
	char *params = canonical(json_object_get(r, "params")), *key = NULL;
	char *what = store_join(text_of(r, "job"), text_of(r, "target"),
				text_of(r, "backend"));
	int rc = -ENOMEM;

	if (params && what)
		key = store_join(what, params, NULL);
	free(what);
	if (key) {
		store_hash_id("k-", key, strlen(key), 12, id, 32);
		rc = store_exec(
			st,
			"INSERT INTO bcase (id, job, title, target, backend, "
			"params) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO "
			"NOTHING",
			(struct store_val[]){
				store_text(id), val_of(r, "job"),
				val_of(r, "title"), val_of(r, "target"),
				val_of(r, "backend"), store_text(params) },
			6, err, errlen);
	} else {
		hb_error_fill(err, errlen, "out of memory");
	}
	free(key);
	free(params);
	return rc;
}

/*
 * The names of r's flags that are set, as a JSON array's text; NULL for a
 * result without flags (stored as "[]": an imported one's, one per row).
 */
static char *flags_text(const json_t *r)
{
	json_t *set, *v;
	const char *name;
	char *text;

	if (!json_object_size(json_object_get(r, "flags")))
		return NULL;
	set = json_array();
	json_object_foreach((json_t *)json_object_get(r, "flags"), name, v)
		if (json_is_true(v))
			json_array_append_new(set, json_string(name));
	text = set ? canonical(set) : NULL;
	json_decref(set);
	return text;
}

/* A number bound as itself, or NULL where it is none. */
static struct store_val real_or_null(double v)
{
	return isfinite(v) ? store_real(v) : store_text(NULL);
}

/*
 * The samples of figure f as the text of a JSON array, in their order
 * (null where one is no number), each exact (17 significant digits);
 * *text NULL when f has none. Returns 0 or -ENOMEM.
 */
static int samples_text(const struct store_figure *f, char **text)
{
	json_t *a;

	*text = NULL;
	if (!f->n)
		return 0;
	a = json_array();
	for (size_t i = 0; a && i < f->n; i++)
		if (json_array_append_new(a, isfinite(f->samples[i])
						     ? json_real(f->samples[i])
						     : json_null())) {
			json_decref(a);
			a = NULL;
		}
	*text = a ? json_dumps(a, JSON_COMPACT) : NULL;
	json_decref(a);
	return *text ? 0 : -ENOMEM;
}

/*
 * The result row of r under key, its figure f with its samples (a JSON
 * array's text, in the row since schema 4).
 */
static int put_figure(struct store *st, const json_t *r,
		      const struct store_figure *f,
		      const struct store_val key[3], char *err, size_t errlen)
{
	char *flags = flags_text(r), *samples = NULL;
	const char *status = text_of(r, "status");
	int rc = samples_text(f, &samples);

	if (rc) {
		free(flags);
		return hb_errorf(err, errlen, rc, "out of memory");
	}
	rc = store_exec(
		st,
		"INSERT INTO result (run, bcase, figure, unit, better, status, "
		"median, ci_low, ci_high, n, cv, cpu_median, flags, samples) "
		"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
		"ON CONFLICT DO NOTHING",
		(struct store_val[]){
			key[0], key[1], key[2], val_of(r, "unit"),
			store_text(f->lower_better ? "lower" : "higher"),
			store_text(status ? status : "ok"),
			real_or_null(f->median), real_or_null(f->ci_low),
			real_or_null(f->ci_high),
			f->has_samples ? store_int((long long)f->n)
				       : store_text(NULL),
			real_or_null(f->cv),
			val_of(r, f->ops ? "ops_per_cpu_second"
					 : "bytes_per_cpu_second"),
			store_text(flags ? flags : "[]"), store_text(samples) },
		14, err, errlen);

	free(samples);
	free(flags);
	return rc;
}

/* Figure fg of case kase: a result itself, or one of an imported case's. */
static int put_one(struct store *st, const char *uuid, const json_t *fg,
		   const char kase[32], char *err, size_t errlen)
{
	struct store_figure f;
	struct store_val key[3];
	int rc = store_figure_of(fg, &f);

	if (rc) {
		hb_error_fill(err, errlen, "out of memory");
		goto out_figure;
	}
	key[0] = store_text(uuid);
	key[1] = store_text(kase);
	key[2] = store_text(f.name ? f.name : f.ops ? "ops_rate" : "rate");
	rc = put_figure(st, fg, &f, key, err, errlen);
out_figure:
	store_figure_free(&f);
	return rc;
}

/*
 * Result r (results[i]) of run uuid: its case, then its figure, or each
 * of its "figures" (an imported case's: import/).
 */
static int put_result(struct store *st, const char *uuid, const json_t *r,
		      size_t i, char *err, size_t errlen)
{
	const json_t *figs = json_object_get(r, "figures"), *fg;
	char kase[32];
	size_t k;
	int rc = store_figure_check(r, i, err, errlen);

	if (!rc)
		rc = put_case(st, r, kase, err, errlen);
	if (rc || !json_is_array(figs))
		return rc ? rc : put_one(st, uuid, r, kase, err, errlen);
	json_array_foreach(figs, k, fg) {
		rc = put_one(st, uuid, fg, kase, err, errlen);
		if (rc)
			break;
	}
	return rc;
}

/* The first suite of the run object: its path and hash. */
static const json_t *first_suite(const json_t *run)
{
	return json_array_get(json_object_get(run, "suites"), 0);
}

/* The run row of rep, its report text kept compressed (store_report.c). */
static int put_run(struct store *st, const json_t *rep, const struct put_as *as,
		   const char *host, const char *context, const char *now,
		   char *err, size_t errlen)
{
	const json_t *run = json_object_get(rep, "run");
	const json_t *hb = json_object_get(rep, "hostbench");
	char *own = as->text ? NULL : json_dumps(rep, JSON_COMPACT);
	const char *text = as->text ? as->text : own;
	const char *started = text_of(run, "started");
	unsigned char *z = NULL;
	size_t zlen = 0;
	int rc;

	if (!text)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	rc = store_report_pack(text, strlen(text), &z, &zlen, err, errlen);
	if (!rc)
		rc = store_exec(
			st,
			"INSERT INTO run (uuid, host, context, started, ended, "
			"duration, suite_path, suite_sha256, label, fleet_job, "
			"fleet_rank, hostbench_version, hostbench_commit, "
			"stored, report, report_z) VALUES (?, ?, ?, ?, ?, ?, "
			"?, ?, ?, ?, ?, ?, ?, ?, '', ?)",
			(struct store_val[]){
				store_text(as->uuid), store_text(host),
				store_text(context),
				store_text(started ? started : as->time),
				val_of(run, "ended"), val_of(run, "duration"),
				val_of(first_suite(run), "path"),
				val_of(first_suite(run), "sha256"),
				val_of(run, "label"), store_text(as->job),
				as->rank >= 0 ? store_int(as->rank)
					      : store_text(NULL),
				val_of(hb, "version"), val_of(hb, "commit"),
				store_text(now), store_blob(z, zlen) },
			15, err, errlen);
	free(z);
	free(own);
	return rc;
}

/* One host's report under as, counted in t: added, or stored already. */
static int put_report(struct store *st, const json_t *rep,
		      const struct put_as *as, struct store_tally *t, char *err,
		      size_t errlen)
{
	const char *now = as->now;
	char host[32], context[32];
	const json_t *r;
	int rc;
	size_t i;

	rc = uuid_check(rep, as, err, errlen);
	if (!rc)
		rc = stored_as(st, as->uuid, rep, err, errlen);
	if (rc == 1)
		return strlist_push(&t->skipped, as->uuid)
			       ? hb_errorf(err, errlen, -ENOMEM,
					   "store: out of memory")
			       : 0;
	if (rc)
		return rc;
	rc = put_host(st, json_object_get(rep, "system"), as->place, now, host,
		      err, errlen);
	if (!rc)
		rc = put_context(st, rep, host, context, err, errlen);
	if (!rc)
		rc = put_run(st, rep, as, host, context, now, err, errlen);
	json_array_foreach(json_object_get(rep, "results"), i, r) {
		if (rc)
			break;
		rc = put_result(st, as->uuid, r, i, err, errlen);
	}
	t->added += !rc;
	return rc;
}

/*
 * A rank's uuid: its report's own, or one made of the fleet's and the
 * rank. Every rank's report carries the fleet run's uuid: rank 0 keeps
 * it (the uuid the run's end names), each other rank is a run of its own.
 */
static void rank_uuid(const json_t *rep, const char *fleet_uuid, long long rank,
		      char out[37])
{
	const char *own = text_of(json_object_get(rep, "run"), "uuid");
	char key[128];

	if (own && (rank == 0 || strcmp(own, fleet_uuid) != 0)) {
		snprintf(out, 37, "%s", own);
		return;
	}
	snprintf(key, sizeof(key), "%s rank %lld", fleet_uuid, rank);
	store_uuid_of(key, strlen(key), out);
}

/* The placement a rank's report rep names ("" when none). */
static const char *place_of(const json_t *rep)
{
	const char *place =
		text_of(json_object_get(json_object_get(rep, "run"), "fleet"),
			"placement");

	return place ? place : "";
}

/*
 * Where rank entry k of hosts ran, into buf, when it shared its node with
 * another rank: its placement, and its order among the node's ranks of
 * the same placement (" #2") when that alone does not set it apart (ranks
 * not bound to CPUs); NULL when it had its node to itself.
 */
static const char *shared_place(const json_t *fleet_report, const json_t *hosts,
				size_t k, char *buf, size_t len)
{
	const json_t *me = json_array_get(hosts, k), *h;
	const char *node = text_of(me, "host");
	json_t *mine = report_read_fleet_host(fleet_report, me);
	size_t i, others = 0, before = 0;

	json_array_foreach(hosts, i, h) {
		json_t *rep;

		if (i == k || !node || !text_of(h, "host") ||
		    strcmp(node, text_of(h, "host")) != 0)
			continue;
		others++;
		rep = report_read_fleet_host(fleet_report, h);
		before += i < k && strcmp(place_of(rep), place_of(mine)) == 0;
		json_decref(rep);
	}
	if (others && before)
		snprintf(buf, len, "%s #%zu", place_of(mine), before + 1);
	else if (others)
		snprintf(buf, len, "%s", place_of(mine));
	json_decref(mine);
	return others ? buf : NULL;
}

/* Every host's report of a fleet report, each as its rank. */
static int put_fleet(struct store *st, const json_t *fleet_report,
		     const json_t *hosts, const struct put_as *as,
		     struct store_tally *t, char *err, size_t errlen)
{
	char uuid[37], place[PLACEMENT_LEN + 32];
	int rc = 0;

	for (size_t i = 0; !rc && i < json_array_size(hosts); i++) {
		const json_t *h = json_array_get(hosts, i);
		json_t *rep;
		struct put_as one = *as;

		one.text = NULL; /* the text is the fleet's, not the rank's */
		if (!json_is_object(json_object_get(h, "report")))
			continue;
		rep = report_read_fleet_host(fleet_report, h);
		if (!rep)
			return hb_errorf(err, errlen, -ENOMEM,
					 "store: out of memory");
		one.rank = json_integer_value(json_object_get(h, "rank"));
		one.place = shared_place(fleet_report, hosts, i, place,
					 sizeof(place));
		rank_uuid(rep, as->uuid, one.rank, uuid);
		one.uuid = uuid;
		rc = put_report(st, rep, &one, t, err, errlen);
		json_decref(rep);
	}
	return rc;
}

int store_put_as(struct store *st, const json_t *report, const char *text,
		 const char *uuid, const char *time, struct store_tally *t,
		 char *err, size_t errlen)
{
	const json_t *run = json_object_get(report, "run");
	const json_t *fleet = json_object_get(report, "fleet");
	const json_t *hosts = json_object_get(fleet, "hosts");
	struct put_as as = { .uuid = text_of(run, "uuid"),
			     .time = time,
			     .job = text_of(json_object_get(run, "fleet"),
					    "job"),
			     .rank = -1,
			     .text = text };
	char now[40];
	int rc;

	store_now(now, sizeof(now));
	as.now = now;
	if (!as.uuid)
		as.uuid = uuid;
	if (!as.time)
		as.time = now;
	rc = store_begin(st, err, errlen);
	if (rc)
		return rc;
	if (json_is_array(hosts))
		rc = put_fleet(st, report, hosts, &as, t, err, errlen);
	else
		rc = put_report(st, report, &as, t, err, errlen);
	return store_end(st, rc, err, errlen);
}

void store_run_uuid(const json_t *report, char out[37])
{
	const char *own = text_of(json_object_get(report, "run"), "uuid");
	char *text = own ? NULL : canonical(report);

	if (own)
		snprintf(out, 37, "%s", own);
	else
		store_uuid_of(text ? text : "", text ? strlen(text) : 0, out);
	free(text);
}

void store_tally_free(struct store_tally *t)
{
	strlist_free(&t->skipped);
	memset(t, 0, sizeof(*t));
}

int store_put(struct store *st, const json_t *report, char *err, size_t errlen)
{
	struct store_tally t = { 0 };
	char uuid[37];
	int rc;

	store_run_uuid(report, uuid);
	rc = store_put_as(st, report, NULL, uuid, NULL, &t, err, errlen);
	store_tally_free(&t);
	return rc;
}
