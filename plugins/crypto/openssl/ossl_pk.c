/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pk calls on OpenSSL: keys through EVP_PKEY (generated, or built from
 * published material with EVP_PKEY_fromdata), and one operation per
 * prepared context, as `openssl speed` runs them: EVP_PKEY_sign and
 * EVP_PKEY_verify for RSA and ECDSA, EVP_DigestSign and EVP_DigestVerify
 * for EdDSA, EVP_PKEY_derive with the peer set once for ECDH. Above
 * queue_depth 1, each operation in flight runs in its own ASYNC_JOB (the
 * pool of ossl_async.c), on its own prepared context, as `openssl speed
 * -async_jobs N` runs them.
 */
#include "ossl.h"
#include "ossl_async.h"

#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

/* One prepared operation: a context, its input and its output. */
struct ossl_pk_op {
	int (*run)(struct ossl_pk_op *o);
	const struct pk_params *p;
	EVP_PKEY_CTX *ctx; /* RSA, ECDSA, ECDH */
	EVP_MD_CTX *md;	   /* EdDSA */
	uint8_t msg[PK_MAX_MSG];
	size_t msg_len;
	uint8_t sig[PK_MAX_SIG]; /* the signature to check, native */
	size_t sig_len;
	uint8_t out[PK_MAX_SIG]; /* the last output, native */
	size_t out_len;
	size_t out_max;
};

/* OpenSSL's names of the curves, indexed by enum pk_curve. */
static const char *const curve_names[] = {
	[PK_P256] = "P-256",	[PK_P384] = "P-384", [PK_P521] = "P-521",
	[PK_X25519] = "X25519", [PK_X448] = "X448",  [PK_ED25519] = "ED25519",
	[PK_ED448] = "ED448",
};

/* A NIST curve (EC keys), not a raw-key curve. */
static int nist(enum pk_curve c)
{
	return c >= PK_P256 && c <= PK_P521;
}

static EVP_PKEY *generate(const struct pk_params *p)
{
	if (p->kind == PK_RSA)
		return EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)p->bits);
	if (nist(p->curve))
		return EVP_PKEY_Q_keygen(NULL, NULL, "EC",
					 curve_names[p->curve]);
	return EVP_PKEY_Q_keygen(NULL, NULL, curve_names[p->curve]);
}

/* Push big-endian bytes as a BIGNUM parameter; 0 on failure. */
static int push_bn(OSSL_PARAM_BLD *b, const char *key, const uint8_t *v,
		   size_t len, BIGNUM **bn)
{
	*bn = BN_bin2bn(v, (int)len, NULL);
	return *bn && OSSL_PARAM_BLD_push_BN(b, key, *bn);
}

/* An RSA or EC key from kd through EVP_PKEY_fromdata; NULL on failure. */
static EVP_PKEY *from_params(const struct pk_params *p,
			     const struct pk_keydata *kd)
{
	OSSL_PARAM_BLD *b = OSSL_PARAM_BLD_new();
	BIGNUM *bn[3] = { NULL, NULL, NULL };
	OSSL_PARAM *params = NULL;
	EVP_PKEY_CTX *ctx = NULL;
	EVP_PKEY *key = NULL;
	int ok = b != NULL, priv = kd->d || kd->priv;

	if (ok && p->kind == PK_RSA)
		ok = push_bn(b, OSSL_PKEY_PARAM_RSA_N, kd->n, kd->n_len,
			     &bn[0]) &&
		     push_bn(b, OSSL_PKEY_PARAM_RSA_E, kd->e, kd->e_len,
			     &bn[1]) &&
		     (!kd->d || push_bn(b, OSSL_PKEY_PARAM_RSA_D, kd->d,
					kd->d_len, &bn[2]));
	else if (ok)
		ok = OSSL_PARAM_BLD_push_utf8_string(
			     b, OSSL_PKEY_PARAM_GROUP_NAME,
			     curve_names[p->curve], 0) &&
		     (!kd->pub || OSSL_PARAM_BLD_push_octet_string(
					  b, OSSL_PKEY_PARAM_PUB_KEY, kd->pub,
					  kd->pub_len)) &&
		     (!kd->priv || push_bn(b, OSSL_PKEY_PARAM_PRIV_KEY,
					   kd->priv, kd->priv_len, &bn[0]));
	if (ok)
		ok = (params = OSSL_PARAM_BLD_to_param(b)) &&
		     (ctx = EVP_PKEY_CTX_new_from_name(
			      NULL, p->kind == PK_RSA ? "RSA" : "EC", NULL)) &&
		     EVP_PKEY_fromdata_init(ctx) > 0 &&
		     EVP_PKEY_fromdata(ctx, &key,
				       priv ? EVP_PKEY_KEYPAIR
					    : EVP_PKEY_PUBLIC_KEY,
				       params) > 0;
	EVP_PKEY_CTX_free(ctx);
	OSSL_PARAM_free(params);
	for (int i = 0; i < 3; i++)
		BN_clear_free(bn[i]);
	OSSL_PARAM_BLD_free(b);
	return ok ? key : NULL;
}

