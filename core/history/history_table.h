/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history document as tables of text (render/table.h): the series with
 * their latest figure and trend, one series' points, one series' change
 * points. The text, md and html views and the dashboard render them.
 */
#ifndef HB_CORE_HISTORY_HISTORY_TABLE_H
#define HB_CORE_HISTORY_HISTORY_TABLE_H

#include <jansson.h>

#include "render/table.h"

/*
 * Every series of doc, a row each, those with an open regression (a
 * step still "new", or the newest run's verdict) first: host, case,
 * points, latest, base (median of the points before it in its context),
 * change, verdict, and the latest step with its kind and state.
 * Returns 0 or -ENOMEM (t left empty).
 */
int history_table_series(const json_t *doc, struct table *t);

/*
 * The points of series s, oldest first: time, run, median with its CI
 * bounds, samples, CV, context, flags, and the change point that starts
 * at the point. Returns 0 or -ENOMEM (t left empty).
 */
int history_table_points(const json_t *s, struct table *t);

/*
 * The change points of series s: time, run, before, after, change, p,
 * kind, state, id. Returns 0 or -ENOMEM (t left empty).
 */
int history_table_changes(const json_t *s, struct table *t);

/*
 * The class of row k (0: the header) of the series table of doc, or of the
 * change table of s: "verdict-regressed" or "verdict-improved" for an
 * open regression or improvement, else NULL. For html_table()'s row_class.
 */
const char *history_table_series_class(const json_t *doc, size_t k);
const char *history_table_change_class(const json_t *s, size_t k);

#endif
