/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The "async" check of `hostbench check`: a target through its plugin's
 * submit and poll (ABI 1.2) as the core's workers drive them, at queue
 * depth 1 and 16, so a backend whose messages in flight disturb one
 * another fails where one message at a time passes.
 */
#ifndef HB_CORE_CONFORM_CONFORM_ASYNC_H
#define HB_CORE_CONFORM_CONFORM_ASYNC_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "suite/suite.h"

/* Result of conform_async. */
enum conform_async_result {
	CONFORM_ASYNC_OK,
	CONFORM_ASYNC_FAILED,
	CONFORM_ASYNC_SKIPPED, /* no asynchronous path, or setup skips */
};

/*
 * Messages in flight on one worker state, as the core's workers keep
 * them: up to depth submitted, each with a tag below depth (a free one,
 * so a tag is a unit of the core's buffers, struct hb_buffers), polled
 * (at most 10 ms a wait) until all n have come back, each tag in flight
 * exactly once with status 0 and bytes done, within 30 s. Messages are
 * numbered 0 .. n-1 in submission order.
 */
struct conform_flight {
	const struct hb_plugin *p;
	void *state;
	unsigned depth, n; /* in flight at most, messages in all */
	uint64_t bytes;	   /* each message's, as its completion says */
	/* Before tag is submitted again (and for every tag at the end,
	 * with msg UINT64_MAX): nonzero (detail filled) fails the flight.
	 * NULL: none. */
	int (*before)(void *arg, uint64_t tag, char *detail, size_t len);
	/* Each completion (message msg) in the order poll returns them,
	 * before the next submit; nonzero (detail filled) fails the
	 * flight. NULL: none. */
	int (*done)(void *arg, const struct hb_completion *c, uint64_t msg,
		    char *detail, size_t len);
	void *arg;
	/* the flight's own */
	unsigned sent, back, nfree;
	uint64_t *msg; /* per tag: the message in flight, or UINT64_MAX */
	unsigned *free_tags;
	struct hb_completion *comp;
};

/* Run flight f: 0, or -1 with what failed (and at which depth) in detail. */
int conform_flight(struct conform_flight *f, char *detail, size_t len);

/* Set option name of bc to value where its target declares it: 0 or
 * -ENOMEM. */
int conform_param(struct bench_case *bc, const char *name, const char *value);

/*
 * Check bc's target (bc->tdesc, its option defaults in bc->params) of
 * plugin p through hc, which points at bc (with the core's buffers when
 * buffers_wanted(bc)): for queue_depth 1 and 16 in
 * turn, set up a worker with size 4096, mode message and direction
 * decrypt where the target has them (so the plugin checks every message's
 * tag and MAC against those its setup made), keep that many messages in
 * flight until 3 x depth + 1 have finished, each with its own tag, and
 * tear down. Every tag must come back exactly once, with status 0 and the
 * message's bytes. detail says what passed, or what failed and at which
 * depth, or why the row is skipped. bc->params and bc->queue_depth are
 * changed.
 */
enum conform_async_result conform_async(const struct hb_plugin *p,
					struct bench_case *bc,
					const struct hb_case *hc, char *detail,
					size_t len);

#endif
