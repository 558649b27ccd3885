/* SPDX-License-Identifier: Apache-2.0 */
/* The Markdown report (GitHub flavour). */
#ifndef HB_CORE_REPORT_REPORT_MD_H
#define HB_CORE_REPORT_REPORT_MD_H

#include "report/writer.h"

/*
 * Write doc, a struct report, to out: the md writer of report.c's table.
 * Returns 0 or a negative code with err filled.
 */
int report_md(const void *doc, FILE *out, char *err, size_t errlen);

#endif
