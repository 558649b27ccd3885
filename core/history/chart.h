/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The trend chart of one series of the history document, as inline SVG:
 * its median run by run with the CI band around it, its change points and
 * the changes of context marked. Drawn with report/'s chart frame; no
 * script, no font, no external resource. Elements carry classes and
 * data- attributes ("point", "change regression", "context-change") so
 * tests and readers can find them.
 */
#ifndef HB_CORE_HISTORY_CHART_H
#define HB_CORE_HISTORY_CHART_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

/*
 * Write the trend chart of series s (an element of the document's
 * "series") titled title. Returns 0, or -EINVAL when s has no point with
 * a median.
 */
int chart_write(FILE *out, const json_t *s, const char *title);

/*
 * v as an axis label with an SI prefix, three significant digits: "2M",
 * "1.5k", "3.6", "250m"; never an exponent.
 */
void chart_si(double v, char *buf, size_t len);

#endif
