/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The history document read the way every view shows it: a series' name,
 * its unit, a figure in that unit, its host, its trend. The views
 * (history_write.c, chart.c, dashboard.c) all word a series through here.
 */
#ifndef HB_CORE_HISTORY_VIEW_H
#define HB_CORE_HISTORY_VIEW_H

#include <stddef.h>

#include <jansson.h>

/* A line of a view (a label, a figure); longer text is cut. */
#define VIEW_LINE 512

/* o's number at key, NAN when o has none there (or it is no number). */
double view_num(const json_t *o, const char *key);

/* o's string at key, NULL when o has none there (or it is no string). */
const char *view_str(const json_t *o, const char *key);

/* Nonzero when two context ids (either may be NULL) are the same. */
int view_same_context(const char *a, const char *b);

/*
 * The unit series s is shown in: "ops/s" for an "ops_rate" figure or an
 * "ops/s" unit, its own unit when it is a rate's ("Gbps", "GB/s"...) or
 * an imported measure's ("ns", "s", "%", "count", "bytes"), else "Gbps".
 */
const char *view_unit(const json_t *s);

/* v (bytes/s or ops/s, as s's figure) scaled to view_unit(s); a measure
   as it is. */
double view_value(const json_t *s, double v);

/* v as shown for s: "3.60Gbps", "12345.6 ops/s", "57.27us"; "-" for NAN. */
void view_figure(const json_t *s, double v, char *buf, size_t len);

/*
 * The name of series s: "TITLE (backend)", its job's title or target
 * when it has no title, " ops" appended for an "ops_rate" series, the
 * figure's name for an imported one (" clat_p99").
 */
void view_label(const json_t *s, char *buf, size_t len);

/* The change point of series s that starts at point i, NULL for none. */
const json_t *view_change_at(const json_t *s, size_t i);

/*
 * What changed where a context of series s begins at point i, in words
 * (history/context_diff.h: "OpenSSL 3.0.17 -> 3.0.19; kernel 6.1 ->
 * 6.18"), "context ID" when its facts do not say; "" when no context
 * but the first begins there.
 */
void view_context_change(const json_t *s, size_t i, char *buf, size_t len);

/* The flags of point p joined with sep into buf ("" without any). */
void view_flags(const json_t *p, const char *sep, char *buf, size_t len);

/* The host of doc whose "id" is id, NULL when there is none. */
const json_t *view_host(const json_t *doc, const char *id);

/* The name of host id in doc, else id itself ("" for NULL). */
const char *view_host_name(const json_t *doc, const char *id);

/*
 * The trend of a series: its latest point against the median of the
 * points before it in the latest point's context (a series never
 * compares across contexts), and the newest verdict when the document
 * has one.
 */
struct view_trend {
	double latest; /* the latest median, NAN without points */
	double base;   /* median of the previous points, NAN without them */
	double change; /* latest / base - 1, NAN without a base */
	size_t nbase;  /* how many points base is the median of */
	const char *verdict; /* "newest"'s verdict, NULL without it */
};

/* The trend of s. Returns 0 or -ENOMEM. */
int view_trend(const json_t *s, struct view_trend *t);

/* t's change as "+4.2%" ("-" without a base). */
void view_change(const struct view_trend *t, char *buf, size_t len);

#endif
