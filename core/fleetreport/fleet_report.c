/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet report rank 0 writes, one writer per format: each rank's own
 * JSON report (fleet_hosts.c), every result with its rank and host, and
 * per case the spread across hosts (fleet_spread.c); HTML in
 * fleet_html.c. No MPI here: rank 0 has everything by the time it writes.
 */
#include "fleetreport/fleetreport.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <jansson.h>

#include "base/jsonw.h"
#include "render/table.h"
#include "result/result_json.h"
#include "result/runinfo.h"

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

/* Rank r's results of doc, tagged with rank, host and times, each to out. */
static int put_results(const struct fleet *f, int r, json_t *doc, int *first,
		       FILE *out)
{
	json_t *res;
	size_t i;
	int bad = 0;

	json_array_foreach(json_object_get(doc, "results"), i, res) {
		jsonw_set(res, "rank", json_integer(r), &bad);
		jsonw_set(res, "host", jsonw_text(f->st->ranks[r].host), &bad);
		set_span(f, r, i, res, &bad);
		if (bad || fputs(*first ? "\n    " : ",\n    ", out) == EOF ||
		    json_dumpf(res, out,
			       JSON_COMPACT | JSON_REAL_PRECISION(15)))
			return -EIO;
		*first = 0;
	}
	return 0;
}

/* One entry of fleet.hosts: rank, host, status, its report but results. */
static json_t *host_json(const struct fleet *f, int r, json_t *doc, int *bad)
{
	const struct fleet_rank *fr = &f->st->ranks[r];
	json_t *o = json_object();

	jsonw_set(o, "rank", json_integer(r), bad);
	jsonw_set(o, "host", jsonw_text(fr->host), bad);
	jsonw_set(o, "status", jsonw_text(fleet_rank_name_status(fr)), bad);
	jsonw_set(o, "reason", jsonw_text(fr->lost_why), bad);
	jsonw_set(o, "clock_offset",
		  r == 0 || fr->rtt >= 0 ? jsonw_number(fr->offset)
					 : json_null(),
		  bad);
	jsonw_set(o, "clock_rtt",
		  r == 0 || fr->rtt >= 0 ? jsonw_number(r ? fr->rtt : 0)
					 : json_null(),
		  bad);
	json_object_del(doc, "results"); /* once, in the fleet's results */
	jsonw_set(o, "report", json_incref(doc), bad);
	return o;
}

/*
 * Every rank's host entry (pass 0) or results (pass 1) to out, building
 * one rank's document at a time: rank 0 never holds every rank's report
 * at once.
 */
static int stream_ranks(const struct fleet *f, const struct report *own,
			int pass, FILE *out)
{
	int first = 1, rc = 0;

	for (int r = 0; !rc && r < f->size; r++) {
		json_t *doc = fleet_rank_doc(f, r, own), *host;
		int bad = !doc;

		if (!bad && pass) {
			rc = put_results(f, r, doc, &first, out);
		} else if (!bad) {
			host = host_json(f, r, doc, &bad);
			if (bad ||
			    fputs(r ? ",\n    " : "\n    ", out) == EOF ||
			    json_dumpf(host, out,
				       JSON_COMPACT | JSON_REAL_PRECISION(15)))
				rc = bad ? -ENOMEM : -EIO;
			json_decref(host);
		}
		json_decref(doc);
		if (bad && !rc)
			rc = -ENOMEM;
	}
	return rc;
}

/* "KEY": value, to out, value released; returns nonzero on failure. */
static int put_member(FILE *out, const char *key, json_t *value, const int *bad)
{
	int failed = *bad || !value || fprintf(out, "\n  \"%s\": ", key) < 0 ||
		     json_dumpf(value, out,
				JSON_COMPACT | JSON_ENCODE_ANY |
					JSON_REAL_PRECISION(15)) ||
		     fputc(',', out) == EOF;

	json_decref(value);
	return failed;
}

/* The spread of every case, a JSON array. */
static json_t *spread_all(const struct fleet *f, const struct report *own,
			  int *bad)
{
	json_t *spread = json_array();

	for (size_t i = 0; i < own->suite->ncases; i++)
		jsonw_push(spread, spread_json(f, own, i, bad), bad);
	return spread;
}

/*
 * The fleet as one JSON document, written as it is made: the head (rank
 * 0's build, the run, the job and where the ranks ran, the spread), each
 * host's report without its results, then every result once, tagged with
 * its rank and host.
 */
