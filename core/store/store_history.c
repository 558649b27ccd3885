/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history document (docs/history.md) from the store: hosts, and one
 * series per host x case x figure with its points oldest first, the
 * contexts they were measured in and the change points stored for it.
 */
#include "store/store_int.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

/* What the row callbacks build. */
struct history_build {
	const struct store_query *q;
	json_t *doc, *series; /* doc's "series" array */
	json_t *by_id;	      /* series id -> series (borrowed) */
	json_t *contexts;     /* context id -> facts */
	json_t *cur;	      /* the series rows are going into */
	char cur_key[128];
};

/* A column as JSON: text, number or null. */
static json_t *jval(const struct store_val *v)
{
	switch (v->type) {
	case STORE_TEXT:
		return json_string(v->s);
	case STORE_INT:
		return json_integer(v->i);
	case STORE_REAL:
		return json_real(v->d);
	default:
		return json_null();
	}
}

/* A column holding JSON text, parsed; null when it is not JSON. */
static json_t *jparse(const struct store_val *v)
{
	json_t *o = v->type == STORE_TEXT ? json_loads(v->s, 0, NULL) : NULL;

	return o ? o : json_null();
}

static const char *jtext(const struct store_val *v)
{
	return v->type == STORE_TEXT ? v->s : "";
}

/* Does the case (job, title, target) match q's pattern? */
static int case_matches(const struct store_query *q, const struct store_val *v)
{
	if (!q->cases)
		return 1;
	for (int i = 0; i < 3; i++)
		if (fnmatch(q->cases, jtext(&v[i]), 0) == 0)
			return 1;
	return 0;
}

/* Columns of the series query, in its SELECT's order. */
enum {
	C_HOST,
	C_CASE,
	C_JOB,
	C_TITLE,
	C_TARGET,
	C_BACKEND,
	C_PARAMS,
	C_FIGURE,
	C_UNIT,
	C_BETTER,
	C_RUN,
	C_TIME,
	C_CONTEXT,
	C_MEDIAN,
	C_CI_LOW,
	C_CI_HIGH,
	C_N,
	C_CV,
	C_CPU,
	C_FLAGS,
	C_NCOLS
};

/* A new series for row v, appended to the document. */
static json_t *new_series(struct history_build *b, const struct store_val *v,
			  const char *key)
{
	char id[32];
	json_t *s;

	store_hash_id("s-", key, strlen(key), 12, id, sizeof(id));
	s = json_pack("{s:s, s:s, s:{s:o, s:o, s:o, s:o, s:o}, s:o, s:o, s:o, "
		      "s:[], s:[], s:[]}",
		      "id", id, "host", jtext(&v[C_HOST]), "case", "job",
		      jval(&v[C_JOB]), "title", jval(&v[C_TITLE]), "target",
		      jval(&v[C_TARGET]), "backend", jval(&v[C_BACKEND]),
		      "params", jparse(&v[C_PARAMS]), "figure",
		      jval(&v[C_FIGURE]), "unit", jval(&v[C_UNIT]), "better",
		      jval(&v[C_BETTER]), "points", "contexts", "changes");
	if (!s || json_array_append_new(b->series, s) ||
	    json_object_set(b->by_id, id, s))
		return NULL;
	return s;
}

/* Note the point's context when it differs from the series' last one. */
static int add_context(struct history_build *b, json_t *s,
		       const struct store_val *v, size_t index)
{
	json_t *ctxs = json_object_get(s, "contexts");
	json_t *last = json_array_get(ctxs, json_array_size(ctxs) - 1);
	const char *id = jtext(&v[C_CONTEXT]);
	json_t *facts = json_object_get(b->contexts, id);

	if (last &&
	    strcmp(json_string_value(json_object_get(last, "id")), id) == 0)
		return 0;
	return json_array_append_new(
		ctxs, json_pack("{s:s, s:I, s:O}", "id", id, "first",
				(json_int_t)index, "facts",
				facts ? facts : json_null()));
}

static int series_row(void *arg, const struct store_val *v, size_t n)
{
	struct history_build *b = arg;
	char key[128];
	json_t *points, *p;

	if (n < C_NCOLS || !case_matches(b->q, &v[C_JOB]))
		return 0;
	snprintf(key, sizeof(key), "%s\n%s\n%s", jtext(&v[C_HOST]),
		 jtext(&v[C_CASE]), jtext(&v[C_FIGURE]));
	if (!b->cur || strcmp(key, b->cur_key) != 0) {
		b->cur = new_series(b, v, key);
		snprintf(b->cur_key, sizeof(b->cur_key), "%s", key);
	}
	if (!b->cur)
		return -ENOMEM;
	points = json_object_get(b->cur, "points");
	p = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
		      "run", jval(&v[C_RUN]), "time", jval(&v[C_TIME]),
		      "context", jval(&v[C_CONTEXT]), "median",
		      jval(&v[C_MEDIAN]), "ci_low", jval(&v[C_CI_LOW]),
		      "ci_high", jval(&v[C_CI_HIGH]), "n", jval(&v[C_N]), "cv",
		      jval(&v[C_CV]), "cpu_median", jval(&v[C_CPU]), "flags",
		      jparse(&v[C_FLAGS]));
	if (!p || add_context(b, b->cur, v, json_array_size(points)) ||
	    json_array_append_new(points, p))
		return -ENOMEM;
	return 0;
}

static int context_row(void *arg, const struct store_val *v, size_t n)
{
	struct history_build *b = arg;

	if (n < 2)
		return 0;
	return json_object_set_new(b->contexts, jtext(&v[0]), jparse(&v[1]))
		       ? -ENOMEM
		       : 0;
}

