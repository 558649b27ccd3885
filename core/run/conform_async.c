/* SPDX-License-Identifier: Apache-2.0 */
/* The async row of `hostbench check`: messages in flight at depth 1, 16. */
#include "run/conform_async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/check.h"
#include "plugin/registry.h"

/* Bytes of every message, a multiple of every block. */
#define ASYNC_SIZE 4096
/* Longest the messages of one depth may take to come back, in seconds. */
#define ASYNC_DEADLINE 30.0
/* Longest one poll may wait, in nanoseconds (as the core's workers). */
#define ASYNC_POLL_NS 10000000ull

/* Submit until depth are in flight, all n are sent, or the plugin is busy. */
static int flight_submit(struct conform_flight *f, char *detail, size_t len)
{
	char why[256] = "";

	while (f->sent < f->n && f->sent - f->back < f->depth) {
		int rc = f->p->submit(f->state, f->sent, why, sizeof(why));

		why[sizeof(why) - 1] = '\0'; /* the plugin may not have */
		if (rc == HB_BUSY)
			return 0; /* back-pressure: poll first */
		if (rc)
			return hb_errorf(detail, len, -1,
					 "depth %u: submit of message %u: %s",
					 f->depth, f->sent, why);
		f->sent++;
	}
	return 0;
}

/* Take what one poll returns; each tag must be in flight, once. */
static int flight_poll(struct conform_flight *f, char *detail, size_t len)
{
	unsigned inflight = f->sent - f->back;
	char why[256] = "";
	int got;

	got = f->p->poll(f->state, inflight ? 1 : 0, inflight, ASYNC_POLL_NS,
			 f->comp, why, sizeof(why));
	why[sizeof(why) - 1] = '\0';
	if (got < 0)
		return hb_errorf(detail, len, -1, "depth %u: %s", f->depth,
				 why);
	if ((unsigned)got > inflight)
		return hb_errorf(detail, len, -1,
				 "depth %u: poll returned %d messages with %u "
				 "in flight",
				 f->depth, got, inflight);
	for (int i = 0; i < got; i++) {
		const struct hb_completion *c = &f->comp[i];

		if (c->tag >= f->sent || f->seen[c->tag])
			return hb_errorf(detail, len, -1,
					 "depth %u: message %llu came back "
					 "%s",
					 f->depth, (unsigned long long)c->tag,
					 c->tag >= f->sent
						 ? "without being sent"
						 : "twice");
		if (c->status || c->done.bytes != f->bytes)
			return hb_errorf(detail, len, -1,
					 "depth %u: message %llu came back "
					 "with status %d and %llu bytes",
					 f->depth, (unsigned long long)c->tag,
					 c->status,
					 (unsigned long long)c->done.bytes);
		f->seen[c->tag] = 1;
		f->back++;
		if (f->done && f->done(f->arg, c, detail, len))
			return -1;
	}
	return 0;
}

int conform_flight(struct conform_flight *f, char *detail, size_t len)
{
	double deadline = hb_now() + ASYNC_DEADLINE;
	int rc = 0;

	f->sent = f->back = 0;
	f->seen = calloc(f->n, 1);
	f->comp = calloc(f->depth, sizeof(*f->comp));
	if (!f->seen || !f->comp)
		rc = hb_errorf(detail, len, -1, "out of memory");
	while (!rc && f->back < f->n) {
		if (hb_now() > deadline)
			rc = hb_errorf(detail, len, -1,
				       "depth %u: %u of %u messages never "
				       "came back",
				       f->depth, f->n - f->back, f->n);
		if (!rc)
			rc = flight_submit(f, detail, len);
		if (!rc)
			rc = flight_poll(f, detail, len);
	}
	free(f->seen);
	free(f->comp);
	f->seen = NULL;
	f->comp = NULL;
	return rc;
}

/* One depth: set up, keep messages in flight, tear down. */
static enum conform_async_result
at_depth(const struct hb_plugin *p, struct bench_case *bc,
	 const struct hb_case *hc, unsigned depth, char *detail, size_t len)
{
	struct conform_flight f = {
		.p = p, .depth = depth, .n = 3 * depth + 1, .bytes = ASYNC_SIZE
	};
	char why[256] = "";
	int rc;

	bc->queue_depth = depth;
	bc->depth_given = 1;
	rc = p->setup(hc, &f.state, why, sizeof(why));
	why[sizeof(why) - 1] = '\0';
	if (rc == HB_SKIP)
		snprintf(detail, len, "depth %u: setup skips: %s", depth, why);
	else if (rc)
		rc = hb_errorf(detail, len, -1, "depth %u: setup: %s", depth,
			       why);
	if (rc)
		goto out;
	rc = conform_flight(&f, detail, len);
	p->teardown(f.state);
out:
	return rc == HB_SKIP ? CONFORM_ASYNC_SKIPPED
	       : rc	     ? CONFORM_ASYNC_FAILED
			     : CONFORM_ASYNC_OK;
}

int conform_param(struct bench_case *bc, const char *name, const char *value)
{
	if (!plugin_option_find(bc->tdesc, name))
		return 0;
	return kvlist_set(&bc->params, name, value);
}

enum conform_async_result conform_async(const struct hb_plugin *p,
					struct bench_case *bc,
					const struct hb_case *hc, char *detail,
					size_t len)
{
	static const unsigned depths[] = { 1, 16 };
	enum conform_async_result r = CONFORM_ASYNC_OK;
	char size[32];

	if (!(bc->tdesc->flags & HB_TARGET_ASYNC) || check_has_async(p) <= 0) {
		snprintf(detail, len,
			 "%s has no asynchronous submit and poll for this "
			 "target",
			 p->name);
		return CONFORM_ASYNC_SKIPPED;
	}
	snprintf(size, sizeof(size), "%d", ASYNC_SIZE);
	if (conform_param(bc, "size", size) ||
	    conform_param(bc, "mode", "message") ||
	    conform_param(bc, "direction", "decrypt"))
		return hb_errorf(detail, len, CONFORM_ASYNC_FAILED,
				 "out of memory");
	for (size_t i = 0; i < 2 && r == CONFORM_ASYNC_OK; i++)
		r = at_depth(p, bc, hc, depths[i], detail, len);
	if (r == CONFORM_ASYNC_OK)
		snprintf(detail, len,
			 "depth 1 and 16: %u and %u messages of %d bytes%s, "
			 "each back once",
			 3 * depths[0] + 1, 3 * depths[1] + 1, ASYNC_SIZE,
			 plugin_option_find(bc->tdesc, "direction")
				 ? " decrypted and verified"
				 : "");
	return r;
}
