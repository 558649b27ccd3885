/* SPDX-License-Identifier: Apache-2.0 */
/*
 * intel-ipsec-mb queues: one multi-buffer manager per worker, and per
 * queue the keys of its algorithms expanded as the library wants them
 * (AES round keys, GCM hash keys, HMAC pads hashed once, as a connection
 * does). What the library cannot take as one message is refused here with
 * the reason, before anything is timed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipmb.h"

/* How the library names one algorithm; zeros: not offered. */
struct ipmb_name {
	IMB_CIPHER_MODE cipher;
	IMB_HASH_ALG hash;
	size_t max_hash; /* longest message one job hashes; 0: no limit */
};

static const struct ipmb_name ipmb_names[CX_NALGS] = {
	[CX_AES_128_GCM] = { IMB_CIPHER_GCM, IMB_AUTH_AES_GMAC, 0 },
	[CX_AES_256_GCM] = { IMB_CIPHER_GCM, IMB_AUTH_AES_GMAC, 0 },
	[CX_AES_128_CTR] = { IMB_CIPHER_CNTR, IMB_AUTH_NULL, 0 },
	[CX_AES_192_CTR] = { IMB_CIPHER_CNTR, IMB_AUTH_NULL, 0 },
	[CX_AES_256_CTR] = { IMB_CIPHER_CNTR, IMB_AUTH_NULL, 0 },
	[CX_AES_256_CBC] = { IMB_CIPHER_CBC, IMB_AUTH_NULL, 0 },
	[CX_CHACHA20_POLY1305] = { IMB_CIPHER_CHACHA20_POLY1305,
				   IMB_AUTH_CHACHA20_POLY1305, 0 },
	[CX_HMAC_MD5] = { IMB_CIPHER_NULL, IMB_AUTH_MD5, IPMB_MAX_LEN16 },
	[CX_HMAC_SHA1] = { IMB_CIPHER_NULL, IMB_AUTH_HMAC_SHA_1,
			   IPMB_MAX_LEN16 },
	[CX_HMAC_SHA256] = { IMB_CIPHER_NULL, IMB_AUTH_HMAC_SHA_256,
			     IPMB_MAX_LEN16 },
	[CX_POLY1305] = { IMB_CIPHER_NULL, IMB_AUTH_POLY1305, 0 },
	[CX_SHA1] = { IMB_CIPHER_NULL, IMB_AUTH_SHA_1, IPMB_MAX_LEN16 },
	[CX_SHA256] = { IMB_CIPHER_NULL, IMB_AUTH_SHA_256, IPMB_MAX_LEN16 },
	[CX_SHA512] = { IMB_CIPHER_NULL, IMB_AUTH_SHA_512, IPMB_MAX_LEN16 },
};

const char *ipmb_arch_name(IMB_ARCH arch)
{
	switch (arch) {
	case IMB_ARCH_NOAESNI:
		return "no-aesni";
	case IMB_ARCH_SSE:
		return "sse";
	case IMB_ARCH_AVX:
		return "avx";
	case IMB_ARCH_AVX2:
		return "avx2";
	case IMB_ARCH_AVX512:
		return "avx512";
	default:
		return "none";
	}
}

int ipmb_offers(enum cx_alg alg, char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);

	if (ai && ipmb_names[alg].cipher)
		return 0;
	return hb_errorf(err, errlen, HB_ENOTSUP,
			 "intel-ipsec-mb has no %s in this backend",
			 ai ? ai->name : "such algorithm");
}

static int ipmb_lib_open(const struct hb_case *c, void **lib, char *err,
			 size_t errlen)
{
	struct ipmb_lib *l = calloc(1, sizeof(*l));
	int e;

	(void)c;
	if (!l)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	l->mgr = alloc_mb_mgr(0);
	if (!l->mgr) {
		free(l);
		return hb_errorf(err, errlen, HB_ENOMEM,
				 "alloc_mb_mgr: out of memory");
	}
	init_mb_mgr_auto(l->mgr, &l->arch);
	e = imb_get_errno(l->mgr);
	if (e || l->arch == IMB_ARCH_NONE) {
		free_mb_mgr(l->mgr);
		free(l);
		return hb_errorf(err, errlen, HB_SKIP,
				 "intel-ipsec-mb %s: init_mb_mgr_auto: %s",
				 imb_get_version_str(),
				 e ? imb_get_strerror(e) : "no usable CPU");
	}
	*lib = l;
	return 0;
}

static void ipmb_lib_close(void *lib)
{
	struct ipmb_lib *l = lib;

	if (!l)
		return;
	free_mb_mgr(l->mgr);
	free(l);
}

/*
 * HB_SKIP with the reason when the library cannot take spec->len bytes
 * as one message: HMAC and SHA jobs take at most 65534 bytes, and a job
 * cannot hand its hash state to the next, so a longer message cannot be
 * chained. (CBC encrypt has the same limit; its pieces chain through the
 * IV, see ipmb_job.c; CTR and GCM take any length.)
 */
static int check_length(const struct cx_jobspec *spec, char *err, size_t errlen)
{
	const struct ipmb_name *n = &ipmb_names[spec->mac];

	if (spec->mac == CX_NONE || !n->max_hash || spec->len <= n->max_hash)
		return 0;
	return hb_errorf(err, errlen, HB_SKIP,
			 "intel-ipsec-mb %s hashes at most %zu bytes in one "
			 "%s job and cannot carry the hash to the next job: "
			 "size %zu cannot be one message (use %zu or less)",
			 imb_get_version_str(), n->max_hash,
			 cx_alg_info(spec->mac)->name, spec->len, n->max_hash);
}

