/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL ASYNC_JOBs in flight, as apps/speed.c drives them with
 * -async_jobs: start each with ASYNC_start_job; one that pauses is
 * resumed later with the same job and wait context, after poll() says one
 * of the wait context's descriptors is ready, or at once when it has none.
 *
 * ASYNC_init_thread is not called here: it replaces the thread's pool
 * without freeing the old one, and setup runs on another thread than the
 * worker's jobs. ASYNC_start_job makes the thread's pool on first use
 * (unbounded, jobs kept for reuse) and OpenSSL frees it when the thread
 * ends.
 */
#include "ossl_async.h"

#include <poll.h>
#include <stdlib.h>
#include <time.h>

#include <openssl/async.h>
#include <openssl/err.h>

#include <hostbench/plugin.h>

/* Most descriptors one paused job may wait on. */
#define POOL_MAX_FDS 4

/* Longest single poll() wait, so paused jobs without fds still move. */
#define POOL_WAIT_MS 1

/* One job slot: free, paused (job set) or finished and not yet reaped. */
struct pool_slot {
	ASYNC_JOB *job; /* while paused */
	ASYNC_WAIT_CTX *wait;
	ossl_fiber_fn fn;
	void *arg;
	int status; /* fn's return, once finished */
	int paused;
	struct pool_slot *next; /* on the free or the finished list */
};

struct ossl_pool {
	unsigned depth;
	unsigned inflight; /* paused or finished, not reaped */
	unsigned npaused;
	struct pool_slot *slots;
	struct pollfd *pfd; /* room for every paused job's fds */
	unsigned *owner;    /* the slot of each pfd */
	unsigned char *go;  /* per slot: its job may go on */
	struct pool_slot *free;
	struct pool_slot *done, *done_tail; /* finished, oldest first */
};

/* What ASYNC_start_job copies for the job: its slot. */
struct pool_arg {
	struct pool_slot *slot;
};

/* The trampoline every job runs. */
static int pool_fiber(void *args)
{
	const struct pool_arg *a = args;

	return a->slot->fn(a->slot->arg);
}

/* CLOCK_MONOTONIC in nanoseconds. */
static uint64_t pool_now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

void ossl_pool_close(struct ossl_pool *p)
{
	int status;

	if (!p)
		return;
	while (ossl_pool_reap(p, &status, UINT64_MAX))
		;
	for (unsigned i = 0; p->slots && i < p->depth; i++)
		ASYNC_WAIT_CTX_free(p->slots[i].wait);
	free(p->slots);
	free(p->pfd);
	free(p->owner);
	free(p->go);
	free(p);
}

int ossl_pool_open(unsigned depth, struct ossl_pool **out, char *err,
		   size_t errlen)
{
	struct ossl_pool *p;

	if (!ASYNC_is_capable())
		return hb_errorf(err, errlen, HB_SKIP,
				 "OpenSSL cannot run asynchronous jobs on "
				 "this platform (ASYNC_is_capable is 0)");
	p = calloc(1, sizeof(*p));
	if (!p)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	p->depth = depth ? depth : 1;
	p->slots = calloc(p->depth, sizeof(*p->slots));
	p->pfd = calloc((size_t)p->depth * POOL_MAX_FDS, sizeof(*p->pfd));
	p->owner = calloc((size_t)p->depth * POOL_MAX_FDS, sizeof(*p->owner));
	p->go = calloc(p->depth, 1);
	if (!p->slots || !p->pfd || !p->owner || !p->go)
		goto fail_pool;
	for (unsigned i = p->depth; i-- > 0;) {
		p->slots[i].wait = ASYNC_WAIT_CTX_new();
		if (!p->slots[i].wait)
			goto fail_pool;
		p->slots[i].next = p->free;
		p->free = &p->slots[i];
	}
	*out = p;
	return 0;

fail_pool:
	ossl_pool_close(p);
	return hb_errorf(err, errlen, HB_ENOMEM,
			 "%u ASYNC_WAIT_CTX: out of memory", depth);
}

/* s finished with status: on the finished list, oldest first. */
static void pool_finished(struct ossl_pool *p, struct pool_slot *s, int status)
{
	s->job = NULL;
	s->status = status;
	s->next = NULL;
	if (p->done_tail)
		p->done_tail->next = s;
	else
		p->done = s;
	p->done_tail = s;
}

/*
 * Start or resume s's job. Returns ASYNC_start_job's answer; on
 * ASYNC_PAUSE the slot is marked paused, on ASYNC_FINISH it is finished.
 */
static int pool_step(struct ossl_pool *p, struct pool_slot *s)
{
	struct pool_arg arg = { .slot = s };
	int ret = 0, was = s->paused;
	int rc = ASYNC_start_job(&s->job, s->wait, &ret, pool_fiber, &arg,
				 sizeof(arg));

	s->paused = rc == ASYNC_PAUSE;
	p->npaused += (unsigned)s->paused - (unsigned)was;
	if (rc == ASYNC_FINISH)
		pool_finished(p, s, ret);
	else if (rc != ASYNC_PAUSE && was) /* lost while paused */
		pool_finished(p, s, HB_ECRYPTO);
	return rc;
}

