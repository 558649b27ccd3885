/* SPDX-License-Identifier: Apache-2.0 */
/* The bounds of a running helper that the core looks at, every 50 ms. */
#include "proc/watch.h"

#include <hostbench/plugin.h>

void watch_start(struct watch *w, const struct container *ct,
		 const struct container_bounds *b)
{
	*w = (struct watch){ .ct = ct,
			     .free0 = container_temp_free(),
			     .temp_bound = b->temp_space,
			     .shared0 = container_shared(),
			     .shared_bound = ct->memory_grouped ? 0 : b->memory,
			     .next = 0 };
}

/* Whether the helper took more than its bound of temporary space. */
static int temp_space_taken(const struct watch *w)
{
	uint64_t now;

	if (!w->temp_bound || w->free0 == UINT64_MAX)
		return 0;
	now = container_temp_free();
	return now != UINT64_MAX && now < w->free0 &&
	       w->free0 - now > w->temp_bound;
}

/* Whether the helper took more shared memory than its bound; notes it. */
static int shared_taken(struct watch *w)
{
	uint64_t now;

	if (!w->shared_bound || w->shared0 == UINT64_MAX)
		return 0;
	now = container_shared();
	if (now == UINT64_MAX || now <= w->shared0)
		return 0;
	if (now - w->shared0 > w->shared)
		w->shared = now - w->shared0;
	return now - w->shared0 > w->shared_bound;
}

int watch_end(struct watch *w)
{
	return (temp_space_taken(w) ? CONTAINER_HIT_TEMP_SPACE : 0) |
	       (shared_taken(w) ? CONTAINER_HIT_SHARED : 0);
}

int watch_due(struct watch *w)
{
	if (hb_now() < w->next)
		return 0;
	w->next = hb_now() + WATCH_PERIOD;
	return container_hits(w->ct) | watch_end(w);
}
