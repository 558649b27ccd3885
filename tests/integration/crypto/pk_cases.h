/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What test_pk.c and test_pk_tamper.c share: every pk target of the
 * plugin under test on each of its curves, set up, run 3 operations and
 * torn down, through a fake host.
 */
#ifndef HB_TEST_PK_CASES_H
#define HB_TEST_PK_CASES_H

#include <stdio.h>
#include <string.h>

#include "../../unit/check.h"
#include "fake_host.h"

const struct hb_plugin *hostbench_plugin_entry(void);

/* The curve choices of t, or a list of one NULL (RSA: no curve). */
static const char *const *curves_of(const struct hb_target *t)
{
	static const char *const none[] = { NULL, NULL };

	for (const struct hb_option *o = t->options; o->name; o++)
		if (strcmp(o->name, "curve") == 0)
			return o->choices;
	return none;
}

/*
 * Set up t with over, run 3 operations: the run's rc, HB_SKIP from setup,
 * or -100 when setup failed.
 */
static int run3(const struct hb_target *t, const char *const *over,
		struct hb_done *done, char *err, size_t errlen)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	struct fh_case fc;
	void *state = NULL;
	int rc;

	fh_case_init(&fc, t, over);
	rc = p->setup(&fc.c, &state, err, errlen);
	if (rc == HB_SKIP)
		return rc;
	if (rc) {
		fprintf(stderr, "pk/%s %s: setup: %d %s\n", t->name,
			over[0] ? over[0] : "", rc, err);
		return -100;
	}
	rc = p->run(state, 3, done, err, errlen);
	p->teardown(state);
	return rc;
}

/* Every pk target on each curve with the overrides extra (or none). */
static int each_case(const char *extra, int want_verify_rc)
{
	const struct hb_plugin *p = hostbench_plugin_entry();

	for (const struct hb_target *t = p->targets; t->name; t++) {
		const char *const *curve = curves_of(t);

		if (strcmp(t->group, "pk") != 0)
			continue;
		for (; curve == curves_of(t) || *curve; curve++) {
			char kv[64];
			const char *over[] = { NULL, extra, NULL };
			struct hb_done done = { 0 };
			char err[512] = "";
			int verify = strstr(t->name, "verify") != NULL;
			int rc;

			if (*curve) {
				snprintf(kv, sizeof(kv), "curve=%s", *curve);
				over[0] = kv;
			} else {
				over[0] = extra;
				over[1] = NULL;
			}
			rc = run3(t, over, &done, err, sizeof(err));
			CHECK(rc != -100);
			if (rc == HB_SKIP) { /* only what key_seed cannot do */
				CHECK_CONTAINS(err, "key_seed");
				continue;
			}
			CHECK_INT(rc, verify ? want_verify_rc : 0);
			CHECK_INT(done.ops, rc ? 0 : 3);
			if (rc)
				CHECK_CONTAINS(err, "signature check failed");
			if (!*curve)
				break;
		}
	}
	return 0;
}

#endif
