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

/* Messages in flight at one depth: what was sent and what came back. */
struct flight {
	const struct hb_plugin *p;
	void *state;
	unsigned depth, n;   /* in flight at most, messages in all */
	unsigned sent, back; /* submitted, finished */
	unsigned char *seen; /* per tag (the message's number): came back */
	struct hb_completion *comp;
};

/* Submit until depth are in flight, all n are sent, or the plugin is busy. */
static int flight_submit(struct flight *f, char *detail, size_t len)
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
static int flight_poll(struct flight *f, char *detail, size_t len)
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
		if (c->status || c->done.bytes != ASYNC_SIZE)
			return hb_errorf(detail, len, -1,
					 "depth %u: message %llu came back "
					 "with status %d and %llu bytes",
					 f->depth, (unsigned long long)c->tag,
					 c->status,
					 (unsigned long long)c->done.bytes);
		f->seen[c->tag] = 1;
		f->back++;
	}
	return 0;
}

/* Keep f->depth in flight until all f->n have come back, or a failure. */
static int flight_run(struct flight *f, char *detail, size_t len)
{
	double deadline = hb_now() + ASYNC_DEADLINE;
	int rc = 0;

	while (!rc && f->back < f->n) {
		if (hb_now() > deadline)
			return hb_errorf(detail, len, -1,
					 "depth %u: %u of %u messages never "
					 "came back",
					 f->depth, f->n - f->back, f->n);
		rc = flight_submit(f, detail, len);
		if (!rc)
			rc = flight_poll(f, detail, len);
	}
	return rc;
}

/* One depth: set up, keep messages in flight, tear down. */
static enum conform_async_result
at_depth(const struct hb_plugin *p, struct bench_case *bc,
	 const struct hb_case *hc, unsigned depth, char *detail, size_t len)
{
	struct flight f = { .p = p, .depth = depth, .n = 3 * depth + 1 };
	char why[256] = "";
	int rc;

	bc->queue_depth = depth;
	bc->depth_given = 1;
	f.seen = calloc(f.n, 1);
	f.comp = calloc(depth, sizeof(*f.comp));
	if (!f.seen || !f.comp) {
		rc = hb_errorf(detail, len, -1, "out of memory");
		goto out_free;
	}
	rc = p->setup(hc, &f.state, why, sizeof(why));
	why[sizeof(why) - 1] = '\0';
	if (rc == HB_SKIP) {
		snprintf(detail, len, "depth %u: setup skips: %s", depth, why);
		goto out_free;
	}
	if (rc) {
		rc = hb_errorf(detail, len, -1, "depth %u: setup: %s", depth,
			       why);
		goto out_free;
	}
	rc = flight_run(&f, detail, len);
	p->teardown(f.state);
out_free:
	free(f.seen);
	free(f.comp);
	return rc == HB_SKIP ? CONFORM_ASYNC_SKIPPED
	       : rc	     ? CONFORM_ASYNC_FAILED
			     : CONFORM_ASYNC_OK;
}

/* Set option name to value where the target has it. */
static int set_if_declared(struct bench_case *bc, const char *name,
			   const char *value)
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
	if (set_if_declared(bc, "size", size) ||
	    set_if_declared(bc, "mode", "message") ||
	    set_if_declared(bc, "direction", "decrypt"))
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
