/* SPDX-License-Identifier: Apache-2.0 */
/* The charts of a report as inline SVG, for the html writer and merge. */
#ifndef HB_CORE_REPORT_CHARTS_H
#define HB_CORE_REPORT_CHARTS_H

#include <stdio.h>

#include "report/layout.h"

/*
 * The charts of section s of r: per job label and target, throughput
 * against size or parallelism, and the latency of one unit where the
 * results have it. Returns 0 or -ENOMEM.
 */
int charts_section(const struct report *r, const struct report_section *s,
		   FILE *out);

/*
 * The chart of section s's lines (the classic report's cipher lines): a bar
 * per ok line in the unit of the first, with its interval; nothing when
 * fewer than two lines share that unit. Returns 0 or -ENOMEM.
 */
int charts_lines(const struct report *r, const struct report_section *s,
		 FILE *out);

/*
 * The charts_section() of every section of r, each in a <section>: the
 * charts of merge's page, whose hosts are a parameter of their cases.
 * Returns 0 or -ENOMEM.
 */
int charts_report(const struct report *r, FILE *out);

#endif
