/* SPDX-License-Identifier: Apache-2.0 */
/*
 * example_accel.so: backend "example-accel", offering crypto/aes-256-ctr
 * on an accelerator through its driver API (device.h). The target, its
 * options and its known answer are those of the built-in openssl and
 * gcrypt backends, so one suite job measures all three side by side:
 *
 *   [AES256/CTR]
 *   target = crypto/aes-256-ctr
 *   backend = example-accel, openssl, gcrypt
 *
 * This file is what a vendor keeps; device_soft.c is what they replace.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/plugin.h>

#include "accel.h"
#include "device.h"
#include "kat.h"

/* One worker: its own device handle and session, its own buffers. */
struct worker {
	struct accel_dev *dev;
	struct accel_session *session;
	size_t size;
	int encrypt;	/* 0: decrypt a received ciphertext */
	int stream;	/* 0: every buffer is a message with a fresh IV */
	uint8_t *buf;	/* output; encrypt works in place */
	uint8_t *src;	/* input: buf, or the ciphertext for decrypt */
	uint8_t *ct;	/* decrypt: a valid ciphertext, else NULL */
	uint64_t msgno; /* messages started */
	uint8_t iv[16]; /* the base IV */
};

/*
 * The options of the built-in backends' crypto/aes-256-ctr, word for word:
 * a suite's keys must mean the same to every backend of a job. A
 * device-only option would make a job that sets it refuse the others.
 */
static const struct hb_option ctr_options[] = {
	{
		.name = "size",
		.type = HB_OPT_SIZE,
		.def = "1M",
		.help = "bytes in one buffer; in message mode one whole "
			"message",
		.min = 1,
		.max = INT64_C(1) << 30,
	},
	{
		.name = "mode",
		.type = HB_OPT_ENUM,
		.def = "message",
		.help = "message: each buffer is a whole message with a fresh "
			"IV and its tag; stream: one endless message (openssl "
			"speed)",
		.choices = (const char *const[]){ "message", "stream", NULL },
	},
	{
		.name = "direction",
		.type = HB_OPT_ENUM,
		.def = "encrypt",
		.help = "encrypt, or decrypt (checks the tag or MAC of every "
			"message)",
		.choices = (const char *const[]){ "encrypt", "decrypt", NULL },
	},
	{ .name = NULL },
};

static const struct hb_target targets[] = {
	{
		.group = "crypto",
		.name = "aes-256-ctr",
		.summary = "AES-256 in counter mode",
		.work = HB_WORK_BYTES,
		.options = ctr_options,
	},
	{ .name = NULL },
};

int accel_code(int errnum)
{
	switch (errnum) {
	case -ENODEV:
		return HB_SKIP; /* no device here: nothing for the user to fix
				 */
	case -ENOMEM:
		return HB_ENOMEM;
	case -EINVAL:
		return HB_EINVAL;
	default:
		return HB_EIO;
	}
}

/* Deterministic filler, so every run sees the same data. */
static void fill_pattern(uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t x = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (uint8_t)(x >> 24);
	}
}

/* A 64-byte aligned buffer, written once so its pages are really there. */
static uint8_t *alloc_buffer(size_t n, uint64_t seed)
{
	size_t rounded = (n + 63) & ~(size_t)63;
	uint8_t *p = aligned_alloc(64, rounded);

	if (p)
		fill_pattern(p, rounded, seed);
	return p;
}

/* Start message n: the base IV with n in its first eight bytes. */
static void start_message(struct worker *w, uint64_t n)
{
	uint8_t iv[16];

	memcpy(iv, w->iv, sizeof(iv));
	for (unsigned i = 0; i < 8; i++)
		iv[i] ^= (uint8_t)(n >> (56 - 8 * i));
	accel_session_start(w->session, iv);
}

