/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Linked with the tamper seam (tests/fixtures/crypto): a damaged signature
 * fails every pk verify target's poll with HB_EVERIFY, at depth 1 and inside
 * the ASYNC_JOBs at depth 16; sign and derive targets still complete.
 */
#include "pk_async.h"

static int damaged_signature_fails_one_in_flight(void)
{
	return pk_each_async(1, HB_EVERIFY);
}

static int damaged_signature_fails_sixteen_in_flight(void)
{
	return pk_each_async(16, HB_EVERIFY);
}

/* clang-format off */
static const struct test tests[] = {
	{"damaged_signature_fails_one_in_flight", damaged_signature_fails_one_in_flight},
	{"damaged_signature_fails_sixteen_in_flight", damaged_signature_fails_sixteen_in_flight},
};
/* clang-format on */

TEST_MAIN(tests)
