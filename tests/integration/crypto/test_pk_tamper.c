/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Linked with the tamper seam (tests/fixtures/crypto), the signature a pk
 * verify target checks is damaged after setup: every verify run must fail with
 * HB_EVERIFY and count no operation, and every sign and derive still runs.
 */
#include "pk_cases.h"

static int damaged_signature_fails_every_verify(void)
{
	return each_case(NULL, HB_EVERIFY);
}

/* clang-format off */
static const struct test tests[] = {
	{"damaged_signature_fails_every_verify", damaged_signature_fails_every_verify},
};
/* clang-format on */

TEST_MAIN(tests)
