/* SPDX-License-Identifier: Apache-2.0 */
/*
 * crypto_ipsecmb.so: the shared crypto targets the intel-ipsec-mb library
 * offers, measured through its multi-buffer job API. Every target takes
 * the asynchronous slots: with queue_depth N a worker keeps N messages in
 * its manager, so the library can fill its lanes, as an IPsec stack does;
 * at depth 1 each message is flushed through one lane alone.
 */
#include <stdio.h>

#include <hostbench/plugin.h>

#include "../common/cpu.h"
#include "../common/engine.h"
#include "../common/targets.h"
#include "../common/transform.h"
#include "ipmb.h"

/* clang-format off */
static const struct hb_option cipher_options[] = {
	HB_CRYPTO_OPTIONS_CIPHER,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option cbc16_options[] = {
	HB_CRYPTO_OPTIONS_CBC(16),
	HB_CRYPTO_OPT_END,
};

static const struct hb_option mac_options[] = {
	HB_CRYPTO_OPTIONS_MAC,
	HB_CRYPTO_OPT_END,
};

static const struct hb_option digest_options[] = {
	HB_CRYPTO_OPTIONS_DIGEST,
	HB_CRYPTO_OPT_END,
};

/* What intel-ipsec-mb 1.3 has of the shared targets: no Blowfish, no
 * plain MD5, SHA3 or BLAKE2b. */
static const struct hb_target targets[] = {
	CX_T_AES_256_GCM(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_128_GCM(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_256_CTR(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_192_CTR(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_128_CTR(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_256_CBC(CX_ASYNC_TARGET_ENTRY)
	CX_T_CHACHA20_POLY1305(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_256_CBC_HMAC_MD5(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_256_CBC_HMAC_SHA1(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_256_CBC_HMAC_SHA256(CX_ASYNC_TARGET_ENTRY)
	CX_T_AES_256_CTR_POLY1305(CX_ASYNC_TARGET_ENTRY)
	CX_T_HMAC_MD5(CX_ASYNC_TARGET_ENTRY)
	CX_T_HMAC_SHA1(CX_ASYNC_TARGET_ENTRY)
	CX_T_HMAC_SHA256(CX_ASYNC_TARGET_ENTRY)
	CX_T_POLY1305(CX_ASYNC_TARGET_ENTRY)
	CX_T_SHA1(CX_ASYNC_TARGET_ENTRY)
	CX_T_SHA256(CX_ASYNC_TARGET_ENTRY)
	CX_T_SHA512(CX_ASYNC_TARGET_ENTRY)
	{.name = NULL},
};
/* clang-format on */

/*
 * Record "intel-ipsec-mb CPU": what the code path arch uses of the
 * features the manager found (cpu.h).
 */
static void ipmb_cpu_note(struct hb_about *a, uint64_t f, IMB_ARCH arch)
{
	int sse = arch >= IMB_ARCH_SSE;
	int avx512 = arch == IMB_ARCH_AVX512;
	const struct cx_cpu_use uses[] = {
		{ "AES-NI", sse && (f & IMB_FEATURE_AESNI) },
		{ "VAES", avx512 && (f & IMB_FEATURE_VAES) },
		{ "PCLMULQDQ", sse && (f & IMB_FEATURE_PCLMULQDQ) },
		{ "VPCLMULQDQ", avx512 && (f & IMB_FEATURE_VPCLMULQDQ) },
		{ "SHA-NI", sse && (f & IMB_FEATURE_SHANI) },
		{ "AVX2", arch >= IMB_ARCH_AVX2 },
		{ "AVX-512", avx512 },
	};
	char detail[64];

	snprintf(detail, sizeof(detail), "arch %s", ipmb_arch_name(arch));
	cx_cpu_note(a, "intel-ipsec-mb", uses, sizeof(uses) / sizeof(*uses),
		    detail);
}

/* The library version and the code path it picks on this CPU. */
static int ipmb_describe(struct hb_about *a, char *err, size_t errlen)
{
	IMB_MGR *mgr = alloc_mb_mgr(0);
	IMB_ARCH arch = IMB_ARCH_NONE;
	uint64_t features;
	char v[64];

	if (!mgr)
		return hb_errorf(err, errlen, HB_ENOMEM,
				 "alloc_mb_mgr: out of memory");
	init_mb_mgr_auto(mgr, &arch);
	features = mgr->features;
	free_mb_mgr(mgr);
	snprintf(v, sizeof(v), "%s (%s)", imb_get_version_str(),
		 ipmb_arch_name(arch));
	a->library(a, "intel-ipsec-mb", v);
	ipmb_cpu_note(a, features, arch);
	if (arch == IMB_ARCH_NONE)
		for (const struct hb_target *t = targets; t->name; t++) {
			snprintf(v, sizeof(v), "%s/%s", t->group, t->name);
			a->unusable(a, v, "intel-ipsec-mb finds no usable CPU");
		}
	return 0;
}

static int ipmb_setup(const struct hb_case *c, void **state, char *err,
		      size_t errlen)
{
	return cx_setup(&cx_ipsecmb_ops, c, state, err, errlen);
}

/* One message of `hostbench check` (ABI 1.2), on the job path. */
static int ipmb_transform(const struct hb_case *c, struct hb_message *m,
			  char *err, size_t errlen)
{
	return cx_transform(&cx_ipsecmb_ops, c, m, err, errlen);
}

static const struct hb_plugin plugin = {
	.abi_major = HB_ABI_MAJOR,
	.abi_minor = HB_ABI_MINOR,
	.size = sizeof(struct hb_plugin),
	.name = "ipsec-mb",
	.version = "1.0.0",
	.summary = "ciphers, MACs and digests through Intel's multi-buffer "
		   "crypto library (intel-ipsec-mb), messages in flight",
	.targets = targets,
	.describe = ipmb_describe,
	.setup = ipmb_setup,
	.run = cx_run,
	.teardown = cx_teardown,
	.validate = cx_validate,
	.submit = cx_submit,
	.poll = cx_poll,
	.transform = ipmb_transform,
};

HB_EXPORT const struct hb_plugin *hostbench_plugin_entry(void)
{
	return &plugin;
}
