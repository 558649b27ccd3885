/* SPDX-License-Identifier: Apache-2.0 */
/* Setup, run and teardown of the pk targets over a backend's pk_ops. */
#include "pk.h"

#include <hostbench/crypto.h>
#include <stdlib.h>
#include <string.h>

#include "cx.h"
#include "seam.h"

const struct hb_option pk_rsa_options[] = {
	PK_OPT_BITS,
	PK_OPT_PADDING,
	PK_OPT_KEY_SEED,
	HB_CRYPTO_OPT_END,
};

const struct hb_option pk_ecdsa_options[] = {
	PK_OPT_CURVE("p256", "p256", "p384", "p521"),
	PK_OPT_KEY_SEED,
	HB_CRYPTO_OPT_END,
};

const struct hb_option pk_ecdh_options[] = {
	PK_OPT_CURVE("p256", "p256", "p384", "p521", "x25519", "x448"),
	PK_OPT_KEY_SEED,
	HB_CRYPTO_OPT_END,
};

const struct hb_option pk_eddsa_options[] = {
	PK_OPT_CURVE("ed25519", "ed25519", "ed448"),
	PK_OPT_KEY_SEED,
	HB_CRYPTO_OPT_END,
};

/* One worker. */
struct pk_state {
	enum cx_engine engine; /* first: CX_ENGINE_PK (cx.h) */
	const struct pk_ops *ops;
	struct pk_params p;
	void *key;
	void *peer;		 /* derivation: the peer's key */
	void *op;		 /* run()'s */
	uint8_t sig[PK_MAX_SIG]; /* verify: the signature every op checks */
	size_t sig_len;
	/* submit and poll: a slot per operation in flight */
	struct pk_slot *slots;
	unsigned nslots;
	struct pk_slot *free; /* not in flight */
	struct pk_slot *done; /* depth 1: run in submit, not yet polled */
	void *queue;	      /* above depth 1: the backend's */
};

/* One operation in flight: its job (first, so a job is its slot). */
struct pk_slot {
	struct pk_job job;
	uint64_t tag;
	int status; /* depth 1: op_run's return */
	struct pk_slot *next;
};

int pk_is_target(const struct hb_target *t)
{
	return strcmp(t->group, "pk") == 0;
}

/* The kind and operation of a target name ("ecdsa-verify"). */
static int target_kind(const char *name, struct pk_params *p)
{
	static const struct {
		const char *name;
		enum pk_kind kind;
		enum pk_op op;
	} names[] = {
		{ "rsa-sign", PK_RSA, PK_SIGN },
		{ "rsa-verify", PK_RSA, PK_VERIFY },
		{ "ecdsa-sign", PK_ECDSA, PK_SIGN },
		{ "ecdsa-verify", PK_ECDSA, PK_VERIFY },
		{ "ecdh", PK_ECDH, PK_DERIVE },
		{ "eddsa-sign", PK_EDDSA, PK_SIGN },
		{ "eddsa-verify", PK_EDDSA, PK_VERIFY },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(names[i].name, name) == 0) {
			p->kind = names[i].kind;
			p->op = names[i].op;
			return 0;
		}
	return -1;
}

int pk_params_read(const struct hb_case *c, struct pk_params *p, char *err,
		   size_t errlen)
{
	const struct hb_host *h = c->host;

	memset(p, 0, sizeof(*p));
	if (target_kind(c->target->name, p))
		return hb_errorf(err, errlen, HB_EINVAL,
				 "pk/%s: not a pk target", c->target->name);
	p->key_seed = (uint64_t)h->get_int(c, "key_seed");
	if (p->kind == PK_RSA) {
		p->bits = (unsigned)strtoul(h->get_str(c, "bits"), NULL, 10);
		p->padding = strcmp(h->get_str(c, "padding"), "pss") == 0
				     ? PK_PSS
				     : PK_PKCS1;
		return 0;
	}
	p->curve = pk_curve_find(h->get_str(c, "curve"));
	if (p->curve == PK_NO_CURVE)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "curve: \"%s\" unknown",
				 h->get_str(c, "curve"));
	return 0;
}

size_t pk_message(const struct pk_params *p, uint8_t *msg)
{
	/* openssl speed: RSA signs 36 bytes (an SSL MD5+SHA-1 digest pair),
	 * ECDSA and EdDSA 20; PSS needs a digest of its hash's length. */
	size_t len = p->kind == PK_RSA	  ? (p->padding == PK_PSS ? 32 : 36)
		     : p->kind == PK_ECDH ? 0
					  : 20;

	for (size_t i = 0; i < len; i++)
		msg[i] = (uint8_t)(i * 37 + 11);
	return len;
}

