/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interleaved rounds: the cases of one job, each in its own case helper,
 * set up together and measured one sample at a time in turn (round robin),
 * so a drift of the host (its clock frequency, a neighbour) falls on every
 * case alike. The core gives each turn over FIFOs (run/turns.h); every
 * case takes as many samples as the slowest to settle needs.
 */
#include "run/interleave.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run/isolate.h"
#include "run/turns.h"

/* How often a wait for a helper's word looks whether it ended, in ms. */
#define LANE_POLL_MS 100

/* One case of the job and its helper. */
struct lane {
	const struct bench_case *c;
	struct result *r;
	const volatile sig_atomic_t *stop;
	struct isolate_turns turns;
	char go[64], done[64];
	int go_fd, done_fd;
	pthread_t thread;
	int started; /* the thread runs (until joined) */
	int ran;     /* the thread was started */
	int ended;   /* its helper ended (under lock) */
	int live;    /* its helper answers turns */
	int rc;	     /* isolate_run_turns()'s */
	pthread_mutex_t lock;
};

/* A lane's thread: the case in its helper, to the end. */
static void *lane_main(void *arg)
{
	struct lane *l = arg;
	int rc = isolate_run_turns(l->c, &l->turns, l->stop, l->r);

	pthread_mutex_lock(&l->lock);
	l->rc = rc;
	l->ended = 1;
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

static int lane_ended(struct lane *l)
{
	int ended;

	pthread_mutex_lock(&l->lock);
	ended = l->ended;
	pthread_mutex_unlock(&l->lock);
	return ended;
}

/*
 * The helper's next word, or 0 when it ended (end of file, or its thread
 * is done with nothing left to read) or a stop came.
 */
static char lane_hear(struct lane *l)
{
	struct pollfd p = { .fd = l->done_fd, .events = POLLIN };
	char c;

	for (;;) {
		int n = poll(&p, 1, LANE_POLL_MS);

		if (n > 0) {
			ssize_t got = read(l->done_fd, &c, 1);

			if (got == 1)
				return c;
			if (got == 0 || errno != EINTR)
				return 0;
		} else if (*l->stop || lane_ended(l)) {
			return 0;
		}
	}
}

/* Give the helper word c. */
static void lane_say(struct lane *l, char c)
{
	ssize_t n;

	do
		n = write(l->go_fd, &c, 1);
	while (n < 0 && errno == EINTR);
}

/* The lane's FIFOs in dir, open on the core's side. */
static int lane_open(struct lane *l, const char *dir, size_t i, char *err,
		     size_t errlen)
{
	snprintf(l->go, sizeof(l->go), "%s/go%zu", dir, i);
	snprintf(l->done, sizeof(l->done), "%s/done%zu", dir, i);
	l->go_fd = l->done_fd = -1;
	if (mkfifo(l->go, 0600) || mkfifo(l->done, 0600))
		return hb_errorf(err, errlen, -errno, "mkfifo %s: %s", dir,
				 strerror(errno));
	/* both ends stay open here: no open blocks, no write gets SIGPIPE */
	l->go_fd = open(l->go, O_RDWR | O_CLOEXEC);
	l->done_fd = open(l->done, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (l->go_fd < 0 || l->done_fd < 0)
		return hb_errorf(err, errlen, -errno, "open %s: %s", l->go,
				 strerror(errno));
	return 0;
}

/* Close and remove what lane_open() made. */
static void lane_unlink(struct lane *l)
{
	if (l->go_fd >= 0)
		close(l->go_fd);
	if (l->done_fd >= 0)
		close(l->done_fd);
	if (l->go[0])
		unlink(l->go);
	if (l->done[0])
		unlink(l->done);
}

/* Wait for the lane's thread, once. */
static void lane_join(struct lane *l)
{
	if (l->started)
		pthread_join(l->thread, NULL);
	l->started = 0;
}

/*
 * Rounds until every live case has samples enough (or a stop): each live
 * case in turn takes its turn and says how it stands.
 */
static void lanes_rounds(struct lane *lanes, size_t n,
			 const volatile sig_atomic_t *stop)
{
	for (size_t i = 0; i < n; i++)
		lanes[i].live =
			lanes[i].started && lane_hear(&lanes[i]) == TURN_READY;
	for (int more = 1; more && !*stop;) {
		size_t live = 0;

		more = 0;
		for (size_t i = 0; i < n; i++) {
			struct lane *l = &lanes[i];
			char c;

			if (!l->live)
				continue;
			lane_say(l, TURN_GO);
			c = lane_hear(l);
			l->live = c != 0;
			live += l->live;
			more |= c == TURN_MORE;
		}
		more &= live > 0;
	}
}

/* Start every lane's helper; a lane that cannot start fails its case. */
static int lanes_start(struct lane *lanes, size_t n, const char *dir, char *err,
		       size_t errlen)
{
	int rc = 0;

	for (size_t i = 0; i < n && !rc; i++) {
		struct lane *l = &lanes[i];

		rc = lane_open(l, dir, i, err, errlen);
		l->turns = (struct isolate_turns){ .go = l->go,
						   .done = l->done,
						   .lanes = (unsigned)n };
		if (!rc)
			rc = -pthread_create(&l->thread, NULL, lane_main, l);
		l->started = l->ran = rc == 0;
		if (rc && !err[0])
			rc = hb_errorf(err, errlen, rc,
				       "cannot start a thread: %s",
				       strerror(-rc));
	}
	return rc;
}

/*
 * Fail the cases whose helper never started with why, the error rc of the
 * turns; returns rc when it is -ENOMEM (nothing can be reported), else 0
 * or the first case's own error.
 */
static int lanes_unstarted(struct lane *lanes, size_t n, int rc,
			   const char *why)
{
	int first = 0;

	for (size_t i = 0; i < n; i++) {
		struct result *r = lanes[i].r;

		if (lanes[i].ran) {
			first = first ? first : lanes[i].rc;
			continue;
		}
		r->c = lanes[i].c;
		r->status = RESULT_FAILED;
		r->reason = strdup(why[0] ? why : "interleaved turns failed");
		if (!r->reason)
			return -ENOMEM;
	}
	return rc == -ENOMEM ? rc : first;
}

/* Give each case that takes turns a lane; run the others now. */
static int lanes_pick(const struct bench_case *cases, struct result *results,
		      size_t n, const volatile sig_atomic_t *stop,
		      struct lane *lanes, size_t *nlanes)
{
	int rc = 0;

	*nlanes = 0;
	for (size_t i = 0; i < n && !rc; i++) {
		if (!isolate_takes_turns(&cases[i])) {
			rc = isolate_run_case(&cases[i], stop, &results[i]);
			continue;
		}
		lanes[*nlanes] = (struct lane){ .c = &cases[i],
						.r = &results[i],
						.stop = stop,
						.go_fd = -1,
						.done_fd = -1 };
		pthread_mutex_init(&lanes[(*nlanes)++].lock, NULL);
	}
	return rc;
}

int interleave_run_job(const struct bench_case *cases, struct result *results,
		       size_t n, const volatile sig_atomic_t *stop, char *err,
		       size_t errlen)
{
	char dir[] = "/tmp/hostbench-turns-XXXXXX";
	struct lane *lanes = calloc(n ? n : 1, sizeof(*lanes));
	size_t nl = 0;
	int rc;

	err[0] = '\0';
	if (!lanes)
		return -ENOMEM;
	rc = lanes_pick(cases, results, n, stop, lanes, &nl);
	if (rc || nl == 0)
		goto out_free;
	if (!mkdtemp(dir)) {
		rc = hb_errorf(err, errlen, -errno, "mkdtemp %s: %s", dir,
			       strerror(errno));
		rc = lanes_unstarted(lanes, nl, rc, err);
		goto out_locks;
	}
	rc = lanes_start(lanes, nl, dir, err, errlen);
	if (!rc)
		lanes_rounds(lanes, nl, stop);
	/* one at a time: composite parts and teardown are measured alone */
	for (size_t i = 0; i < nl; i++) {
		if (lanes[i].started)
			lane_say(&lanes[i], TURN_QUIT);
		lane_join(&lanes[i]);
	}
	for (size_t i = 0; i < nl; i++)
		lane_unlink(&lanes[i]);
	rmdir(dir);
	rc = lanes_unstarted(lanes, nl, rc, err);
out_locks:
	for (size_t i = 0; i < nl; i++)
		pthread_mutex_destroy(&lanes[i].lock);
out_free:
	free(lanes);
	return rc;
}
