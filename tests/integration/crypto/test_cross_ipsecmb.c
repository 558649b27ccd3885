/* SPDX-License-Identifier: Apache-2.0 */
/*
 * intel-ipsec-mb against OpenSSL: the ciphertext, tag, MAC and digest of
 * every message equal OpenSSL's for the same key, IV and data, whether
 * the messages go through the multi-buffer manager one at a time (depth
 * 1: each flushed alone) or sixteen in flight (lanes filled); what
 * OpenSSL encrypts ipsec-mb decrypts. Also the cases where one library
 * job cannot do a message: CBC encrypt over 65520 bytes, a CTR counter
 * whose low 32 (or 64) bits wrap inside a message, and a hash over 65534
 * bytes, which is skipped with the reason. Driven through the engine's
 * backend tables, the exact calls the plugins time.
 */
#include <stdlib.h>
#include <string.h>

#include "../../../plugins/crypto/ipsecmb/ipmb.h"
#include "../../../plugins/crypto/openssl/ossl.h"
#include "../../unit/check.h"
#include "fake_host.h"

#define NMSG 16

/* The options OpenSSL's lib_open reads. */
static const struct hb_option lib_options[] = {
	{ .name = "provider", .type = HB_OPT_STRING, .def = "default" },
	{ .name = "properties", .type = HB_OPT_STRING, .def = "" },
	{ .name = NULL },
};
static const struct hb_target lib_target = { .group = "test",
					     .name = "libs",
					     .options = lib_options };

/* Both libraries, ready. */
struct libs {
	struct fh_case fc;
	void *ossl;
	void *imb;
};

static int open_libs(struct libs *l)
{
	char err[512] = "";

	fh_case_init(&l->fc, &lib_target, NULL);
	if (cx_openssl_ops.lib_open(&l->fc.c, &l->ossl, err, sizeof(err)) ||
	    cx_ipsecmb_ops.lib_open(&l->fc.c, &l->imb, err, sizeof(err))) {
		fprintf(stderr, "lib_open: %s\n", err);
		return -1;
	}
	return 0;
}

static void close_libs(struct libs *l)
{
	cx_openssl_ops.lib_close(l->ossl);
	cx_ipsecmb_ops.lib_close(l->imb);
}

/* Reproducible test bytes. */
static void fill(uint8_t *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (uint8_t)((i * 131 + seed * 7 + (i >> 8)) ^ seed);
}

/* NMSG messages of len bytes, each with its IV and data, and results. */
struct batch {
	size_t len;
	uint8_t key[32], mac_key[32], aad[13];
	uint8_t iv[NMSG][16];
	uint8_t *in[NMSG];  /* the message */
	uint8_t *out[NMSG]; /* ipsec-mb's result */
	uint8_t *ref[NMSG]; /* OpenSSL's */
	uint8_t tag[NMSG][CX_MAX_OUT], ref_tag[NMSG][CX_MAX_OUT];
	uint8_t mac[NMSG][CX_MAX_OUT], ref_mac[NMSG][CX_MAX_OUT];
	struct cx_job job[NMSG];
};

static struct batch *batch_new(size_t len)
{
	struct batch *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->len = len;
	fill(b->key, sizeof(b->key), 1);
	fill(b->mac_key, sizeof(b->mac_key), 2);
	fill(b->aad, sizeof(b->aad), 9);
	for (unsigned i = 0; i < NMSG; i++) {
		fill(b->iv[i], 16, 20 + i);
		b->in[i] = malloc(len);
		b->out[i] = malloc(len);
		b->ref[i] = malloc(len);
		if (!b->in[i] || !b->out[i] || !b->ref[i])
			return NULL;
		fill(b->in[i], len, 40 + i);
	}
	return b;
}

static void batch_free(struct batch *b)
{
	for (unsigned i = 0; b && i < NMSG; i++) {
		free(b->in[i]);
		free(b->out[i]);
		free(b->ref[i]);
	}
	free(b);
}

/*
 * Every message of b through an ipsec-mb queue for (alg, mac, encrypt),
 * depth in flight: encrypt in place in out (as the engine does), decrypt
 * from in into out. Returns 0, or the first failure.
 */
static int imb_batch(void *lib, struct batch *b, enum cx_alg alg,
		     enum cx_alg mac, int encrypt, unsigned depth)
{
	const struct cx_alginfo *ci = cx_alg_info(alg);
	struct cx_jobspec spec = { .alg = alg,
				   .mac = mac,
				   .encrypt = encrypt,
				   .key = b->key,
				   .mac_key = b->mac_key,
				   .mac_key_len =
					   mac ? cx_alg_info(mac)->key_len : 0,
				   .len = b->len };
	unsigned sent = 0, done = 0;
	char err[512] = "";
	void *q = NULL;

