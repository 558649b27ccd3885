/* SPDX-License-Identifier: Apache-2.0 */
/* The async row of `hostbench check`: messages in flight at depth 1, 16. */
#include "conform/conform_async.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/check.h"
#include "plugin/registry.h"
#include "run/buffers.h"

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

	while (f->sent < f->n && f->nfree) {
		unsigned tag = f->free_tags[f->nfree - 1];
		int rc;

		if (f->before && f->before(f->arg, tag, detail, len))
			return -1;
		rc = f->p->submit(f->state, tag, why, sizeof(why));
		why[sizeof(why) - 1] = '\0'; /* the plugin may not have */
		if (rc == HB_BUSY)
			return 0; /* back-pressure: poll first */
		if (rc)
			return hb_errorf(detail, len, -1,
					 "depth %u: submit of message %u: %s",
					 f->depth, f->sent, why);
		f->msg[tag] = f->sent++;
		f->nfree--;
	}
	return 0;
}

/* The tags in flight, "3, 7, 12" (up to 8 of them), into out. */
static void tags_in_flight(const struct conform_flight *f, char *out,
			   size_t len)
{
	size_t at = 0;
	unsigned shown = 0;

	out[0] = '\0';
	for (unsigned t = 0; t < f->depth && shown < 8 && at < len; t++)
		if (f->msg[t] != UINT64_MAX)
			at += (size_t)snprintf(out + at, len - at, "%s%u",
					       shown++ ? ", " : "", t);
	if (!shown)
		snprintf(out, len, "none");
}

/* One completion: its tag must be in flight; its status 0, its bytes. */
static int flight_take(struct conform_flight *f, const struct hb_completion *c,
		       char *detail, size_t len)
{
	char inflight[96];
	uint64_t msg;

	if (c->tag >= f->depth || f->msg[c->tag] == UINT64_MAX) {
		tags_in_flight(f, inflight, sizeof(inflight));
		return hb_errorf(detail, len, -1,
				 "depth %u: poll handed back tag %llu, which "
				 "is not in flight (the tags in flight: %s)",
				 f->depth, (unsigned long long)c->tag,
				 inflight);
	}
	msg = f->msg[c->tag];
	if (c->status || c->done.bytes != f->bytes)
		return hb_errorf(detail, len, -1,
				 "depth %u: message %llu (tag %llu) came back "
				 "with status %d and %llu bytes",
				 f->depth, (unsigned long long)msg,
				 (unsigned long long)c->tag, c->status,
				 (unsigned long long)c->done.bytes);
	f->msg[c->tag] = UINT64_MAX;
	f->free_tags[f->nfree++] = (unsigned)c->tag;
	f->back++;
	return f->done ? f->done(f->arg, c, msg, detail, len) : 0;
}

/* Take what one poll returns. */
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
	for (int i = 0; i < got; i++)
		if (flight_take(f, &f->comp[i], detail, len))
			return -1;
	return 0;
}

/* The flight's room: a tag per unit in flight, all free. */
static int flight_init(struct conform_flight *f)
{
	f->sent = f->back = 0;
	f->nfree = f->depth;
	f->msg = calloc(f->depth, sizeof(*f->msg));
	f->free_tags = calloc(f->depth, sizeof(*f->free_tags));
	f->comp = calloc(f->depth, sizeof(*f->comp));
	if (!f->msg || !f->free_tags || !f->comp)
		return -1;
	for (unsigned i = 0; i < f->depth; i++) {
		f->msg[i] = UINT64_MAX;
		f->free_tags[i] = f->depth - 1 - i;
	}
	return 0;
}

int conform_flight(struct conform_flight *f, char *detail, size_t len)
{
	double deadline = hb_now() + ASYNC_DEADLINE;
	int rc = flight_init(f) ? hb_errorf(detail, len, -1, "out of memory")
				: 0;

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
	/* every unit back: its buffers must still hold what it wrote */
	for (unsigned t = 0; !rc && f->before && t < f->depth; t++)
		rc = f->before(f->arg, t, detail, len);
	free(f->msg);
	free(f->free_tags);
	free(f->comp);
	f->msg = NULL;
	f->free_tags = NULL;
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
	struct hb_case with = *hc;
	struct buffers b = { 0 };
	char why[256] = "";
	int rc;

	bc->queue_depth = depth;
	bc->depth_given = 1;
	if (buffers_wanted(p, bc->tdesc)) {
		if (buffers_make(&b, ASYNC_SIZE, depth, 0))
			return CONFORM_ASYNC_FAILED;
		with.buffers = &b.hb;
	}
	rc = p->setup(&with, &f.state, why, sizeof(why));
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
	buffers_free(&b);
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
