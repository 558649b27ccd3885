/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Figures out of hostbench for the tools labs feed their dashboards
 * from (docs/interop.md, "Export"): OpenMetrics text (a Prometheus
 * scrape, a node_exporter textfile-collector .prom file) and Bencher
 * Metric Format JSON. A set of points is filled from saved reports or
 * from the store's history document (the newest point of each series),
 * then written in one format. Every text of a point comes from outside
 * (a report file, a store row): it is sanitized and bounded as it enters
 * the set, and escaped again by each writer as its format requires.
 */
#ifndef HB_CORE_EXPORT_EXPORT_H
#define HB_CORE_EXPORT_EXPORT_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "compare/report_read.h"

/* The longest text of a label or a name part, in bytes, once sanitized. */
#define EXPORT_TEXT_MAX 128

/* The formats export writes. */
enum export_format {
	EXPORT_OPENMETRICS,
	EXPORT_BMF,
};

/*
 * One family of exported figures: its metric stem and base unit (the
 * OpenMetrics family is stem_unit) and Bencher's measure slug with the
 * factor from the base unit to the measure's.
 */
struct export_kind {
	char stem[96];	  /* "hostbench_throughput" */
	char unit[48];	  /* "bytes_per_second"; "" for none */
	char help[160];	  /* the HELP line */
	char slug[64];	  /* Bencher's measure: "throughput", "latency" */
	double bmf_scale; /* base unit -> the measure's unit */
};

/*
 * One figure of one case: the newest of its series. Handed to
 * export_add() its texts are the caller's; in a set they are the set's
 * own copies.
 */
struct export_point {
	size_t kind; /* index into the set's kinds */
	const char *host, *cases, *target, *backend;
	const char *time;      /* when it was measured, RFC 3339 UTC */
	double size, parallel; /* < 0: the case has none */
	int lower;	       /* 1: lower is better */
	double value, lo, hi;  /* in the kind's base unit; NAN unknown */
};

/* Points to write, and the kinds they refer to. */
struct export_set {
	struct export_point *points;
	size_t n, cap;
	struct export_kind *kinds;
	size_t nkinds;
	size_t repeated; /* points left out: same labels as a newer one */
};

/* "openmetrics" or "bmf" into *f. Returns 0, or -EINVAL for another. */
int export_format_parse(const char *text, enum export_format *f);

/*
 * Add every "ok" result of doc (its headline figure as the store keeps
 * it, store/store_figure.h: median and 95% CI from its samples). Returns
 * 0 or -ENOMEM with err filled.
 */
int export_add_report(struct export_set *set, const struct doc_report *doc,
		      char *err, size_t errlen);

/*
 * Add the newest point of every series of a history document
 * (store/store.h's store_history()). Returns 0 or -ENOMEM with err filled.
 */
int export_add_history(struct export_set *set, const json_t *doc, char *err,
		       size_t errlen);

/*
 * The index in set->kinds of the family of figure fig stored in unit
 * (made on first use) into *at, and the factor from unit to its base unit
 * into *scale: "rate" bytes/s and "ops_rate" operations/s as hostbench
 * stores them (their unit is only the display's); another figure by its
 * unit (a time in seconds, bits per second in bytes per second, an
 * unknown unit as the metric's suffix). Returns 0 or -ENOMEM.
 */
int export_kind_of(struct export_set *set, const char *fig, const char *unit,
		   size_t *at, double *scale);

/*
 * Add point p of figure fig stored in unit: its kind and its figures in
 * base units (export_kind_of()); the texts are copied sanitized and cut
 * to EXPORT_TEXT_MAX (NULL reads ""). Returns 0 or -ENOMEM.
 */
int export_add(struct export_set *set, const char *fig, const char *unit,
	       const struct export_point *p);

/*
 * Sort the points by kind and labels, the newest first among points of
 * the same labels, and count in set->repeated those that follow one of
 * the same labels (the writers skip them: export_same()).
 */
void export_sort(struct export_set *set);

/* Whether a and b name the same series (kind and every label). */
int export_same(const struct export_point *a, const struct export_point *b);

/*
 * Write the sorted set (export_sort()) in format f to out. Returns 0 or a
 * negative code with err filled.
 */
int export_write(const struct export_set *set, enum export_format f, FILE *out,
		 char *err, size_t errlen);

/* OpenMetrics text of set: one family per kind and bound, then # EOF. */
int export_openmetrics(const struct export_set *set, FILE *out, char *err,
		       size_t errlen);

/* Bencher Metric Format JSON of set. */
int export_bmf(const struct export_set *set, FILE *out, char *err,
	       size_t errlen);

/* Free what set holds and zero it. */
void export_free(struct export_set *set);

#endif
