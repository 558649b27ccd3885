/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What test_pk_async.c and test_pk_async_tamper.c share: every pk target
 * of the plugin under test driven through submit and poll, as the core
 * drives an asynchronous target, at a given queue depth.
 */
#ifndef HB_TEST_PK_ASYNC_H
#define HB_TEST_PK_ASYNC_H

#include <stdio.h>
#include <string.h>

#include "../../unit/check.h"
#include "fake_host.h"

#define PK_MAX_DEPTH 16

const struct hb_plugin *hostbench_plugin_entry(void);

/*
 * Complete n operations on state with depth in flight: 0 when every tag
 * came back once with one operation, the first failing status of a
 * poll, or -100 when the plugin broke the protocol.
 */
static int pk_drive(void *state, unsigned depth, unsigned n, char *err,
		    size_t errlen)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	struct hb_completion c[PK_MAX_DEPTH];
	int busy[PK_MAX_DEPTH] = { 0 };
	unsigned sent = 0, finished = 0, inflight = 0;

	while (finished < n) {
		for (uint64_t tag = 0; tag < depth && sent < n; tag++) {
			if (busy[tag])
				continue;
			if (p->submit(state, tag, err, errlen))
				return -100;
			busy[tag] = 1;
			sent++;
			inflight++;
		}
		int got = p->poll(state, 1, inflight, 10000000, c, err, errlen);

		if (got < 0)
			return got;
		if (got < 1)
			return -100;
		for (int i = 0; i < got; i++) {
			if (c[i].tag >= depth || !busy[c[i].tag] ||
			    c[i].status || c[i].done.ops != 1)
				return -100;
			busy[c[i].tag] = 0;
		}
		finished += (unsigned)got;
		inflight -= (unsigned)got;
	}
	return 0;
}

/* Every pk target at depth: verify targets end with want_verify. */
static int pk_each_async(unsigned depth, int want_verify)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	char qd[32];
	const char *over[] = { qd, NULL };
	struct fh_case fc;

	snprintf(qd, sizeof(qd), "queue_depth=%u", depth);
	for (const struct hb_target *t = p->targets; t->name; t++) {
		int verify = strstr(t->name, "verify") != NULL;
		char err[512] = "";
		void *state = NULL;
		int rc;

		if (strcmp(t->group, "pk") != 0)
			continue;
		CHECK(t->flags & HB_TARGET_ASYNC);
		fh_case_init(&fc, t, over);
		CHECK_INT(p->setup(&fc.c, &state, err, sizeof(err)), 0);
		rc = pk_drive(state, depth, 3 * depth + 1, err, sizeof(err));
		p->teardown(state);
		if (rc)
			fprintf(stderr, "pk/%s depth %u: %d %s\n", t->name,
				depth, rc, err);
		CHECK_INT(rc, verify ? want_verify : 0);
		if (rc)
			CHECK_CONTAINS(err, "signature check failed");
	}
	return 0;
}

#endif
