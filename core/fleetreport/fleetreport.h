/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet report, in every build and with no MPI: the spread of each
 * case across the hosts (fleet_spread.c), where the fleet ran
 * (fleet_place.c), the hosts as rows (fleet_wide.c), each host's own
 * report and merge's table of them (fleet_hosts.c), the HTML page
 * (fleet_html.c), one writer per format (fleet_report.c) and a saved
 * fleet report read back (fleet_load.c). It reads what fleet/ collected
 * (fleet_int.h) and nothing in fleet/ calls it: cmd_run writes the
 * report after the last case, cmd_reports re-renders a saved one. Each
 * file calls only its own group and the groups before it: fleet_spread,
 * fleet_place, fleet_wide < fleet_hosts < fleet_html < fleet_report <
 * fleet_load (.ci/layering).
 */
#ifndef HB_CORE_FLEETREPORT_FLEETREPORT_H
#define HB_CORE_FLEETREPORT_FLEETREPORT_H

#include <stdio.h>

#include <jansson.h>

#include "fleet/fleet.h"
#include "fleet/fleet_int.h"
#include "render/table.h"

/*
 * The fleet report on rank 0. json: every rank's results with rank and
 * host, the spread across hosts per case, and each rank's whole report as
 * its own JSON document (fleet.hosts[].report). text and md: the ranks and
 * their state, the table of hosts by cases of `hostbench merge`, then the
 * spread. csv and html: merge's table. own is rank 0's report; the other
 * ranks' results are read against own->suite. Returns 0 or a negative
 * code with err filled.
 */
int fleet_report(const struct fleet *f, enum report_format fmt,
		 const struct report *own, FILE *out, char *err, size_t errlen);

/* A fleet report read back from its JSON (fleet_load.c). */
struct fleet_saved {
	struct fleet fleet;	 /* every rank as rank 0 knew it */
	struct report_doc own;	 /* rank 0's report: the suite, its results */
	struct doc_report *docs; /* each rank's report, fleet.size of them */
	json_t *root;		 /* the document, sanitized */
};

/*
 * Read the fleet report at path into fs, for fleet_report() with
 * &fs->fleet and &fs->own.r (any format, in any build). Returns 0,
 * -ENOTSUP when path holds no fleet report (read it as one host's),
 * -EINVAL (err says what is wrong with it) or -ENOMEM. Free fs with
 * fleet_saved_free() after 0.
 */
int fleet_saved_read(struct fleet_saved *fs, const char *path, char *err,
		     size_t errlen);

/* Free what fs holds and zero it. */
void fleet_saved_free(struct fleet_saved *fs);

/*
 * Rank r's own report as JSON (a new reference, NULL when out of memory):
 * its results through report_json(), then its own hostbench, system and
 * libraries from the context it sent (fleet_hosts.c).
 */
json_t *fleet_rank_doc(const struct fleet *f, int r, const struct report *own);

/*
 * When rank r started and ended case i, on rank 0's clock (its own less
 * its offset). Returns 0, or -ENOENT when it did not run it or its clock
 * is unknown.
 */
int fleet_span_of(const struct fleet *f, int r, size_t i, double *start,
		  double *end);

/* One case across the hosts where it ran ok. */
struct fleet_spread {
	size_t ok;		 /* ranks with a figure */
	double min, median, max; /* headline rate: bytes/s, or ops/s */
	double total;		 /* every rank's rate added: the fleet's */
	int min_rank, max_rank;
	int outlier;	     /* rank farthest from the median, -1: none */
	double deviation;    /* its value / median - 1 */
	double start_spread; /* latest start - earliest, s; -1: unknown */
};

/* The spread of case i over the ranks where it ran ok. 0 or -ENOMEM. */
int fleet_spread_of(const struct fleet *f, const struct report *own, size_t i,
		    struct fleet_spread *sp);

/* Rank r's results: rank 0's are own's, the others' rank 0 received. */
const struct result *fleet_rank_results(const struct fleet *f, int r,
					const struct report *own);

/*
 * The spread of every case as a table into t (Case, Hosts ok, Min,
 * Median, Max, Total, Outlier, Start spread), with every case that was
 * not ok on a host among its notes. Returns 0 or -ENOMEM.
 */
int fleet_spread_table(const struct fleet *f, const struct report *own,
		       struct table *t);

/*
 * The table of hosts by cases of `hostbench merge`, over every rank's own
 * report, in fmt (one merge table, whichever way the reports came); for
 * html, its sections only, to go inside the fleet's page. Above
 * FLEET_WIDE ranks a row per host, never a column: csv a row per host
 * and case (rank, host, then merge's fields, median, cv, status and
 * reason), html its tables turned. Returns 0 or a negative code with err
 * filled.
 */
int fleet_merge_write(const struct fleet *f, const struct report *own,
		      enum report_format fmt, FILE *out, char *err,
		      size_t errlen);

/*
 * The fleet as one HTML page (fleet_html.c): the ranks with their status
 * and reasons, the spread with totals and start spreads, a chart per
 * case of every host against the median with the outlier marked, then
 * the tables of hosts by cases. Returns 0 or a negative code.
 */
int fleet_html(const struct fleet *f, const struct report *own, FILE *out,
	       char *err, size_t errlen);

/*
 * The outlier of n values: the index farthest from their median, the
 * lower one on a tie (a slow host is the finding). *median gets the
 * median. Returns -1 when n is 0. Pure.
 */
int fleet_outlier(const double *v, size_t n, double *median);

/* Above this many ranks, text and md show hosts as rows, not columns. */
#define FLEET_WIDE 8

/*
 * Where the fleet ran (fleet_place.c): the batch job's id as JSON (null
 * when unknown); the ranks sorted by host, then rank, into *order (the
 * caller frees it), returning how many nodes they ran on or -ENOMEM;
 * the nodes as [{"host", "ranks": [...]}]; the job and the nodes with
 * their ranks ("lab1 (ranks 0-3)"), lines of text or Markdown when md.
 */
json_t *fleet_job_json(const struct report *own);
int fleet_nodes(const struct fleet *f, int **order);
json_t *fleet_nodes_json(const struct fleet *f, int *bad);
int fleet_place_write(const struct fleet *f, const struct report *own, int md,
		      FILE *out);

/*
 * The hosts as rows (fleet_wide.c): rank, host, status, cases ok and the
 * case where the host is farthest from the median, with each lost rank's
 * reason among the notes. Returns 0 or -ENOMEM.
 */
int fleet_hosts_table(const struct fleet *f, const struct report *own,
		      struct table *t);

/* Rank r's rank, host and status ("ok (a case failed)") into cells 0-2 of
 * t's row. Returns 0 or -ENOMEM. */
int fleet_rank_cells(const struct fleet *f, int r, struct table *t, size_t row);

#endif
