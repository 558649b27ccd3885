/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL and libgcrypt public-key operations against each other, through
 * the pk_ops tables the plugins time: a signature one backend makes with a
 * key the other verifies, both ways, for RSA (PKCS#1 v1.5 and PSS),
 * ECDSA and EdDSA on every curve; ECDH, X25519 and X448 secrets agree.
 * Both backends load the same published key material.
 */
#include <string.h>

#include "../../../plugins/crypto/common/pk_vec.h"
#include "../../../plugins/crypto/gcrypt/gc.h"
#include "../../../plugins/crypto/openssl/ossl.h"
#include "../../unit/check.h"

static const struct pk_ops *const backends[2] = { &pk_openssl_ops,
						  &pk_gcrypt_ops };

/* The output of one operation of p by ops on key (and peer). */
static int one_op(const struct pk_ops *ops, const struct pk_params *p,
		  void *key, void *peer, const uint8_t *sig, size_t sig_len,
		  uint8_t *out, size_t *out_len)
{
	uint8_t msg[PK_MAX_MSG];
	size_t len = pk_message(p, msg);
	char err[512] = "";
	void *op = NULL;
	int rc = ops->op_open(p, key, peer, msg, len, &op, err, sizeof(err));

	if (!rc && sig)
		rc = ops->sig_set(op, sig, sig_len, err, sizeof(err));
	if (!rc)
		rc = ops->op_run(op, err, sizeof(err));
	if (!rc && out)
		rc = ops->out_get(op, out, out_len, err, sizeof(err));
	if (op)
		ops->op_close(op);
	if (rc)
		fprintf(stderr, "%s\n", err);
	return rc;
}

/* Backend s signs with kd's key, backend v verifies with it. */
static int signs_verifies(struct pk_params *p, const struct pk_keydata *kd,
			  int s, int v)
{
	void *ks = NULL, *kv = NULL;
	uint8_t sig[PK_MAX_SIG];
	size_t len = sizeof(sig);
	char err[512] = "";

	CHECK_INT(backends[s]->key_make(p, kd, &ks, err, sizeof(err)), 0);
	CHECK_INT(backends[v]->key_make(p, kd, &kv, err, sizeof(err)), 0);
	p->op = PK_SIGN;
	CHECK_INT(one_op(backends[s], p, ks, NULL, NULL, 0, sig, &len), 0);
	p->op = PK_VERIFY;
	CHECK_INT(one_op(backends[v], p, kv, NULL, sig, len, NULL, NULL), 0);
	sig[len - 1] ^= 0x80; /* and a damaged one is refused */
	CHECK_INT(one_op(backends[v], p, kv, NULL, sig, len, NULL, NULL),
		  HB_EVERIFY);
	backends[s]->key_free(ks);
	backends[v]->key_free(kv);
	return 0;
}

/* Both directions for p with the key of p's own vector, or of vector src. */
static int cross_sign(struct pk_params p, const struct pk_params *src)
{
	struct pk_vector v;

	CHECK_INT(pk_vector_load(src ? src : &p, &v), 0);
	return signs_verifies(&p, &v.key, 0, 1) ||
	       signs_verifies(&p, &v.key, 1, 0);
}

static int rsa_signatures_cross(void)
{
	struct pk_params p = { .kind = PK_RSA, .bits = 2048 };

	CHECK_INT(cross_sign(p, NULL), 0);
	p.padding = PK_PSS;
	return cross_sign(p, NULL);
}

/* ECDSA signs with the ECDH vectors' key pairs (the ECDSA ones are public
 * keys only). */
static int ecdsa_signatures_cross(void)
{
	for (int c = PK_P256; c <= PK_P521; c++) {
		struct pk_params p = { .kind = PK_ECDSA,
				       .curve = (enum pk_curve)c };
		struct pk_params src = { .kind = PK_ECDH,
					 .curve = (enum pk_curve)c };

		CHECK_INT(cross_sign(p, &src), 0);
	}
	return 0;
}

static int eddsa_signatures_cross(void)
{
	for (int c = PK_ED25519; c <= PK_ED448; c++) {
		struct pk_params p = { .kind = PK_EDDSA,
				       .curve = (enum pk_curve)c };

		CHECK_INT(cross_sign(p, NULL), 0);
	}
	return 0;
}

/* The secret backend b derives from key kd and peer pd. */
static int derive(int b, const struct pk_params *p, const struct pk_keydata *kd,
		  const struct pk_keydata *pd, uint8_t *out, size_t *len)
{
	void *k = NULL, *peer = NULL;
	char err[512] = "";
	int rc;

	CHECK_INT(backends[b]->key_make(p, kd, &k, err, sizeof(err)), 0);
	CHECK_INT(backends[b]->key_make(p, pd, &peer, err, sizeof(err)), 0);
	rc = one_op(backends[b], p, k, peer, NULL, 0, out, len);
	backends[b]->key_free(peer);
	backends[b]->key_free(k);
	return rc;
}

/*
 * A pairing no vector lists: the ECDH vector's private key with the
 * ECDSA vector's public key (NIST curves), or test bytes as the private
 * key with the vector's peer (X25519, X448).
 */
static int secrets_agree(enum pk_curve c)
{
	struct pk_params p = { .kind = PK_ECDH, .op = PK_DERIVE, .curve = c };
	struct pk_params ps = { .kind = PK_ECDSA, .curve = c };
	struct pk_vector v, w;
	struct pk_keydata peer = { 0 }, key;
	uint8_t raw[56], s0[PK_MAX_SIG], s1[PK_MAX_SIG];
	size_t l0 = sizeof(s0), l1 = sizeof(s1);

	CHECK_INT(pk_vector_load(&p, &v), 0);
	key = v.key;
	peer = v.peer_key;
	if (c <= PK_P521) {
		CHECK_INT(pk_vector_load(&ps, &w), 0);
		peer = w.key;
	} else {
		for (size_t i = 0; i < sizeof(raw); i++)
			raw[i] = (uint8_t)(i * 29 + 3);
		key = (struct pk_keydata){ .priv = raw,
					   .priv_len = pk_curve_bytes(c) };
	}
	CHECK_INT(derive(0, &p, &key, &peer, s0, &l0), 0);
	CHECK_INT(derive(1, &p, &key, &peer, s1, &l1), 0);
	CHECK_INT(l0, pk_curve_bytes(c));
	CHECK_INT(l1, l0);
	CHECK(memcmp(s0, s1, l0) == 0);
	return 0;
}

static int ecdh_secrets_agree(void)
{
	for (int c = PK_P256; c <= PK_X448; c++)
		CHECK_INT(secrets_agree((enum pk_curve)c), 0);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"rsa_signatures_cross", rsa_signatures_cross},
	{"ecdsa_signatures_cross", ecdsa_signatures_cross},
	{"eddsa_signatures_cross", eddsa_signatures_cross},
	{"ecdh_secrets_agree", ecdh_secrets_agree},
};
/* clang-format on */

TEST_MAIN(tests)
