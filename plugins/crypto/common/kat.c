/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Algorithm parameters, and the published known-answer vectors of the SDK
 * header (hostbench/crypto.h) decoded for the engine.
 */
#include "cx.h"

#include <string.h>

#include <hostbench/crypto.h>

#include "seam.h"

/* Parameters, indexed by enum cx_alg. */
static const struct cx_alginfo alg_infos[CX_NALGS] = {
	[CX_AES_128_GCM] = { "AES-128-GCM", CX_AEAD, 16, 12, 16, 1, 0 },
	[CX_AES_256_GCM] = { "AES-256-GCM", CX_AEAD, 32, 12, 16, 1, 0 },
	[CX_AES_128_CTR] = { "AES-128-CTR", CX_CIPHER, 16, 16, 0, 1, 0 },
	[CX_AES_192_CTR] = { "AES-192-CTR", CX_CIPHER, 24, 16, 0, 1, 0 },
	[CX_AES_256_CTR] = { "AES-256-CTR", CX_CIPHER, 32, 16, 0, 1, 0 },
	[CX_AES_256_CBC] = { "AES-256-CBC", CX_CIPHER, 32, 16, 0, 16, 0 },
	[CX_CHACHA20_POLY1305] = { "ChaCha20-Poly1305", CX_AEAD, 32, 12, 16, 1,
				   0 },
	[CX_BF_CBC] = { "Blowfish-CBC", CX_CIPHER, 16, 8, 0, 8, 0 },
	[CX_HMAC_MD5] = { "HMAC-MD5", CX_MAC, 16, 0, 16, 1, 0 },
	[CX_HMAC_SHA1] = { "HMAC-SHA1", CX_MAC, 20, 0, 20, 1, 0 },
	[CX_HMAC_SHA256] = { "HMAC-SHA256", CX_MAC, 32, 0, 32, 1, 0 },
	[CX_POLY1305] = { "Poly1305", CX_MAC, 32, 0, 16, 1, 1 },
	[CX_MD5] = { "MD5", CX_DIGEST, 0, 0, 16, 1, 0 },
	[CX_SHA1] = { "SHA-1", CX_DIGEST, 0, 0, 20, 1, 0 },
	[CX_SHA256] = { "SHA-256", CX_DIGEST, 0, 0, 32, 1, 0 },
	[CX_SHA512] = { "SHA-512", CX_DIGEST, 0, 0, 64, 1, 0 },
	[CX_SHA3_256] = { "SHA3-256", CX_DIGEST, 0, 0, 32, 1, 0 },
	[CX_BLAKE2B_512] = { "BLAKE2b-512", CX_DIGEST, 0, 0, 64, 1, 0 },
};

const struct cx_alginfo *cx_alg_info(enum cx_alg alg)
{
	if (alg <= CX_NONE || alg >= CX_NALGS)
		return NULL;
	return &alg_infos[alg];
}

/* The published vector of alg: the SDK's, found by the algorithm's name. */
static const struct hb_crypto_kat *kat_text(enum cx_alg alg)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);

	if (!ai)
		return NULL;
	for (const struct hb_crypto_kat *k = hb_crypto_kats(); k->target; k++)
		if (strcmp(k->alg, ai->name) == 0)
			return k;
	return NULL;
}

int cx_kat_load(enum cx_alg alg, struct cx_kat *kat)
{
	const struct hb_crypto_kat *t = kat_text(alg);

	memset(kat, 0, sizeof(*kat));
	if (!t)
		return -1;
	kat->source = t->source;
	if (hb_crypto_unhex(t->key, kat->key, sizeof(kat->key),
			    &kat->key_len) ||
	    hb_crypto_unhex(t->iv, kat->iv, sizeof(kat->iv), &kat->iv_len) ||
	    hb_crypto_unhex(t->aad, kat->aad, sizeof(kat->aad),
			    &kat->aad_len) ||
	    hb_crypto_unhex(t->in, kat->in, sizeof(kat->in), &kat->in_len) ||
	    hb_crypto_unhex(t->out, kat->out, sizeof(kat->out),
			    &kat->out_len) ||
	    hb_crypto_unhex(t->tag, kat->tag, sizeof(kat->tag), &kat->tag_len))
		return -1;
	cx_seam_known_answer(kat->out, kat->out_len);
	cx_seam_known_answer(kat->tag, kat->tag_len);
	return 0;
}

int cx_memneq(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint8_t diff = 0;

	for (size_t i = 0; i < n; i++)
		diff |= (uint8_t)(a[i] ^ b[i]);
	return diff != 0;
}

int cx_kat_compare(const struct cx_alginfo *ai, const struct cx_kat *kat,
		   const char *what, const uint8_t *got, const uint8_t *want,
		   size_t len, char *err, size_t errlen)
{
	if (!cx_memneq(got, want, len))
		return 0;
	return hb_errorf(err, errlen, HB_EVERIFY,
			 "known-answer check failed: %s %s differs from %s",
			 ai->name, what, kat->source);
}
