/* SPDX-License-Identifier: Apache-2.0 */
/* The HTML report: one self-contained page, with its tables and charts. */
#ifndef HB_CORE_REPORT_REPORT_HTML_H
#define HB_CORE_REPORT_REPORT_HTML_H

#include "report/writer.h"

/*
 * Write doc, a struct report, to out as one self-contained HTML page:
 * context, every table, inline SVG charts. The html writer of report.c's
 * table. Returns 0 or a negative code with err filled.
 */
int report_html(const void *doc, FILE *out, char *err, size_t errlen);

#endif
