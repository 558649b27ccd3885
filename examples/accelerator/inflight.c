/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Messages in flight on the device (ABI 1.2 submit and poll): each message
 * has a slot with its own buffer, made in setup for the case's
 * queue_depth, so nothing is allocated while the core times. run() goes
 * through the same slots one message at a time, and output() (ABI 1.3)
 * shows `hostbench check` what a message produced.
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
	size_t rounded = (w->size + 63) & ~(size_t)63;

	w->slots = calloc(w->depth, sizeof(*w->slots));
	if (!w->slots)
		return HB_ENOMEM;
	for (unsigned i = 0; i < w->depth; i++) {
		struct slot *sl = &w->slots[i];

		sl->buf = aligned_alloc(64, rounded);
		if (!sl->buf)
			return HB_ENOMEM;
		/* written once, so its pages are really there */
		hb_crypto_fill(sl->buf, rounded,
			       HB_CRYPTO_SEED_DATA(w->worker));
		sl->next_free = w->free_slots;
		w->free_slots = sl;
	}
	return HB_OK;
}

void accel_slots_free(struct worker *w)
{
	for (unsigned i = 0; w->slots && i < w->depth; i++)
		free(w->slots[i].buf);
	free(w->slots);
	w->slots = NULL;
}

/*
 * The next message into sl. Encrypt: message n's IV, in place on the
 * slot's buffer (as `openssl speed` encrypts its buffer again and again).
 * Decrypt: message 0 as received, into the slot's buffer. Stream: the
 * next buffer of one endless message, restarted every
 * HB_CRYPTO_STREAM_MESSAGE bytes.
 */
static void fill_request(struct worker *w, struct slot *sl)
{
	uint64_t n = w->encrypt ? w->msgno : 0;

	if (w->stream) {
		if (HB_CRYPTO_STREAM_MESSAGE - w->offset < w->size) {
			w->msgno++;
			w->offset = 0;
		}
		n = w->msgno;
	}
	sl->after = sl->used ? sl->msgno : HB_OUTPUT_FRESH;
	sl->used = 1;
	sl->finished = 0;
	sl->msgno = n;
	sl->req = (struct accel_req){ .key = w->key,
				      .offset = w->stream ? w->offset : 0,
				      .in = w->encrypt ? sl->buf : w->ct,
				      .out = sl->buf,
				      .len = w->size,
				      .user = sl };
	hb_crypto_message_iv(w->iv, sizeof(w->iv), n, sl->req.counter);
}

/* Start the next message, tagged tag. */
static int submit_message(struct worker *w, uint64_t tag, char *err,
			  size_t errlen)
{
	struct slot *sl = w->free_slots;
	int rc;

	if (!sl)
		return HB_BUSY; /* every slot in flight: poll first */
	fill_request(w, sl);
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
	struct worker *w = state;

	w->ran = 0;
	return submit_message(w, tag, err, errlen);
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

			sl->finished = 1;
			sl->next_free = w->free_slots;
			w->free_slots = sl;
			w->last = sl;
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
		rc = submit_message(w, 0, err, errlen);
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
		}
	}
	w->ran = 1;
	return rc;
}

int accel_output(void *state, uint64_t tag, struct hb_output *out, char *err,
		 size_t errlen)
{
	struct worker *w = state;
	const struct slot *sl = w->ran ? w->last : NULL;

	if (w->stream || !w->encrypt)
		return hb_errorf(err, errlen, HB_ENOTSUP,
				 "only whole messages encrypted show their "
				 "output");
	for (unsigned i = 0; !w->ran && !sl && i < w->depth; i++)
		if (w->slots[i].finished && w->slots[i].tag == tag)
			sl = &w->slots[i];
	if (!sl)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "no finished message tagged %llu",
				 (unsigned long long)tag);
	*out = (struct hb_output){ .message = sl->msgno,
				   .after = sl->after,
				   .data = sl->buf,
				   .len = w->size };
	return HB_OK;
}