static int write_json(const struct fleet *f, const struct report *own,
		      FILE *out, char *err, size_t errlen)
{
	json_t *ctx = f->st->ranks[0].context;
	int bad = 0, rc = 0;

	if (fputs("{\n  \"schema_version\": 1,", out) == EOF ||
	    put_member(out, "hostbench",
		       json_incref(json_object_get(ctx, "hostbench")), &bad) ||
	    (own->run && own->run->known &&
	     put_member(out, "run", runinfo_json(own->run, &bad), &bad)) ||
	    fputs("\n  \"fleet\": {", out) == EOF ||
	    put_member(out, "ranks", json_integer(f->size), &bad) ||
	    put_member(out, "job", fleet_job_json(own), &bad) ||
	    put_member(out, "nodes", fleet_nodes_json(f, &bad), &bad) ||
	    put_member(out, "spread", spread_all(f, own, &bad), &bad) ||
	    fputs("\n  \"hosts\": [", out) == EOF)
		rc = bad ? -ENOMEM : -EIO;
	rc = rc ? rc : stream_ranks(f, own, 0, out);
	if (!rc && fputs("\n  ]},\n  \"results\": [", out) == EOF)
		rc = -EIO;
	rc = rc ? rc : stream_ranks(f, own, 1, out);
	if (!rc && fputs("\n  ]\n}\n", out) == EOF)
		rc = -EIO;
	if (rc == -ENOMEM)
		return hb_errorf(err, errlen, rc,
				 "fleet report: out of memory");
	return rc || ferror(out) ? report_io_error(out, err, errlen) : 0;
}

/* Text from a rank (a host name, a reason): Markdown-escaped in md. */
static void put_text(FILE *out, int md, const char *s)
{
	if (md)
		table_md_text(out, s);
	else
		fputs(s, out);
}

/*
 * The ranks and their state, one line each; above FLEET_WIDE ranks only
 * their counts and the ranks not ok (each host has its row below).
 */
static void write_ranks(const struct fleet *f, int md, FILE *out)
{
	char who[FLEET_HOST_MAX + 32];
	int lost = 0, failed = 0, wide = f->size > FLEET_WIDE;

	for (int r = 0; r < f->size; r++) {
		lost += f->st->ranks[r].lost;
		failed += !f->st->ranks[r].lost && f->st->ranks[r].failed;
	}
	fprintf(out, "%sFleet: %d ranks", md ? "## " : "", f->size);
	if (wide)
		fprintf(out, ": %d ok, %d with a failed case, %d lost",
			f->size - lost - failed, failed, lost);
	fputs("\n\n", out);
	for (int r = 0; r < f->size; r++) {
		const struct fleet_rank *fr = &f->st->ranks[r];

		if (wide && !fr->lost && !fr->failed)
			continue;
		fleet_rank_name(f, r, who, sizeof(who));
		fputs(md ? "- " : "  ", out);
		put_text(out, md, who);
		fprintf(out, ": %s%s", fleet_rank_name_status(fr),
			fr->lost_why ? ": " : "");
		put_text(out, md, fr->lost_why ? fr->lost_why : "");
		fputs(fr->failed ? " (a case failed)\n" : "\n", out);
	}
	if (!wide || lost || failed)
		fputc('\n', out);
}

/* t as text, or as Markdown when md; frees t. Returns 0 or -ENOMEM. */
static int put_table(struct table *t, int md, FILE *out)
{
	int rc = 0;

	if (md)
		table_md(t, out);
	else
		rc = table_text(t, out);
	table_free(t);
	return rc;
}

/*
 * The hosts: up to FLEET_WIDE ranks, the merge table of hosts by cases
 * (a column per host); above, one row per host.
 */
static int write_hosts(const struct fleet *f, const struct report *own, int md,
		       FILE *out, char *err, size_t errlen)
{
	struct table t = { 0 };
	int rc;

	if (f->size <= FLEET_WIDE)
		return fleet_merge_write(f, own, md ? REPORT_MD : REPORT_TEXT,
					 out, err, errlen);
	fprintf(out, "%sHosts\n\n", md ? "## " : "");
	rc = fleet_hosts_table(f, own, &t);
	rc = rc ? (table_free(&t), rc) : put_table(&t, md, out);
	return rc ? hb_errorf(err, errlen, rc, "fleet report: out of memory")
		  : 0;
}

/*
 * The ranks, where they ran, the hosts, then the spread of every case
 * across hosts: as text, or as Markdown when md.
 */
static int write_overview(const struct fleet *f, const struct report *own,
			  int md, FILE *out, char *err, size_t errlen)
{
	struct table t = { 0 };
	int rc;

	write_ranks(f, md, out);
	rc = fleet_place_write(f, own, md, out);
	rc = rc ? hb_errorf(err, errlen, rc, "fleet report: out of memory")
		: write_hosts(f, own, md, out, err, errlen);
	if (rc)
		return rc;
	fprintf(out, "\n%sSpread across hosts\n\n", md ? "## " : "");
	rc = fleet_spread_table(f, own, &t);
	rc = rc ? (table_free(&t), rc) : put_table(&t, md, out);
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
