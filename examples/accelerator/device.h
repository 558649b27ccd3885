/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The accelerator's driver API, as a vendor library would offer it: open a
 * device, load a key into a session, stream data through AES-256-CTR.
 *
 * This example's "device" is software (device_soft.c, a portable AES in
 * C): there is no hardware behind it. A real plugin replaces device_soft.c
 * with calls into the vendor's driver library and keeps the rest.
 *
 * Every function that can fail returns 0 or a negative errno value and
 * writes a one-line reason into the caller's err buffer.
 */
#ifndef ACCEL_DEVICE_H
#define ACCEL_DEVICE_H

#include <stddef.h>
#include <stdint.h>

/* An open device. */
struct accel_dev;

/* A key loaded into a device, with the position in one CTR stream. */
struct accel_session;

/* The driver's version, e.g. "1.0.0 (software AES-CTR, no hardware)". */
const char *accel_driver_version(void);

/*
 * Open device number index. -ENODEV when there is no such device (the
 * software driver has EXAMPLE_ACCEL_DEVICES devices, 1 when unset, so
 * EXAMPLE_ACCEL_DEVICES=0 shows how a plugin behaves without hardware).
 */
int accel_dev_open(unsigned index, struct accel_dev **dev, char *err,
		   size_t errlen);

/* The device's name, for notes: "soft-aes0". */
const char *accel_dev_name(const struct accel_dev *dev);

/* Close a device; its sessions must be closed first. */
void accel_dev_close(struct accel_dev *dev);

/* Load a 32-byte AES-256 key into a new session on dev. */
int accel_session_open(struct accel_dev *dev, const uint8_t key[32],
		       struct accel_session **s, char *err, size_t errlen);

/* Start a new CTR stream at the 16-byte initial counter block iv. */
void accel_session_start(struct accel_session *s, const uint8_t iv[16]);

/*
 * Encrypt (or, the same in CTR, decrypt) len bytes from in to out, going
 * on where the previous call of this stream stopped, mid-block included.
 * in == out works in place. The whole 128-bit counter is incremented, as
 * NIST SP 800-38A and OpenSSL do.
 */
int accel_session_crypt(struct accel_session *s, const uint8_t *in,
			uint8_t *out, size_t len, char *err, size_t errlen);

void accel_session_close(struct accel_session *s);

#endif