/* Does the host (id, name) pass q's --host? */
static int host_matches(const struct store_query *q, const struct store_val *v)
{
	return !q->host || strcmp(q->host, jtext(&v[0])) == 0 ||
	       strcmp(q->host, jtext(&v[1])) == 0;
}

static int host_row(void *arg, const struct store_val *v, size_t n)
{
	struct history_build *b = arg;
	json_t *h;

	if (n < 8 || !host_matches(b->q, v))
		return 0;
	h = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "id",
		      jval(&v[0]), "name", jval(&v[1]), "cpu_model",
		      jval(&v[2]), "logical_cpus", jval(&v[3]), "ram_kb",
		      jval(&v[4]), "runs", jval(&v[5]), "last_time",
		      jval(&v[6]), "last_run", jval(&v[7]));
	return !h || json_array_append_new(json_object_get(b->doc, "hosts"), h)
		       ? -ENOMEM
		       : 0;
}

/* The index of run in series s's points, or -1. */
static long point_index(const json_t *s, const char *run)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(s, "points"), i, p)
		if (strcmp(json_string_value(json_object_get(p, "run")), run) ==
		    0)
			return (long)i;
	return -1;
}

static int change_row(void *arg, const struct store_val *v, size_t n)
{
	struct history_build *b = arg;
	json_t *s = json_object_get(b->by_id, jtext(&v[1])), *c;
	long at;

	if (n < 7 || !s)
		return 0;
	at = point_index(s, jtext(&v[2]));
	if (at < 0)
		return 0; /* before --since */
	c = json_pack(
		"{s:o, s:I, s:o, s:O, s:o, s:o, s:o, s:o}", "id", jval(&v[0]),
		"index", (json_int_t)at, "run", jval(&v[2]), "time",
		json_object_get(json_array_get(json_object_get(s, "points"),
					       (size_t)at),
				"time"),
		"kind", jval(&v[3]), "change", jval(&v[4]), "p", jval(&v[5]),
		"state", jval(&v[6]));
	return !c || json_array_append_new(json_object_get(s, "changes"), c)
		       ? -ENOMEM
		       : 0;
}

static const char hosts_sql[] =
	"SELECT h.id, h.name, h.cpu_model, h.logical_cpus, h.ram_kb, "
	"count(*), max(r.started), (SELECT l.uuid FROM run l WHERE l.host = "
	"h.id ORDER BY l.started DESC, l.uuid DESC LIMIT 1) FROM host h JOIN "
	"run r ON r.host = h.id GROUP BY h.id, h.name, h.cpu_model, "
	"h.logical_cpus, h.ram_kb ORDER BY h.name, h.id";

#define SERIES_SELECT                                                          \
	"SELECT r.host, c.id, c.job, c.title, c.target, c.backend, c.params, " \
	"x.figure, x.unit, x.better, r.uuid, r.started, r.context, "           \
	"x.median, x.ci_low, x.ci_high, x.n, x.cv, x.cpu_median, x.flags "     \
	"FROM result x JOIN run r ON r.uuid = x.run JOIN bcase c ON c.id = "   \
	"x.bcase JOIN host h ON h.id = r.host WHERE x.status = 'ok' "
#define SERIES_ORDER " ORDER BY r.host, c.id, x.figure, r.started, r.uuid"

/* The series query for q's filters (values bound, never in the text). */
static const char *series_sql(const struct store_query *q)
{
	static const char *const sql[4] = {
		SERIES_SELECT SERIES_ORDER,
		SERIES_SELECT "AND (r.host = ? OR h.name = ?)" SERIES_ORDER,
		SERIES_SELECT "AND r.started >= ?" SERIES_ORDER,
		SERIES_SELECT "AND (r.host = ? OR h.name = ?) AND r.started >= "
			      "?" SERIES_ORDER,
	};

	return sql[(q->host ? 1 : 0) + (q->since ? 2 : 0)];
}

/* Fill b->doc from the store. */
static int build(struct store *st, struct history_build *b, char *err,
		 size_t errlen)
{
	const struct store_query *q = b->q;
	struct store_val args[3];
	size_t n = 0;
	int rc;

	if (q->host) {
		args[n++] = store_text(q->host);
		args[n++] = store_text(q->host);
	}
	if (q->since)
		args[n++] = store_text(q->since);
	rc = store_query(st, hosts_sql, NULL, 0, host_row, b, err, errlen);
	if (!rc)
		rc = store_query(st, "SELECT id, facts FROM context", NULL, 0,
				 context_row, b, err, errlen);
	if (!rc)
		rc = store_query(st, series_sql(q), args, n, series_row, b, err,
				 errlen);
	if (!rc)
		rc = store_query(st,
				 "SELECT id, series, run, kind, rel_change, p, "
				 "state FROM changepoint ORDER BY detected, id",
				 NULL, 0, change_row, b, err, errlen);
	if (rc == -ENOMEM)
		hb_error_fill(err, errlen, "out of memory");
	return rc;
}

int store_history(struct store *st, const struct store_query *q, json_t **doc,
		  char *err, size_t errlen)
{
	struct history_build b = { .q = q };
	int rc = -ENOMEM;

	*doc = NULL;
	b.doc = json_pack("{s:i, s:s, s:[], s:[]}", "history_version", 1,
			  "store", store_where(st), "hosts", "series");
	b.by_id = json_object();
	b.contexts = json_object();
	b.series = json_object_get(b.doc, "series");
	if (b.doc && b.by_id && b.contexts)
		rc = build(st, &b, err, errlen);
	else
		hb_error_fill(err, errlen, "out of memory");
	json_decref(b.by_id);
	json_decref(b.contexts);
	if (rc)
		json_decref(b.doc);
	else
		*doc = b.doc;
	return rc;
}
