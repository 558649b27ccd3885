/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the crypto backends share: the algorithms both implement, their
 * parameters, and the published known-answer vectors they are checked
 * against. Both backends name the same operation with the same cx_alg, so
 * a target measured through OpenSSL and through libgcrypt does the same
 * work on the same data. cx_ (short for crypto) is the prefix of what the
 * backends share; each backend has its own (ossl_, gc_, xx_).
 */
#ifndef HB_CRYPTO_CX_H
#define HB_CRYPTO_CX_H

#include <stddef.h>
#include <stdint.h>

/*
 * The engine a crypto state belongs to: the symmetric engine (engine.c) or
 * the pk group's (pk.c). Every state opens with it, so the plugin slots
 * given only a state hand it to the engine that made it (backend.c).
 */
enum cx_engine { CX_ENGINE_SYMMETRIC = 1, CX_ENGINE_PK };

/* Every primitive a crypto target is made of. */
enum cx_alg {
	CX_NONE = 0,
	CX_AES_128_GCM,
	CX_AES_256_GCM,
	CX_AES_128_CTR,
	CX_AES_192_CTR,
	CX_AES_256_CTR,
	CX_AES_256_CBC,
	CX_CHACHA20_POLY1305,
	CX_BF_CBC,
	CX_HMAC_MD5,
	CX_HMAC_SHA1,
	CX_HMAC_SHA256,
	CX_POLY1305,
	CX_MD5,
	CX_SHA1,
	CX_SHA256,
	CX_SHA512,
	CX_SHA3_256,
	CX_BLAKE2B_512,
	CX_NALGS,
};

/* What kind of primitive an algorithm is; it decides how it is driven. */
enum cx_kind {
	CX_CIPHER, /* IV, then data; no tag */
	CX_AEAD,   /* nonce, optional AAD, data, then a tag */
	CX_MAC,	   /* key, data, then a tag */
	CX_DIGEST, /* data, then a digest */
};

/* Fixed parameters of one algorithm. */
struct cx_alginfo {
	const char *name; /* "AES-256-GCM", for messages */
	enum cx_kind kind;
	size_t key_len;	  /* cipher or MAC key bytes; 0 for digests */
	size_t iv_len;	  /* IV, initial counter block or nonce bytes */
	size_t out_len;	  /* AEAD tag, MAC or digest bytes */
	size_t block;	  /* data must be a multiple of this (CBC), else 1 */
	int one_time_key; /* MAC keys are never reused (Poly1305) */
};

/* Largest key, IV and tag/digest any algorithm above uses. */
#define CX_MAX_KEY 64
#define CX_MAX_IV  16
#define CX_MAX_OUT 64

/* The parameters of alg; NULL for CX_NONE or an unknown value. */
const struct cx_alginfo *cx_alg_info(enum cx_alg alg);

/*
 * One decoded known-answer vector. For ciphers `in` is the plaintext and
 * `out` the ciphertext; for MACs and digests `in` is the message and `out`
 * the MAC or digest. `tag` is the AEAD tag.
 */
struct cx_kat {
	const char *source; /* "NIST SP 800-38A F.5.5 CTR-AES256.Encrypt" */
	uint8_t key[CX_MAX_KEY];
	size_t key_len;
	uint8_t iv[CX_MAX_IV];
	size_t iv_len;
	uint8_t aad[64];
	size_t aad_len;
	uint8_t in[256];
	size_t in_len;
	uint8_t out[256];
	size_t out_len;
	uint8_t tag[CX_MAX_OUT];
	size_t tag_len;
};

/*
 * Fill kat with the published vector for alg. Returns 0, or -1 when alg
 * has none. Built with CX_KAT_CORRUPT (tests only), the expected output is
 * deliberately wrong in its last byte, so a test can prove that a wrong
 * answer fails the case.
 */
int cx_kat_load(enum cx_alg alg, struct cx_kat *kat);

/* Constant-time comparison of n bytes: 0 when equal. */
int cx_memneq(const uint8_t *a, const uint8_t *b, size_t n);

/*
 * Compare len bytes got of a known answer (what: "ciphertext", "tag",
 * ...) with want from kat: 0, or HB_EVERIFY naming ai and the vector.
 */
int cx_kat_compare(const struct cx_alginfo *ai, const struct cx_kat *kat,
		   const char *what, const uint8_t *got, const uint8_t *want,
		   size_t len, char *err, size_t errlen);

#endif
