/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A crypto plugin's asynchronous slots (ABI 1.2), driven as the core
 * drives them (core/run/async.c): up to `depth` messages in flight per
 * worker (the case's queue_depth, which setup reads), poll for at least
 * one, submit again. Every target, both directions (decrypt checks the tag
 * and MAC of every message against the ones setup computed), at depth 1
 * and 16; every tag comes back exactly once with one message's work. The
 * same tests serve the ipsec-mb backend (a multi-buffer manager) and the
 * openssl backend (OpenSSL's ASYNC jobs).
 */
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "fake_host.h"

const struct hb_plugin *hostbench_plugin_entry(void);

#define MAX_DEPTH 16

/* A target with a direction option. */
static int has_direction(const struct hb_target *t)
{
	for (const struct hb_option *o = t->options; o->name; o++)
		if (strcmp(o->name, "direction") == 0)
			return 1;
	return 0;
}

/*
 * Complete n messages on state with depth in flight, as the core does;
 * 0 when every tag came back once with size bytes, else 1 (with err).
 */
static int drive(const struct hb_plugin *p, void *state, unsigned depth,
		 unsigned n, uint64_t size, char *err, size_t errlen)
{
	struct hb_completion c[MAX_DEPTH];
	int busy[MAX_DEPTH] = { 0 };
	unsigned sent = 0, finished = 0, inflight = 0;

	while (finished < n) {
		for (uint64_t tag = 0; tag < depth && sent < n; tag++) {
			if (busy[tag])
				continue;
			CHECK_INT(p->submit(state, tag, err, errlen), 0);
			busy[tag] = 1;
			sent++;
			inflight++;
		}
		int got = p->poll(state, 1, inflight, 10000000, c, err, errlen);

		CHECK(got >= 1);
		for (int i = 0; i < got; i++) {
			CHECK(c[i].tag < depth && busy[c[i].tag]);
			CHECK_INT(c[i].status, 0);
			CHECK_INT(c[i].done.bytes, size);
			CHECK_INT(c[i].done.ops, 1);
			busy[c[i].tag] = 0;
		}
		finished += (unsigned)got;
		inflight -= (unsigned)got;
	}
	return 0;
}

/* Every async target with over, at depth, 3 x depth + 1 messages. */
static int run_all(const char *const *over, unsigned depth, int need_dir)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	struct fh_case fc;

	CHECK(p->submit && p->poll);
	for (const struct hb_target *t = p->targets; t->name; t++) {
		char err[512] = "";
		void *state = NULL;
		int rc;

		if (!(t->flags & HB_TARGET_ASYNC) ||
		    (need_dir && !has_direction(t)))
			continue;
		fh_case_init(&fc, t, over);
		rc = p->setup(&fc.c, &state, err, sizeof(err));
		if (rc)
			fprintf(stderr, "%s/%s: setup: %s\n", t->group, t->name,
				err);
		CHECK_INT(rc, 0);
		rc = drive(p, state, depth, 3 * depth + 1, 4096, err,
			   sizeof(err));
		if (rc)
			fprintf(stderr, "%s/%s: depth %u: %s\n", t->group,
				t->name, depth, err);
		p->teardown(state);
		CHECK_INT(rc, 0);
	}
	return 0;
}

static int every_target_encrypts_one_in_flight(void)
{
	static const char *const over[] = { "size=4096", "queue_depth=1",
					    NULL };

	return run_all(over, 1, 0);
}

static int every_target_encrypts_sixteen_in_flight(void)
{
	static const char *const over[] = { "size=4096", "queue_depth=16",
					    NULL };

	return run_all(over, 16, 0);
}

static int every_target_decrypts_and_verifies_sixteen_in_flight(void)
{
	static const char *const over[] = { "size=4096", "direction=decrypt",
					    "queue_depth=16", NULL };

	return run_all(over, 16, 1);
}

/*
 * A multi-buffer CBC encrypt waits for more messages to fill its lanes:
 * a poll that need not wait returns nothing, one that must flushes. An
 * OpenSSL job that nothing paused has finished: the first poll has it.
 */
static int a_lone_message_waits_until_a_poll_needs_it(void)
{
	static const char *const over[] = { "size=16384", NULL };
	const struct hb_plugin *p = hostbench_plugin_entry();
	const struct hb_target *t = fh_target(p, "crypto/aes-256-cbc");
	struct hb_completion c;
	struct fh_case fc;
	char err[512] = "";
	void *state = NULL;

	CHECK(t != NULL);
	fh_case_init(&fc, t, over);
	CHECK_INT(p->setup(&fc.c, &state, err, sizeof(err)), 0);
	CHECK_INT(p->submit(state, 7, err, sizeof(err)), 0);
	if (strcmp(p->name, "ipsec-mb") == 0)
		CHECK_INT(p->poll(state, 0, 1, 0, &c, err, sizeof(err)), 0);
	CHECK_INT(p->poll(state, 1, 1, 0, &c, err, sizeof(err)), 1);
	CHECK_INT(c.tag, 7);
	p->teardown(state);
	return 0;
}

/* Teardown with messages still in flight (a failed case) frees them. */
static int teardown_finishes_messages_in_flight(void)
{
	static const char *const over[] = { "size=4096", "queue_depth=5",
					    NULL };
	const struct hb_plugin *p = hostbench_plugin_entry();
	const struct hb_target *t = fh_target(p, "crypto/aes-256-cbc");
	struct fh_case fc;
	char err[512] = "";
	void *state = NULL;

	CHECK(t != NULL);
	fh_case_init(&fc, t, over);
	CHECK_INT(p->setup(&fc.c, &state, err, sizeof(err)), 0);
	for (uint64_t tag = 0; tag < 5; tag++)
		CHECK_INT(p->submit(state, tag, err, sizeof(err)), 0);
	p->teardown(state);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"every_target_encrypts_one_in_flight", every_target_encrypts_one_in_flight},
	{"every_target_encrypts_sixteen_in_flight", every_target_encrypts_sixteen_in_flight},
	{"every_target_decrypts_and_verifies_sixteen_in_flight", every_target_decrypts_and_verifies_sixteen_in_flight},
	{"a_lone_message_waits_until_a_poll_needs_it", a_lone_message_waits_until_a_poll_needs_it},
	{"teardown_finishes_messages_in_flight", teardown_finishes_messages_in_flight},
};
/* clang-format on */

TEST_MAIN(tests)
