/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The targets the crypto backends offer, written once. A backend builds
 * its hb_target table from CX_TARGETS (or the CX_T_ macros of the targets
 * it has) with its own option tables, one per option class, each the
 * class's HB_CRYPTO_OPTIONS_ of the SDK header (hostbench/crypto.h) and
 * then its own, so OpenSSL can add provider and properties while the
 * targets, their names, their options and their parts stay the same on
 * every backend.
 */
#ifndef HB_CRYPTO_TARGETS_H
#define HB_CRYPTO_TARGETS_H

#include <hostbench/crypto.h>
#include <hostbench/plugin.h>

#include "cx.h"

/* Parts of a composite: a static, NULL-terminated list. */
#define CX_PARTS(...) ((const char *const[]){ __VA_ARGS__, NULL })

/*
 * Each target is one macro, CX_T_<NAME>(X), calling
 * X(group, name, summary, option class, primitive, MAC, parts). The option
 * classes are: cipher (any size), cbc16 and cbc8 (sizes a multiple of the
 * block), mac, digest. A composite encrypts then MACs the same buffer.
 * CX_TARGETS(X) is every target; a backend that offers only some lists
 * the ones it has (the ipsec-mb backend), so names, summaries and parts
 * stay written once.
 */
#define CX_T_AES_256_GCM(X)                                                    \
	X("crypto", "aes-256-gcm",                                             \
	  "AES-256-GCM AEAD, 96-bit nonce, 128-bit tag", cipher,               \
	  CX_AES_256_GCM, CX_NONE, NULL)
#define CX_T_AES_128_GCM(X)                                                    \
	X("crypto", "aes-128-gcm",                                             \
	  "AES-128-GCM AEAD, 96-bit nonce, 128-bit tag", cipher,               \
	  CX_AES_128_GCM, CX_NONE, NULL)
#define CX_T_AES_256_CTR(X)                                                    \
	X("crypto", "aes-256-ctr", "AES-256 in counter mode", cipher,          \
	  CX_AES_256_CTR, CX_NONE, NULL)
#define CX_T_AES_192_CTR(X)                                                    \
	X("crypto", "aes-192-ctr", "AES-192 in counter mode", cipher,          \
	  CX_AES_192_CTR, CX_NONE, NULL)
#define CX_T_AES_128_CTR(X)                                                    \
	X("crypto", "aes-128-ctr", "AES-128 in counter mode", cipher,          \
	  CX_AES_128_CTR, CX_NONE, NULL)
#define CX_T_AES_256_CBC(X)                                                    \
	X("crypto", "aes-256-cbc", "AES-256-CBC without padding", cbc16,       \
	  CX_AES_256_CBC, CX_NONE, NULL)
#define CX_T_CHACHA20_POLY1305(X)                                              \
	X("crypto", "chacha20-poly1305", "ChaCha20-Poly1305 AEAD (RFC 8439)",  \
	  cipher, CX_CHACHA20_POLY1305, CX_NONE, NULL)
#define CX_T_BLOWFISH_CBC(X)                                                   \
	X("crypto", "blowfish-cbc",                                            \
	  "Blowfish-CBC, 128-bit key, without padding", cbc8, CX_BF_CBC,       \
	  CX_NONE, NULL)
#define CX_T_AES_256_CBC_HMAC_MD5(X)                                           \
	X("crypto", "aes-256-cbc-hmac-md5",                                    \
	  "AES-256-CBC then HMAC-MD5 over the ciphertext", cbc16,              \
	  CX_AES_256_CBC, CX_HMAC_MD5,                                         \
	  CX_PARTS("crypto/aes-256-cbc", "mac/hmac-md5"))
#define CX_T_AES_256_CBC_HMAC_SHA1(X)                                          \
	X("crypto", "aes-256-cbc-hmac-sha1",                                   \
	  "AES-256-CBC then HMAC-SHA1 over the ciphertext", cbc16,             \
	  CX_AES_256_CBC, CX_HMAC_SHA1,                                        \
	  CX_PARTS("crypto/aes-256-cbc", "mac/hmac-sha1"))
#define CX_T_AES_256_CBC_HMAC_SHA256(X)                                        \
	X("crypto", "aes-256-cbc-hmac-sha256",                                 \
	  "AES-256-CBC then HMAC-SHA256 over the ciphertext", cbc16,           \
	  CX_AES_256_CBC, CX_HMAC_SHA256,                                      \
	  CX_PARTS("crypto/aes-256-cbc", "mac/hmac-sha256"))
#define CX_T_AES_256_CTR_POLY1305(X)                                           \
	X("crypto", "aes-256-ctr-poly1305",                                    \
	  "AES-256-CTR then Poly1305 (one-time key) over the ciphertext",      \
	  cipher, CX_AES_256_CTR, CX_POLY1305,                                 \
	  CX_PARTS("crypto/aes-256-ctr", "mac/poly1305"))
