/* SPDX-License-Identifier: Apache-2.0 */
/* Keep a worker's units in flight through submit and poll, and time them. */
#include "run/async.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* CLOCK_MONOTONIC in nanoseconds, never 0 (0 marks a free tag). */
static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec + 1;
}

int async_init(struct async_slots *a, unsigned depth)
{
	memset(a, 0, sizeof(*a));
	a->depth = depth;
	a->sent = calloc(depth, sizeof(*a->sent));
	a->free_tags = calloc(depth, sizeof(*a->free_tags));
	a->comp = calloc(depth, sizeof(*a->comp));
	a->msg = calloc(depth, sizeof(*a->msg));
	a->hist = calloc(1, sizeof(*a->hist));
	if (!a->sent || !a->free_tags || !a->comp || !a->msg || !a->hist) {
		async_free(a);
		return -ENOMEM;
	}
	for (unsigned i = 0; i < depth; i++) {
		a->free_tags[i] = depth - 1 - i;
		a->msg[i] = UINT64_MAX; /* no message yet */
	}
	a->nfree = depth;
	return 0;
}

void async_free(struct async_slots *a)
{
	free(a->sent);
	free(a->free_tags);
	free(a->comp);
	free(a->msg);
	free(a->hist);
	memset(a, 0, sizeof(*a));
}

/* Submit until the queue is full, the device says busy, or *left is 0. */
static int submit_some(struct async_slots *a, const struct hb_plugin *p,
		       void *state, uint64_t *left, char *err, size_t errlen)
{
	while (a->nfree && *left) {
		uint64_t tag = a->free_tags[a->nfree - 1];
		int rc;

		a->sent[tag] = now_ns();
		rc = p->submit(state, tag, err, errlen);
		if (rc == HB_BUSY) {
			a->sent[tag] = 0;
			return 0; /* back-pressure: poll first */
		}
		if (rc) {
			a->sent[tag] = 0;
			return rc < 0 ? rc : HB_EFAIL;
		}
		a->msg[tag] = a->submitted++; /* its message number */
		a->nfree--;
		(*left)--;
	}
	return 0;
}

/* Take n completions from a->comp; their tags become free again. */
static int complete(struct async_slots *a, int n, int record,
		    struct hb_done *done, char *err, size_t errlen)
{
	uint64_t at = now_ns();

	for (int i = 0; i < n; i++) {
		const struct hb_completion *c = &a->comp[i];

		if (c->tag >= a->depth || !a->sent[c->tag])
			return hb_errorf(err, errlen, HB_EFAIL,
					 "poll returned tag %llu, which was "
					 "not in flight",
					 (unsigned long long)c->tag);
		if (c->status < 0)
			return hb_errorf(err, errlen, c->status,
					 "a unit failed (status %d)",
					 c->status);
		if (record)
			latency_add(a->hist, at - a->sent[c->tag]);
		a->sent[c->tag] = 0;
		a->free_tags[a->nfree++] = c->tag;
		done->bytes += c->done.bytes;
		done->ops += c->done.ops;
	}
	return 0;
}

int async_run(struct async_slots *a, const struct hb_plugin *p, void *state,
	      uint64_t iterations, int record, struct hb_done *done, char *err,
	      size_t errlen)
{
	uint64_t left = iterations;
	int rc = 0;

	while (!rc && (left || a->nfree < a->depth)) {
		unsigned inflight;
		int n;

		rc = submit_some(a, p, state, &left, err, errlen);
		inflight = a->depth - a->nfree;
		if (rc || !inflight)
			continue; /* busy with none of ours: submit again */
		n = p->poll(state, 1, inflight, ASYNC_POLL_WAIT_NS, a->comp,
			    err, errlen);
		if (n < 0)
			rc = n;
		else if ((unsigned)n > inflight)
			rc = hb_errorf(err, errlen, HB_EFAIL,
				       "poll reported %d completions with %u "
				       "units in flight",
				       n, inflight);
		else
			rc = complete(a, n, record, done, err, errlen);
	}
	return rc;
}
