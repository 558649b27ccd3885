/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The layout every format shares: results grouped into sections, each a
 * run of lines, tables and grids, and how a case and its parameters are
 * named. docs/reports.md describes the layout they build.
 */
#ifndef HB_CORE_REPORT_LAYOUT_H
#define HB_CORE_REPORT_LAYOUT_H

#include <stddef.h>

#include "report/writer.h"

/*
 * A run of results shown together in a report section: one result as a
 * line, the results of one or more consecutive jobs that vary in a single
 * parameter, as a table with a column per value of that parameter, or the
 * results of one job that varies in two, as a grid: a row per value of
 * rows_key, a column per value of key.
 */
struct report_item {
	size_t first, last;   /* results[first..last) */
	const char *key;      /* the table's column parameter; NULL = a line */
	const char *rows_key; /* a grid's row parameter; NULL = not a grid */
};

/* A report section in order of first appearance, and what it shows. */
struct report_section {
	const char *title;
	struct report_item *items;
	size_t nitems;
};

struct report_layout {
	struct report_section *sections;
	size_t nsections;
};

/*
 * Group r->results into sections (a job's `section`, else by group: crypto
 * and mac "Secure Communication Performance", hash "File Integrity
 * Validation Performance", mem and io "Base Performance", transfer "Network
 * Transfer Performance", pk "Public Key Performance", other groups their
 * name) and items. A job becomes
 * a table when its cases differ in exactly one parameter other than
 * backend (a differing backend gives the table's rows) and that parameter
 * is not parallel, which keeps the reference's "memcpy [4 parallels]"
 * lines. A job of one backend whose cases differ in exactly two parameters
 * (parallel counts here) becomes a grid: the parameter written first in
 * the suite down the rows, the other across the columns. Returns 0 or
 * -ENOMEM.
 */
int report_layout_build(const struct report *r, struct report_layout *lay);
void report_layout_free(struct report_layout *lay);

/* The report section a result belongs to (see report_layout_build). */
const char *report_section_of(const struct report *r, const struct result *res);

/* The job of a result, or NULL when the report has no suite for it. */
const struct job *report_job_of(const struct report *r,
				const struct result *res);

/* The end of the run of results of the job results[i] belongs to. */
size_t report_job_end(const struct report *r, size_t i);

/*
 * The distinct values of key over results[a..b), in order, appended to
 * out. Returns 0 or -ENOMEM.
 */
int report_distinct_values(const struct report *r, size_t a, size_t b,
			   const char *key, struct strlist *out);

/*
 * The text of parameter key of case c, "backend" and "parallel" included
 * (buf holds the parallel count); "" when c has no such parameter.
 */
const char *report_case_value(const struct bench_case *c, const char *key,
			      char *buf, size_t len);

/*
 * Whether reports name c's queue depth: one the suite set, a device
 * target, or a depth above 1 (then also "queue_depth" in the JSON
 * parameters).
 */
int report_shows_depth(const struct bench_case *c);

/*
 * The label of a result's line: its title, with " (backend)" whenever the
 * case names one, so two reports of one job on different backends never
 * read alike.
 */
void report_label(const struct report *r, const struct result *res, char *buf,
		  size_t len);

#endif
