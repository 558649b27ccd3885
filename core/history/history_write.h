/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history document (docs/history.md) as text, JSON, CSV,
 * Markdown or HTML: the series with their latest figure and trend, then
 * each series' points over time (and in HTML its trend chart). Every
 * string of the document is escaped for the format: it carries text from
 * elsewhere (host names, targets, plugin strings).
 */
#ifndef HB_CORE_HISTORY_HISTORY_WRITE_H
#define HB_CORE_HISTORY_HISTORY_WRITE_H

#include <stdio.h>

#include <jansson.h>

#include "report/writer.h"

/*
 * Write doc in format fmt to out. Returns 0, or a negative code with err
 * filled (-ENOMEM, -EIO for a failed write, -EINVAL for a format with no
 * writer).
 */
int history_write(const json_t *doc, enum report_format fmt, FILE *out,
		  char *err, size_t errlen);

/*
 * The HTML section of series s of doc: a heading naming its case and
 * host, its trend chart, its change points with their state, and with
 * points nonzero a table of its points. Returns 0 or -ENOMEM. The history
 * page and the dashboard's host pages both show a series so.
 */
int history_write_html_series(FILE *out, const json_t *doc, const json_t *s,
			      int points);

#endif
