/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Linked with the tamper seam (tests/fixtures/crypto), the engine damages one
 * byte of the message it prepared for decrypt cases, after its tag and MAC were
 * computed: every authenticated target (AEADs, composites, MACs) must then
 * fail run() with HB_EVERIFY, while plain CTR and CBC, which carry no tag,
 * decrypt it without complaint.
 */
#include <string.h>

#include "../../unit/check.h"
#include "fake_host.h"

const struct hb_plugin *hostbench_plugin_entry(void);

/* A target whose messages carry a tag or MAC. */
static int authenticated(const struct hb_target *t)
{
	return strcmp(t->group, "mac") == 0 || strstr(t->name, "gcm") ||
	       strstr(t->name, "poly1305") || strstr(t->name, "hmac");
}

static int damaged_message_fails_every_authenticated_decrypt(void)
{
	static const char *const over[] = { "size=4096", "direction=decrypt",
					    NULL };
	const struct hb_plugin *p = hostbench_plugin_entry();
	struct fh_case fc;

	for (const struct hb_target *t = p->targets; t->name; t++) {
		struct hb_done done = { 0 };
		char err[512] = "";
		void *state = NULL;
		int rc;

		if (strcmp(t->group, "hash") == 0 ||
		    strcmp(t->group, "pk") == 0) /* test_pk.c */
			continue;
		fh_case_init(&fc, t, over);
		CHECK_INT(p->setup(&fc.c, &state, err, sizeof(err)), 0);
		rc = p->run(state, 2, &done, err, sizeof(err));
		p->teardown(state);
		if (!authenticated(t)) {
			CHECK_INT(rc, 0);
			continue;
		}
		CHECK_INT(rc, HB_EVERIFY);
		CHECK_CONTAINS(err, "mismatch");
		CHECK_INT(done.ops, 0);
	}
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"damaged_message_fails_every_authenticated_decrypt", damaged_message_fails_every_authenticated_decrypt},
};
/* clang-format on */

TEST_MAIN(tests)
