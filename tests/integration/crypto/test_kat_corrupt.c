/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Linked with the kat_corrupt seam (tests/fixtures/crypto), the plugin's
 * known-answer vectors expect a wrong answer: every target must then fail setup
 * with HB_EVERIFY and a reason naming the check, in both directions, and never
 * run; so must it with sixteen messages in flight (the known answers go the
 * timed messages' path: the openssl backend's ASYNC jobs at that depth).
 */
#include <string.h>

#include "../../unit/check.h"
#include "fake_host.h"

const struct hb_plugin *hostbench_plugin_entry(void);

/*
 * Every target (with a direction, when direction is set) fails setup, at
 * queue depth depth ("queue_depth=N", or NULL).
 */
static int all_fail(const char *direction, const char *depth)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	const char *over[] = { "size=4096", depth ? depth : "queue_depth=1",
			       direction, NULL };
	struct fh_case fc;

	for (const struct hb_target *t = p->targets; t->name; t++) {
		char err[512] = "";
		void *state = NULL;
		int has_dir = 0;

		for (const struct hb_option *o = t->options; o->name; o++)
			has_dir |= strcmp(o->name, "direction") == 0;
		if (direction && !has_dir)
			continue;
		fh_case_init(&fc, t, over);
		CHECK_INT(p->setup(&fc.c, &state, err, sizeof(err)),
			  HB_EVERIFY);
		CHECK_CONTAINS(err, "known-answer check failed");
		CHECK(state == NULL);
	}
	return 0;
}

static int wrong_answer_fails_every_encrypt_setup(void)
{
	return all_fail(NULL, NULL);
}

static int wrong_answer_fails_every_decrypt_setup(void)
{
	return all_fail("direction=decrypt", NULL);
}

static int wrong_answer_fails_decrypt_setup_sixteen_in_flight(void)
{
	return all_fail("direction=decrypt", "queue_depth=16");
}

/* clang-format off */
static const struct test tests[] = {
	{"wrong_answer_fails_every_encrypt_setup", wrong_answer_fails_every_encrypt_setup},
	{"wrong_answer_fails_every_decrypt_setup", wrong_answer_fails_every_decrypt_setup},
	{"wrong_answer_fails_decrypt_setup_sixteen_in_flight", wrong_answer_fails_decrypt_setup_sixteen_in_flight},
};
/* clang-format on */

TEST_MAIN(tests)
