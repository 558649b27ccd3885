/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A result's headline figure as the store keeps it: which fields a
 * result must have to be stored, and the one rule for its median (the
 * samples' median where the result has samples, else its stats').
 */
#ifndef HB_CORE_STORE_STORE_FIGURE_H
#define HB_CORE_STORE_STORE_FIGURE_H

#include <stddef.h>

#include <jansson.h>

/*
 * A result's headline figure: rate, or ops_rate for an "ops/s" result; an
 * imported one names its own (import/: "bw", "clat_p99") and direction.
 */
struct store_figure {
	int ops;	  /* 1: ops_rate (operations/s), 0: rate (bytes/s) */
	const char *name; /* the result's "figure", NULL: rate or ops_rate */
	int lower_better; /* the result's "better" is "lower" */
	double *samples;  /* the figure of each sample (malloc'd), or NULL */
	size_t n;	  /* how many samples */
	int has_samples;  /* 0 when the result has no "samples" at all */
	double median, ci_low, ci_high, cv; /* NAN where unknown */
};

/*
 * Check result r, results[i] of a report, for what the store needs: an
 * object with a target (text) and params (an object: the case's key; a
 * job or backend may be null, as a report without a suite has them); an
 * "ok" result (status "ok" or none) also a figure, from its samples or
 * its stats; an imported case (import/) each of its "figures" so. Returns
 * 0, or -EINVAL with "results[3]: no params" in err.
 */
int store_figure_check(const json_t *r, size_t i, char *err, size_t errlen);

/*
 * The headline figure of result r into f: its samples (for ops_rate each
 * sample's ops over its seconds), n the number of samples; median, 95% CI
 * and CV computed from the samples as the report's own statistics are
 * (result/stats.h) where r has samples, else r's stats. Returns 0 or
 * -ENOMEM; store_figure_free() frees f either way.
 */
int store_figure_of(const json_t *r, struct store_figure *f);

/* Free what store_figure_of() allocated. */
void store_figure_free(struct store_figure *f);

#endif
