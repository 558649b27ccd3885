/* SPDX-License-Identifier: Apache-2.0 */
/* The latency histogram: bucket arithmetic and quantiles. */
#include "result/latency.h"

/* The bucket of ns. */
static unsigned bucket_of(uint64_t ns)
{
	unsigned e;

	if (ns < LATENCY_SUB)
		return (unsigned)ns;
	e = 63u - (unsigned)__builtin_clzll(ns); /* >= LATENCY_SUB_BITS */
	return (e - LATENCY_SUB_BITS + 1) * LATENCY_SUB +
	       (unsigned)((ns >> (e - LATENCY_SUB_BITS)) - LATENCY_SUB);
}

/* The lowest value of bucket b, and its width. */
static void bucket_range(unsigned b, double *low, double *width)
{
	unsigned e = b / LATENCY_SUB + LATENCY_SUB_BITS - 1;
	unsigned sub = b % LATENCY_SUB;

	if (b < LATENCY_SUB) {
		*low = b;
		*width = 1;
		return;
	}
	*width = (double)(1ull << (e - LATENCY_SUB_BITS));
	*low = (double)(LATENCY_SUB + sub) * *width;
}

void latency_add(struct latency_hist *h, uint64_t ns)
{
	h->counts[bucket_of(ns)]++;
	h->count++;
	if (ns > h->max)
		h->max = ns;
}

void latency_merge(struct latency_hist *into, const struct latency_hist *from)
{
	for (unsigned b = 0; b < LATENCY_BUCKETS; b++)
		into->counts[b] += from->counts[b];
	into->count += from->count;
	if (from->max > into->max)
		into->max = from->max;
}

double latency_quantile(const struct latency_hist *h, double q)
{
	/* the rank of the unit at q, 1-based: never 0, never past count */
	uint64_t rank = (uint64_t)(q * (double)h->count + 0.5), seen = 0;
	double low, width, mid;

	if (!h->count)
		return 0;
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (unsigned b = 0; b < LATENCY_BUCKETS; b++) {
		seen += h->counts[b];
		if (seen < rank)
			continue;
		bucket_range(b, &low, &width);
		mid = width > 1 ? low + width / 2 : low;
		return mid < (double)h->max ? mid : (double)h->max;
	}
	return (double)h->max;
}

struct latency latency_summary(const struct latency_hist *h)
{
	return (struct latency){ .count = h->count,
				 .p50 = latency_quantile(h, 0.50),
				 .p90 = latency_quantile(h, 0.90),
				 .p99 = latency_quantile(h, 0.99),
				 .p999 = latency_quantile(h, 0.999),
				 .max = (double)h->max };
}