/* AES round keys, or the GCM keys, or ChaCha20's key as it is. */
static void expand_cipher_key(struct ipmb_queue *q, const uint8_t *key)
{
	if (q->cipher == IMB_CIPHER_CHACHA20_POLY1305) {
		memcpy(q->key, key, sizeof(q->key));
	} else if (q->cipher == IMB_CIPHER_GCM) {
		if (q->ci->key_len == 16)
			IMB_AES128_GCM_PRE(q->mgr, key, &q->gcm);
		else
			IMB_AES256_GCM_PRE(q->mgr, key, &q->gcm);
	} else if (q->ci->key_len == 16) {
		IMB_AES_KEYEXP_128(q->mgr, key, q->enc, q->dec);
	} else if (q->ci->key_len == 24) {
		IMB_AES_KEYEXP_192(q->mgr, key, q->enc, q->dec);
	} else {
		IMB_AES_KEYEXP_256(q->mgr, key, q->enc, q->dec);
	}
}

/* HMAC: the key xor ipad and opad, each hashed once (RFC 2104). */
static int hmac_pads(struct ipmb_queue *q, const uint8_t *key, size_t len,
		     char *err, size_t errlen)
{
	uint8_t pad[64];

	if (len > sizeof(pad))
		return hb_errorf(err, errlen, HB_EINVAL,
				 "%s key of %zu bytes: longer than a block",
				 q->hi->name, len);
	for (int outer = 0; outer < 2; outer++) {
		uint8_t *out = outer ? q->opad : q->ipad;

		memset(pad, outer ? 0x5c : 0x36, sizeof(pad));
		for (size_t i = 0; i < len; i++)
			pad[i] ^= key[i];
		if (q->hash == IMB_AUTH_MD5)
			IMB_MD5_ONE_BLOCK(q->mgr, pad, out);
		else if (q->hash == IMB_AUTH_HMAC_SHA_1)
			IMB_SHA1_ONE_BLOCK(q->mgr, pad, out);
		else
			IMB_SHA256_ONE_BLOCK(q->mgr, pad, out);
	}
	return 0;
}

/* The MAC's key: HMAC pads, or a Poly1305 key kept for its jobs. */
static int set_mac_key(struct ipmb_queue *q, const struct cx_jobspec *spec,
		       char *err, size_t errlen)
{
	if (!spec->mac_key || !q->hi)
		return 0;
	if (q->hash == IMB_AUTH_POLY1305) {
		memcpy(q->mac_key, spec->mac_key, sizeof(q->mac_key));
		return 0;
	}
	return hmac_pads(q, spec->mac_key, spec->mac_key_len, err, errlen);
}

/* Who does the work, for the result. */
static void note_library(const struct hb_case *c, const struct ipmb_lib *l)
{
	char v[64];

	if (!c)
		return;
	snprintf(v, sizeof(v), "intel-ipsec-mb %s", imb_get_version_str());
	c->host->note(c, "library", v);
	c->host->note(c, "arch", ipmb_arch_name(l->arch));
}

static void ipmb_job_close(void *queue);

static int ipmb_job_open(void *lib, const struct hb_case *c,
			 const struct cx_jobspec *spec, void **out, char *err,
			 size_t errlen)
{
	struct ipmb_lib *l = lib;
	struct ipmb_queue *q;
	int rc = 0;

	if (spec->alg != CX_NONE)
		rc = ipmb_offers(spec->alg, err, errlen);
	if (!rc && spec->mac != CX_NONE)
		rc = ipmb_offers(spec->mac, err, errlen);
	if (!rc)
		rc = check_length(spec, err, errlen);
	if (rc)
		return rc;
	q = aligned_alloc(64, (sizeof(*q) + 63) & ~(size_t)63);
	if (!q)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	memset(q, 0, sizeof(*q));
	q->mgr = l->mgr;
	q->ci = cx_alg_info(spec->alg);
	q->hi = cx_alg_info(spec->mac);
	q->dir = spec->encrypt ? IMB_DIR_ENCRYPT : IMB_DIR_DECRYPT;
	q->cipher = q->ci ? ipmb_names[spec->alg].cipher : IMB_CIPHER_NULL;
	q->hash = q->ci && q->ci->kind == CX_AEAD ? ipmb_names[spec->alg].hash
		  : q->hi			  ? ipmb_names[spec->mac].hash
						  : IMB_AUTH_NULL;
	if (q->ci)
		expand_cipher_key(q, spec->key);
	rc = set_mac_key(q, spec, err, errlen);
	if (rc) {
		ipmb_job_close(q);
		return rc;
	}
	note_library(c, l);
	*out = q;
	return 0;
}

static void ipmb_job_close(void *queue)
{
	struct ipmb_queue *q = queue;

	if (!q)
		return;
	while (q->inflight && ipmb_job_reap(q, 1))
		;
	free(q);
}

const struct cx_ops cx_ipsecmb_ops = {
	.lib_open = ipmb_lib_open,
	.lib_close = ipmb_lib_close,
	.job_open = ipmb_job_open,
	.job_submit = ipmb_job_submit,
	.job_reap = ipmb_job_reap,
	.job_close = ipmb_job_close,
};
