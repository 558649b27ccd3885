/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reports: the formats by name and the dispatch to a format's writer
 * through a table of writers, one for the run's report here and one each
 * for compare and merge. Everything goes to the given stream; diagnostics
 * go to stderr only.
 */
#ifndef HB_CORE_REPORT_REPORT_H
#define HB_CORE_REPORT_REPORT_H

#include <stdio.h>

#include "report/writer.h"

/*
 * "text", "json", "csv", "md", "html" -> format. Returns 0 or -EINVAL.
 */
int report_format_parse(const char *name, enum report_format *out);

/*
 * Write doc in format f through writers[f], a table of REPORT_NFORMATS
 * writers of what doc is. Returns what the writer returns, or -EINVAL
 * with err filled when f has no writer.
 */
int report_dispatch(const struct report_writer *writers, enum report_format f,
		    const void *doc, FILE *out, char *err, size_t errlen);

/*
 * Write r in format f to out through that format's writer (report_text.c,
 * report_json.c, ...). Returns 0 or a negative code with err filled.
 */
int report_write(enum report_format f, const struct report *r, FILE *out,
		 char *err, size_t errlen);

#endif
