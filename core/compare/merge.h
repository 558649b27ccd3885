/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench merge A.json B.json ...: one table of hosts (or runs) by
 * cases, for lab matrices. A column per report, a row per case of any of
 * them (matched as compare matches them: job, target, backend and
 * parameters), in the order the cases first appear.
 */
#ifndef HB_CORE_COMPARE_MERGE_H
#define HB_CORE_COMPARE_MERGE_H

#include <stddef.h>
#include <stdio.h>

#include "compare/report_read.h"
#include "report/writer.h"

/* A case in one report: its result there, or NULL. */
struct merge_cell {
	const struct doc_result *res;
};

/* One case across the reports: cells[i] is the case in docs[i]. */
struct merge_row {
	struct merge_cell *cells;
};

/* A merged table. */
struct merge {
	const struct doc_report *docs;
	size_t ndocs;
	char **labels; /* per report: its host name, or its file name when
			  two reports come from one host */
	struct merge_row *rows;
	size_t nrows, rows_cap;
};

/* Merge docs[0..n). Returns 0 or -ENOMEM with err filled. */
int merge_build(struct merge *m, const struct doc_report *docs, size_t n,
		char *err, size_t errlen);

void merge_free(struct merge *m);

/*
 * Write m as text, md, csv, json or html. Returns 0 or a negative code
 * with err filled.
 */
int merge_write(const struct merge *m, enum report_format f, FILE *out,
		char *err, size_t errlen);

/*
 * m's context and cases tables as two HTML <section>s, for a page that
 * holds more (the fleet's): a column per report, or with reports_as_rows
 * a row per report (a column per case), for many reports. Returns 0 or
 * -ENOMEM.
 */
int merge_html_sections(const struct merge *m, int reports_as_rows, FILE *out);

/*
 * m as CSV with a row per report and case, for many reports: the columns
 * head names first (lead[d] is report d's fields, CSV, without a
 * trailing comma), then job, title, target, backend, params, unit,
 * median, cv, status and reason. Returns 0 or a negative code with err
 * filled.
 */
int merge_csv_rows(const struct merge *m, const char *head, char *const *lead,
		   FILE *out, char *err, size_t errlen);

#endif
