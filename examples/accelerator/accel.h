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

/* One message on the device: its request, its own buffer, its numbers. */
struct slot {
	struct accel_req req;
	uint8_t *buf;	/* encrypted in place; decrypt's output */
	uint64_t tag;	/* the core's */
	uint64_t msgno; /* the message it is (its IV) */
	uint64_t after; /* the message its buffer held before, in place */
	int used;	/* a message went through its buffer */
	int finished;	/* reaped, and not submitted again since */
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
	uint8_t iv[16];	 /* the base IV */
	uint8_t *ct;	 /* decrypt: message 0 as a peer sends it */
	uint64_t msgno;	 /* messages started */
	uint64_t offset; /* stream: bytes into the current message */
	struct slot *slots, *free_slots;
	struct slot *last; /* the slot reaped last */
	int ran;	   /* the last call was run(), not submit */
};

/*
 * The HB_* code for a negative errno from the driver: -ENODEV (no device)
 * skips the case, everything else fails it.
 */
int accel_code(int errnum);

/* Submit r and wait for it: HB_OK, or an HB_E* code with err filled. */
int accel_run_one(struct accel_dev *dev, struct accel_req *r, char *err,
		  size_t errlen);

/* The worker's slots and buffers (filled with its data): HB_OK or
 * HB_ENOMEM. */
int accel_slots_make(struct worker *w);
void accel_slots_free(struct worker *w);

/* The plugin's run, submit, poll and output slots (inflight.c). */
int accel_run(void *state, uint64_t iterations, struct hb_done *done, char *err,
	      size_t errlen);
int accel_submit_message(void *state, uint64_t tag, char *err, size_t errlen);
int accel_poll(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
	       struct hb_completion *out, char *err, size_t errlen);
int accel_output(void *state, uint64_t tag, struct hb_output *out, char *err,
		 size_t errlen);

#endif
