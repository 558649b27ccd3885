/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every writer is given and does alike, below everything else in
 * report/: the run as a struct report, the formats, the shape of a writer,
 * text appended to a bounded line, and a failed write to its stream.
 */
#ifndef HB_CORE_REPORT_WRITER_H
#define HB_CORE_REPORT_WRITER_H

#include <stdio.h>

#include "plugin/registry.h"
#include "render/table.h"
#include "result/result.h"
#include "result/runinfo.h"
#include "suite/suite.h"
#include "result/sysinfo.h"

/* The formats, each the index of its writer in a table of writers. */
enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_CSV,
	REPORT_MD,
	REPORT_HTML,
	REPORT_NFORMATS /* the size of a table of writers */
};

struct report {
	const struct sysinfo *sys;
	const struct registry *reg;
	const struct suite *suite;
	const struct result *results; /* suite->ncases of them, same order */
	size_t nresults;
	/* the run's identity and times; NULL or not known: an older report,
	 * whose renderings stay as they were */
	const struct runinfo *run;
	/* which figure leads (report --figure): the results' rates are then
	 * already swapped (report_show_per_cpu(), report/figure.h) */
	enum result_figure figure;
};

/*
 * One format's writer of a document: doc (a struct report, a comparison,
 * a merge, whatever its table of writers writes) to out. A table is
 * indexed by enum report_format; a NULL write means the format is not
 * written. report_dispatch() (report.h) calls it.
 */
struct report_writer {
	/* Returns 0 or a negative code with err filled. */
	int (*write)(const void *doc, FILE *out, char *err, size_t errlen);
};

/* A line of text no writer lets grow longer (labels, annotations). */
#define REPORT_LINE 1024

/* Append printf output to buf (len bytes, NUL-terminated), truncating. */
void report_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* hb_errorf() for a failed write to a report stream. */
int report_io_error(FILE *out, char *err, size_t errlen);

/*
 * The end of a writer whose parts return bare codes: rc as "WHAT: REASON"
 * in err ("merge: Cannot allocate memory"), else report_io_error().
 */
int report_write_end(const char *what, int rc, FILE *out, char *err,
		     size_t errlen);

#endif
