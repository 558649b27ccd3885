/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The known-answer check of a pk case: the published vector of its
 * algorithm and curve through the backend's own key_make, op_open and
 * op_run, the calls the case times.
 */
#include "pk.h"

#include <stdio.h>

#include "cx.h"
#include "pk_vec.h"

/* "RSA-2048" or "ECDSA p256", for messages. */
static void alg_name(const struct pk_params *p, char *buf, size_t len)
{
	static const char *const kinds[] = { "RSA", "ECDSA", "ECDH", "EdDSA" };

	if (p->kind == PK_RSA)
		snprintf(buf, len, "RSA-2048");
	else
		snprintf(buf, len, "%s %s", kinds[p->kind],
			 pk_curve_name(p->curve));
}

/* Run one operation of kp; out: its output (sign, derive), canonical. */
static int run_one(const struct pk_ops *ops, const struct pk_params *kp,
		   const struct pk_vector *v, void *key, void *peer,
		   uint8_t *out, size_t *out_len, char *err, size_t errlen)
{
	void *op = NULL;
	int rc = ops->op_open(kp, key, peer, v->msg, v->msg_len, &op, err,
			      errlen);

	if (rc)
		return rc;
	if (kp->op == PK_VERIFY)
		rc = ops->sig_set(op, v->out, v->out_len, err, errlen);
	if (!rc)
		rc = ops->op_run(op, err, errlen);
	if (!rc && kp->op != PK_VERIFY)
		rc = ops->out_get(op, out, out_len, err, errlen);
	ops->op_close(op);
	return rc;
}

/* Sign or derive, and compare with the vector's output. */
static int check_output(const struct pk_ops *ops, const struct pk_params *kp,
			const struct pk_vector *v, void *key, void *peer,
			char *err, size_t errlen)
{
	uint8_t out[PK_MAX_SIG];
	size_t len = sizeof(out);
	char name[32];
	int rc = run_one(ops, kp, v, key, peer, out, &len, err, errlen);

	if (rc)
		return rc;
	alg_name(kp, name, sizeof(name));
	if (len != v->out_len || cx_memneq(out, v->out, len))
		return hb_errorf(err, errlen, HB_EVERIFY,
				 "known-answer check failed: %s %s differs "
				 "from %s",
				 name,
				 kp->op == PK_SIGN ? "signature" : "secret",
				 v->source);
	return 0;
}

/* Verify the vector's signature. */
static int check_verify(const struct pk_ops *ops, const struct pk_params *kp,
			const struct pk_vector *v, void *key, char *err,
			size_t errlen)
{
	char name[32];
	int rc = run_one(ops, kp, v, key, NULL, NULL, NULL, err, errlen);

	if (rc != HB_EVERIFY)
		return rc;
	alg_name(kp, name, sizeof(name));
	return hb_errorf(err, errlen, HB_EVERIFY,
			 "known-answer check failed: %s verify rejects the "
			 "signature of %s",
			 name, v->source);
}

/* The checks of one vector on its keys. */
static int check_vector(const struct pk_ops *ops, struct pk_params *kp,
			const struct pk_vector *v, void *key, void *peer,
			char *err, size_t errlen)
{
	int rc;

	if (kp->kind == PK_ECDH) {
		kp->op = PK_DERIVE;
		return check_output(ops, kp, v, key, peer, err, errlen);
	}
	if (kp->kind != PK_ECDSA) { /* deterministic signatures */
		kp->op = PK_SIGN;
		rc = check_output(ops, kp, v, key, NULL, err, errlen);
		if (rc)
			return rc;
	}
	kp->op = PK_VERIFY;
	return check_verify(ops, kp, v, key, err, errlen);
}

int pk_kat_check(const struct pk_ops *ops, const struct pk_params *p, char *err,
		 size_t errlen)
{
	struct pk_params kp = *p;
	struct pk_vector v;
	void *key = NULL, *peer = NULL;
	int rc;

	/* RSA's vector is a 2048-bit PKCS#1 v1.5 signature: it checks the
	 * key and the private and public operations every size uses */
	kp.bits = 2048;
	kp.padding = PK_PKCS1;
	if (pk_vector_load(&kp, &v))
		return hb_errorf(err, errlen, HB_EFAIL,
				 "no known-answer vector for this case");
	rc = ops->key_make(&kp, &v.key, &key, err, errlen);
	if (rc)
		goto out;
	if (kp.kind == PK_ECDH) {
		rc = ops->key_make(&kp, &v.peer_key, &peer, err, errlen);
		if (rc)
			goto out_key;
	}
	rc = check_vector(ops, &kp, &v, key, peer, err, errlen);
	if (peer)
		ops->key_free(peer);
out_key:
	ops->key_free(key);
out:
	return rc;
}
