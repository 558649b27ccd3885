/* SPDX-License-Identifier: Apache-2.0 */
/* The JSON report: the contract scripts and `compare` read. */
#ifndef HB_CORE_REPORT_REPORT_JSON_H
#define HB_CORE_REPORT_REPORT_JSON_H

#include "report/writer.h"

/*
 * Write doc, a struct report, to out: the json writer of report.c's table.
 * Returns 0 or a negative code with err filled.
 */
int report_json(const void *doc, FILE *out, char *err, size_t errlen);

#endif