	CHECK_INT(
		cx_ipsecmb_ops.job_open(lib, NULL, &spec, &q, err, sizeof(err)),
		0);
	while (done < NMSG) {
		while (sent < NMSG && sent - done < depth) {
			struct cx_job *j = &b->job[sent];

			memset(j, 0, sizeof(*j));
			j->iv = ci ? b->iv[sent] : NULL;
			j->aad = ci && ci->kind == CX_AEAD ? b->aad : NULL;
			j->aad_len = j->aad ? sizeof(b->aad) : 0;
			j->len = b->len;
			if (ci && encrypt)
				memcpy(b->out[sent], b->in[sent], b->len);
			j->src = ci && encrypt ? b->out[sent] : b->in[sent];
			j->dst = ci ? b->out[sent] : NULL;
			CHECK_INT(cx_ipsecmb_ops.job_submit(q, j, err,
							    sizeof(err)),
				  0);
			sent++;
		}
		struct cx_job *j = cx_ipsecmb_ops.job_reap(q, 1);

		CHECK(j != NULL);
		if (j->status)
			fprintf(stderr, "job: %s\n", j->why);
		CHECK_INT(j->status, 0);
		done++;
	}
	cx_ipsecmb_ops.job_close(q);
	for (unsigned i = 0; i < NMSG; i++) {
		memcpy(b->tag[i], b->job[i].tag, CX_MAX_OUT);
		memcpy(b->mac[i], b->job[i].mac, CX_MAX_OUT);
	}
	return 0;
}

/* OpenSSL: message i of b through the update calls, in two pieces. */
static int ossl_cipher(void *lib, struct batch *b, enum cx_alg alg, int encrypt,
		       unsigned i, const uint8_t *in)
{
	const struct cx_ops *o = &cx_openssl_ops;
	const struct cx_alginfo *ai = cx_alg_info(alg);
	size_t first = ai->block > 1 ? ai->block * 3 : 77;
	char err[512] = "";
	void *h = NULL;
	int rc;

	if (first > b->len)
		first = b->len;
	memcpy(b->ref_tag[i], b->tag[i], CX_MAX_OUT);
	rc = o->cipher_open(lib, NULL, alg, encrypt, b->key, &h, err,
			    sizeof(err));
	if (!rc)
		rc = o->cipher_start(h, NULL, b->iv[i], err, sizeof(err));
	if (!rc && ai->kind == CX_AEAD)
		rc = o->cipher_aad(h, b->aad, sizeof(b->aad), err, sizeof(err));
	if (!rc)
		rc = o->cipher_update(h, in, b->ref[i], first, err,
				      sizeof(err));
	if (!rc)
		rc = o->cipher_update(h, in + first, b->ref[i] + first,
				      b->len - first, err, sizeof(err));
	if (!rc)
		rc = o->cipher_finish(h, b->ref_tag[i], err, sizeof(err));
	if (h)
		o->cipher_close(h);
	if (rc)
		fprintf(stderr, "%s: %s\n", ai->name, err);
	return rc;
}

/* OpenSSL: the MAC or digest of in (len bytes) into out. */
static int ossl_hash(void *lib, struct batch *b, enum cx_alg alg,
		     const uint8_t *in, uint8_t *out)
{
	const struct cx_ops *o = &cx_openssl_ops;
	const struct cx_alginfo *ai = cx_alg_info(alg);
	char err[512] = "";
	void *h = NULL;
	int rc;

	rc = o->hash_open(lib, NULL, alg, &h, err, sizeof(err));
	if (!rc)
		rc = o->hash_start(h, ai->key_len ? b->mac_key : NULL,
				   ai->key_len, err, sizeof(err));
	if (!rc)
		rc = o->hash_update(h, in, b->len, err, sizeof(err));
	if (!rc)
		rc = o->hash_finish(h, out, err, sizeof(err));
	if (h)
		o->hash_close(h);
	if (rc)
		fprintf(stderr, "%s: %s\n", ai->name, err);
	return rc;
}

/* Encrypt b with both, compare; then ipsec-mb decrypts OpenSSL's. */
static int cipher_agrees(struct libs *l, struct batch *b, enum cx_alg alg,
			 unsigned depth)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	size_t tag_len = ai->kind == CX_AEAD ? ai->out_len : 0;

	CHECK_INT(imb_batch(l->imb, b, alg, CX_NONE, 1, depth), 0);
	for (unsigned i = 0; i < NMSG; i++) {
		CHECK_INT(ossl_cipher(l->ossl, b, alg, 1, i, b->in[i]), 0);
		if (memcmp(b->out[i], b->ref[i], b->len) ||
		    memcmp(b->tag[i], b->ref_tag[i], tag_len))
			fprintf(stderr, "%s message %u differs\n", ai->name, i);
		CHECK(memcmp(b->out[i], b->ref[i], b->len) == 0);
		CHECK(memcmp(b->tag[i], b->ref_tag[i], tag_len) == 0);
		memcpy(b->in[i], b->ref[i], b->len);
	}
	CHECK_INT(imb_batch(l->imb, b, alg, CX_NONE, 0, depth), 0);
	for (unsigned i = 0; i < NMSG; i++) {
		/* OpenSSL's decrypt of the same ciphertext: the plaintext */
		CHECK_INT(ossl_cipher(l->ossl, b, alg, 0, i, b->in[i]), 0);
		CHECK(memcmp(b->out[i], b->ref[i], b->len) == 0);
		CHECK(memcmp(b->tag[i], b->ref_tag[i], tag_len) == 0);
	}
	return 0;
}

