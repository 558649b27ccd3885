/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Messages in flight on the device (ABI 1.2 submit and poll): each message
 * has a slot, made in setup for the case's queue_depth, so nothing is
 * allocated while the core times. A message reads the core's input and
 * writes the core's buffer of its unit (ABI 1.4: out[tag] through submit,
 * out[k % n] for run()'s k-th), which the core reads itself once the
 * message is handed back. run() goes through the same slots one message
 * at a time.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/crypto.h>

#include "accel.h"

/* Longest run_one waits for the device, in nanoseconds. */
#define ONE_WAIT_NS 10000000000ull

int accel_run_one(struct accel_dev *dev, struct accel_req *r, char *err,
		  size_t errlen)
{
	struct accel_req *got = NULL;
	int rc = accel_submit(dev, r, err, errlen);

	if (rc)
		return accel_code(rc);
	if (accel_reap(dev, 1, 1, ONE_WAIT_NS, &got) != 1 || got != r)
		return hb_errorf(err, errlen, HB_EIO,
				 "%s: the request never came back",
				 accel_dev_name(dev));
	if (r->status)
		return hb_errorf(err, errlen, accel_code(r->status),
				 "%s: the request failed (%s)",
				 accel_dev_name(dev), strerror(-r->status));
	return HB_OK;
}

int accel_slots_make(struct worker *w)
{
	w->slots = calloc(w->depth, sizeof(*w->slots));
	if (!w->slots)
		return HB_ENOMEM;
	for (unsigned i = 0; i < w->depth; i++) {
		w->slots[i].next_free = w->free_slots;
		w->free_slots = &w->slots[i];
	}
	return HB_OK;
}

void accel_slots_free(struct worker *w)
{
	free(w->slots);
	w->slots = NULL;
}

/*
 * The next message into sl, writing the core's unit i. Encrypt: message
 * n's IV over the core's input. Decrypt: message 0 as received. Stream:
 * the next buffer of one endless message, restarted every
 * HB_CRYPTO_STREAM_MESSAGE bytes.
 */
static void fill_request(struct worker *w, struct slot *sl, uint64_t i)
{
	uint64_t n = w->encrypt ? w->msgno : 0;

	if (w->stream) {
		if (HB_CRYPTO_STREAM_MESSAGE - w->offset < w->size) {
			w->msgno++;
			w->offset = 0;
		}
		n = w->msgno;
	}
	sl->msgno = n;
	sl->req = (struct accel_req){ .key = w->key,
				      .offset = w->stream ? w->offset : 0,
				      .in = w->encrypt ? w->io->in : w->ct,
				      .out = w->io->out[i % w->io->n],
				      .len = w->size,
				      .user = sl };
	hb_crypto_message_iv(w->iv, sizeof(w->iv), n, sl->req.counter);
}

/* Start the next message, tagged tag, into the core's unit i. */
static int submit_message(struct worker *w, uint64_t tag, uint64_t i, char *err,
			  size_t errlen)
{
	struct slot *sl = w->free_slots;
	int rc;

	if (!sl)
		return HB_BUSY; /* every slot in flight: poll first */
	fill_request(w, sl, i);
	sl->tag = tag;
	rc = accel_submit(w->dev, &sl->req, err, errlen);
	if (rc == -EBUSY)
		return HB_BUSY;
	if (rc)
		return accel_code(rc);
	w->free_slots = sl->next_free;
	if (w->stream)
		w->offset += w->size;
	else if (w->encrypt)
		w->msgno++;
	return HB_OK;
}

int accel_submit_message(void *state, uint64_t tag, char *err, size_t errlen)
{
	return submit_message(state, tag, tag, err, errlen);
}

int accel_poll(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
	       struct hb_completion *out, char *err, size_t errlen)
{
	struct worker *w = state;
	struct accel_req *done[64];
	unsigned got = 0;

	while (got < max) {
		unsigned want = max - got < 64 ? max - got : 64;
		unsigned n = accel_reap(w->dev, got < min ? min - got : 0, want,
					timeout_ns, done);

		for (unsigned i = 0; i < n; i++) {
			struct slot *sl = done[i]->user;

			sl->next_free = w->free_slots;
			w->free_slots = sl;
			out[got++] = (struct hb_completion){
				.tag = sl->tag,
				.status = done[i]->status
						  ? accel_code(done[i]->status)
						  : 0,
				.done = { .bytes = w->size, .ops = 1 },
				.device_ns = done[i]->device_ns,
			};
			if (done[i]->status)
				hb_error_fill(err, errlen,
					      "%s: message %llu failed",
					      accel_dev_name(w->dev),
					      (unsigned long long)sl->msgno);
		}
		if (n < want)
			break; /* the device has no more finished (in time) */
	}
	return (int)got;
}

int accel_run(void *state, uint64_t iterations, struct hb_done *done, char *err,
	      size_t errlen)
{
	struct worker *w = state;
	struct hb_completion c;
	int rc = HB_OK;

	for (uint64_t i = 0; i < iterations && !rc; i++) {
		rc = submit_message(w, 0, w->units, err, errlen);
		if (!rc &&
		    accel_poll(w, 1, 1, ONE_WAIT_NS, &c, err, errlen) != 1)
			rc = hb_errorf(err, errlen, HB_EIO,
				       "%s: a message never came back",
				       accel_dev_name(w->dev));
		if (!rc)
			rc = c.status;
		if (!rc) {
			done->bytes += w->size;
			done->ops++;
			w->units++;
		}
	}
	return rc;
}
