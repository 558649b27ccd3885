/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet report rank 0 writes: each rank's own JSON report (the same
 * document a single host's run writes, with that host's context), every
 * result with its rank and host, and per case the spread across hosts.
 * No MPI here: rank 0 has everything by the time it writes.
 */
#define _GNU_SOURCE /* open_memstream */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/jsonw.h"
#include "compare/merge.h"
#include "compare/report_read.h"
#include "report/figure.h"
#include "report/report_json.h"
#include "report/table.h"
#include "result/result_json.h"

int fleet_outlier(const double *v, size_t n, double *median)
{
	double *sorted, far = -1;
	int best = -1;

	if (!n || !(sorted = malloc(n * sizeof(*sorted))))
		return -1;
	memcpy(sorted, v, n * sizeof(*sorted));
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			double t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	*median =
		n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
	for (size_t i = 0; i < n; i++) {
		double d = fabs(v[i] - *median);
		/* of two hosts both are equally far, but for rounding */
		int tie = best >= 0 && fabs(d - far) <= 1e-9 * fabs(*median);

		if ((d > far && !tie) || (tie && v[i] < v[best])) {
			far = d;
			best = (int)i;
		}
	}
	return best;
}

const struct result *fleet_rank_results(const struct fleet *f, int r,
					const struct report *own)
{
	return r == 0 ? own->results : f->st->ranks[r].res;
}

int fleet_span_of(const struct fleet *f, int r, size_t i, double *start,
		  double *end)
{
	const struct fleet_rank *fr = &f->st->ranks[r];

	if (!fr->at || fr->at[i].start <= 0 || (r > 0 && fr->rtt < 0))
		return -ENOENT;
	*start = fr->at[i].start - fr->offset;
	*end = fr->at[i].end - fr->offset;
	return 0;
}

/* Latest start of case i minus the earliest, on rank 0's clock; -1. */
static double start_spread(const struct fleet *f, size_t i)
{
	double first = 0, last = 0, start, end;
	int n = 0;

	for (int r = 0; r < f->size; r++) {
		if (fleet_span_of(f, r, i, &start, &end))
			continue;
		if (!n++ || start < first)
			first = start;
		if (n == 1 || start > last)
			last = start;
	}
	return n > 1 ? last - first : -1;
}

int fleet_spread_of(const struct fleet *f, const struct report *own, size_t i,
		    struct fleet_spread *sp)
{
	double *v = calloc((size_t)f->size, sizeof(*v));
	int *who = calloc((size_t)f->size, sizeof(*who));
	double median = 0;
	int at;

	*sp = (struct fleet_spread){ .outlier = -1 };
	if (!v || !who) {
		free(v);
		free(who);
		return -ENOMEM;
	}
	for (int r = 0; r < f->size; r++) {
		const struct result *res = &fleet_rank_results(f, r, own)[i];

		if (res->status != RESULT_OK)
			continue;
		v[sp->ok] = result_headline(res)->median;
		who[sp->ok++] = r;
	}
	sp->start_spread = start_spread(f, i);
	for (size_t k = 0; k < sp->ok; k++) {
		sp->total += v[k];
		if (k == 0 || v[k] < sp->min)
			sp->min = v[k], sp->min_rank = who[k];
		if (k == 0 || v[k] > sp->max)
			sp->max = v[k], sp->max_rank = who[k];
	}
	at = fleet_outlier(v, sp->ok, &median);
	sp->median = median;
	if (at >= 0 && sp->ok > 1) {
		sp->outlier = who[at];
		sp->deviation = median > 0 ? v[at] / median - 1 : 0;
	}
	free(v);
	free(who);
	return 0;
}

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

/*
 * Rank r's own report: its results through report_json(), then its own
 * hostbench, system and libraries from the context it sent.
 */
static json_t *rank_doc(const struct fleet *f, int r, const struct report *own)
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
	return doc;
}

/* {"rank": r, "host": ...} with a value of the spread. */
static json_t *rank_ref(const struct fleet *f, int r, double value, int *bad)
{
	json_t *o = json_object();

	jsonw_set(o, "rank", json_integer(r), bad);
	jsonw_set(o, "host", jsonw_text(f->st->ranks[r].host), bad);
	jsonw_set(o, "value", jsonw_number(value), bad);
	return o;
}