/* The first reason in OpenSSL's error queue, which is emptied. */
static const char *pool_reason(void)
{
	unsigned long e = ERR_get_error();
	const char *r = e ? ERR_reason_error_string(e) : NULL;

	ERR_clear_error();
	return r ? r : "no reason given";
}

int ossl_pool_submit(struct ossl_pool *p, ossl_fiber_fn fn, void *arg,
		     char *err, size_t errlen)
{
	struct pool_slot *s = p->free;
	int rc;

	if (!s)
		return HB_BUSY;
	p->free = s->next;
	s->fn = fn;
	s->arg = arg;
	s->job = NULL;
	rc = pool_step(p, s);
	if (rc == ASYNC_PAUSE || rc == ASYNC_FINISH) {
		p->inflight++;
		return 0;
	}
	s->next = p->free;
	p->free = s;
	if (rc == ASYNC_NO_JOBS)
		return p->inflight ? HB_BUSY
				   : hb_errorf(err, errlen, HB_ECRYPTO,
					       "ASYNC_start_job: OpenSSL has "
					       "no job free on this thread");
	return hb_errorf(err, errlen, HB_ECRYPTO, "ASYNC_start_job: %s",
			 pool_reason());
}

/* The descriptors s's job waits on into fds (room for max); how many. */
static size_t pool_fds(struct pool_slot *s, OSSL_ASYNC_FD *fds, size_t max)
{
	size_t n = 0;

	if (!ASYNC_WAIT_CTX_get_all_fds(s->wait, NULL, &n) || n > max)
		return 0; /* too many to wait on: resumed on every pass */
	if (n && !ASYNC_WAIT_CTX_get_all_fds(s->wait, fds, &n))
		return 0;
	return n;
}

/*
 * Wait up to ms for a descriptor of a paused job; mark the slots whose
 * job may go on (ready, or waiting on none) in p->go. Returns how many.
 */
static unsigned pool_wait(struct ossl_pool *p, int ms)
{
	unsigned nfd = 0, ready = 0;

	for (unsigned i = 0; i < p->depth; i++) {
		OSSL_ASYNC_FD fds[POOL_MAX_FDS];
		size_t n;

		p->go[i] = 0;
		if (!p->slots[i].paused)
			continue;
		n = pool_fds(&p->slots[i], fds, POOL_MAX_FDS);
		if (n == 0) {
			p->go[i] = 1; /* nothing to wait on: try it now */
			ready++;
		}
		for (size_t k = 0; k < n; k++) {
			p->pfd[nfd] = (struct pollfd){ .fd = fds[k],
						       .events = POLLIN };
			p->owner[nfd++] = i;
		}
	}
	if (nfd == 0 || poll(p->pfd, nfd, ready ? 0 : ms) <= 0)
		return ready;
	for (unsigned k = 0; k < nfd; k++)
		if (p->pfd[k].revents && !p->go[p->owner[k]]) {
			p->go[p->owner[k]] = 1;
			ready++;
		}
	return ready;
}

/* One pass over the paused jobs: resume those that may go on. */
static void pool_resume(struct ossl_pool *p, int ms)
{
	if (!pool_wait(p, ms))
		return;
	for (unsigned i = 0; i < p->depth; i++)
		if (p->go[i] && p->slots[i].paused)
			pool_step(p, &p->slots[i]);
}

/* Take the oldest finished slot off the list: its arg and status. */
static void *pool_take(struct ossl_pool *p, int *status)
{
	struct pool_slot *s = p->done;

	p->done = s->next;
	if (!p->done)
		p->done_tail = NULL;
	*status = s->status;
	s->next = p->free;
	p->free = s;
	p->inflight--;
	return s->arg;
}

void *ossl_pool_reap(struct ossl_pool *p, int *status, uint64_t timeout_ns)
{
	uint64_t start = pool_now_ns(), left = timeout_ns;

	for (;;) {
		int ms;

		if (p->done)
			return pool_take(p, status);
		if (!p->npaused)
			return NULL;
		ms = left / 1000000u < POOL_WAIT_MS ? (int)(left / 1000000u)
						    : POOL_WAIT_MS;
		pool_resume(p, ms);
		if (p->done)
			return pool_take(p, status);
		if (timeout_ns != UINT64_MAX) {
			uint64_t spent = pool_now_ns() - start;

			if (spent >= timeout_ns)
				return NULL;
			left = timeout_ns - spent;
		}
	}
}

unsigned ossl_pool_inflight(const struct ossl_pool *p)
{
	return p->inflight;
}
