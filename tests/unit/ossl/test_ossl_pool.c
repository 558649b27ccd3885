/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pool of OpenSSL ASYNC_JOBs the openssl backend keeps its messages in
 * flight with: every job comes back once with its function's status, a
 * full pool says HB_BUSY, a job that pauses (as an asynchronous provider
 * pauses it, here with ASYNC_pause_job) is resumed by reap, one waiting on
 * a descriptor of its wait context only when that descriptor is ready, and
 * close finishes every job still in flight.
 */
#include <poll.h>
#include <unistd.h>

#include <openssl/async.h>

#include <hostbench/plugin.h>

#include "../check.h"
#include "ossl_async.h"

/* What one fiber function does, and what it saw. */
struct work {
	int pauses;   /* times to pause before finishing */
	int status;   /* what to return */
	int fd;	      /* >= 0: wait until it is readable, paused */
	int steps;    /* times the function ran on (1 + resumes) */
	int finished; /* the function returned */
};

/* Pause w->pauses times (or until w->fd is readable), then finish. */
static int work_fn(void *arg)
{
	struct work *w = arg;
	ASYNC_WAIT_CTX *wait = ASYNC_get_wait_ctx(ASYNC_get_current_job());
	static const char key[] = "test fd";

	w->steps = 1;
	if (w->fd >= 0)
		ASYNC_WAIT_CTX_set_wait_fd(wait, key, w->fd, NULL, NULL);
	for (;;) {
		struct pollfd p = { .fd = w->fd, .events = POLLIN };

		if (w->fd >= 0 ? poll(&p, 1, 0) == 1 : w->pauses-- <= 0)
			break;
		if (!ASYNC_pause_job())
			return HB_EFAIL;
		w->steps++;
	}
	if (w->fd >= 0)
		ASYNC_WAIT_CTX_clear_fd(wait, key);
	w->finished = 1;
	return w->status;
}

static int every_job_comes_back_once_with_its_status(void)
{
	struct work w[4] = { { .status = 0, .fd = -1 },
			     { .status = HB_EVERIFY, .fd = -1 },
			     { .status = 0, .fd = -1 },
			     { .status = HB_ECRYPTO, .fd = -1 } };
	int seen[4] = { 0 }, status;
	struct ossl_pool *p = NULL;
	char err[256] = "";
	void *got;

	CHECK_INT(ossl_pool_open(4, &p, err, sizeof(err)), 0);
	for (int i = 0; i < 4; i++)
		CHECK_INT(ossl_pool_submit(p, work_fn, &w[i], err, sizeof(err)),
			  0);
	CHECK_INT(ossl_pool_inflight(p), 4);
	while ((got = ossl_pool_reap(p, &status, 0))) {
		int i = (int)((struct work *)got - w);

		CHECK(i >= 0 && i < 4);
		CHECK_INT(status, w[i].status);
		seen[i]++;
	}
	for (int i = 0; i < 4; i++)
		CHECK_INT(seen[i], 1);
	CHECK_INT(ossl_pool_inflight(p), 0);
	ossl_pool_close(p);
	return 0;
}

static int jobs_that_finish_come_back_in_submission_order(void)
{
	struct work w[3] = { { .fd = -1 }, { .fd = -1 }, { .fd = -1 } };
	struct ossl_pool *p = NULL;
	char err[256] = "";
	int status;

	CHECK_INT(ossl_pool_open(3, &p, err, sizeof(err)), 0);
	for (int i = 0; i < 3; i++)
		CHECK_INT(ossl_pool_submit(p, work_fn, &w[i], err, sizeof(err)),
			  0);
	for (int i = 0; i < 3; i++)
		CHECK(ossl_pool_reap(p, &status, 0) == &w[i]);
	CHECK(ossl_pool_reap(p, &status, 0) == NULL);
	ossl_pool_close(p);
	return 0;
}

