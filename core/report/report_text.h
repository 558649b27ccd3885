/* SPDX-License-Identifier: Apache-2.0 */
/* The text report: the host-benchmark layout of the reference report. */
#ifndef HB_CORE_REPORT_REPORT_TEXT_H
#define HB_CORE_REPORT_REPORT_TEXT_H

#include "report/writer.h"

/*
 * Write doc, a struct report, to out: the text writer of report.c's table.
 * Returns 0 or a negative code with err filled.
 */
int report_text(const void *doc, FILE *out, char *err, size_t errlen);

#endif
