/* SPDX-License-Identifier: Apache-2.0 */
/* SipHash-2-4 against the reference's test vectors. */
#include <stdint.h>

#include "base/siphash.h"
#include "check.h"

/* The reference key 00 01 .. 0f and message 00 01 .. len-1. */
static uint64_t reference(size_t len)
{
	unsigned char key[SIPHASH_KEY], msg[64] = { 0 };

	for (size_t i = 0; i < sizeof(key); i++)
		key[i] = (unsigned char)i;
	for (size_t i = 0; i < len; i++)
		msg[i] = (unsigned char)i;
	return siphash(key, msg, len);
}

static int matches_the_papers_vector(void)
{
	/* appendix A of the paper: 15 bytes */
	CHECK(reference(15) == 0xa129ca6149be45e5ull);
	return 0;
}

static int matches_the_reference_for_0_and_8_bytes(void)
{
	/* vectors.h of the reference, read as little-endian words */
	CHECK(reference(0) == 0x726fdb47dd0e0e31ull);
	CHECK(reference(8) == 0x93f5f5799a932462ull);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"matches_the_papers_vector", matches_the_papers_vector},
	{"matches_the_reference_for_0_and_8_bytes", matches_the_reference_for_0_and_8_bytes},
};
/* clang-format on */

TEST_MAIN(tests)
