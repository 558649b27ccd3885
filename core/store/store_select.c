/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Selectors that say what they matched: a --host, --case or --label that
 * selects nothing in a store that holds runs is named, with what the
 * store holds instead (a few names, made safe to show).
 */
#include "store/store_int.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

#include "base/sanitize.h"
#include "base/util.h"
#include "report/writer.h"

/* Names shown at most, and the bytes of one. */
#define SELECT_SHOWN 10
#define SELECT_NAME  40

/* What a selector's rows are checked and listed into. */
struct select_scan {
	const struct store_query *q;
	int (*match)(const struct store_query *q, const struct store_val *v);
	int matched;	 /* a row matched the selector */
	size_t names;	 /* distinct names seen */
	char list[1024]; /* the first SELECT_SHOWN of them, ", " between */
	char last[SELECT_NAME + 4]; /* the latest name listed */
};

int store_case_matches(const char *pattern, const char *job, const char *title,
		       const char *target)
{
	const char *const v[] = { job, title, target };

	if (!pattern)
		return 1;
	for (int i = 0; i < 3; i++)
		if (fnmatch(pattern, v[i] ? v[i] : "", 0) == 0)
			return 1;
	return 0;
}

static const char *text_of(const struct store_val *v)
{
	return v->type == STORE_TEXT ? v->s : "";
}

static int host_match(const struct store_query *q, const struct store_val *v)
{
	return strcmp(q->host, text_of(&v[0])) == 0 ||
	       strcmp(q->host, text_of(&v[1])) == 0;
}

static int case_match(const struct store_query *q, const struct store_val *v)
{
	return store_case_matches(q->cases, text_of(&v[1]), text_of(&v[2]),
				  text_of(&v[3]));
}

static int label_match(const struct store_query *q, const struct store_val *v)
{
	return strcmp(q->label, text_of(&v[1])) == 0;
}

/* A row (its name first, rows in name order): matched, else listed. */
static int scan_row(void *arg, const struct store_val *v, size_t n)
{
	struct select_scan *s = arg;
	char name[SELECT_NAME + 4];

	if (n < 2 || s->matched)
		return 0;
	if (s->match(s->q, v)) {
		s->matched = 1;
		return 0;
	}
	snprintf(name, sizeof(name), "%.*s%s", SELECT_NAME, text_of(&v[0]),
		 strlen(text_of(&v[0])) > SELECT_NAME ? "..." : "");
	sanitize_text(name);
	if (s->names && strcmp(name, s->last) == 0)
		return 0;
	snprintf(s->last, sizeof(s->last), "%s", name);
	if (s->names++ < SELECT_SHOWN)
		report_appendf(s->list, sizeof(s->list), "%s%s",
			       s->names > 1 ? ", " : "", name);
	return 0;
}

/* One selector: its rows scanned; -ENOENT with what exists if none. */
static int select_one(struct store *st, struct select_scan *s, const char *sql,
		      const char *option, const char *value, const char *what,
		      char *err, size_t errlen)
{
	char shown[SELECT_NAME + 4];
	int rc = store_query(st, sql, NULL, 0, scan_row, s, err, errlen);

	if (rc || s->matched)
		return rc;
	snprintf(shown, sizeof(shown), "%.*s%s", SELECT_NAME, value,
		 strlen(value) > SELECT_NAME ? "..." : "");
	sanitize_text(shown);
	if (!s->names)
		return hb_errorf(err, errlen, -ENOENT,
				 "%s \"%s\" matches nothing: the store holds "
				 "no %s",
				 option, shown, what);
	if (s->names > SELECT_SHOWN)
		report_appendf(s->list, sizeof(s->list), " (and %zu more)",
			       s->names - SELECT_SHOWN);
	return hb_errorf(err, errlen, -ENOENT,
			 "%s \"%s\" matches nothing; the store holds %s: %s",
			 option, shown, what, s->list);
}

/* Nonzero when the store holds a run. */
static int seen_row(void *arg, const struct store_val *v, size_t n)
{
	(void)v;
	(void)n;
	*(int *)arg = 1;
	return 0;
}

int store_select_check(struct store *st, const struct store_query *q, char *err,
		       size_t errlen)
{
	struct select_scan s;
	int any = 0, rc;

	rc = store_query(st, "SELECT 1 FROM run LIMIT 1", NULL, 0, seen_row,
			 &any, err, errlen);
	if (rc || !any)
		return rc;
	if (q->host) {
		s = (struct select_scan){ .q = q, .match = host_match };
		rc = select_one(
			st, &s, "SELECT name, id FROM host ORDER BY name, id",
			"--host", q->host, "hosts (name or id)", err, errlen);
	}
	if (!rc && q->cases) {
		s = (struct select_scan){ .q = q, .match = case_match };
		rc = select_one(st, &s,
				"SELECT job, job, title, target FROM bcase "
				"ORDER BY job",
				"--case", q->cases, "jobs", err, errlen);
	}
	if (!rc && q->label) {
		s = (struct select_scan){ .q = q, .match = label_match };
		rc = select_one(st, &s,
				"SELECT DISTINCT label, label FROM run WHERE "
				"label IS NOT NULL ORDER BY label",
				"--label", q->label, "labels", err, errlen);
	}
	return rc;
}
