/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small pool of OpenSSL ASYNC_JOBs (fibers), as `openssl speed
 * -async_jobs N` keeps them: up to depth functions in flight on one
 * thread, each in its own job with its own ASYNC_WAIT_CTX. A function that
 * an asynchronous provider or engine pauses (ASYNC_pause_job) stays in
 * flight and is resumed by ossl_pool_reap, waiting on the file descriptors
 * the provider left in the job's wait context; with OpenSSL's default
 * provider nothing pauses and a job finishes inside ossl_pool_submit.
 *
 * A job lives on the thread that started it: submit, reap and close one
 * pool from one thread at a time (the worker's). The thread's pool of
 * OpenSSL jobs is OpenSSL's own, made when first needed and freed when
 * the thread ends; the pool here only bounds how many are in flight.
 */
#ifndef HB_CRYPTO_OSSL_ASYNC_H
#define HB_CRYPTO_OSSL_ASYNC_H

#include <stddef.h>
#include <stdint.h>

struct ossl_pool;

/* Runs inside an ASYNC_JOB; returns 0 or a negative HB_E* code. */
typedef int (*ossl_fiber_fn)(void *arg);

/*
 * A pool of up to depth jobs in flight (depth 0 counts as 1). Returns 0
 * with *p set, HB_SKIP when OpenSSL cannot run jobs on this platform
 * (ASYNC_is_capable), or HB_ENOMEM, with err filled.
 */
int ossl_pool_open(unsigned depth, struct ossl_pool **p, char *err,
		   size_t errlen);

/*
 * Start fn(arg) as an ASYNC_JOB: 0 when it finished or paused (it is in
 * flight until reaped), HB_BUSY when depth jobs are in flight, or a
 * negative code with err filled (then fn did not run).
 */
int ossl_pool_submit(struct ossl_pool *p, ossl_fiber_fn fn, void *arg,
		     char *err, size_t errlen);

/*
 * A finished job's arg with *status set to fn's return, in any order;
 * NULL when none is in flight or none finished within timeout_ns (paused
 * jobs are resumed with ASYNC_start_job; a job waiting on its
 * ASYNC_WAIT_CTX fds is polled on them with the bound). UINT64_MAX waits
 * until one finishes. A job OpenSSL fails to resume comes back with
 * *status HB_ECRYPTO.
 */
void *ossl_pool_reap(struct ossl_pool *p, int *status, uint64_t timeout_ns);

/* How many jobs are in flight: started and not reaped. */
unsigned ossl_pool_inflight(const struct ossl_pool *p);

/* Finish every job in flight (drain), then free. p may be NULL. */
void ossl_pool_close(struct ossl_pool *p);

#endif