static int a_full_pool_is_busy_until_one_is_reaped(void)
{
	struct work w[3] = { { .fd = -1 }, { .fd = -1 }, { .fd = -1 } };
	struct ossl_pool *p = NULL;
	char err[256] = "";
	int status;

	CHECK_INT(ossl_pool_open(2, &p, err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &w[0], err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &w[1], err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &w[2], err, sizeof(err)),
		  HB_BUSY);
	CHECK_INT(w[2].steps, 0); /* busy: it never ran */
	CHECK(ossl_pool_reap(p, &status, 0) == &w[0]);
	CHECK_INT(ossl_pool_submit(p, work_fn, &w[2], err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_inflight(p), 2);
	ossl_pool_close(p);
	return 0;
}

static int a_paused_job_is_resumed_by_reap(void)
{
	struct work w = { .pauses = 3, .status = 0, .fd = -1 };
	struct ossl_pool *p = NULL;
	char err[256] = "";
	int status = -99;
	void *got = NULL;

	CHECK_INT(ossl_pool_open(1, &p, err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &w, err, sizeof(err)), 0);
	CHECK_INT(w.steps, 1); /* started, paused */
	CHECK_INT(w.finished, 0);
	CHECK_INT(ossl_pool_inflight(p), 1);
	for (int tries = 0; !got && tries < 10; tries++)
		got = ossl_pool_reap(p, &status, 0);
	CHECK(got == &w);
	CHECK_INT(status, 0);
	CHECK_INT(w.steps, 4);
	CHECK_INT(w.finished, 1);
	CHECK(ossl_pool_reap(p, &status, 0) == NULL);
	ossl_pool_close(p);
	return 0;
}

static int a_paused_job_comes_back_after_one_that_finished(void)
{
	struct work slow = { .pauses = 2, .status = HB_EVERIFY, .fd = -1 };
	struct work quick = { .fd = -1 };
	struct ossl_pool *p = NULL;
	char err[256] = "";
	int status;

	CHECK_INT(ossl_pool_open(2, &p, err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &slow, err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &quick, err, sizeof(err)), 0);
	CHECK(ossl_pool_reap(p, &status, 0) == &quick);
	CHECK(ossl_pool_reap(p, &status, UINT64_MAX) == &slow);
	CHECK_INT(status, HB_EVERIFY);
	ossl_pool_close(p);
	return 0;
}

static int a_job_waiting_on_a_descriptor_waits_for_it(void)
{
	struct ossl_pool *p = NULL;
	char err[256] = "";
	int fds[2], status;
	struct work w = { .status = 0 };
	double t0;

	CHECK_INT(pipe(fds), 0);
	w.fd = fds[0];
	CHECK_INT(ossl_pool_open(1, &p, err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &w, err, sizeof(err)), 0);
	t0 = hb_now();
	CHECK(ossl_pool_reap(p, &status, 20000000) == NULL); /* 20 ms */
	CHECK(hb_now() - t0 >= 0.015);
	CHECK_INT(w.finished, 0);
	CHECK_INT(write(fds[1], "x", 1), 1);
	CHECK(ossl_pool_reap(p, &status, 1000000000) == &w);
	CHECK_INT(w.finished, 1);
	ossl_pool_close(p);
	close(fds[0]);
	close(fds[1]);
	return 0;
}

static int close_finishes_every_job_in_flight(void)
{
	struct work w[3] = { { .pauses = 1, .fd = -1 },
			     { .pauses = 5, .fd = -1 },
			     { .fd = -1 } };
	struct ossl_pool *p = NULL;
	char err[256] = "";

	CHECK_INT(ossl_pool_open(3, &p, err, sizeof(err)), 0);
	for (int i = 0; i < 3; i++)
		CHECK_INT(ossl_pool_submit(p, work_fn, &w[i], err, sizeof(err)),
			  0);
	CHECK_INT(w[1].finished, 0);
	ossl_pool_close(p);
	for (int i = 0; i < 3; i++)
		CHECK_INT(w[i].finished, 1);
	CHECK_INT(w[1].steps, 6);
	return 0;
}

static int depth_zero_keeps_one_in_flight(void)
{
	struct work w[2] = { { .fd = -1 }, { .fd = -1 } };
	struct ossl_pool *p = NULL;
	char err[256] = "";

	CHECK_INT(ossl_pool_open(0, &p, err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &w[0], err, sizeof(err)), 0);
	CHECK_INT(ossl_pool_submit(p, work_fn, &w[1], err, sizeof(err)),
		  HB_BUSY);
	ossl_pool_close(p);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"every_job_comes_back_once_with_its_status", every_job_comes_back_once_with_its_status},
	{"jobs_that_finish_come_back_in_submission_order", jobs_that_finish_come_back_in_submission_order},
	{"a_full_pool_is_busy_until_one_is_reaped", a_full_pool_is_busy_until_one_is_reaped},
	{"a_paused_job_is_resumed_by_reap", a_paused_job_is_resumed_by_reap},
	{"a_paused_job_comes_back_after_one_that_finished", a_paused_job_comes_back_after_one_that_finished},
	{"a_job_waiting_on_a_descriptor_waits_for_it", a_job_waiting_on_a_descriptor_waits_for_it},
	{"close_finishes_every_job_in_flight", close_finishes_every_job_in_flight},
	{"depth_zero_keeps_one_in_flight", depth_zero_keeps_one_in_flight},
};
/* clang-format on */

TEST_MAIN(tests)
