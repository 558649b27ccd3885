/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The transform slot (ABI 1.2) of every engine backend: one message of the
 * core's, through the same library primitives the timed path uses, so
 * `hostbench check` compares backends byte for byte. The deliberately
 * broken backends that test the check itself change it through the seam
 * (seam.h): a CTR counter that carries only its low 32 bits, a decrypt
 * that never checks the tag.
 */
#include "transform.h"

#include <string.h>

#include "seam.h"
#include "state.h"
#include "targets.h"

/* The handles of one transform, closed in one place. */
struct tx {
	const struct cx_ops *o;
	void *lib, *cipher, *hash;
};

static void tx_close(struct tx *t)
{
	if (t->cipher)
		t->o->cipher_close(t->cipher);
	if (t->hash)
		t->o->hash_close(t->hash);
	if (t->lib)
		t->o->lib_close(t->lib);
}

/* The MAC or digest of in (len bytes) with key into out. */
static int tx_hash(struct tx *t, enum cx_alg alg, const uint8_t *key,
		   const uint8_t *in, size_t len, uint8_t *out, char *err,
		   size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	int rc = t->o->hash_open(t->lib, NULL, alg, &t->hash, err, errlen);

	if (!rc)
		rc = t->o->hash_start(t->hash, ai->key_len ? key : NULL,
				      ai->key_len, err, errlen);
	if (!rc)
		rc = t->o->hash_update(t->hash, in, len, err, errlen);
	if (!rc)
		rc = t->o->hash_finish(t->hash, out, err, errlen);
	return rc;
}

/* Compare a computed tag with the one to check: HB_EVERIFY on mismatch. */
static int tag_check(const uint8_t *got, const struct hb_message *m, size_t len,
		     const char *what, char *err, size_t errlen)
{
	if (!cx_seam_checks_tags() ||
	    (m->tag_len == len && memcmp(got, m->tag, len) == 0))
		return 0;
	return hb_errorf(err, errlen, HB_EVERIFY, "%s does not match", what);
}

/* Encrypt or decrypt len bytes from iv, one cipher message. */
static int tx_crypt(struct tx *t, enum cx_alg alg, const struct hb_message *m,
		    const uint8_t *iv, size_t off, size_t len, uint8_t *tag,
		    char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	int rc = t->o->cipher_open(t->lib, NULL, alg, m->encrypt, m->key,
				   &t->cipher, err, errlen);

	if (!rc)
		rc = t->o->cipher_start(t->cipher, NULL, iv, err, errlen);
	if (!rc && ai->kind == CX_AEAD && m->aad_len)
		rc = t->o->cipher_aad(t->cipher, m->aad, m->aad_len, err,
				      errlen);
	if (!rc && len)
		rc = t->o->cipher_update(t->cipher, m->in + off, m->out + off,
					 len, err, errlen);
	if (!rc)
		rc = t->o->cipher_finish(t->cipher, tag, err, errlen);
	t->o->cipher_close(t->cipher);
	t->cipher = NULL;
	return rc;
}

/* A cipher over the message; a CTR counter carried as the seam says. */
static int tx_cipher(struct tx *t, enum cx_alg alg, struct hb_message *m,
		     uint8_t *tag, char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	int ctr = ai->kind == CX_CIPHER && ai->iv_len == 16 && ai->block == 1;
	uint8_t next_iv[16];
	size_t first = ctr ? cx_seam_ctr_split(m->iv, m->len, next_iv) : m->len;
	int rc = tx_crypt(t, alg, m, m->iv, 0, first, tag, err, errlen);

	if (!rc && first < m->len)
		rc = tx_crypt(t, alg, m, next_iv, first, m->len - first, tag,
			      err, errlen);
	return rc;
}

/* A cipher, AEAD or composite message; its tag in m->tag. */
static int tx_message(struct tx *t, const struct cx_spec *sp,
		      struct hb_message *m, char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(sp->alg);
	const struct cx_alginfo *mi =
		sp->mac != CX_NONE ? cx_alg_info(sp->mac) : NULL;
	uint8_t mac[CX_MAX_OUT], tag[CX_MAX_OUT];
	int rc = 0;

	if (mi && !m->encrypt) { /* the MAC over the ciphertext first */
		rc = tx_hash(t, sp->mac, m->mac_key, m->in, m->len, mac, err,
			     errlen);
		if (!rc)
			rc = tag_check(mac, m, mi->out_len, "the MAC", err,
				       errlen);
	}
	if (!m->encrypt && ai->kind == CX_AEAD)
		memcpy(tag, m->tag, m->tag_len < sizeof(tag) ? m->tag_len : 0);
	if (!rc)
		rc = tx_cipher(t, sp->alg, m, tag, err, errlen);
	if (rc == HB_EVERIFY && !cx_seam_checks_tags())
		rc = 0;
	if (rc || !m->encrypt)
		return rc;
	if (mi) {
		rc = tx_hash(t, sp->mac, m->mac_key, m->out, m->len, m->tag,
			     err, errlen);
		m->tag_len = mi->out_len;
	} else {
		memcpy(m->tag, tag, ai->kind == CX_AEAD ? ai->out_len : 0);
		m->tag_len = ai->kind == CX_AEAD ? ai->out_len : 0;
	}
	return rc;
}