/* The next 64 bits of a splitmix64 sequence. */
static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

/* out[0..len) from the splitmix64 sequence of seed, little-endian. */
static void seed_fill(uint8_t *out, size_t len, uint64_t seed)
{
	for (size_t i = 0; i < len; i += 8) {
		uint64_t r = splitmix(&seed);

		for (size_t j = 0; j < 8 && i + j < len; j++)
			out[i + j] = (uint8_t)(r >> (8 * j));
	}
}

/* Whether keys of p can be derived from a seed: raw private keys only. */
static int seedable(const struct pk_params *p)
{
	return p->curve >= PK_X25519;
}

/*
 * A key for p: from seed when the curve allows and seed is not 0, else
 * from the library's RNG.
 */
static int make_key(const struct pk_ops *ops, const struct pk_params *p,
		    uint64_t seed, void **key, char *err, size_t errlen)
{
	uint8_t priv[64];
	struct pk_keydata kd = { .priv = priv,
				 .priv_len = pk_curve_bytes(p->curve) };

	if (!seed || !seedable(p))
		return ops->key_make(p, NULL, key, err, errlen);
	seed_fill(priv, kd.priv_len, seed);
	return ops->key_make(p, &kd, key, err, errlen);
}

/* One operation of p on key (and peer) over msg; *op for op_run. */
static int open_op(const struct pk_ops *ops, const struct pk_params *p,
		   void *key, void *peer, void **op, char *err, size_t errlen)
{
	uint8_t msg[PK_MAX_MSG];
	size_t len = pk_message(p, msg);

	return ops->op_open(p, key, peer, msg, len, op, err, errlen);
}

/* A signature of p's message by key, canonical, into sig[*len]. */
static int sign_once(const struct pk_ops *ops, const struct pk_params *p,
		     void *key, uint8_t *sig, size_t *len, char *err,
		     size_t errlen)
{
	struct pk_params sp = *p;
	void *op = NULL;
	int rc;

	sp.op = PK_SIGN;
	rc = open_op(ops, &sp, key, NULL, &op, err, errlen);
	if (rc)
		return rc;
	rc = ops->op_run(op, err, errlen);
	if (!rc)
		rc = ops->out_get(op, sig, len, err, errlen);
	ops->op_close(op);
	return rc;
}

/* Verify: a valid signature of the key, kept for every op that checks. */
static int make_signature(struct pk_state *s, char *err, size_t errlen)
{
	s->sig_len = sizeof(s->sig);
	return sign_once(s->ops, &s->p, s->key, s->sig, &s->sig_len, err,
			 errlen);
}

/* Open one op of the case; verify: with the signature, checked once. */
static int open_armed(struct pk_state *s, void **op, char *err, size_t errlen)
{
	int rc = open_op(s->ops, &s->p, s->key, s->peer, op, err, errlen);

	if (rc || s->p.op != PK_VERIFY)
		return rc;
	rc = s->ops->sig_set(*op, s->sig, s->sig_len, err, errlen);
	if (!rc)
		rc = s->ops->op_run(*op, err, errlen);
	if (!rc) {
		uint8_t got[PK_MAX_SIG];

		memcpy(got, s->sig, s->sig_len);
		if (cx_seam_received(got, s->sig_len))
			rc = s->ops->sig_set(*op, got, s->sig_len, err, errlen);
	}
	return rc;
}

/* The slots of an asynchronous case: queue_depth prepared ops. */
static int open_slots(struct pk_state *s, const struct hb_case *c, char *err,
		      size_t errlen)
{
	int64_t depth = c->host->get_int(c, "queue_depth");
	int rc = 0;

	if (!(c->target->flags & HB_TARGET_ASYNC) || !s->ops->queue_open)
		return 0;
	s->nslots = depth > 1 ? (unsigned)depth : 1;
	s->slots = calloc(s->nslots, sizeof(*s->slots));
	if (!s->slots)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	for (unsigned i = 0; i < s->nslots && !rc; i++) {
		rc = open_armed(s, &s->slots[i].job.op, err, errlen);
		s->slots[i].next = s->free;
		s->free = &s->slots[i];
	}
	if (!rc && s->nslots > 1)
		rc = s->ops->queue_open(s->nslots, &s->queue, err, errlen);
	return rc;
}

