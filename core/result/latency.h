/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Latency of single units of work (asynchronous targets): a log-linear
 * histogram in the manner of HdrHistogram, constant memory and no
 * allocation per unit, 32 buckets per power of two (a value is kept to
 * within 1/32 of itself), from 1 ns to 2^64 ns.
 */
#ifndef HB_CORE_RUN_LATENCY_H
#define HB_CORE_RUN_LATENCY_H

#include <stdint.h>

/* Sub-buckets per power of two, as a power of two. */
#define LATENCY_SUB_BITS 5
#define LATENCY_SUB	 (1u << LATENCY_SUB_BITS)
/* Buckets: exact below LATENCY_SUB, then LATENCY_SUB per power of two. */
#define LATENCY_BUCKETS ((64 - LATENCY_SUB_BITS + 1) * LATENCY_SUB)

/* Counts of unit latencies in nanoseconds. Zero it to start. */
struct latency_hist {
	uint64_t count;
	uint64_t max;
	uint64_t counts[LATENCY_BUCKETS];
};

/* What reports show of a histogram, in nanoseconds (count 0: none). */
struct latency {
	uint64_t count;
	double p50, p90, p99, p999, max;
};

/* Count one unit that took ns nanoseconds. */
void latency_add(struct latency_hist *h, uint64_t ns);

/* Add every count of from to into. */
void latency_merge(struct latency_hist *into, const struct latency_hist *from);

/*
 * The value below which a fraction q (0..1) of the units fall: the middle
 * of its bucket, never above the largest value seen. 0 when h is empty.
 */
double latency_quantile(const struct latency_hist *h, double q);

/* p50, p90, p99, p99.9 and max of h. */
struct latency latency_summary(const struct latency_hist *h);

#endif
