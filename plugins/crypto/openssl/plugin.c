/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crypto_openssl.so: the shared crypto targets measured through OpenSSL's
 * libcrypto (EVP, EVP_MAC), with the providers and property query a suite
 * names, so a vendor's provider is benchmarked without writing code. Each
 * message runs in an OpenSSL ASYNC_JOB, so a suite's queue_depth keeps
 * that many in flight, as `openssl speed -async_jobs` does.
 */
#include <string.h>

#include <openssl/crypto.h>

#include <hostbench/plugin.h>

#include "../common/backend.h"
#include "../common/seam.h"
#include "../common/targets.h"
#include "ossl.h"

/* clang-format off */
/* Providers and property query, OpenSSL's own options. */
#define OSSL_OPT_PROVIDER(def_list)                                            \
	{                                                                      \
		.name = "provider", .type = HB_OPT_STRING, .def = (def_list),  \
		.help = "OpenSSL providers to load, joined with '+' (e.g. "    \
			"default+legacy, or a vendor's provider)"              \
	}
#define OSSL_OPT_PROPERTIES                                                    \
	{                                                                      \
		.name = "properties", .type = HB_OPT_STRING, .def = "",        \
		.help = "property query for fetching algorithms (e.g. "        \
			"provider=default, ?fips=yes); empty: any"             \
	}

static const struct hb_option cipher_options[] = {
	HB_CRYPTO_OPTIONS_CIPHER,
	HB_CRYPTO_OPT_REKEY,
	OSSL_OPT_PROVIDER("default"),
	OSSL_OPT_PROPERTIES,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option cbc16_options[] = {
	HB_CRYPTO_OPTIONS_CBC(16),
	HB_CRYPTO_OPT_REKEY,
	OSSL_OPT_PROVIDER("default"),
	OSSL_OPT_PROPERTIES,
	HB_CRYPTO_OPT_END,
};

/* OpenSSL 3 keeps Blowfish in the legacy provider. */
static const struct hb_option cbc8_options[] = {
	HB_CRYPTO_OPTIONS_CBC(8),
	HB_CRYPTO_OPT_REKEY,
	OSSL_OPT_PROVIDER("default+legacy"),
	OSSL_OPT_PROPERTIES,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option mac_options[] = {
	HB_CRYPTO_OPTIONS_MAC,
	HB_CRYPTO_OPT_REKEY,
	OSSL_OPT_PROVIDER("default"),
	OSSL_OPT_PROPERTIES,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option digest_options[] = {
	HB_CRYPTO_OPTIONS_DIGEST,
	OSSL_OPT_PROVIDER("default"),
	OSSL_OPT_PROPERTIES,
	HB_CRYPTO_OPT_END,
};

static const struct hb_target targets[] = {
	CX_TARGETS(CX_ASYNC_TARGET_ENTRY)
	PK_TARGETS(PK_ASYNC_TARGET_ENTRY)
	{.name = NULL},
};
/* clang-format on */

/*
 * The library version, the CPU features it uses, and Blowfish unusable
 * without the legacy provider.
 */
static int ossl_describe(struct hb_about *a, char *err, size_t errlen)
{
	const char *v = OpenSSL_version(OPENSSL_VERSION);
	char why[256];

	(void)err;
	(void)errlen;
	if (strncmp(v, "OpenSSL ", 8) == 0)
		v += 8;
	a->library(a, "OpenSSL", v);
	ossl_cpu_note(a);
	if (cx_openssl_probe("default+legacy", why, sizeof(why)))
		a->unusable(a, "crypto/blowfish-cbc", why);
	return 0;
}

static const struct cx_backend backend = {
	.cx = &cx_openssl_ops,
	.pk = &pk_openssl_ops,
};

static int ossl_setup(const struct hb_case *c, void **state, char *err,
		      size_t errlen)
{
	return cx_backend_setup(&backend, c, state, err, errlen);
}

/* A case, judged before anything runs: the masks OpenSSL reads first. */
static int ossl_validate(const struct hb_case *c, char *err, size_t errlen)
{
	int rc = ossl_env_check(err, errlen);

	return rc ? rc : cx_backend_validate(c, err, errlen);
}

/* One message of `hostbench check` (ABI 1.2). */
static int ossl_transform(const struct hb_case *c, struct hb_message *m,
			  char *err, size_t errlen)
{
	return cx_backend_transform(&backend, c, m, err, errlen);
}

static const struct hb_plugin plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "openssl",
	.version = "1.0.0",
	.summary = "ciphers, MACs, digests and public-key operations through "
		   "OpenSSL libcrypto (EVP)",
	.targets = targets,
	.describe = ossl_describe,
	.setup = ossl_setup,
	.run = cx_backend_run,
	.teardown = cx_backend_teardown,
	.validate = ossl_validate,
	.submit = cx_backend_submit,
	.poll = cx_backend_poll,
	.transform = ossl_transform,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return cx_seam_plugin(&plugin);
}