/* A raw X25519, X448, Ed25519 or Ed448 key from kd; NULL on failure. */
static EVP_PKEY *from_raw(const struct pk_params *p,
			  const struct pk_keydata *kd)
{
	const char *name = curve_names[p->curve];

	if (kd->priv)
		return EVP_PKEY_new_raw_private_key_ex(NULL, name, NULL,
						       kd->priv, kd->priv_len);
	return EVP_PKEY_new_raw_public_key_ex(NULL, name, NULL, kd->pub,
					      kd->pub_len);
}

static int opk_key_make(const struct pk_params *p, const struct pk_keydata *kd,
			void **key, char *err, size_t errlen)
{
	EVP_PKEY *k;

	if (!kd)
		k = generate(p);
	else if (p->kind == PK_RSA || nist(p->curve))
		k = from_params(p, kd);
	else
		k = from_raw(p, kd);
	if (!k)
		return cx_openssl_fail(err, errlen, kd ? HB_ECRYPTO : HB_SKIP,
				       kd ? "OpenSSL: key from vector"
					  : "OpenSSL: key generation");
	*key = k;
	return 0;
}

static void opk_key_free(void *key)
{
	EVP_PKEY_free(key);
}

static int run_sign(struct ossl_pk_op *o)
{
	o->out_len = o->out_max;
	return EVP_PKEY_sign(o->ctx, o->out, &o->out_len, o->msg, o->msg_len) >
	       0;
}

static int run_verify(struct ossl_pk_op *o)
{
	return EVP_PKEY_verify(o->ctx, o->sig, o->sig_len, o->msg, o->msg_len) >
	       0;
}

static int run_digest_sign(struct ossl_pk_op *o)
{
	o->out_len = o->out_max;
	return EVP_DigestSign(o->md, o->out, &o->out_len, o->msg, o->msg_len) >
	       0;
}

static int run_digest_verify(struct ossl_pk_op *o)
{
	return EVP_DigestVerify(o->md, o->sig, o->sig_len, o->msg, o->msg_len) >
	       0;
}

static int run_derive(struct ossl_pk_op *o)
{
	o->out_len = o->out_max;
	return EVP_PKEY_derive(o->ctx, o->out, &o->out_len) > 0;
}

/* RSA padding; PSS signs a SHA-256 digest with a salt of its length. */
static int set_padding(EVP_PKEY_CTX *ctx, const struct pk_params *p)
{
	if (p->padding == PK_PKCS1)
		return EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PADDING) > 0;
	return EVP_PKEY_CTX_set_rsa_padding(ctx, RSA_PKCS1_PSS_PADDING) > 0 &&
	       EVP_PKEY_CTX_set_signature_md(ctx, EVP_sha256()) > 0 &&
	       EVP_PKEY_CTX_set_rsa_mgf1_md(ctx, EVP_sha256()) > 0 &&
	       EVP_PKEY_CTX_set_rsa_pss_saltlen(ctx, RSA_PSS_SALTLEN_DIGEST) >
		       0;
}

/* EdDSA: one EVP_MD_CTX initialized once, as openssl speed does. */
static int open_eddsa(struct ossl_pk_op *o, EVP_PKEY *key)
{
	int sign = o->p->op == PK_SIGN;

	o->md = EVP_MD_CTX_new();
	o->run = sign ? run_digest_sign : run_digest_verify;
	if (!o->md)
		return 0;
	return sign ? EVP_DigestSignInit(o->md, NULL, NULL, NULL, key) > 0
		    : EVP_DigestVerifyInit(o->md, NULL, NULL, NULL, key) > 0;
}

/* RSA, ECDSA and ECDH: one EVP_PKEY_CTX on key. */
static int open_pkey(struct ossl_pk_op *o, EVP_PKEY *key, EVP_PKEY *peer)
{
	const struct pk_params *p = o->p;
	int ok;

	o->ctx = EVP_PKEY_CTX_new_from_pkey(NULL, key, NULL);
	if (!o->ctx)
		return 0;
	if (p->op == PK_DERIVE) {
		o->run = run_derive;
		return EVP_PKEY_derive_init(o->ctx) > 0 &&
		       EVP_PKEY_derive_set_peer(o->ctx, peer) > 0;
	}
	o->run = p->op == PK_SIGN ? run_sign : run_verify;
	ok = p->op == PK_SIGN ? EVP_PKEY_sign_init(o->ctx) > 0
			      : EVP_PKEY_verify_init(o->ctx) > 0;
	return ok && (p->kind != PK_RSA || set_padding(o->ctx, p));
}

static void opk_op_close(void *op)
{
	struct ossl_pk_op *o = op;

	if (!o)
		return;
	EVP_PKEY_CTX_free(o->ctx);
	EVP_MD_CTX_free(o->md);
	free(o);
}

static int opk_op_open(const struct pk_params *p, void *key, void *peer,
		       const uint8_t *msg, size_t msg_len, void **op, char *err,
		       size_t errlen)
{
	struct ossl_pk_op *o = calloc(1, sizeof(*o));
	int ok;

	if (!o)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	o->p = p;
	o->out_max = sizeof(o->out);
	memcpy(o->msg, msg, msg_len);
	o->msg_len = msg_len;
	ok = p->kind == PK_EDDSA ? open_eddsa(o, key) : open_pkey(o, key, peer);
	if (!ok) {
		opk_op_close(o);
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       "OpenSSL: preparing the operation");
	}
	*op = o;
	return 0;
}

