/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL and libgcrypt against each other: what one encrypts the other
 * decrypts, with the same ciphertext and AEAD tag, for every cipher both
 * offer; every MAC and digest gives the same bytes on both. Driven through
 * the engine's backend tables, the exact calls the plugins time.
 */
#include <string.h>

#include "../../../plugins/crypto/gcrypt/gc.h"
#include "../../../plugins/crypto/openssl/ossl.h"
#include "../../unit/check.h"
#include "fake_host.h"

/* The options OpenSSL's lib_open reads; legacy loaded for Blowfish. */
static const struct hb_option lib_options[] = {
	{ .name = "provider", .type = HB_OPT_STRING, .def = "default+legacy" },
	{ .name = "properties", .type = HB_OPT_STRING, .def = "" },
	{ .name = NULL },
};
static const struct hb_target lib_target = { .group = "test",
					     .name = "libs",
					     .options = lib_options };

/* Both backends, ready: lib handles and their tables. */
struct backends {
	const struct cx_ops *ops[2];
	void *lib[2];
	struct fh_case fc;
};

static int open_backends(struct backends *b)
{
	char err[512] = "";

	fh_case_init(&b->fc, &lib_target, NULL);
	b->ops[0] = &cx_openssl_ops;
	b->ops[1] = &cx_gcrypt_ops;
	for (int i = 0; i < 2; i++)
		if (b->ops[i]->lib_open(&b->fc.c, &b->lib[i], err,
					sizeof(err))) {
			fprintf(stderr, "lib_open: %s\n", err);
			return -1;
		}
	return 0;
}

static void close_backends(struct backends *b)
{
	for (int i = 0; i < 2; i++)
		b->ops[i]->lib_close(b->lib[i]);
}

/* Reproducible test bytes. */
static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 131 + seed * 7 + (i >> 8)) ^ seed);
}

/*
 * Encrypt or decrypt len bytes through ops in two uneven chunks, with 13
 * bytes of AAD for AEADs; tag in/out as cipher_finish. Returns the rc.
 */
static int crypt(const struct cx_ops *o, void *lib, enum cx_alg alg, int enc,
		 const uint8_t *key, const uint8_t *iv, const uint8_t *in,
		 uint8_t *out, size_t len, uint8_t *tag)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	size_t first = ai->block > 1 ? ai->block * 3 : 77;
	uint8_t aad[13];
	char err[512] = "";
	void *h = NULL;
	int rc;

	fill(aad, sizeof(aad), 9);
	rc = o->cipher_open(lib, NULL, alg, enc, key, &h, err, sizeof(err));
	if (rc)
		goto out;
	rc = o->cipher_start(h, NULL, iv, err, sizeof(err));
	if (!rc && ai->kind == CX_AEAD)
		rc = o->cipher_aad(h, aad, sizeof(aad), err, sizeof(err));
	if (!rc)
		rc = o->cipher_update(h, in, out, first, err, sizeof(err));
	if (!rc)
		rc = o->cipher_update(h, in + first, out + first, len - first,
				      err, sizeof(err));
	if (!rc)
		rc = o->cipher_finish(h, tag, err, sizeof(err));
	o->cipher_close(h);
out:
	if (rc && rc != HB_EVERIFY)
		fprintf(stderr, "%s: %s\n", ai->name, err);
	return rc;
}