/* Warn (once a case) when key_seed cannot make p's keys reproducible. */
static void warn_unseeded(const struct hb_case *c, const struct pk_params *p)
{
	if (p->key_seed && !seedable(p) && c->worker == 0)
		c->host->warn(c,
			      "key_seed: %s keys come from the library's RNG, "
			      "not from the seed",
			      p->kind == PK_RSA ? "RSA"
						: pk_curve_name(p->curve));
}

static int setup_keys(struct pk_state *s, const struct hb_case *c, char *err,
		      size_t errlen)
{
	int rc;

	warn_unseeded(c, &s->p);
	rc = make_key(s->ops, &s->p, s->p.key_seed, &s->key, err, errlen);
	if (!rc && s->p.op == PK_DERIVE)
		rc = make_key(s->ops, &s->p,
			      s->p.key_seed ? s->p.key_seed + 1 : 0, &s->peer,
			      err, errlen);
	return rc;
}

int pk_setup(const struct pk_ops *ops, const struct hb_case *c, void **state,
	     char *err, size_t errlen)
{
	struct pk_state *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	s->engine = CX_ENGINE_PK;
	s->ops = ops;
	rc = pk_params_read(c, &s->p, err, errlen);
	if (!rc)
		rc = pk_kat_check(ops, &s->p, err, errlen);
	if (!rc)
		rc = setup_keys(s, c, err, errlen);
	if (!rc && s->p.op == PK_VERIFY)
		rc = make_signature(s, err, errlen);
	if (!rc)
		rc = open_armed(s, &s->op, err, errlen);
	if (!rc)
		rc = open_slots(s, c, err, errlen);
	if (rc) {
		pk_teardown(s);
		return rc;
	}
	*state = s;
	return 0;
}

int pk_run(void *state, uint64_t iterations, struct hb_done *done, char *err,
	   size_t errlen)
{
	struct pk_state *s = state;
	const struct pk_ops *ops = s->ops;

	for (uint64_t i = 0; i < iterations; i++) {
		int rc = ops->op_run(s->op, err, errlen);

		if (rc) {
			done->ops += i;
			return rc;
		}
	}
	done->ops += iterations;
	return 0;
}

void pk_teardown(void *state)
{
	struct pk_state *s = state;

	if (!s)
		return;
	if (s->queue)
		s->ops->queue_close(s->queue);
	for (unsigned i = 0; s->slots && i < s->nslots; i++)
		if (s->slots[i].job.op)
			s->ops->op_close(s->slots[i].job.op);
	free(s->slots);
	if (s->op)
		s->ops->op_close(s->op);
	if (s->peer)
		s->ops->key_free(s->peer);
	if (s->key)
		s->ops->key_free(s->key);
	free(s);
}

int pk_submit(void *state, uint64_t tag, char *err, size_t errlen)
{
	struct pk_state *s = state;
	struct pk_slot *sl = s->free;
	int rc;

	if (!sl)
		return HB_BUSY;
	s->free = sl->next;
	sl->tag = tag;
	if (!s->queue) { /* depth 1: as run() does it */
		sl->status = s->ops->op_run(sl->job.op, sl->job.why,
					    sizeof(sl->job.why));
		sl->next = s->done;
		s->done = sl;
		return 0;
	}
	rc = s->ops->queue_submit(s->queue, &sl->job, err, errlen);
	if (rc) { /* HB_BUSY or an error: the slot stays free */
		sl->next = s->free;
		s->free = sl;
	}
	return rc;
}

/* Report slot sl finished with status into *out; the slot is free again.
 * Returns status, with err filled when it is not 0. */
static int complete(struct pk_state *s, struct pk_slot *sl, int status,
		    struct hb_completion *out, char *err, size_t errlen)
{
	*out = (struct hb_completion){ .tag = sl->tag,
				       .status = status,
				       .done.ops = status ? 0 : 1 };
	sl->next = s->free;
	s->free = sl;
	if (status)
		return hb_errorf(err, errlen, status, "%s", sl->job.why);
	return 0;
}

int pk_poll(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
	    struct hb_completion *out, char *err, size_t errlen)
{
	struct pk_state *s = state;
	unsigned n = 0;
	int rc;

	while (n < max && s->done) {
		struct pk_slot *sl = s->done;

		s->done = sl->next;
		rc = complete(s, sl, sl->status, &out[n++], err, errlen);
		if (rc)
			return rc;
	}
	while (n < max && s->queue) {
		int status = 0;
		struct pk_job *j = s->ops->queue_reap(
			s->queue, &status, n >= min ? 0 : timeout_ns);

		if (!j)
			break;
		rc = complete(s, (struct pk_slot *)j, status, &out[n++], err,
			      errlen);
		if (rc)
			return rc;
	}
	return (int)n;
}
