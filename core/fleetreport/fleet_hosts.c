/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Each host's own report in a fleet: the JSON document a single host's
 * run writes, with that host's context, and the table of hosts by cases
 * `hostbench merge` makes of them. No MPI here.
 */
#define _GNU_SOURCE /* asprintf, open_memstream */
#include "fleetreport/fleetreport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/jsonw.h"
#include "compare/merge.h"
#include "compare/report_read.h"
#include "report/report.h"
#include "render/table.h"
#include "result/result_json.h"

/* Rank r's result of case i read back from the spool into res. */
static int unspool(const struct fleet *f, int r, size_t i, struct result *res)
{
	const struct fleet_spooled *sp = &f->st->ranks[r].spooled[i];
	char *text = malloc(sp->len + 1);
	struct fleet_span at;

	if (!text)
		return -ENOMEM;
	if (fseek(f->st->spool, sp->at, SEEK_SET) ||
	    fread(text, 1, sp->len, f->st->spool) != sp->len) {
		free(text);
		return -EIO;
	}
	text[sp->len] = '\0';
	fleet_result_take(&f->st->suite->cases[i], i, text, res, &at);
	free(text);
	return 0;
}

/* Whether rank r's result of case i is in the spool rather than memory. */
static int spooled(const struct fleet *f, int r, size_t i)
{
	const struct fleet_rank *fr = &f->st->ranks[r];

	return r > 0 && fr->spooled && fr->spooled[i].len > 0;
}

/*
 * Rank r's whole results: in memory, or read back from the spool into a
 * new array *mine (freed with free_whole()). NULL when out of memory.
 */
static const struct result *whole_results(const struct fleet *f, int r,
					  const struct report *own,
					  struct result **mine)
{
	const struct result *res = fleet_rank_results(f, r, own);
	size_t n = own->suite->ncases;

	*mine = NULL;
	if (r == 0 || !f->st->ranks[r].spooled)
		return res;
	*mine = calloc(n + 1, sizeof(**mine));
	for (size_t i = 0; *mine && i < n; i++) {
		struct result *m = &(*mine)[i];

		if (!spooled(f, r, i)) {
			*m = res[i]; /* borrowed: not freed */
		} else if (unspool(f, r, i, m)) {
			*m = (struct result){ .c = res[i].c,
					      .status = RESULT_FAILED };
			m->reason = xstrdup("rank 0 could not read this "
					    "result back from its spool");
		}
	}
	return *mine;
}

/* Free what whole_results() read back for rank r. */
static void free_whole(const struct fleet *f, int r, struct result *mine,
		       size_t n)
{
	for (size_t i = 0; mine && i < n; i++)
		if (spooled(f, r, i))
			result_free(&mine[i]);
	free(mine);
}

json_t *fleet_rank_doc(const struct fleet *f, int r, const struct report *own)
{
	static const char *const keys[] = { "hostbench", "system",
					    "libraries" };
	struct report rep = *own;
	const json_t *ctx = f->st->ranks[r].context;
	struct result *mine = NULL;
	json_error_t jerr;
	char *text = NULL;
	json_t *doc;
	int rc;

	rep.results = whole_results(f, r, own, &mine);
	rc = rep.results ? fleet_context_text(&rep, &text) : -ENOMEM;
	free_whole(f, r, mine, own->suite->ncases);
	if (rc)
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

/*
 * Each rank's leading CSV fields, "RANK,HOST", into lead[r] (the caller
 * frees them). Returns 0 or -ENOMEM.
 */
static int csv_leads(const struct fleet *f, char **lead)
{
	int rc = 0;

	for (int r = 0; !rc && r < f->size; r++) {
		size_t len = 0;
		FILE *m = open_memstream(&lead[r], &len);

		if (!m)
			return -ENOMEM;
		fprintf(m, "%d", r);
		table_csv_field(m, ",", f->st->ranks[r].host);
		rc = fclose(m) ? -ENOMEM : 0;
	}
	return rc;
}

/*
 * m in fmt: up to FLEET_WIDE ranks a column per host; above, a row per
 * host (csv: a row per host and case; html: the tables turned).
 */
static int write_merge(const struct fleet *f, const struct merge *m,
		       enum report_format fmt, FILE *out, char *err,
		       size_t errlen)
{
	int wide = f->size > FLEET_WIDE, rc;
	char **lead;

	if (fmt == REPORT_HTML)
		return merge_html_sections(m, wide, out);
	if (!wide || fmt != REPORT_CSV)
		return merge_write(m, fmt, out, err, errlen);
	lead = calloc((size_t)f->size, sizeof(*lead));
	rc = lead ? csv_leads(f, lead) : -ENOMEM;
	if (!rc)
		rc = merge_csv_rows(m, "rank,host", lead, out, err, errlen);
	for (int r = 0; lead && r < f->size; r++)
		free(lead[r]);
	free(lead);
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
	if (!rc)
		rc = write_merge(f, &m, fmt, out, err, errlen);
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
