/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The accelerator's driver API, as a vendor library would offer it: open a
 * device with a request queue, load a key, submit AES-256-CTR requests and
 * reap them when the device has finished them, each with the time the
 * device spent on it.
 *
 * This example's "device" is software (device_soft.c): a thread that takes
 * requests from a queue and runs a portable AES in C (aes256.c). There is
 * no hardware behind it. A real plugin replaces device_soft.c with calls
 * into the vendor's driver library and keeps the rest.
 *
 * Every function that can fail returns 0 or a negative errno value and
 * writes a one-line reason into the caller's err buffer.
 */
#ifndef ACCEL_DEVICE_H
#define ACCEL_DEVICE_H

#include <stddef.h>
#include <stdint.h>

/* An open device and its request queue. */
struct accel_dev;

/* A key loaded into a device. */
struct accel_key;

/*
 * One request, the caller's from accel_submit() until accel_reap() hands
 * it back: AES-256-CTR of len bytes from in to out (in == out works in
 * place), from the message's initial counter block, starting offset bytes
 * into the message (a stream's next buffer; mid-block is fine). The whole
 * 128-bit counter is incremented, as NIST SP 800-38A and OpenSSL do.
 */
struct accel_req {
	const struct accel_key *key;
	uint8_t counter[16];
	uint64_t offset;
	const uint8_t *in;
	uint8_t *out;
	size_t len;
	void *user; /* the caller's */
	/* when reaped */
	int status;	    /* 0, or a negative errno */
	uint64_t device_ns; /* time the device spent on it */
	/* the driver's */
	struct accel_req *next;
};

/* The driver's version, e.g. "2.0.0 (software AES-CTR, no hardware)". */
const char *accel_driver_version(void);

/*
 * Open device number index with a queue of queue_len requests (submitted
 * and not yet reaped). -ENODEV when there is no such device (the software
 * driver has EXAMPLE_ACCEL_DEVICES devices, 1 when unset, so
 * EXAMPLE_ACCEL_DEVICES=0 shows how a plugin behaves without hardware).
 */
int accel_dev_open(unsigned index, unsigned queue_len, struct accel_dev **dev,
		   char *err, size_t errlen);

/* The device's name, for notes: "soft-aes0". */
const char *accel_dev_name(const struct accel_dev *dev);

/* Close a device: requests still queued are finished and dropped. */
void accel_dev_close(struct accel_dev *dev);

/* Load a 32-byte AES-256 key into the device. */
int accel_key_load(struct accel_dev *dev, const uint8_t key[32],
		   struct accel_key **k, char *err, size_t errlen);
void accel_key_free(struct accel_key *k);

/* Queue r; -EBUSY when the queue is full (reap, then submit again). */
int accel_submit(struct accel_dev *dev, struct accel_req *r, char *err,
		 size_t errlen);

/*
 * Up to max finished requests into done[], in the order the device
 * finished them, waiting at most timeout_ns until at least min have
 * finished (sleeping, never spinning). Returns how many.
 */
unsigned accel_reap(struct accel_dev *dev, unsigned min, unsigned max,
		    uint64_t timeout_ns, struct accel_req **done);

#endif