/* The spread of case i as JSON. */
static json_t *spread_json(const struct fleet *f, const struct report *own,
			   size_t i, int *bad)
{
	const struct bench_case *c = &own->suite->cases[i];
	json_t *o = json_object(), *not_ok = json_array(), *out;
	struct fleet_spread sp;

	if (fleet_spread_of(f, own, i, &sp)) {
		*bad = 1;
		return o;
	}
	jsonw_set(o, "job", jsonw_text(own->suite->jobs[c->job].label), bad);
	jsonw_set(o, "title", jsonw_text(c->title), bad);
	jsonw_set(o, "target", jsonw_text(c->target), bad);
	jsonw_set(o, "backend", jsonw_text(c->backend), bad);
	jsonw_set(o, "unit", jsonw_text(c->unit), bad);
	if (fleet_peer_mode(c))
		jsonw_set(o, "peer", jsonw_text(fleet_peer_mode(c)), bad);
	jsonw_set(o, "hosts_ok", json_integer((json_int_t)sp.ok), bad);
	jsonw_set(o, "hosts", json_integer(f->size), bad);
	jsonw_set(o, "min",
		  sp.ok ? rank_ref(f, sp.min_rank, sp.min, bad) : json_null(),
		  bad);
	jsonw_set(o, "median", sp.ok ? jsonw_number(sp.median) : json_null(),
		  bad);
	jsonw_set(o, "max",
		  sp.ok ? rank_ref(f, sp.max_rank, sp.max, bad) : json_null(),
		  bad);
	jsonw_set(o, "total", sp.ok ? jsonw_number(sp.total) : json_null(),
		  bad);
	jsonw_set(o, "start_spread",
		  sp.start_spread >= 0 ? jsonw_number(sp.start_spread)
				       : json_null(),
		  bad);
	out = json_null();
	if (sp.outlier >= 0) {
		json_decref(out);
		out = rank_ref(f, sp.outlier,
			       result_headline(&fleet_rank_results(
						       f, sp.outlier, own)[i])
				       ->median,
			       bad);
		jsonw_set(out, "deviation", jsonw_number(sp.deviation), bad);
	}
	jsonw_set(o, "outlier", out, bad);
	for (int r = 0; r < f->size; r++) {
		const struct result *res = &fleet_rank_results(f, r, own)[i];
		json_t *e;

		if (res->status == RESULT_OK)
			continue;
		e = rank_ref(f, r, NAN, bad);
		json_object_del(e, "value");
		jsonw_set(e, "status",
			  jsonw_text(result_status_name(res->status)), bad);
		jsonw_set(e, "reason", jsonw_text(res->reason), bad);
		jsonw_push(not_ok, e, bad);
	}
	jsonw_set(o, "not_ok", not_ok, bad);
	return o;
}

/* When rank r started and ended case i, on rank 0's clock, into o. */
static void set_span(const struct fleet *f, int r, size_t i, json_t *o,
		     int *bad)
{
	double start, end;

	if (fleet_span_of(f, r, i, &start, &end))
		return;
	jsonw_set(o, "start", jsonw_number(start), bad);
	jsonw_set(o, "end", jsonw_number(end), bad);
}

/* Every rank's result i, tagged with rank and host, appended to all. */
static void tag_results(const struct fleet *f, json_t *const *docs, size_t i,
			json_t *all, int *bad)
{
	for (int r = 0; r < f->size; r++) {
		json_t *res =
			docs[r] ? json_array_get(
					  json_object_get(docs[r], "results"),
					  i)
				: NULL;
		json_t *copy = res ? json_deep_copy(res) : NULL;

		if (!copy) {
			*bad = 1;
			continue;
		}
		jsonw_set(copy, "rank", json_integer(r), bad);
		jsonw_set(copy, "host", jsonw_text(f->st->ranks[r].host), bad);
		set_span(f, r, i, copy, bad);
		jsonw_push(all, copy, bad);
	}
}

/* One entry of fleet.hosts: rank, host, status, its report. */
static json_t *host_json(const struct fleet *f, int r, json_t *doc, int *bad)
{
	const struct fleet_rank *fr = &f->st->ranks[r];
	json_t *o = json_object();

	jsonw_set(o, "rank", json_integer(r), bad);
	jsonw_set(o, "host", jsonw_text(fr->host), bad);
	jsonw_set(o, "status", jsonw_text(fr->lost ? "lost" : "ok"), bad);
	jsonw_set(o, "reason", jsonw_text(fr->lost ? fr->lost_why : NULL), bad);
	jsonw_set(o, "clock_offset",
		  r == 0 || fr->rtt >= 0 ? jsonw_number(fr->offset)
					 : json_null(),
		  bad);
	jsonw_set(o, "clock_rtt",
		  r == 0 || fr->rtt >= 0 ? jsonw_number(r ? fr->rtt : 0)
					 : json_null(),
		  bad);
	jsonw_set(o, "report", doc ? json_incref(doc) : json_null(), bad);
	return o;
}

