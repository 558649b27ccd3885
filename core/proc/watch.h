/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The bounds of a helper the core watches while it runs, besides those
 * the kernel enforces alone. Its container's pids and memory groups count
 * the times a bound was met (container_hits()): the first ends the case
 * at once rather than at its timeout. Two sums no limit bounds are
 * watched as the host's: no file system bounds the sum of a process's
 * files (without quotas), so the free space where temporary files go
 * must not fall by more than temp_space; and RLIMIT_DATA, the memory
 * bound where no group can be made, does not count shared memory (memfd
 * and tmpfs files, shared mappings), so the host's shared memory must not
 * grow by more than the memory bound. Either is looked at every
 * WATCH_PERIOD seconds and once more when the helper ended (a fast one
 * may end first). Whatever else on the host takes either meanwhile
 * counts too (docs/reliability.md).
 */
#ifndef HB_CORE_PROC_WATCH_H
#define HB_CORE_PROC_WATCH_H

#include <stdint.h>

#include "proc/container.h"

/* Seconds between two looks at a running helper's bounds. */
#define WATCH_PERIOD 0.05

/* One helper's watched bounds; fill with watch_start(). */
struct watch {
	const struct container *ct; /* the helper's groups */
	uint64_t free0;		    /* container_temp_free() at the start */
	uint64_t temp_bound;	    /* temp_space, 0: not watched */
	uint64_t shared0;	    /* container_shared() at the start */
	uint64_t shared_bound;	    /* memory where no group bounds it, 0:
				     * not watched */
	uint64_t shared;	    /* the most shared memory seen taken */
	double next;		    /* when to look again */
};

/*
 * Start watching the helper in ct, bounded by b (container_open() done):
 * now is the start of its temporary space and shared memory.
 */
void watch_start(struct watch *w, const struct container *ct,
		 const struct container_bounds *b);

/*
 * The container_hit bits of the bounds the helper met so far, looked at
 * when WATCH_PERIOD has passed since the last look (else 0).
 */
int watch_due(struct watch *w);

/*
 * The container_hit bits of the watched sums alone, looked at now: the
 * last look, once the helper ended.
 */
int watch_end(struct watch *w);

#endif
