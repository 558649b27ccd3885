/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The software device behind device.h: AES-256-CTR computed on the CPU by
 * aes256.c. It stands in for an accelerator so the example builds and runs
 * anywhere; nothing here touches hardware.
 */
#include "device.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aes256.h"

#define SOFT_DRIVER_VERSION "1.0.0 (software AES-CTR, no hardware)"

struct accel_dev {
	char name[32];
};

struct accel_session {
	struct aes256_key key;
	uint8_t counter[16];   /* the next counter block */
	uint8_t keystream[16]; /* the current block's keystream */
	unsigned used;	       /* keystream bytes already consumed, 0..16 */
};

const char *accel_driver_version(void)
{
	return SOFT_DRIVER_VERSION;
}

/* How many devices the software driver pretends to have. */
static unsigned soft_device_count(void)
{
	const char *env = getenv("EXAMPLE_ACCEL_DEVICES");

	if (!env || !*env)
		return 1;
	return (unsigned)strtoul(env, NULL, 10);
}

int accel_dev_open(unsigned index, struct accel_dev **dev, char *err,
		   size_t errlen)
{
	struct accel_dev *d;

	if (index >= soft_device_count()) {
		snprintf(err, errlen, "no device %u (EXAMPLE_ACCEL_DEVICES=%u)",
			 index, soft_device_count());
		return -ENODEV;
	}
	d = calloc(1, sizeof(*d));
	if (!d) {
		snprintf(err, errlen, "opening device %u: out of memory",
			 index);
		return -ENOMEM;
	}
	snprintf(d->name, sizeof(d->name), "soft-aes%u", index);
	aes256_init();
	*dev = d;
	return 0;
}

const char *accel_dev_name(const struct accel_dev *dev)
{
	return dev->name;
}

void accel_dev_close(struct accel_dev *dev)
{
	free(dev);
}

int accel_session_open(struct accel_dev *dev, const uint8_t key[32],
		       struct accel_session **s, char *err, size_t errlen)
{
	struct accel_session *ss = calloc(1, sizeof(*ss));

	if (!ss) {
		snprintf(err, errlen, "%s: new session: out of memory",
			 dev->name);
		return -ENOMEM;
	}
	aes256_expand(&ss->key, key);
	ss->used = 16;
	*s = ss;
	return 0;
}

void accel_session_start(struct accel_session *s, const uint8_t iv[16])
{
	memcpy(s->counter, iv, 16);
	s->used = 16;
}

/* Keystream of the next counter block, then the counter plus one. */
static void next_block(struct accel_session *s)
{
	aes256_encrypt(&s->key, s->counter, s->keystream);
	for (int i = 15; i >= 0 && ++s->counter[i] == 0; i--)
		;
	s->used = 0;
}

int accel_session_crypt(struct accel_session *s, const uint8_t *in,
			uint8_t *out, size_t len, char *err, size_t errlen)
{
	(void)err;
	(void)errlen;
	while (len && s->used < 16) {
		*out++ = *in++ ^ s->keystream[s->used++];
		len--;
	}
	while (len >= 16) {
		next_block(s);
		for (unsigned i = 0; i < 16; i++)
			out[i] = in[i] ^ s->keystream[i];
		s->used = 16;
		in += 16;
		out += 16;
		len -= 16;
	}
	if (len) {
		next_block(s);
		while (len--)
			*out++ = *in++ ^ s->keystream[s->used++];
	}
	return 0;
}

void accel_session_close(struct accel_session *s)
{
	free(s);
}