/* The driver version, and the target unusable when there is no device. */
static int accel_describe(struct hb_about *a, char *err, size_t errlen)
{
	struct accel_dev *dev;
	char why[256];

	(void)err;
	(void)errlen;
	a->library(a, "example-accel driver", accel_driver_version());
	if (accel_dev_open(0, &dev, why, sizeof(why)) == 0)
		accel_dev_close(dev);
	else
		a->unusable(a, "crypto/aes-256-ctr", why);
	return HB_OK;
}

static void accel_teardown(void *state)
{
	struct worker *w = state;

	if (w->session)
		accel_session_close(w->session);
	if (w->dev)
		accel_dev_close(w->dev);
	free(w->ct);
	free(w->buf);
	free(w);
}

/* Read the case's options into w. */
static void read_options(struct worker *w, const struct hb_case *c)
{
	const struct hb_host *h = c->host;

	w->size = (size_t)h->get_size(c, "size");
	w->stream = strcmp(h->get_str(c, "mode"), "stream") == 0;
	w->encrypt = strcmp(h->get_str(c, "direction"), "decrypt") != 0;
}

/* Open the device and check the known answer on the path to be timed. */
static int open_device(struct worker *w, const struct hb_case *c, char *err,
		       size_t errlen)
{
	int rc = accel_dev_open(0, &w->dev, err, errlen);

	if (rc)
		return accel_code(rc);
	if (c->worker == 0)
		c->host->note(c, "device", accel_dev_name(w->dev));
	return accel_kat_check(w->dev, w->encrypt, w->stream, err, errlen);
}

/* Buffers, key and session; for decrypt, the ciphertext a peer sends. */
static int prepare_work(struct worker *w, unsigned worker, char *err,
			size_t errlen)
{
	uint8_t key[32];
	int rc;

	w->buf = alloc_buffer(w->size, 4 + worker);
	w->src = w->buf;
	if (w->buf && !w->encrypt)
		w->src = w->ct = alloc_buffer(w->size, 0);
	if (!w->buf || !w->src)
		return HB_ENOMEM;
	fill_pattern(key, sizeof(key), 1);
	fill_pattern(w->iv, sizeof(w->iv), 3);
	rc = accel_session_open(w->dev, key, &w->session, err, errlen);
	if (rc)
		return accel_code(rc);
	start_message(w, 0);
	if (!w->encrypt) {
		rc = accel_session_crypt(w->session, w->buf, w->ct, w->size,
					 err, errlen);
		if (rc)
			return accel_code(rc);
		start_message(w, 0);
	}
	return HB_OK;
}

static int accel_setup(const struct hb_case *c, void **state, char *err,
		       size_t errlen)
{
	struct worker *w = calloc(1, sizeof(*w));
	int rc;

	if (!w) {
		snprintf(err, errlen, "out of memory");
		return HB_ENOMEM;
	}
	read_options(w, c);
	rc = open_device(w, c, err, errlen);
	if (rc)
		goto fail_worker;
	rc = prepare_work(w, c->worker, err, errlen);
	if (rc == HB_ENOMEM)
		snprintf(err, errlen,
			 "allocating %zu-byte buffers: out of memory", w->size);
	if (rc)
		goto fail_worker;
	*state = w;
	return HB_OK;

fail_worker:
	accel_teardown(w);
	return rc;
}

static int accel_run(void *state, uint64_t iterations, struct hb_done *done,
		     char *err, size_t errlen)
{
	struct worker *w = state;
	uint64_t i;
	int rc = 0;

	for (i = 0; i < iterations; i++) {
		if (!w->stream)
			start_message(w, w->encrypt ? w->msgno++ : 0);
		rc = accel_session_crypt(w->session, w->src, w->buf, w->size,
					 err, errlen);
		if (rc) {
			rc = HB_EIO; /* a device error mid-run fails the case */
			break;
		}
	}
	done->bytes += i * w->size;
	done->ops += i;
	return rc;
}

static const struct hb_plugin plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "example-accel",
	.version = "1.0.0",
	.summary = "AES-256-CTR on an example accelerator (software device)",
	.targets = targets,
	.describe = accel_describe,
	.setup = accel_setup,
	.run = accel_run,
	.teardown = accel_teardown,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return &plugin;
}