#define CX_T_HMAC_MD5(X)                                                       \
	X("mac", "hmac-md5", "HMAC-MD5 (RFC 2104)", mac, CX_HMAC_MD5, CX_NONE, \
	  NULL)
#define CX_T_HMAC_SHA1(X)                                                      \
	X("mac", "hmac-sha1", "HMAC-SHA1 (RFC 2104)", mac, CX_HMAC_SHA1,       \
	  CX_NONE, NULL)
#define CX_T_HMAC_SHA256(X)                                                    \
	X("mac", "hmac-sha256", "HMAC-SHA256 (RFC 2104)", mac, CX_HMAC_SHA256, \
	  CX_NONE, NULL)
#define CX_T_POLY1305(X)                                                       \
	X("mac", "poly1305", "Poly1305, a fresh one-time key per message",     \
	  mac, CX_POLY1305, CX_NONE, NULL)
#define CX_T_MD5(X)                                                            \
	X("hash", "md5", "MD5 digest", digest, CX_MD5, CX_NONE, NULL)
#define CX_T_SHA1(X)                                                           \
	X("hash", "sha1", "SHA-1 digest", digest, CX_SHA1, CX_NONE, NULL)
#define CX_T_SHA256(X)                                                         \
	X("hash", "sha256", "SHA-256 digest", digest, CX_SHA256, CX_NONE, NULL)
#define CX_T_SHA512(X)                                                         \
	X("hash", "sha512", "SHA-512 digest", digest, CX_SHA512, CX_NONE, NULL)
#define CX_T_SHA3_256(X)                                                       \
	X("hash", "sha3-256", "SHA3-256 digest", digest, CX_SHA3_256, CX_NONE, \
	  NULL)
#define CX_T_BLAKE2B_512(X)                                                    \
	X("hash", "blake2b-512", "BLAKE2b-512 digest (RFC 7693)", digest,      \
	  CX_BLAKE2B_512, CX_NONE, NULL)

/* Every shared target, in the order the built-in backends list them. */
#define CX_TARGETS(X)                                                          \
	CX_T_AES_256_GCM(X)                                                    \
	CX_T_AES_128_GCM(X)                                                    \
	CX_T_AES_256_CTR(X)                                                    \
	CX_T_AES_192_CTR(X)                                                    \
	CX_T_AES_128_CTR(X)                                                    \
	CX_T_AES_256_CBC(X)                                                    \
	CX_T_CHACHA20_POLY1305(X)                                              \
	CX_T_BLOWFISH_CBC(X)                                                   \
	CX_T_AES_256_CBC_HMAC_MD5(X)                                           \
	CX_T_AES_256_CBC_HMAC_SHA1(X)                                          \
	CX_T_AES_256_CBC_HMAC_SHA256(X)                                        \
	CX_T_AES_256_CTR_POLY1305(X)                                           \
	CX_T_HMAC_MD5(X)                                                       \
	CX_T_HMAC_SHA1(X)                                                      \
	CX_T_HMAC_SHA256(X)                                                    \
	CX_T_POLY1305(X)                                                       \
	CX_T_MD5(X)                                                            \
	CX_T_SHA1(X)                                                           \
	CX_T_SHA256(X)                                                         \
	CX_T_SHA512(X)                                                         \
	CX_T_SHA3_256(X)                                                       \
	CX_T_BLAKE2B_512(X)

/* The fields of one hb_target of class cls, for a backend's table. */
#define CX_TARGET_FIELDS(grp, nam, sum, cls, prt)                              \
	.group = (grp), .name = (nam), .summary = (sum),                       \
	.work = HB_WORK_BYTES, .options = cls##_options, .parts = (prt)

/*
 * One hb_target entry of class cls, for a backend's table: its timed path
 * writes the core's buffers (ABI 1.4), so the core verifies it.
 */
#define CX_TARGET_ENTRY(grp, nam, sum, cls, alg, mac, prt)                     \
	{ CX_TARGET_FIELDS(grp, nam, sum, cls, prt),                           \
	  .flags = HB_TARGET_VERIFIED },

/* The same, taking the job path: submit and poll keep messages in flight. */
#define CX_ASYNC_TARGET_ENTRY(grp, nam, sum, cls, alg, mac, prt)               \
	{ CX_TARGET_FIELDS(grp, nam, sum, cls, prt),                           \
	  .flags = HB_TARGET_ASYNC | HB_TARGET_VERIFIED },

/* What a target is made of: a primitive, and a MAC for composites. */
struct cx_spec {
	enum cx_alg alg;
	enum cx_alg mac; /* CX_NONE unless composite */
};

/* The spec of target t (matched by group and name), or NULL. */
const struct cx_spec *cx_spec_find(const struct hb_target *t);

#endif
