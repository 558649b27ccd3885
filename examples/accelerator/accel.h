/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the plugin's own files share: one worker's state, and the plugin
 * slots of inflight.c (messages in flight on the device).
 */
#ifndef ACCEL_ACCEL_H
#define ACCEL_ACCEL_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "device.h"

/*
 * One message on the device: its request and its numbers. What it reads
 * and writes are the core's buffers (ABI 1.4, struct hb_buffers): the
 * worker's input, and the output of its unit, which the core reads and
 * verifies once poll has handed the message back.
 */
struct slot {
	struct accel_req req;
	uint64_t tag;	/* the core's */
	uint64_t msgno; /* the message it is (its IV) */
	struct slot *next_free;
};

/* One worker: its own device, key and message slots. */
struct worker {
	struct accel_dev *dev;
	struct accel_key *key;
	size_t size;
	int encrypt;	/* 0: decrypt a received ciphertext */
	int stream;	/* 0: every buffer is a message with a fresh IV */
	unsigned depth; /* the case's queue_depth: one slot each */
	unsigned worker;
	const struct hb_buffers *io; /* the core's: in, out[i], tag[i] */
	uint8_t iv[16];		     /* the base IV */
	uint8_t *ct;		     /* decrypt: message 0 as a peer sends it */
	uint64_t msgno;		     /* messages started */
	uint64_t units;		     /* run(): units done (out[units % n]) */
	uint64_t offset; /* stream: bytes into the current message */
	struct slot *slots, *free_slots;
};

/*
 * The HB_* code for a negative errno from the driver: -ENODEV (no device)
 * skips the case, everything else fails it.
 */
int accel_code(int errnum);

/* Submit r and wait for it: HB_OK, or an HB_E* code with err filled. */
int accel_run_one(struct accel_dev *dev, struct accel_req *r, char *err,
		  size_t errlen);

/* The worker's message slots: HB_OK or HB_ENOMEM. */
int accel_slots_make(struct worker *w);
void accel_slots_free(struct worker *w);

/* The plugin's run, submit and poll slots (inflight.c). */
int accel_run(void *state, uint64_t iterations, struct hb_done *done, char *err,
	      size_t errlen);
int accel_submit_message(void *state, uint64_t tag, char *err, size_t errlen);
int accel_poll(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
	       struct hb_completion *out, char *err, size_t errlen);

#endif
