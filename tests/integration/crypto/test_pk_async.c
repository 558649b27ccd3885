/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The openssl backend's pk targets through submit and poll: at depth 1
 * (each operation run in submit) and at depth 16 (each in its own OpenSSL
 * ASYNC_JOB), every tag comes back once with one operation.
 */
#include "pk_async.h"

static int every_pk_target_completes_one_in_flight(void)
{
	return pk_each_async(1, 0);
}

static int every_pk_target_completes_sixteen_in_flight(void)
{
	return pk_each_async(16, 0);
}

/* clang-format off */
static const struct test tests[] = {
	{"every_pk_target_completes_one_in_flight", every_pk_target_completes_one_in_flight},
	{"every_pk_target_completes_sixteen_in_flight", every_pk_target_completes_sixteen_in_flight},
};
/* clang-format on */

TEST_MAIN(tests)
