/* SPDX-License-Identifier: Apache-2.0 */
/* The CSV report: one header row and one row per result. */
#ifndef HB_CORE_REPORT_REPORT_CSV_H
#define HB_CORE_REPORT_REPORT_CSV_H

#include "report/writer.h"

/*
 * Write doc, a struct report, to out: the csv writer of report.c's table.
 * Returns 0 or a negative code with err filled.
 */
int report_csv(const void *doc, FILE *out, char *err, size_t errlen);

#endif
