/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Saved reports made a struct report again, for `hostbench report`: the
 * results of JSON reports (or journals) with the jobs, cases and target
 * descriptions their "case" objects kept, so every writer prints what the
 * run printed.
 */
#ifndef HB_CORE_COMPARE_REPORT_DOC_H
#define HB_CORE_COMPARE_REPORT_DOC_H

#include <stddef.h>

#include "compare/report_read.h"
#include "report/writer.h"

/* One case's target as a report described it (group, work, option types). */
struct report_doc_target {
	struct hb_target target;
	struct hb_option *options; /* names point into the document */
};

/* A report rebuilt from documents; everything it points to it owns. */
struct report_doc {
	struct report r; /* what report_write() takes */
	struct suite suite;
	struct result *results;		   /* shallow copies of the docs' */
	struct report_doc_target *targets; /* one per case */
	struct registry reg;		   /* names and libraries only */
	struct hb_plugin *descs;
};

/*
 * Rebuild the results of docs[0..n) in order as one report, with the
 * first document's system information. Results without a "case" object
 * (older reports) are laid out from their other fields. docs must outlive
 * rd. Returns 0 or -ENOMEM with err filled; free rd with report_doc_free().
 */
int report_doc_build(struct report_doc *rd, const struct doc_report *docs,
		     size_t n, char *err, size_t errlen);

/* Free what rd owns and zero it. */
void report_doc_free(struct report_doc *rd);

#endif