/* Every cipher, encrypted by backend `from`, decrypted by the other. */
static int ciphers_cross(int from)
{
	static const enum cx_alg algs[] = {
		CX_AES_128_GCM,	      CX_AES_256_GCM, CX_AES_128_CTR,
		CX_AES_192_CTR,	      CX_AES_256_CTR, CX_AES_256_CBC,
		CX_CHACHA20_POLY1305, CX_BF_CBC
	};
	static uint8_t pt[4096], ct[2][4096], back[4096];
	uint8_t key[32], iv[16], tag[2][16];
	struct backends b;
	int to = !from;

	CHECK_INT(open_backends(&b), 0);
	fill(key, sizeof(key), 1);
	fill(iv, sizeof(iv), 2);
	fill(pt, sizeof(pt), 3);
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		const struct cx_alginfo *ai = cx_alg_info(algs[i]);
		size_t len = ai->block > 1 ? 4000 : 4001;

		memset(tag, 0, sizeof(tag));
		CHECK_INT(crypt(b.ops[from], b.lib[from], algs[i], 1, key, iv,
				pt, ct[from], len, tag[from]),
			  0);
		CHECK_INT(crypt(b.ops[to], b.lib[to], algs[i], 1, key, iv, pt,
				ct[to], len, tag[to]),
			  0);
		CHECK(memcmp(ct[from], ct[to], len) == 0);
		CHECK(memcmp(tag[from], tag[to], sizeof(tag[0])) == 0);
		memset(back, 0, sizeof(back));
		CHECK_INT(crypt(b.ops[to], b.lib[to], algs[i], 0, key, iv,
				ct[from], back, len, tag[from]),
			  0);
		CHECK(memcmp(back, pt, len) == 0);
		if (ai->kind == CX_AEAD) {
			tag[from][0] ^= 1;
			CHECK_INT(crypt(b.ops[to], b.lib[to], algs[i], 0, key,
					iv, ct[from], back, len, tag[from]),
				  HB_EVERIFY);
		}
	}
	close_backends(&b);
	return 0;
}

static int openssl_encrypts_gcrypt_decrypts(void)
{
	return ciphers_cross(0);
}

static int gcrypt_encrypts_openssl_decrypts(void)
{
	return ciphers_cross(1);
}

/* MAC or digest of msg through ops, fed in uneven pieces. */
static int hash(const struct cx_ops *o, void *lib, enum cx_alg alg,
		const uint8_t *key, const uint8_t *msg, size_t len,
		uint8_t *out)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	char err[512] = "";
	void *h = NULL;
	int rc;

	rc = o->hash_open(lib, NULL, alg, &h, err, sizeof(err));
	if (rc)
		goto out;
	rc = o->hash_start(h, ai->key_len ? key : NULL, ai->key_len, err,
			   sizeof(err));
	for (size_t off = 0, step = 1; !rc && off < len; off += step, step *= 3)
		rc = o->hash_update(h, msg + off,
				    step < len - off ? step : len - off, err,
				    sizeof(err));
	if (!rc)
		rc = o->hash_finish(h, out, err, sizeof(err));
	o->hash_close(h);
out:
	if (rc)
		fprintf(stderr, "%s: %s\n", ai->name, err);
	return rc;
}

static int macs_and_digests_agree(void)
{
	static const enum cx_alg algs[] = { CX_HMAC_MD5,    CX_HMAC_SHA1,
					    CX_HMAC_SHA256, CX_POLY1305,
					    CX_MD5,	    CX_SHA1,
					    CX_SHA256,	    CX_SHA512,
					    CX_SHA3_256,    CX_BLAKE2B_512 };
	static uint8_t msg[100003];
	uint8_t key[64], out[2][CX_MAX_OUT];
	struct backends b;

	CHECK_INT(open_backends(&b), 0);
	fill(key, sizeof(key), 4);
	fill(msg, sizeof(msg), 5);
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		size_t n = cx_alg_info(algs[i])->out_len;

		memset(out, 0, sizeof(out));
		for (int k = 0; k < 2; k++)
			CHECK_INT(hash(b.ops[k], b.lib[k], algs[i], key, msg,
				       sizeof(msg), out[k]),
				  0);
		if (memcmp(out[0], out[1], n) != 0)
			fprintf(stderr, "%s differs\n",
				cx_alg_info(algs[i])->name);
		CHECK(memcmp(out[0], out[1], n) == 0);
	}
	close_backends(&b);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"openssl_encrypts_gcrypt_decrypts", openssl_encrypts_gcrypt_decrypts},
	{"gcrypt_encrypts_openssl_decrypts", gcrypt_encrypts_openssl_decrypts},
	{"macs_and_digests_agree", macs_and_digests_agree},
};
/* clang-format on */

TEST_MAIN(tests)