/* The whole fleet document. */
static json_t *fleet_doc(const struct fleet *f, const struct report *own,
			 int *bad)
{
	json_t *doc = json_object(), *fl = json_object(), *hosts = json_array();
	json_t *spread = json_array(), *results = json_array();
	json_t **docs = calloc((size_t)f->size, sizeof(json_t *));

	if (!docs) {
		*bad = 1;
		return doc;
	}
	for (int r = 0; r < f->size; r++) {
		docs[r] = rank_doc(f, r, own);
		if (!docs[r])
			*bad = 1;
		jsonw_push(hosts, host_json(f, r, docs[r], bad), bad);
	}
	for (size_t i = 0; i < own->suite->ncases; i++) {
		jsonw_push(spread, spread_json(f, own, i, bad), bad);
		tag_results(f, docs, i, results, bad);
	}
	jsonw_set(doc, "schema_version", json_integer(1), bad);
	jsonw_set(doc, "hostbench",
		  docs[0] ? json_incref(json_object_get(docs[0], "hostbench"))
			  : json_null(),
		  bad);
	jsonw_set(fl, "ranks", json_integer(f->size), bad);
	jsonw_set(fl, "hosts", hosts, bad);
	jsonw_set(fl, "spread", spread, bad);
	jsonw_set(doc, "fleet", fl, bad);
	jsonw_set(doc, "results", results, bad);
	for (int r = 0; r < f->size; r++)
		json_decref(docs[r]);
	free(docs);
	return doc;
}

/* The fleet as one JSON document: every host's report and the spread. */
static int write_json(const struct fleet *f, const struct report *own,
		      FILE *out, char *err, size_t errlen)
{
	int bad = 0;
	json_t *doc = fleet_doc(f, own, &bad);
	int rc = bad ? hb_errorf(err, errlen, -ENOMEM,
				 "fleet report: out of memory")
		     : 0;

	if (!rc &&
	    (json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15)) ||
	     fputc('\n', out) == EOF))
		rc = report_io_error(out, err, errlen);
	json_decref(doc);
	return rc;
}

/* Rank r's own report read back as `hostbench merge` reads a file. */
static int rank_doc_report(const struct fleet *f, int r,
			   const struct report *own, const char *name,
			   struct doc_report *doc, char *err, size_t errlen)
{
	json_t *j = rank_doc(f, r, own);
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

/* Row i + 1 of the spread table: case, hosts ok, min, median, max, outlier. */
static int spread_row(const struct fleet *f, const struct report *own, size_t i,
		      struct table *t)
{
	const struct bench_case *c = &own->suite->cases[i];
	char cell[REPORT_LINE], who[FLEET_HOST_MAX + 32];
	double scale = 0;
	struct fleet_spread sp;
	size_t row = i + 1;
	int rc = fleet_spread_of(f, own, i, &sp);

	for (int r = 0; !rc && r < f->size && !scale; r++) {
		const struct result *res = &fleet_rank_results(f, r, own)[i];

		if (res->status == RESULT_OK &&
		    result_headline(res)->median > 0)
			scale = report_value(res, c->unit) /
				result_headline(res)->median;
	}
	snprintf(cell, sizeof(cell), "%s (%s)", c->title, c->backend);
	rc = rc ? rc : table_set(t, row, 0, cell);
	snprintf(cell, sizeof(cell), "%zu/%d", sp.ok, f->size);
	rc = rc ? rc : table_set(t, row, 1, cell);
	for (int k = 0; !rc && sp.ok && k < 4; k++) {
		double v = k == 0   ? sp.min
			   : k == 1 ? sp.median
			   : k == 2 ? sp.max
				    : sp.total;

		report_format_value(v * scale, c->unit, cell, sizeof(cell));
		rc = table_set(t, row, 2 + (size_t)k, cell);
	}
	if (!rc && sp.outlier >= 0) {
		fleet_rank_name(f, sp.outlier, who, sizeof(who));
		snprintf(cell, sizeof(cell), "%s %+.1f%%", who,
			 100 * sp.deviation);
		rc = table_set(t, row, 6, cell);
	}
	if (!rc && sp.start_spread >= 0) {
		snprintf(cell, sizeof(cell), "%.1f ms", 1000 * sp.start_spread);
		rc = table_set(t, row, 7, cell);
	}
	if (!rc && fleet_peer_mode(c)) {
		snprintf(cell, sizeof(cell), "%s (%s): peer = %s: %s", c->title,
			 c->backend, fleet_peer_mode(c),
			 fleet_peer_mode_text(fleet_peer_mode(c)));
		rc = strlist_push(&t->notes, cell);
	}
	for (int r = 0; !rc && r < f->size; r++) {
		const struct result *res = &fleet_rank_results(f, r, own)[i];

		if (res->status == RESULT_OK)
			continue;
		fleet_rank_name(f, r, who, sizeof(who));
		snprintf(cell, sizeof(cell), "%s (%s): %s: %s: %s", c->title,
			 c->backend, who, result_status_name(res->status),
			 res->reason ? res->reason : "");
		rc = strlist_push(&t->notes, cell);
	}
	return rc;
}

int fleet_spread_table(const struct fleet *f, const struct report *own,
		       struct table *t)
{
	static const char *const head[] = { "Case",    "Hosts ok",    "Min",
					    "Median",  "Max",	      "Total",
					    "Outlier", "Start spread" };
	size_t cols = sizeof(head) / sizeof(head[0]);
	int rc = table_init(t, own->suite->ncases + 1, cols);

