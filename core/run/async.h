/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Asynchronous units (ABI 1.2 submit and poll): one worker keeps up to
 * queue_depth units in flight, timestamps each at submission and at
 * completion (CLOCK_MONOTONIC) and counts its latency, as fio's ioengine
 * loop keeps iodepth requests queued. Completions may come in any order;
 * a full device queue (HB_BUSY) makes the worker poll before it submits
 * again; a sample ends only when every unit it submitted has completed.
 */
#ifndef HB_CORE_RUN_ASYNC_H
#define HB_CORE_RUN_ASYNC_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "result/latency.h"

/* Longest one poll() may wait, in nanoseconds. */
#define ASYNC_POLL_WAIT_NS 10000000ull

/* One worker's units in flight: made once per case, nothing per unit. */
struct async_slots {
	unsigned depth;
	uint64_t *sent;	     /* per tag: submission time, 0 = free */
	uint64_t *free_tags; /* a stack of the free tags */
	unsigned nfree;
	struct hb_completion *comp; /* room for one poll() */
	uint64_t *msg;		    /* per tag: the message it carried last */
	uint64_t submitted;	    /* units accepted, over the case */
	struct latency_hist *hist;  /* latencies of recorded units */
};

/* Room for depth units in flight. Returns 0 or -ENOMEM. */
int async_init(struct async_slots *a, unsigned depth);

void async_free(struct async_slots *a);

/*
 * Do iterations units through p's submit and poll on state, adding what
 * they did to done and, when record, their latencies to a->hist. Returns
 * 0, or the plugin's negative code with err filled (a failed unit, a tag
 * that was not in flight, a completion count out of range).
 */
int async_run(struct async_slots *a, const struct hb_plugin *p, void *state,
	      uint64_t iterations, int record, struct hb_done *done, char *err,
	      size_t errlen);

#endif
