/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A key the library refuses skips the case with the library's reason: a
 * backend whose key_make refuses every RSA size below 4096 bits (as a
 * library with a higher minimum would) through the shared pk setup.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../plugins/crypto/common/pk.h"
#include "../../unit/check.h"
#include "fake_host.h"

/* Refuses bits below 4096 (the vector's 2048 included), like a library
 * minimum; makes nothing else either, so only the refusal is tested. */
static int refusing_key_make(const struct pk_params *p,
			     const struct pk_keydata *kd, void **key, char *err,
			     size_t errlen)
{
	(void)kd;
	(void)key;
	if (p->bits < 4096)
		return hb_errorf(err, errlen, HB_SKIP,
				 "fakelib: RSA keys below 4096 bits refused");
	return hb_errorf(err, errlen, HB_ENOTSUP, "not in this test");
}

static const struct pk_ops refusing_ops = {
	.key_make = refusing_key_make,
};

static const struct hb_target rsa_sign = { .group = "pk",
					   .name = "rsa-sign",
					   .options = pk_rsa_options };

static int bits_below_the_library_minimum_skip_with_its_reason(void)
{
	static const char *const over[] = { "bits=3072", NULL };
	struct fh_case fc;
	char err[512] = "";
	void *state = NULL;

	fh_case_init(&fc, &rsa_sign, over);
	CHECK_INT(pk_setup(&refusing_ops, &fc.c, &state, err, sizeof(err)),
		  HB_SKIP);
	CHECK_STR(err, "fakelib: RSA keys below 4096 bits refused");
	CHECK(state == NULL);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"bits_below_the_library_minimum_skip_with_its_reason", bits_below_the_library_minimum_skip_with_its_reason},
};
/* clang-format on */

TEST_MAIN(tests)