/* A MAC or digest of m->in: written, or checked against m->tag. */
static int tx_digest(struct tx *t, enum cx_alg alg, struct hb_message *m,
		     char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	uint8_t out[CX_MAX_OUT];
	int rc = tx_hash(t, alg, m->key, m->in, m->len, out, err, errlen);

	if (rc)
		return rc;
	if (!m->encrypt)
		return tag_check(out, m, ai->out_len, "the MAC or digest", err,
				 errlen);
	memcpy(m->tag, out, ai->out_len);
	m->tag_len = ai->out_len;
	return 0;
}

/*
 * m on the job path (a backend without the update calls; one with both
 * runs its jobs through the same update calls, which check m byte for
 * byte, and `hostbench check` drives its jobs in the async row): a cipher
 * encrypts in place as timed, and the tag or MAC the job computed in
 * either direction is written, or checked against m->tag.
 */
static int tx_job(struct tx *t, const struct cx_spec *sp, struct hb_message *m,
		  char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(sp->alg);
	int cipher = ai->kind == CX_CIPHER || ai->kind == CX_AEAD;
	enum cx_alg mac = cipher ? sp->mac : sp->alg;
	const struct cx_alginfo *mi = mac != CX_NONE ? cx_alg_info(mac) : NULL;
	const uint8_t *mac_key = cipher ? m->mac_key : m->key;
	struct cx_jobspec spec = {
		.alg = cipher ? sp->alg : CX_NONE,
		.mac = mac,
		.encrypt = cipher ? m->encrypt : 1,
		.key = m->key,
		.mac_key = mi && mi->key_len ? mac_key : NULL,
		.mac_key_len = mi ? mi->key_len : 0,
		.len = m->len,
	};
	struct cx_job j = { .len = m->len, .src = m->in };
	const uint8_t *got;
	size_t got_len;
	int rc;

	if (mi && mi->one_time_key)
		j.mac_key = mac_key;
	if (cipher) {
		j.iv = m->iv;
		j.aad = ai->kind == CX_AEAD && m->aad_len ? m->aad : NULL;
		j.aad_len = j.aad ? m->aad_len : 0;
		j.dst = m->out;
		if (m->encrypt) {
			memcpy(m->out, m->in, m->len);
			j.src = m->out;
		}
	}
	rc = cx_jobs_one(t->o, t->lib, &spec, &j, ai->name, err, errlen);
	if (rc)
		return rc;
	got = mi ? j.mac : j.tag;
	got_len = mi ? mi->out_len : ai->kind == CX_AEAD ? ai->out_len : 0;
	if (!m->encrypt)
		return got_len ? tag_check(got, m, got_len, "the tag or MAC",
					   err, errlen)
			       : 0;
	memcpy(m->tag, got, got_len);
	m->tag_len = got_len;
	return 0;
}

int cx_transform(const struct cx_ops *ops, const struct hb_case *c,
		 struct hb_message *m, char *err, size_t errlen)
{
	const struct cx_spec *sp = cx_spec_find(c->target);
	const struct cx_alginfo *ai = sp ? cx_alg_info(sp->alg) : NULL;
	struct tx t = { .o = ops };
	int rc;

	if (!ai)
		return hb_errorf(err, errlen, HB_ENOTSUP,
				 "not a crypto target");
	if (ai->block > 1 && m->len % ai->block)
		return hb_errorf(err, errlen, HB_SKIP,
				 "%zu bytes is not a multiple of %s's block",
				 m->len, ai->name);
	rc = ops->lib_open(c, &t.lib, err, errlen);
	if (!rc && ops->job_open && !ops->cipher_open)
		rc = tx_job(&t, sp, m, err, errlen);
	else if (!rc)
		rc = ai->kind == CX_MAC || ai->kind == CX_DIGEST
			     ? tx_digest(&t, sp->alg, m, err, errlen)
			     : tx_message(&t, sp, m, err, errlen);
	tx_close(&t);
	return rc;
}
