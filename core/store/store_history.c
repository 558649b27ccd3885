/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history document (docs/history.md) from the store: hosts, and one
 * series per host x case x figure with its points oldest first, the
 * contexts they were measured in and the change points stored for it.
 */
#include "store/store_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "base/util.h"
#include "compare/report_read.h"
#include "report/writer.h"

/* The longest JSON text of a column read (a context's facts, a case's
   parameters, a point's flags): hostbench writes a few KiB at most. */
#define STORE_JSON_MAX 65536

/* What the row callbacks build. */
struct history_build {
	struct store *st;
	char *err; /* what a query inside a row callback says */
	size_t errlen;
	const struct store_query *q;
	json_t *doc, *series; /* doc's "series" array */
	json_t *by_id;	      /* series id -> series */
	json_t *by_key;	      /* series key -> series, null: not selected */
	json_t *contexts;     /* context id -> facts */
	json_t *cur;	      /* the series rows are going into, or NULL */
	char cur_key[128];    /* its key: host, case, figure ("" before one) */
};

/*
 * A column as JSON: text (at most max bytes), number or null. A store is
 * shared, and may hold what another writer or an older hostbench put
 * there: its text is cut and sanitized as a report's is when read, so no
 * view shows an escape sequence or a forged line, nor pays for a huge
 * string. NULL when out of memory.
 */
static json_t *jval_max(const struct store_val *v, size_t max)
{
	char *text;
	json_t *o;

	switch (v->type) {
	case STORE_TEXT:
		/* as hostbench wrote it: valid UTF-8 already, no copy */
		if (sanitize_fits(v->s, max))
			return json_string_nocheck(v->s);
		text = sanitize_copy(v->s, max);
		o = text ? json_string(text) : NULL;
		free(text);
		return o;
	case STORE_INT:
		return json_integer(v->i);
	case STORE_REAL:
		return json_real(v->d);
	default:
		return json_null();
	}
}

/* jval_max() of any text but a host name or a label. */
static json_t *jval(const struct store_val *v)
{
	return jval_max(v, REPORT_TEXT_MAX);
}

/*
 * A column holding JSON text, parsed, its strings sanitized and bounded
 * as a report's; null when it is not JSON or longer than any hostbench
 * writes.
 */
static json_t *jparse(const struct store_val *v)
{
	json_t *o = NULL;

	if (v->type == STORE_TEXT &&
	    strnlen(v->s, STORE_JSON_MAX + 1) <= STORE_JSON_MAX)
		o = json_loads(v->s, 0, NULL);
	if (o && report_read_clean(o, NULL)) {
		json_decref(o);
		return NULL;
	}
	return o ? o : json_null();
}

static const char *jtext(const struct store_val *v)
{
	return v->type == STORE_TEXT ? v->s : "";
}

/* Does the case kase (its job, title or target) match q's pattern? */
static int case_matches(const struct store_query *q, const json_t *kase)
{
	return store_case_matches(
		q->cases, json_string_value(json_object_get(kase, "job")),
		json_string_value(json_object_get(kase, "title")),
		json_string_value(json_object_get(kase, "target")));
}

/* Columns of the series query, in its SELECT's order. */
enum {
	C_HOST,
	C_CASE,
	C_FIGURE,
	C_UNIT,
	C_BETTER,
	C_RUN,
	C_TIME,
	C_CONTEXT,
	C_LABEL,
	C_MEDIAN,
	C_CI_LOW,
	C_CI_HIGH,
	C_N,
	C_CV,
	C_CPU,
	C_FLAGS,
	C_NCOLS
};

/* The case's row (job, title, target, backend, params) as an object. */
static int case_row(void *arg, const struct store_val *v, size_t n)
{
	json_t **kase = arg;

	if (n < 5)
		return 0;
	*kase = json_pack("{s:o, s:o, s:o, s:o, s:o}", "job", jval(&v[0]),
			  "title", jval(&v[1]), "target", jval(&v[2]),
			  "backend", jval(&v[3]), "params", jparse(&v[4]));
	return *kase ? 0 : -ENOMEM;
}

/*
 * A new series for row v (host, case and figure key), into b->cur and
 * b->by_key; NULL there when --case does not select its case (its facts
 * read once per series, not once per point).
 */