static int ciphers_agree(unsigned depth)
{
	static const enum cx_alg algs[] = {
		CX_AES_128_GCM,	      CX_AES_256_GCM, CX_AES_128_CTR,
		CX_AES_192_CTR,	      CX_AES_256_CTR, CX_AES_256_CBC,
		CX_CHACHA20_POLY1305,
	};
	struct libs l;

	CHECK_INT(open_libs(&l), 0);
	for (size_t k = 0; k < sizeof(algs) / sizeof(algs[0]); k++) {
		const struct cx_alginfo *ai = cx_alg_info(algs[k]);
		struct batch *b = batch_new(ai->block > 1 ? 4000 : 4001);
		int rc;

		CHECK(b != NULL);
		rc = cipher_agrees(&l, b, algs[k], depth);
		batch_free(b);
		CHECK_INT(rc, 0);
	}
	close_libs(&l);
	return 0;
}

static int ciphers_equal_openssl_one_in_flight(void)
{
	return ciphers_agree(1);
}

static int ciphers_equal_openssl_sixteen_in_flight(void)
{
	return ciphers_agree(NMSG);
}

/* MACs and digests of b at depth, against OpenSSL's. */
static int hashes_agree(struct libs *l, size_t len, unsigned depth)
{
	static const enum cx_alg algs[] = {
		CX_HMAC_MD5, CX_HMAC_SHA1, CX_HMAC_SHA256, CX_POLY1305,
		CX_SHA1,     CX_SHA256,	   CX_SHA512,
	};
	struct batch *b = batch_new(len);

	CHECK(b != NULL);
	for (size_t k = 0; k < sizeof(algs) / sizeof(algs[0]); k++) {
		size_t n = cx_alg_info(algs[k])->out_len;

		CHECK_INT(imb_batch(l->imb, b, CX_NONE, algs[k], 1, depth), 0);
		for (unsigned i = 0; i < NMSG; i++) {
			CHECK_INT(ossl_hash(l->ossl, b, algs[k], b->in[i],
					    b->ref_mac[i]),
				  0);
			if (memcmp(b->mac[i], b->ref_mac[i], n))
				fprintf(stderr, "%s of %zu bytes differs\n",
					cx_alg_info(algs[k])->name, len);
			CHECK(memcmp(b->mac[i], b->ref_mac[i], n) == 0);
		}
	}
	batch_free(b);
	return 0;
}

static int macs_and_digests_equal_openssl(void)
{
	static const size_t sizes[] = { 1, 55, 64, 1000, 65534 };
	struct libs l;

	CHECK_INT(open_libs(&l), 0);
	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		CHECK_INT(hashes_agree(&l, sizes[k], 1), 0);
		CHECK_INT(hashes_agree(&l, sizes[k], NMSG), 0);
	}
	close_libs(&l);
	return 0;
}

/* Counter blocks of b whose low `ones` bytes wrap within a few blocks. */
static void near_wrap(struct batch *b, size_t ones)
{
	for (unsigned i = 0; i < NMSG; i++) {
		memset(b->iv[i] + 16 - ones, 0xff, ones);
		b->iv[i][15] = (uint8_t)(0xff - 3 * i);
	}
}

/*
 * Encrypt-then-MAC: the MAC is OpenSSL's over its ciphertext; with ones,
 * the counter blocks are near_wrap()'s.
 */
static int composite_agrees(struct libs *l, enum cx_alg alg, enum cx_alg mac,
			    size_t len, size_t ones)
{
	size_t n = cx_alg_info(mac)->out_len;
	struct batch *b = batch_new(len);

	CHECK(b != NULL);
	if (ones)
		near_wrap(b, ones);
	CHECK_INT(imb_batch(l->imb, b, alg, mac, 1, NMSG), 0);
	for (unsigned i = 0; i < NMSG; i++) {
		CHECK_INT(ossl_cipher(l->ossl, b, alg, 1, i, b->in[i]), 0);
		CHECK(memcmp(b->out[i], b->ref[i], len) == 0);
		CHECK_INT(ossl_hash(l->ossl, b, mac, b->ref[i], b->ref_mac[i]),
			  0);
		CHECK(memcmp(b->mac[i], b->ref_mac[i], n) == 0);
		memcpy(b->in[i], b->ref[i], len);
	}
	/* and the decrypt direction: MAC over the ciphertext, then decrypt */
	CHECK_INT(imb_batch(l->imb, b, alg, mac, 0, NMSG), 0);
	for (unsigned i = 0; i < NMSG; i++) {
		CHECK(memcmp(b->mac[i], b->ref_mac[i], n) == 0);
		CHECK_INT(ossl_cipher(l->ossl, b, alg, 0, i, b->in[i]), 0);
		CHECK(memcmp(b->out[i], b->ref[i], len) == 0);
	}
	batch_free(b);
	return 0;
}

