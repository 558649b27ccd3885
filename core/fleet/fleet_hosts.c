/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Each host's own report in a fleet: the JSON document a single host's
 * run writes, with that host's context, and the table of hosts by cases
 * `hostbench merge` makes of them. No MPI here.
 */
#define _GNU_SOURCE /* asprintf, open_memstream */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/jsonw.h"
#include "compare/merge.h"
#include "compare/report_read.h"
#include "report/report_json.h"

/* r's report as JSON text into *text (the caller frees it). */
static int doc_text(const struct report *r, char **text)
{
	char err[256];
	size_t len = 0;
	FILE *m = open_memstream(text, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	rc = report_json(r, m, err, sizeof(err));
	if (fclose(m) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

int fleet_context_text(const struct report *ctx, char **text)
{
	return doc_text(ctx, text);
}

json_t *fleet_rank_doc(const struct fleet *f, int r, const struct report *own)
{
	static const char *const keys[] = { "hostbench", "system",
					    "libraries" };
	struct report rep = *own;
	const json_t *ctx = f->st->ranks[r].context;
	json_error_t jerr;
	char *text = NULL;
	json_t *doc;

	rep.results = fleet_rank_results(f, r, own);
	if (doc_text(&rep, &text))
		return NULL;
	doc = json_loads(text, 0, &jerr);
	free(text);
	for (size_t k = 0; doc && ctx && k < sizeof(keys) / sizeof(keys[0]);
	     k++)
		if (json_object_get(ctx, keys[k]))
			json_object_set(doc, keys[k],
					json_object_get(ctx, keys[k]));
	if (doc && !ctx) {
		/* lost before it said anything: only its name is known */
		json_t *sys = json_object();

		json_object_set_new(sys, "hostname",
				    jsonw_text(f->st->ranks[r].host));
		json_object_set_new(doc, "system", sys);
		json_object_set_new(doc, "libraries", json_object());
	}
	/* one run across the fleet: each host's report names its own rank */
	json_object_set_new(
		json_object_get(json_object_get(doc, "run"), "fleet"), "rank",
		json_integer(r));
	return doc;
}

/* Rank r's own report read back as `hostbench merge` reads a file. */
static int rank_doc_report(const struct fleet *f, int r,
			   const struct report *own, const char *name,
			   struct doc_report *doc, char *err, size_t errlen)
{
	json_t *j = fleet_rank_doc(f, r, own);
	char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;
	int rc = text ? report_read_text(doc, name, text, strlen(text), err,
					 errlen)
		      : hb_errorf(err, errlen, -ENOMEM,
				  "fleet report: out of memory");

	free(text);
	json_decref(j);
	return rc;
}

int fleet_merge_write(const struct fleet *f, const struct report *own,
		      enum report_format fmt, FILE *out, char *err,
		      size_t errlen)
{
	size_t n = (size_t)f->size, got = 0;
	struct doc_report *docs = calloc(n, sizeof(*docs));
	char **names = calloc(n, sizeof(char *));
	struct merge m = { 0 };
	int rc = docs && names ? 0 : -ENOMEM;

	/* a name labels a column when hosts repeat (ranks of one host) */
	for (int r = 0; !rc && r < f->size; r++)
		if (asprintf(&names[r], "rank %d (%s)", r,
			     f->st->ranks[r].host) < 0) {
			names[r] = NULL;
			rc = -ENOMEM;
		}
	for (; !rc && got < n; got++)
		rc = rank_doc_report(f, (int)got, own, names[got], &docs[got],
				     err, errlen);
	if (!rc)
		rc = merge_build(&m, docs, n, err, errlen);
	if (!rc && fmt == REPORT_HTML)
		rc = merge_html_sections(&m, out);
	else if (!rc)
		rc = merge_write(&m, fmt, out, err, errlen);
	merge_free(&m);
	for (size_t i = 0; docs && i < got; i++)
		report_read_free(&docs[i]);
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(docs);
	return rc == -ENOMEM && !err[0]
		       ? hb_errorf(err, errlen, rc,
				   "fleet report: out of memory")
		       : rc;
}
