/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Penalised segmentation of a series of n points: the cuts that minimise
 * the sum of the segments' costs plus beta per segment, each segment at
 * least min_size points. PELT (Killick, Fearnhead and Eckley, 2012) finds
 * the exact minimum; binary segmentation (Scott and Knott, 1974) splits
 * greedily while a split gains more than beta. Pure functions, no I/O.
 */
#ifndef HB_CORE_HISTORY_CPSEARCH_H
#define HB_CORE_HISTORY_CPSEARCH_H

#include <stddef.h>

/* The cost of the segment [a, b) of the series ctx describes. */
typedef double (*cpsearch_cost)(const void *ctx, size_t a, size_t b);

/* What a search is asked. */
struct cpsearch {
	cpsearch_cost cost;
	const void *ctx;
	size_t n;	 /* points in the series */
	size_t min_size; /* fewest points of a segment, at least 1 */
	double beta;	 /* price of one more segment */
	double slack;	 /* PELT: K, the most a cut can lower a cost by */
};

/*
 * The cuts (first index of each segment but the first, ascending) of
 * PELT's optimum into cuts (n entries); *k gets their number.
 * Returns 0 or -ENOMEM.
 */
int cpsearch_pelt(const struct cpsearch *q, size_t *cuts, size_t *k);

/* The same by binary segmentation. Returns 0 or -ENOMEM. */
int cpsearch_binseg(const struct cpsearch *q, size_t *cuts, size_t *k);

#endif