static int composites_mac_the_ciphertext_as_openssl(void)
{
	struct libs l;

	CHECK_INT(open_libs(&l), 0);
	CHECK_INT(composite_agrees(&l, CX_AES_256_CBC, CX_HMAC_MD5, 4096, 0),
		  0);
	CHECK_INT(composite_agrees(&l, CX_AES_256_CBC, CX_HMAC_SHA1, 4096, 0),
		  0);
	CHECK_INT(composite_agrees(&l, CX_AES_256_CBC, CX_HMAC_SHA256, 4096, 0),
		  0);
	CHECK_INT(composite_agrees(&l, CX_AES_256_CTR, CX_POLY1305, 4001, 0),
		  0);
	close_libs(&l);
	return 0;
}

static int cbc_encrypt_over_one_job_chains_as_openssl(void)
{
	struct libs l;
	struct batch *b;

	CHECK_INT(open_libs(&l), 0);
	b = batch_new(200000); /* four jobs of at most 65520 bytes */
	CHECK(b != NULL);
	CHECK_INT(cipher_agrees(&l, b, CX_AES_256_CBC, 4), 0);
	batch_free(b);
	close_libs(&l);
	return 0;
}

/*
 * Counter blocks whose low 32 or 64 bits wrap inside a message: ipsec-mb
 * 1.3 carries only the low 32 bits; the backend carries all 128.
 */
static int ctr_counter_carries_all_128_bits(void)
{
	static const size_t ones[] = { 4, 8, 12 };
	struct libs l;
	struct batch *b;

	CHECK_INT(open_libs(&l), 0);
	b = batch_new(1048576 + 17);
	CHECK(b != NULL);
	for (size_t k = 0; k < sizeof(ones) / sizeof(ones[0]); k++) {
		near_wrap(b, ones[k]);
		CHECK_INT(cipher_agrees(&l, b, CX_AES_256_CTR, NMSG), 0);
		CHECK_INT(cipher_agrees(&l, b, CX_AES_128_CTR, 1), 0);
	}
	batch_free(b);
	CHECK_INT(composite_agrees(&l, CX_AES_256_CTR, CX_POLY1305, 70000, 4),
		  0);
	close_libs(&l);
	return 0;
}

static int hashes_over_65534_bytes_are_skipped_with_the_reason(void)
{
	static const enum cx_alg algs[] = { CX_HMAC_SHA1, CX_SHA256 };
	uint8_t key[32] = { 0 };
	struct libs l;

	CHECK_INT(open_libs(&l), 0);
	for (size_t k = 0; k < sizeof(algs) / sizeof(algs[0]); k++) {
		struct cx_jobspec spec = { .alg = CX_NONE,
					   .mac = algs[k],
					   .encrypt = 1,
					   .mac_key = key,
					   .mac_key_len = 20,
					   .len = 65535 };
		char err[512] = "";
		void *q = NULL;

		CHECK_INT(cx_ipsecmb_ops.job_open(l.imb, NULL, &spec, &q, err,
						  sizeof(err)),
			  HB_SKIP);
		CHECK_CONTAINS(err, "at most 65534 bytes");
		CHECK_CONTAINS(err, "size 65535 cannot be one message");
		CHECK(q == NULL);
	}
	close_libs(&l);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"ciphers_equal_openssl_one_in_flight", ciphers_equal_openssl_one_in_flight},
	{"ciphers_equal_openssl_sixteen_in_flight", ciphers_equal_openssl_sixteen_in_flight},
	{"macs_and_digests_equal_openssl", macs_and_digests_equal_openssl},
	{"composites_mac_the_ciphertext_as_openssl", composites_mac_the_ciphertext_as_openssl},
	{"cbc_encrypt_over_one_job_chains_as_openssl", cbc_encrypt_over_one_job_chains_as_openssl},
	{"ctr_counter_carries_all_128_bits", ctr_counter_carries_all_128_bits},
	{"hashes_over_65534_bytes_are_skipped_with_the_reason", hashes_over_65534_bytes_are_skipped_with_the_reason},
};
/* clang-format on */

TEST_MAIN(tests)
