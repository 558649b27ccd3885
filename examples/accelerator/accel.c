/* SPDX-License-Identifier: Apache-2.0 */
/*
 * example_accel.so: backend "example-accel", offering crypto/aes-256-ctr
 * on an accelerator through its driver API (device.h), with messages in
 * flight (submit and poll, queue_depth) as a device is driven. The target,
 * its options, its data conventions and its known answer are those of the
 * built-in backends (<hostbench/crypto.h>), so one suite job measures them
 * side by side and `hostbench check example-accel` compares it with them:
 *
 *   [AES256/CTR]
 *   target = crypto/aes-256-ctr
 *   backend = example-accel, openssl, gcrypt
 *   queue_depth = 1, 16
 *
 * This file and inflight.c are what a vendor keeps; device_soft.c is what
 * they replace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/crypto.h>
#include <hostbench/plugin.h>

#include "accel.h"
#include "device.h"
#include "kat.h"

/* Longest a transform waits for the device, in nanoseconds. */
#define TRANSFORM_WAIT_NS 10000000000ull

/*
 * The options of the built-in backends' crypto/aes-256-ctr, from the SDK:
 * a suite's keys mean the same to every backend of a job. The queue depth
 * is the core's own key, queue_depth; never declare it.
 */
static const struct hb_option ctr_options[] = {
	HB_CRYPTO_OPTIONS_CIPHER,
	HB_CRYPTO_OPT_END,
};

static const struct hb_target targets[] = {
	{
		.group = "crypto",
		.name = "aes-256-ctr",
		.summary = "AES-256 in counter mode",
		.work = HB_WORK_BYTES,
		.options = ctr_options,
		/* submit/poll; the work is the device's, not the host's */
		.flags = HB_TARGET_ASYNC | HB_TARGET_OFFLOAD |
			 HB_TARGET_VERIFIED,
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

/* The driver version, and the target unusable when there is no device. */
static int accel_describe(struct hb_about *a, char *err, size_t errlen)
{
	struct accel_dev *dev;
	char why[256];

	(void)err;
	(void)errlen;
	a->library(a, "example-accel driver", accel_driver_version());
	if (accel_dev_open(0, 1, &dev, why, sizeof(why)) == 0)
		accel_dev_close(dev);
	else
		a->unusable(a, "crypto/aes-256-ctr", why);
	return HB_OK;
}

static void accel_teardown(void *state)
{
	struct worker *w = state;

	if (w->dev)
		accel_dev_close(w->dev); /* the device finishes first */
	if (w->key)
		accel_key_free(w->key);
	accel_slots_free(w);
	free(w->ct);
	free(w);
}

/* Read the case's options and queue depth into w. */
static void read_options(struct worker *w, const struct hb_case *c)
{
	const struct hb_host *h = c->host;
	int64_t depth = h->get_int(c, "queue_depth");

	w->size = (size_t)h->get_size(c, "size");
	w->stream = strcmp(h->get_str(c, "mode"), "stream") == 0;
	w->encrypt = strcmp(h->get_str(c, "direction"), "decrypt") != 0;
	w->depth = depth > 1 ? (unsigned)depth : 1;
	w->worker = c->worker;
}

/* Open the device and check the known answer on the path to be timed. */
static int open_device(struct worker *w, const struct hb_case *c, char *err,
		       size_t errlen)
{
	int rc = accel_dev_open(0, w->depth, &w->dev, err, errlen);

	if (rc)
		return accel_code(rc);
	if (c->worker == 0)
		c->host->note(c, "device", accel_dev_name(w->dev));
	return accel_kat_check(w->dev, w->encrypt, w->stream, err, errlen);
}

/* The SDK's key and IV, the message slots, and a decrypt's message 0. */
static int prepare_work(struct worker *w, char *err, size_t errlen)
{
	uint8_t key[32];
	struct accel_req r;
	int rc;

	hb_crypto_fill(key, sizeof(key), HB_CRYPTO_SEED_KEY);
	hb_crypto_fill(w->iv, sizeof(w->iv), HB_CRYPTO_SEED_IV);
	rc = accel_key_load(w->dev, key, &w->key, err, errlen);
	if (rc)
		return accel_code(rc);
	if (accel_slots_make(w))
		return hb_errorf(err, errlen, HB_ENOMEM,
				 "%u message slots: out of memory", w->depth);
	if (w->encrypt)
		return HB_OK;
	w->ct = aligned_alloc(64, (w->size + 63) & ~(size_t)63);
	if (!w->ct)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	r = (struct accel_req){
		.key = w->key, .in = w->io->in, .out = w->ct, .len = w->size
	};
	hb_crypto_message_iv(w->iv, sizeof(w->iv), 0, r.counter);
	return accel_run_one(w->dev, &r, err, errlen);
}

static int accel_setup(const struct hb_case *c, void **state, char *err,
		       size_t errlen)
{
	struct worker *w = calloc(1, sizeof(*w));
	int rc;

	if (!w)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	read_options(w, c);
	/* ABI 1.4: the core's input and output buffers (HB_TARGET_VERIFIED) */
	w->io = c->buffers;
	if (!w->io || w->io->len != w->size) {
		rc = hb_errorf(err, errlen, HB_EINVAL,
			       "the core gave no buffers of %zu bytes: "
			       "hostbench 1.4 or later is needed",
			       w->size);
		free(w);
		return rc;
	}
	rc = open_device(w, c, err, errlen);
	if (!rc)
		rc = prepare_work(w, err, errlen);
	if (rc)
		goto fail_worker;
	*state = w;
	return HB_OK;

fail_worker:
	accel_teardown(w);
	return rc;
}

/* One message of `hostbench check`, with its own key and IV; no tag. */
static int accel_transform(const struct hb_case *c, struct hb_message *m,
			   char *err, size_t errlen)
{
	struct accel_dev *dev = NULL;
	struct accel_key *key = NULL;
	struct accel_req r = { .in = m->in, .out = m->out, .len = m->len };
	int rc = accel_dev_open(0, 1, &dev, err, errlen);

	(void)c;
	if (!rc)
		rc = accel_key_load(dev, m->key, &key, err, errlen);
	rc = rc ? accel_code(rc) : HB_OK;
	r.key = key;
	memcpy(r.counter, m->iv, sizeof(r.counter));
	if (!rc)
		rc = accel_run_one(dev, &r, err, errlen);
	if (key)
		accel_key_free(key);
	if (dev)
		accel_dev_close(dev);
	m->tag_len = 0;
	return rc;
}

static const struct hb_plugin plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "example-accel",
	.version = "2.0.0",
	.summary = "AES-256-CTR on an example accelerator (software device, "
		   "messages in flight)",
	.targets = targets,
	.describe = accel_describe,
	.setup = accel_setup,
	.run = accel_run,
	.teardown = accel_teardown,
	.submit = accel_submit_message,
	.poll = accel_poll,
	.transform = accel_transform,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return &plugin;
}
