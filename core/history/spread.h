/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How far two runs of one host and context move apart with nothing
 * changed, from a series of the history document: the moves between its
 * runs back to back, what compare needs to tell a change of build from a
 * host that moves between runs.
 */
#ifndef HB_CORE_HISTORY_SPREAD_H
#define HB_CORE_HISTORY_SPREAD_H

#include <stddef.h>

#include <jansson.h>

/* The fewest other runs of the context a spread is taken from. */
#define HISTORY_SPREAD_MIN_RUNS 5
/* The most: the newest ones, 20 moves back to back. */
#define HISTORY_SPREAD_RUNS 21

/* What a series says of the runs of one context. */
struct history_spread {
	size_t runs;  /* the runs the moves are taken from */
	double floor; /* the largest move of the figure back to back */
};

/*
 * The spread of series s ("points" oldest first) for the pair of runs
 * base_run and new_run: from the other points of their context (never the
 * two runs themselves), the largest relative move of the figure (median,
 * or cpu_median with cpu) between two runs back to back, over at most the
 * last HISTORY_SPREAD_RUNS. Returns 1 with *out filled when both runs are
 * points of s, of one context, with HISTORY_SPREAD_MIN_RUNS others; 0
 * otherwise.
 */
int history_spread(const json_t *s, const char *base_run, const char *new_run,
		   int cpu, struct history_spread *out);

#endif
