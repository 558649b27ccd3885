/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The software device behind device.h: a thread per device that takes
 * requests from its queue in order and computes AES-256-CTR on the CPU
 * with aes256.c, timing each on its own clock as a device reports it. It
 * stands in for an accelerator so the example builds and runs anywhere;
 * nothing here touches hardware.
 */
#include "device.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "aes256.h"

#define SOFT_DRIVER_VERSION "2.0.0 (software AES-CTR, no hardware)"

struct accel_key {
	struct aes256_key schedule;
};

/* A FIFO of requests. */
struct fifo {
	struct accel_req *head, *tail;
};

struct accel_dev {
	char name[32];
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t work; /* a request queued, or stop */
	pthread_cond_t done; /* a request finished */
	struct fifo queued, finished;
	unsigned queue_len, held; /* submitted and not yet reaped */
	int stop;
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

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A condition whose timed waits read CLOCK_MONOTONIC, as deadlines do. */
static void monotonic_cond(pthread_cond_t *c)
{
	pthread_condattr_t a;

	pthread_condattr_init(&a);
	pthread_condattr_setclock(&a, CLOCK_MONOTONIC);
	pthread_cond_init(c, &a);
	pthread_condattr_destroy(&a);
}

static void fifo_push(struct fifo *f, struct accel_req *r)
{
	r->next = NULL;
	if (f->tail)
		f->tail->next = r;
	else
		f->head = r;
	f->tail = r;
}

static struct accel_req *fifo_pop(struct fifo *f)
{
	struct accel_req *r = f->head;

	if (r) {
		f->head = r->next;
		if (!f->head)
			f->tail = NULL;
	}
	return r;
}

/* counter += blocks, over all 128 bits. */
static void counter_add(uint8_t counter[16], uint64_t blocks)
{
	for (int i = 15; i >= 0 && blocks; i--) {
		uint64_t sum = counter[i] + (blocks & 0xff);

		counter[i] = (uint8_t)sum;
		blocks = (blocks >> 8) + (sum >> 8);
	}
}

/* What the device does with one request. */
static void soft_ctr(struct accel_req *r)
{
	uint8_t counter[16], ks[16];
	unsigned used = (unsigned)(r->offset % 16);
	const uint8_t *in = r->in;
	uint8_t *out = r->out;

	memcpy(counter, r->counter, sizeof(counter));
	counter_add(counter, r->offset / 16);
	for (size_t left = r->len; left;) {
		unsigned n = 16 - used < left ? 16 - used : (unsigned)left;

		aes256_encrypt(&r->key->schedule, counter, ks);
		counter_add(counter, 1);
		for (unsigned i = 0; i < n; i++)
			*out++ = *in++ ^ ks[used + i];
		left -= n;
		used = 0;
	}
	r->status = 0;
}

/* The device: requests in order, each timed on its own. */
static void *soft_device(void *arg)
{
	struct accel_dev *d = arg;

	pthread_mutex_lock(&d->lock);
	for (;;) {
		struct accel_req *r = fifo_pop(&d->queued);
		uint64_t start;

		if (!r && d->stop)
			break;
		if (!r) {
			pthread_cond_wait(&d->work, &d->lock);
			continue;
		}
		pthread_mutex_unlock(&d->lock);
		start = now_ns();
		soft_ctr(r);
		r->device_ns = now_ns() - start;
		pthread_mutex_lock(&d->lock);
		fifo_push(&d->finished, r);
		pthread_cond_broadcast(&d->done);
	}
	pthread_mutex_unlock(&d->lock);
	return NULL;
}

int accel_dev_open(unsigned index, unsigned queue_len, struct accel_dev **dev,
		   char *err, size_t errlen)
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
	d->queue_len = queue_len ? queue_len : 1;
	aes256_init();
	pthread_mutex_init(&d->lock, NULL);
	pthread_cond_init(&d->work, NULL);
	monotonic_cond(&d->done);
	if (pthread_create(&d->thread, NULL, soft_device, d) != 0) {
		snprintf(err, errlen, "%s: starting the device thread failed",
			 d->name);
		pthread_cond_destroy(&d->done);
		pthread_cond_destroy(&d->work);
		pthread_mutex_destroy(&d->lock);
		free(d);
		return -EAGAIN;
	}
	*dev = d;
	return 0;
}

const char *accel_dev_name(const struct accel_dev *dev)
{
	return dev->name;
}

void accel_dev_close(struct accel_dev *dev)
{
	pthread_mutex_lock(&dev->lock);
	dev->stop = 1;
	pthread_cond_signal(&dev->work);
	pthread_mutex_unlock(&dev->lock);
	pthread_join(dev->thread, NULL);
	pthread_cond_destroy(&dev->done);
	pthread_cond_destroy(&dev->work);
	pthread_mutex_destroy(&dev->lock);
	free(dev);
}

int accel_key_load(struct accel_dev *dev, const uint8_t key[32],
		   struct accel_key **k, char *err, size_t errlen)
{
	struct accel_key *kk = malloc(sizeof(*kk));

	if (!kk) {
		snprintf(err, errlen, "%s: loading a key: out of memory",
			 dev->name);
		return -ENOMEM;
	}
	aes256_expand(&kk->schedule, key);
	*k = kk;
	return 0;
}

void accel_key_free(struct accel_key *k)
{
	free(k);
}

int accel_submit(struct accel_dev *dev, struct accel_req *r, char *err,
		 size_t errlen)
{
	int rc = 0;

	pthread_mutex_lock(&dev->lock);
	if (dev->held >= dev->queue_len) {
		snprintf(err, errlen, "%s: queue full (%u requests)", dev->name,
			 dev->queue_len);
		rc = -EBUSY;
	} else {
		dev->held++;
		fifo_push(&dev->queued, r);
		pthread_cond_signal(&dev->work);
	}
	pthread_mutex_unlock(&dev->lock);
	return rc;
}

/* The absolute CLOCK_MONOTONIC time timeout_ns from now. */
static struct timespec deadline(uint64_t timeout_ns)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	timeout_ns += (uint64_t)t.tv_nsec;
	t.tv_sec += (time_t)(timeout_ns / 1000000000u);
	t.tv_nsec = (long)(timeout_ns % 1000000000u);
	return t;
}

unsigned accel_reap(struct accel_dev *dev, unsigned min, unsigned max,
		    uint64_t timeout_ns, struct accel_req **done)
{
	struct timespec until = deadline(timeout_ns);
	unsigned got = 0;
	int timed_out = timeout_ns == 0;

	pthread_mutex_lock(&dev->lock);
	while (got < max) {
		struct accel_req *r = fifo_pop(&dev->finished);

		if (r) {
			done[got++] = r;
			dev->held--;
		} else if (got >= min || timed_out || !dev->held) {
			break;
		} else {
			timed_out =
				pthread_cond_timedwait(&dev->done, &dev->lock,
						       &until) == ETIMEDOUT;
		}
	}
	pthread_mutex_unlock(&dev->lock);
	return got;
}