	for (size_t c = 0; !rc && c < cols; c++)
		rc = table_set(t, 0, c, head[c]);
	for (size_t i = 0; !rc && i < own->suite->ncases; i++)
		rc = spread_row(f, own, i, t);
	return rc;
}

/* The ranks and their state, one line each. */
/* Text from a rank (a host name, a reason): Markdown-escaped in md. */
static void put_text(FILE *out, int md, const char *s)
{
	if (md)
		table_md_text(out, s);
	else
		fputs(s, out);
}

static void write_ranks(const struct fleet *f, int md, FILE *out)
{
	char who[FLEET_HOST_MAX + 32];

	fprintf(out, "%sFleet: %d ranks\n\n", md ? "## " : "", f->size);
	for (int r = 0; r < f->size; r++) {
		const struct fleet_rank *fr = &f->st->ranks[r];

		fleet_rank_name(f, r, who, sizeof(who));
		fputs(md ? "- " : "  ", out);
		put_text(out, md, who);
		fputs(fr->lost ? ": lost: " : ": ok", out);
		put_text(out, md,
			       fr->lost && fr->lost_why ? fr->lost_why : "");
		fputs(fr->failed ? " (a case failed)\n" : "\n", out);
	}
	fputc('\n', out);
}

/*
 * The ranks, the merge table of hosts by cases, then the spread of every
 * case across hosts: as text, or as Markdown when md.
 */
static int write_overview(const struct fleet *f, const struct report *own,
			  int md, FILE *out, char *err, size_t errlen)
{
	struct table t = { 0 };
	int rc;

	write_ranks(f, md, out);
	rc = fleet_merge_write(f, own, md ? REPORT_MD : REPORT_TEXT, out, err,
			       errlen);
	if (rc)
		return rc;
	fprintf(out, "\n%sSpread across hosts\n\n", md ? "## " : "");
	rc = fleet_spread_table(f, own, &t);
	if (!rc && !md)
		rc = table_text(&t, out);
	else if (!rc)
		table_md(&t, out);
	table_free(&t);
	if (rc)
		return hb_errorf(err, errlen, rc,
				 "fleet report: out of memory");
	fputs(md ? "Each host's own report: `--format "
		   "json`, under `fleet.hosts[].report`.\n"
		 : "\nEach host's own report: --format json, "
		   "under fleet.hosts[].report.\n",
	      out);
	return ferror(out) ? report_io_error(out, err, errlen) : 0;
}

/* The fleet as text: ranks, hosts by cases, spread. */
static int write_text(const struct fleet *f, const struct report *own,
		      FILE *out, char *err, size_t errlen)
{
	return write_overview(f, own, 0, out, err, errlen);
}

/* The fleet as Markdown: ranks, hosts by cases, spread. */
static int write_md(const struct fleet *f, const struct report *own, FILE *out,
		    char *err, size_t errlen)
{
	return write_overview(f, own, 1, out, err, errlen);
}

/* The fleet as CSV: the merge table of hosts by cases. */
static int write_csv(const struct fleet *f, const struct report *own, FILE *out,
		     char *err, size_t errlen)
{
	return fleet_merge_write(f, own, REPORT_CSV, out, err, errlen);
}

/* How the fleet report is written in one format. */
struct fleet_writer {
	int (*write)(const struct fleet *f, const struct report *own, FILE *out,
		     char *err, size_t errlen);
};

/* The writer of each format, indexed by enum report_format. */
static const struct fleet_writer writers[] = {
	[REPORT_TEXT] = { .write = write_text },
	[REPORT_JSON] = { .write = write_json },
	[REPORT_CSV] = { .write = write_csv },
	[REPORT_MD] = { .write = write_md },
	[REPORT_HTML] = { .write = fleet_html },
};

int fleet_report(const struct fleet *f, enum report_format fmt,
		 const struct report *own, FILE *out, char *err, size_t errlen)
{
	err[0] = '\0';
	if ((size_t)fmt >= sizeof(writers) / sizeof(writers[0]) ||
	    !writers[fmt].write)
		return hb_errorf(err, errlen, -EINVAL,
				 "fleet report: unknown format %d", (int)fmt);
	return writers[fmt].write(f, own, out, err, errlen);
}
