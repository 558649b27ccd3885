/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A journal (run --journal FILE: one finished result a line) read as a
 * report: what every reader of reports (report, compare, merge, store
 * import, the fleet) gets from it, whatever its length.
 */
#ifndef HB_CORE_COMPARE_JOURNAL_DOC_H
#define HB_CORE_COMPARE_JOURNAL_DOC_H

#include <stddef.h>

#include <jansson.h>

/*
 * Nonzero when o is one line of a journal (an object with its case
 * "key"), as a journal of one result parses: a line, not a report.
 */
int journal_doc_is_line(const json_t *o);

/*
 * The journal text (len bytes) as the root of a report without system
 * information: each result line as a report's result (its "params" typed
 * from its "case", as the report writer types them, result/case_json.h;
 * its unit, section, duration, repetitions and warmup from the case too),
 * and the "run" its last line names (the run that wrote to it last: a
 * resumed run's report holds every line), ended when that line was
 * written ("journaled"). A line that is not JSON
 * (the last one cut off when the run died writing it) is skipped and
 * counted in *torn; a foreign line is skipped. NULL when no line is a
 * journal line, or when out of memory.
 */
json_t *journal_doc_root(const char *text, size_t len, int *torn);

#endif