static int opk_op_run(void *op, char *err, size_t errlen)
{
	struct ossl_pk_op *o = op;

	if (o->run(o))
		return 0;
	if (o->p->op == PK_VERIFY)
		return cx_openssl_fail(err, errlen, HB_EVERIFY,
				       "OpenSSL: signature check failed");
	return cx_openssl_fail(err, errlen, HB_ECRYPTO,
			       o->p->op == PK_SIGN ? "OpenSSL: sign"
						   : "OpenSSL: derive");
}

/* r||s into a DER ECDSA-Sig-Value in o->sig. */
static int ecdsa_to_der(struct ossl_pk_op *o, const uint8_t *rs, size_t len)
{
	ECDSA_SIG *s = ECDSA_SIG_new();
	BIGNUM *r = BN_bin2bn(rs, (int)(len / 2), NULL);
	BIGNUM *v = BN_bin2bn(rs + len / 2, (int)(len / 2), NULL);
	unsigned char *at = o->sig;
	int n = -1;

	if (s && r && v && ECDSA_SIG_set0(s, r, v)) {
		r = v = NULL; /* s owns them */
		if (i2d_ECDSA_SIG(s, NULL) <= (int)sizeof(o->sig))
			n = i2d_ECDSA_SIG(s, &at);
	}
	BN_free(r);
	BN_free(v);
	ECDSA_SIG_free(s);
	o->sig_len = n > 0 ? (size_t)n : 0;
	return n > 0;
}

/* A DER ECDSA-Sig-Value into r||s of the curve's field length. */
static int ecdsa_from_der(const struct ossl_pk_op *o, uint8_t *out, size_t *len)
{
	const unsigned char *at = o->out;
	ECDSA_SIG *s = d2i_ECDSA_SIG(NULL, &at, (long)o->out_len);
	size_t fb = pk_curve_bytes(o->p->curve);
	int f = (int)fb;
	int ok = s && *len >= 2 * fb &&
		 BN_bn2binpad(ECDSA_SIG_get0_r(s), out, f) == f &&
		 BN_bn2binpad(ECDSA_SIG_get0_s(s), out + f, f) == f;

	ECDSA_SIG_free(s);
	*len = 2 * fb;
	return ok;
}

static int opk_sig_set(void *op, const uint8_t *sig, size_t len, char *err,
		       size_t errlen)
{
	struct ossl_pk_op *o = op;

	if (o->p->kind == PK_ECDSA) {
		if (!ecdsa_to_der(o, sig, len))
			return cx_openssl_fail(err, errlen, HB_ECRYPTO,
					       "OpenSSL: ECDSA signature");
		return 0;
	}
	if (len > sizeof(o->sig))
		return hb_errorf(err, errlen, HB_EINVAL,
				 "signature of %zu bytes", len);
	memcpy(o->sig, sig, len);
	o->sig_len = len;
	return 0;
}

static int opk_out_get(void *op, uint8_t *out, size_t *len, char *err,
		       size_t errlen)
{
	struct ossl_pk_op *o = op;

	if (o->p->kind == PK_ECDSA && o->p->op == PK_SIGN) {
		if (!ecdsa_from_der(o, out, len))
			return cx_openssl_fail(err, errlen, HB_ECRYPTO,
					       "OpenSSL: ECDSA signature");
		return 0;
	}
	if (o->out_len > *len)
		return hb_errorf(err, errlen, HB_EINVAL, "output of %zu bytes",
				 o->out_len);
	memcpy(out, o->out, o->out_len);
	*len = o->out_len;
	return 0;
}

/* The body of an ASYNC_JOB: one operation of the job's op. */
static int fiber_run(void *arg)
{
	struct pk_job *j = arg;

	return opk_op_run(j->op, j->why, sizeof(j->why));
}

static int opk_queue_open(unsigned depth, void **q, char *err, size_t errlen)
{
	return ossl_pool_open(depth, (struct ossl_pool **)q, err, errlen);
}

static int opk_queue_submit(void *q, struct pk_job *j, char *err, size_t errlen)
{
	return ossl_pool_submit(q, fiber_run, j, err, errlen);
}

static struct pk_job *opk_queue_reap(void *q, int *status, uint64_t timeout_ns)
{
	return ossl_pool_reap(q, status, timeout_ns);
}

static void opk_queue_close(void *q)
{
	ossl_pool_close(q);
}

const struct pk_ops pk_openssl_ops = {
	.key_make = opk_key_make,
	.key_free = opk_key_free,
	.op_open = opk_op_open,
	.op_run = opk_op_run,
	.sig_set = opk_sig_set,
	.out_get = opk_out_get,
	.op_close = opk_op_close,
	.queue_open = opk_queue_open,
	.queue_submit = opk_queue_submit,
	.queue_reap = opk_queue_reap,
	.queue_close = opk_queue_close,
};