static int new_series(struct history_build *b, const struct store_val *v,
		      const char *key)
{
	json_t *kase = NULL, *s;
	char id[32];
	int rc = store_query(b->st,
			     "SELECT job, title, target, backend, params FROM "
			     "bcase WHERE id = ?",
			     (struct store_val[]){ v[C_CASE] }, 1, case_row,
			     &kase, b->err, b->errlen);

	b->cur = NULL;
	if (rc || !kase || !case_matches(b->q, kase)) {
		json_decref(kase);
		if (!rc &&
		    json_object_set_new_nocheck(b->by_key, key, json_null()))
			rc = -ENOMEM;
		return rc;
	}
	store_hash_id("s-", key, strlen(key), 12, id, sizeof(id));
	s = json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:[], s:[], s:[]}", "id",
		      id, "host", jval(&v[C_HOST]), "case", kase, "figure",
		      jval(&v[C_FIGURE]), "unit", jval(&v[C_UNIT]), "better",
		      jval(&v[C_BETTER]), "points", "contexts", "changes");
	if (!s || json_object_set_new_nocheck(b->by_key, key, s) ||
	    json_object_set_nocheck(b->by_id, id, s))
		return -ENOMEM;
	b->cur = s;
	return 0;
}

/* Note the point's context when it differs from the series' last one. */
static int add_context(struct history_build *b, json_t *s,
		       const struct store_val *v, size_t index)
{
	json_t *ctxs = json_object_get(s, "contexts");
	json_t *last = json_array_get(ctxs, json_array_size(ctxs) - 1);
	json_t *facts = json_object_get(b->contexts, jtext(&v[C_CONTEXT]));
	json_t *id = jval(&v[C_CONTEXT]);

	if (last && json_equal(json_object_get(last, "id"), id)) {
		json_decref(id);
		return 0;
	}
	return json_array_append_new(
		ctxs, json_pack("{s:o, s:I, s:O}", "id", id, "first",
				(json_int_t)index, "facts",
				facts ? facts : json_null()));
}

/* The point of row v; NULL when out of memory. */
static json_t *new_point(const struct store_val *v)
{
	/* keys set one by one: a point per run, json_pack's parse adds up */
	static const struct {
		const char *key;
		int col;
		size_t max; /* of text */
	} cols[] = {
		{ "run", C_RUN, REPORT_TEXT_MAX },
		{ "time", C_TIME, REPORT_TEXT_MAX },
		{ "context", C_CONTEXT, REPORT_TEXT_MAX },
		{ "label", C_LABEL, RUNINFO_LABEL_MAX },
		{ "median", C_MEDIAN, 0 },
		{ "ci_low", C_CI_LOW, 0 },
		{ "ci_high", C_CI_HIGH, 0 },
		{ "n", C_N, 0 },
		{ "cv", C_CV, 0 },
		{ "cpu_median", C_CPU, 0 },
	};
	json_t *p = json_object();

	for (size_t i = 0; p && i < sizeof(cols) / sizeof(cols[0]); i++)
		if (json_object_set_new_nocheck(
			    p, cols[i].key,
			    jval_max(&v[cols[i].col], cols[i].max))) {
			json_decref(p);
			return NULL;
		}
	if (p && json_object_set_new_nocheck(p, "flags", jparse(&v[C_FLAGS]))) {
		json_decref(p);
		return NULL;
	}
	return p;
}

static int series_row(void *arg, const struct store_val *v, size_t n)
{
	struct history_build *b = arg;
	char key[128];
	json_t *points, *p;
	int rc;

	if (n < C_NCOLS)
		return 0;
	snprintf(key, sizeof(key), "%s\n%s\n%s", jtext(&v[C_HOST]),
		 jtext(&v[C_CASE]), jtext(&v[C_FIGURE]));
	if (strcmp(key, b->cur_key) != 0) {
		json_t *s = json_object_get(b->by_key, key);

		snprintf(b->cur_key, sizeof(b->cur_key), "%s", key);
		b->cur = json_is_object(s) ? s : NULL;
		rc = s ? 0 : new_series(b, v, key);
		if (rc)
			return rc;
	}
	if (!b->cur)
		return 0; /* a case --case leaves out */
	points = json_object_get(b->cur, "points");
	p = new_point(v);
	if (!p || add_context(b, b->cur, v, json_array_size(points)) ||
	    json_array_append_new(points, p))
		return -ENOMEM;
	return 0;
}

struct keyed {
	const char *key;
	json_t *series;
};

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct keyed *)a)->key,
		      ((const struct keyed *)b)->key);
}

/*
 * The document's series in their keys' order: host, case, figure (their
 * parts hold no byte below the newline that joins them).
 */
