/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pk targets of one backend through its plugin: every target on every
 * curve (and the RSA size, padding and seeded keys tested here) sets up,
 * checks its vector and counts one operation per iteration.
 */
#include "pk_cases.h"

static int every_target_runs_on_every_curve(void)
{
	return each_case(NULL, 0);
}

static int rsa_pss_signs_and_verifies(void)
{
	return each_case("padding=pss", 0);
}

static int rsa_3072_signs_and_verifies(void)
{
	return each_case("bits=3072", 0);
}

static int seeded_keys_run(void)
{
	return each_case("key_seed=42", 0);
}

/* clang-format off */
static const struct test tests[] = {
	{"every_target_runs_on_every_curve", every_target_runs_on_every_curve},
	{"rsa_pss_signs_and_verifies", rsa_pss_signs_and_verifies},
	{"rsa_3072_signs_and_verifies", rsa_3072_signs_and_verifies},
	{"seeded_keys_run", seeded_keys_run},
};
/* clang-format on */

TEST_MAIN(tests)
