/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL's own options: which provider did the work is recorded, the
 * legacy provider serves Blowfish, and an unknown provider or a property
 * query nothing matches fails the case with OpenSSL's reason.
 */
#include <string.h>

#include "../../unit/check.h"
#include "fake_host.h"

const struct hb_plugin *hostbench_plugin_entry(void);

/* Set up fullname with overrides; rc, err and notes for the caller. */
static int try_setup(const char *fullname, const char *const *over,
		     struct fh_case *fc, char *err, size_t errlen)
{
	const struct hb_plugin *p = hostbench_plugin_entry();
	const struct hb_target *t = fh_target(p, fullname);
	void *state = NULL;
	int rc;

	if (!t)
		return -100;
	fh_case_init(fc, t, over);
	rc = p->setup(&fc->c, &state, err, errlen);
	if (rc == 0)
		p->teardown(state);
	return rc;
}

static int default_provider_is_noted(void)
{
	static const char *const over[] = { "size=64", NULL };
	struct fh_case fc;
	char err[512] = "";

	CHECK_INT(try_setup("crypto/aes-256-gcm", over, &fc, err, sizeof(err)),
		  0);
	CHECK_STR(fh_note(&fc, "provider"), "default");
	CHECK_CONTAINS(fh_note(&fc, "library"), "OpenSSL 3");
	return 0;
}

static int blowfish_comes_from_the_legacy_provider(void)
{
	static const char *const over[] = { "size=64", NULL };
	struct fh_case fc;
	char err[512] = "";

	CHECK_INT(try_setup("crypto/blowfish-cbc", over, &fc, err, sizeof(err)),
		  0);
	CHECK_STR(fh_note(&fc, "provider"), "legacy");
	return 0;
}

static int blowfish_without_legacy_fails_with_reason(void)
{
	static const char *const over[] = { "provider=default", NULL };
	struct fh_case fc;
	char err[512] = "";

	CHECK_INT(try_setup("crypto/blowfish-cbc", over, &fc, err, sizeof(err)),
		  HB_ECRYPTO);
	CHECK_CONTAINS(err, "fetching BF-CBC");
	CHECK_CONTAINS(err, "unsupported");
	return 0;
}

static int unknown_provider_fails_with_openssl_reason(void)
{
	static const char *const over[] = { "provider=default+nosuchprov",
					    NULL };
	struct fh_case fc;
	char err[512] = "";

	CHECK_INT(try_setup("crypto/aes-256-ctr", over, &fc, err, sizeof(err)),
		  HB_ECRYPTO);
	CHECK_CONTAINS(err, "loading OpenSSL provider \"nosuchprov\"");
	CHECK_CONTAINS(err, "nosuchprov.so");
	return 0;
}

static int unmatched_properties_fail_with_openssl_reason(void)
{
	static const char *const over[] = { "properties=provider=nosuchprov",
					    NULL };
	struct fh_case fc;
	char err[512] = "";

	CHECK_INT(try_setup("mac/hmac-sha256", over, &fc, err, sizeof(err)),
		  HB_ECRYPTO);
	CHECK_CONTAINS(err, "properties \"provider=nosuchprov\"");
	CHECK_CONTAINS(err, "unsupported");
	return 0;
}

static int a_property_query_picks_the_provider(void)
{
	static const char *const over[] = { "provider=legacy+default",
					    "properties=provider=default",
					    NULL };
	struct fh_case fc;
	char err[512] = "";

	CHECK_INT(try_setup("hash/md5", over, &fc, err, sizeof(err)), 0);
	CHECK_STR(fh_note(&fc, "provider"), "default");
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"default_provider_is_noted", default_provider_is_noted},
	{"blowfish_comes_from_the_legacy_provider", blowfish_comes_from_the_legacy_provider},
	{"blowfish_without_legacy_fails_with_reason", blowfish_without_legacy_fails_with_reason},
	{"unknown_provider_fails_with_openssl_reason", unknown_provider_fails_with_openssl_reason},
	{"unmatched_properties_fail_with_openssl_reason", unmatched_properties_fail_with_openssl_reason},
	{"a_property_query_picks_the_provider", a_property_query_picks_the_provider},
};
/* clang-format on */

TEST_MAIN(tests)