static int order_series(struct history_build *b)
{
	struct keyed *all =
		calloc(json_object_size(b->by_key) + 1, sizeof(*all));
	const char *key;
	json_t *s;
	size_t n = 0;
	int rc = 0;

	if (!all)
		return -ENOMEM;
	json_object_foreach(b->by_key, key, s)
		if (json_is_object(s))
			all[n++] = (struct keyed){ .key = key, .series = s };
	qsort(all, n, sizeof(*all), by_key);
	for (size_t i = 0; i < n && !rc; i++)
		rc = json_array_append(b->series, all[i].series) ? -ENOMEM : 0;
	free(all);
	return rc;
}

static int context_row(void *arg, const struct store_val *v, size_t n)
{
	struct history_build *b = arg;

	if (n < 2)
		return 0;
	/* keyed by the id as stored: a lookup table, never shown */
	return json_object_set_new_nocheck(b->contexts, jtext(&v[0]),
					   jparse(&v[1]))
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
		      jval(&v[0]), "name",
		      jval_max(&v[1], SYSINFO_HOSTNAME_MAX), "cpu_model",
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

/*
 * a point in a row each, a host's runs in their order (start, then uuid)
 * read from the index run_order, never sorted: each row goes to its
 * series, so a series' points come oldest first; a case's facts are read
 * once per series. CROSS JOIN: SQLite walks run first (PostgreSQL plans
 * it as an inner join).
 */
#define SERIES_SELECT                                                          \
	"SELECT r.host, x.bcase, x.figure, x.unit, x.better, r.uuid, "         \
	"r.started, r.context, r.label, x.median, x.ci_low, x.ci_high, "       \
	"x.n, x.cv, x.cpu_median, x.flags FROM run r CROSS JOIN result x "     \
	"JOIN host h ON h.id = r.host WHERE x.run = r.uuid AND x.status = "    \
	"'ok' "
#define SERIES_ORDER " ORDER BY r.host, r.started, r.uuid"

/*
 * The series query for q's filters into sql, their values into args
 * (bound, never in the text); the number of args.
 */
static size_t series_sql(const struct store_query *q, char *sql, size_t len,
			 struct store_val args[5])
{
	size_t n = 0;

	snprintf(sql, len, "%s", SERIES_SELECT);
	if (q->host) {
		report_appendf(sql, len, "AND (r.host = ? OR h.name = ?) ");
		args[n++] = store_text(q->host);
		args[n++] = store_text(q->host);
	}
	if (q->since) {
		report_appendf(sql, len, "AND r.started >= ? ");
		args[n++] = store_text(q->since);
	}
	if (q->until) {
		report_appendf(sql, len, "AND r.started <= ? ");
		args[n++] = store_text(q->until);
	}
	if (q->label) {
		report_appendf(sql, len, "AND r.label = ? ");
		args[n++] = store_text(q->label);
	}
	report_appendf(sql, len, "%s", SERIES_ORDER);
	return n;
}

/* Fill b->doc from the store. */
static int build(struct store *st, struct history_build *b, char *err,
		 size_t errlen)
{
	struct store_val args[5];
	char sql[1024];
	size_t n = series_sql(b->q, sql, sizeof(sql), args);
	int rc;

	rc = store_query(st, hosts_sql, NULL, 0, host_row, b, err, errlen);
	if (!rc)
		rc = store_query(st, "SELECT id, facts FROM context", NULL, 0,
				 context_row, b, err, errlen);
	if (!rc)
		rc = store_query(st, sql, args, n, series_row, b, err, errlen);
	if (!rc)
		rc = order_series(b);
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
	struct history_build b = {
		.st = st, .err = err, .errlen = errlen, .q = q
	};
	int rc = -ENOMEM;

	*doc = NULL;
	b.doc = json_pack("{s:i, s:s, s:[], s:[]}", "history_version", 1,
			  "store", store_where(st), "hosts", "series");
	b.by_id = json_object();
	b.by_key = json_object();
	b.contexts = json_object();
	b.series = json_object_get(b.doc, "series");
	if (b.doc && b.by_id && b.by_key && b.contexts)
		rc = build(st, &b, err, errlen);
	else
		hb_error_fill(err, errlen, "out of memory");
	json_decref(b.by_id);
	json_decref(b.by_key);
	json_decref(b.contexts);
	if (rc)
		json_decref(b.doc);
	else
		*doc = b.doc;
	return rc;
}
