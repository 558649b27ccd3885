/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every target of one crypto plugin (linked in: openssl, gcrypt, xxhash or
 * ipsec-mb, chosen by the build) set up, run and torn down directly
 * through the ABI, in each mode and direction, and a size CBC cannot take
 * refused. Built with HB_TEST_WHOLE_MESSAGES (a backend that takes whole
 * messages, ipsec-mb), stream mode must be skipped with the reason.
 */
#include <stdlib.h>
#include <string.h>

#include "../../unit/check.h"
#include "fake_host.h"

const struct hb_plugin *hostbench_plugin_entry(void);

/* A CBC target: its sizes must be a multiple of the block. */
static int is_cbc(const struct hb_target *t)
{
	return strstr(t->name, "-cbc") != NULL;
}

/* A target with a direction option. */
static int has_direction(const struct hb_target *t)
{
	for (const struct hb_option *o = t->options; o->name; o++)
		if (strcmp(o->name, "direction") == 0)
			return 1;
	return 0;
}

/* Whether the overrides ask for stream mode. */
static int is_stream(const char *const *over)
{
	for (; *over; over++)
		if (strcmp(*over, "mode=stream") == 0)
			return 1;
	return 0;
}

/* Set up t with overrides, run 3 buffers, check the work, tear down. */
static int run_target(const struct hb_target *t, const char *const *over,
		      uint64_t size)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	struct fh_case fc;
	struct hb_done done = { 0 };
	char err[512] = "";
	void *state = NULL;
	int rc;

	if (strcmp(t->group, "pk") == 0) /* operations, not bytes: test_pk.c */
		return 0;
	fh_case_init(&fc, t, over);
	rc = p->setup(&fc.c, &state, err, sizeof(err));
#ifdef HB_TEST_WHOLE_MESSAGES
	if (is_stream(over)) {
		CHECK_INT(rc, HB_SKIP);
		CHECK_CONTAINS(err, "no stream mode");
		return 0;
	}
#else
	(void)is_stream;
#endif
	if (rc)
		fprintf(stderr, "%s/%s: setup: %d %s\n", t->group, t->name, rc,
			err);
	CHECK_INT(rc, 0);
	rc = p->run(state, 3, &done, err, sizeof(err));
	if (rc)
		fprintf(stderr, "%s/%s: run: %d %s\n", t->group, t->name, rc,
			err);
	p->teardown(state);
	CHECK_INT(rc, 0);
	CHECK_INT(done.bytes, 3 * size);
	CHECK_INT(done.ops, 3);
	CHECK(fh_note(&fc, "library") != NULL);
	return 0;
}

/* Run every target with the given overrides (direction-less ones too). */
static int run_all(const char *const *over, uint64_t size, int need_dir)
{
	const struct hb_plugin *p = hostbench_plugin_entry();

	for (const struct hb_target *t = p->targets; t->name; t++) {
		if (need_dir && !has_direction(t))
			continue;
		if (run_target(t, over, size))
			return 1;
	}
	return 0;
}

static int every_target_encrypts_messages(void)
{
	static const char *const over[] = { "size=4096", NULL };

	return run_all(over, 4096, 0);
}

static int every_target_decrypts_and_verifies_messages(void)
{
	static const char *const over[] = { "size=4096", "direction=decrypt",
					    NULL };

	return run_all(over, 4096, 1);
}

static int every_target_runs_a_stream(void)
{
	static const char *const over[] = { "size=4096", "mode=stream", NULL };

	return run_all(over, 4096, 0);
}

static int every_target_decrypts_a_stream(void)
{
	static const char *const over[] = { "size=4096", "mode=stream",
					    "direction=decrypt", NULL };

	return run_all(over, 4096, 1);
}

static int sizes_off_the_block_run_outside_cbc(void)
{
	static const char *const over[] = { "size=1001", NULL };
	static const char *const stream[] = { "size=1001", "mode=stream",
					      NULL };
	const struct hb_plugin *p = hostbench_plugin_entry();

	for (const struct hb_target *t = p->targets; t->name; t++) {
		if (is_cbc(t))
			continue;
		if (run_target(t, over, 1001) || run_target(t, stream, 1001))
			return 1;
	}
	return 0;
}

static int cbc_refuses_a_size_off_the_block(void)
{
	static const char *const over[] = { "size=1000", NULL };
	const struct hb_plugin *p = hostbench_plugin_entry();
	struct fh_case fc;
	char err[512] = "";
	void *state = NULL;

	for (const struct hb_target *t = p->targets; t->name; t++) {
		if (!is_cbc(t) || strcmp(t->name, "blowfish-cbc") == 0)
			continue;
		fh_case_init(&fc, t, over);
		CHECK_INT(p->setup(&fc.c, &state, err, sizeof(err)), HB_EINVAL);
		CHECK_CONTAINS(err, "not a multiple of 16");
	}
	return 0;
}

static int one_byte_messages_run(void)
{
	static const char *const over[] = { "size=1", NULL };
	const struct hb_plugin *p = hostbench_plugin_entry();

	for (const struct hb_target *t = p->targets; t->name; t++)
		if (!is_cbc(t) && run_target(t, over, 1))
			return 1;
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"every_target_encrypts_messages", every_target_encrypts_messages},
	{"every_target_decrypts_and_verifies_messages", every_target_decrypts_and_verifies_messages},
	{"every_target_runs_a_stream", every_target_runs_a_stream},
	{"every_target_decrypts_a_stream", every_target_decrypts_a_stream},
	{"sizes_off_the_block_run_outside_cbc", sizes_off_the_block_run_outside_cbc},
	{"cbc_refuses_a_size_off_the_block", cbc_refuses_a_size_off_the_block},
	{"one_byte_messages_run", one_byte_messages_run},
};
/* clang-format on */

TEST_MAIN(tests)
