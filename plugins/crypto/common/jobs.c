/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's job path: whole messages through a backend's job calls.
 * Each message in flight has a slot (its job, its own buffer, IV and
 * one-time key, and the core's tag), made at setup for the case's queue
 * depth, so the same code serves the plugin's submit and poll, run() (one
 * message at a time), the known-answer checks and the received message of
 * a decrypt case.
 */
#include <stdlib.h>
#include <string.h>

#include <hostbench/crypto.h>

#include "seam.h"
#include "state.h"

/* One message in flight. */
struct cx_slot {
	struct cx_job job; /* first: a finished job is its slot */
	uint64_t tag;	   /* the core's */
	uint64_t msgno;
	unsigned index;	      /* in s->slots */
	uint64_t received_iv; /* decrypt: the IV number of its message */
	struct cx_slot *next_free;
	uint8_t *out; /* the core's buffers of the unit (hb_buffers) */
	uint8_t *out_tag;
	uint8_t iv[CX_MAX_IV];
	uint8_t key[CX_MAX_KEY]; /* the message's one-time MAC key */
};

/* Submit j and wait for it: the only job of queue q in flight. */
static int run_one(const struct cx_ops *o, void *q, struct cx_job *j,
		   const char *name, char *err, size_t errlen)
{
	struct cx_job *got;
	int rc = o->job_submit(q, j, err, errlen);

	if (rc == HB_BUSY)
		return hb_errorf(err, errlen, HB_EFAIL,
				 "%s: the job queue is full with nothing in "
				 "flight",
				 name);
	if (rc)
		return rc;
	got = o->job_reap(q, 1);
	if (got != j)
		return hb_errorf(err, errlen, HB_EFAIL,
				 "%s: the job queue returned %s", name,
				 got ? "another job" : "nothing");
	if (j->status)
		return hb_errorf(err, errlen,
				 j->status < 0 ? j->status : HB_EFAIL,
				 "%s job failed: %s", name,
				 j->why ? j->why : "no reason given");
	return 0;
}

int cx_jobs_one(const struct cx_ops *ops, void *lib,
		const struct cx_jobspec *spec, struct cx_job *j,
		const char *name, char *err, size_t errlen)
{
	void *q = NULL;
	int rc = ops->job_open(lib, NULL, spec, &q, err, errlen);

	if (rc)
		return rc;
	rc = run_one(ops, q, j, name, err, errlen);
	ops->job_close(q);
	return rc;
}

/* The queue spec of the state's target in a direction. */
static struct cx_jobspec spec_for(const struct cx_state *s,
				  const struct cx_spec *sp, int encrypt)
{
	return (struct cx_jobspec){
		.alg = s->ci ? sp->alg : CX_NONE,
		.mac = s->hi ? (s->ci ? sp->mac : sp->alg) : CX_NONE,
		.encrypt = encrypt,
		.key = s->key,
		.mac_key = s->hi && s->hi->key_len ? s->mac_key : NULL,
		.mac_key_len = s->hi ? s->hi->key_len : 0,
		.len = s->size,
	};
}

/* Compare a cipher's known answer after the job ran. */
static int kat_cipher_result(const struct cx_alginfo *ai,
			     const struct cx_kat *kat, const struct cx_job *j,
			     int encrypt, char *err, size_t errlen)
{
	int rc;

	if (!encrypt) {
		if (ai->kind == CX_AEAD &&
		    cx_memneq(j->tag, kat->tag, kat->tag_len))
			return hb_errorf(err, errlen, HB_EVERIFY,
					 "known-answer check failed: %s "
					 "decrypt rejects the tag of %s",
					 ai->name, kat->source);
		return cx_kat_compare(ai, kat, "decrypted plaintext", j->dst,
				      kat->in, kat->in_len, err, errlen);
	}
	rc = cx_kat_compare(ai, kat, "ciphertext", j->dst, kat->out,
			    kat->out_len, err, errlen);
	if (!rc && ai->kind == CX_AEAD)
		rc = cx_kat_compare(ai, kat, "tag", j->tag, kat->tag,
				    kat->tag_len, err, errlen);
	return rc;
}

int cx_jobs_kat(const struct cx_ops *ops, void *lib, enum cx_alg alg,
		const struct cx_kat *kat, int encrypt, unsigned depth,
		char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	int cipher = ai->kind == CX_CIPHER || ai->kind == CX_AEAD;
	struct cx_jobspec spec = {
		.alg = cipher ? alg : CX_NONE,
		.mac = cipher ? CX_NONE : alg,
		.encrypt = cipher ? encrypt : 1,
		.key = kat->key,
		.mac_key = cipher ? NULL : kat->key,
		.mac_key_len = cipher ? 0 : kat->key_len,
		.len = kat->in_len,
		.depth = depth,
	};
	uint8_t out[sizeof(kat->in)];
	struct cx_job j = { .len = kat->in_len };
	void *q = NULL;
	int rc;

	memcpy(j.tag, kat->tag, sizeof(j.tag)); /* decrypt: the one to check */
	if (cipher) {
		/* as timed: encrypt in place, decrypt into another buffer */
		memcpy(out, kat->in, kat->in_len);
		j.iv = kat->iv;
		j.aad = kat->aad_len ? kat->aad : NULL;
		j.aad_len = kat->aad_len;
		j.src = encrypt ? out : kat->out;
		j.dst = out;
	} else {
		j.src = kat->in;
	}
	rc = ops->job_open(lib, NULL, &spec, &q, err, errlen);
	if (rc)
		return rc;
	rc = run_one(ops, q, &j, ai->name, err, errlen);
	ops->job_close(q);
	if (rc == HB_EVERIFY && cipher && !encrypt)
		return hb_errorf(err, errlen, HB_EVERIFY,
				 "known-answer check failed: %s decrypt "
				 "rejects the tag of %s",
				 ai->name, kat->source);
	if (rc)
		return rc;
	if (cipher)
		return kat_cipher_result(ai, kat, &j, encrypt, err, errlen);
	return cx_kat_compare(ai, kat, ai->kind == CX_MAC ? "MAC" : "digest",
			      j.mac, kat->out, kat->out_len, err, errlen);
}

/* A new slot, with its buffer, in s->slots; NULL when out of memory. */
static struct cx_slot *slot_make(struct cx_state *s)
{
	struct cx_slot *sl, **grown;

	grown = realloc(s->slots, (s->nslots + 1) * sizeof(struct cx_slot *));
	if (!grown)
		return NULL;
	s->slots = grown;
	sl = calloc(1, sizeof(*sl));
	if (!sl)
		return NULL;
	sl->index = s->nslots;
	sl->received_iv = cx_seam_received_iv(sl->index);
	s->slots[s->nslots++] = sl;
	return sl;
}

static void slot_put(struct cx_state *s, struct cx_slot *sl)
{
	sl->next_free = s->free_slots;
	s->free_slots = sl;
}

/* A free slot, made when every one is in flight (a depth not told). */
static struct cx_slot *slot_take(struct cx_state *s)
{
	struct cx_slot *sl = s->free_slots;

	if (!sl)
		return slot_make(s);
	s->free_slots = sl->next_free;
	return sl;
}

int cx_jobs_open(struct cx_state *s, const struct cx_spec *sp,
		 const struct hb_case *c, char *err, size_t errlen)
{
	struct cx_jobspec spec = spec_for(s, sp, s->encrypt);

	/* every message in flight has its slot and buffer before timing */
	spec.depth = s->depth;
	for (unsigned i = s->nslots; i < s->depth; i++) {
		struct cx_slot *sl = slot_make(s);

		if (!sl)
			return hb_errorf(err, errlen, HB_ENOMEM,
					 "%u message slots of %zu bytes: out "
					 "of memory",
					 s->depth, s->size);
		slot_put(s, sl);
	}
	return s->ops->job_open(s->lib, c, &spec, &s->jobs, err, errlen);
}

int cx_jobs_prepare_received(struct cx_state *s, const struct cx_spec *sp,
			     char *err, size_t errlen)
{
	struct cx_jobspec spec = spec_for(s, sp, 1);
	uint8_t iv[CX_MAX_IV], key[CX_MAX_KEY];
	struct cx_job j = { .len = s->size };
	void *q = NULL;
	int rc;

	if (s->ci) {
		/* a composite encrypt works in place: MAC of the ciphertext */
		memcpy(s->ct, s->src, s->size);
		j.src = j.dst = s->ct;
		j.iv = cx_message_iv(s, 0, iv);
	} else {
		j.src = s->ct;
	}
	if (s->hi)
		j.mac_key = cx_message_key(s, 0, key);
	rc = s->ops->job_open(s->lib, NULL, &spec, &q, err, errlen);
	if (rc)
		return rc;
	rc = run_one(s->ops, q, &j, s->ci ? s->ci->name : s->hi->name, err,
		     errlen);
	s->ops->job_close(q);
	memcpy(s->want_tag, j.tag, sizeof(s->want_tag));
	memcpy(s->want_mac, j.mac, sizeof(s->want_mac));
	return rc;
}

/*
 * The next message into slot sl, as the update path makes it: encrypt
 * gives each message its own IV (and one-time key) and writes the core's
 * unit i; decrypt receives the prepared message, MAC first, and its tag.
 */
static void fill_message(struct cx_state *s, struct cx_slot *sl, uint64_t i)
{
	struct cx_job *j = &sl->job;
	uint64_t n = s->encrypt ? s->msgno : sl->received_iv;

	memset(j, 0, sizeof(*j));
	if (!s->encrypt)
		memcpy(j->tag, s->want_tag, sizeof(j->tag));
	sl->msgno = s->msgno;
	sl->out = s->io->out[i % s->io->n];
	sl->out_tag = s->io->tag[i % s->io->n];
	j->len = s->encrypt ? s->timed_len : s->size;
	j->iv = s->ci ? cx_message_iv(s, n, sl->iv) : NULL;
	j->mac_key = s->hi ? cx_message_key(s, n, sl->key) : NULL;
	j->src = s->src;
	j->dst = s->ci ? sl->out : NULL;
}

/* Submit the next message as the core's unit i, tagged tag. */
static int submit_unit(struct cx_state *s, uint64_t tag, uint64_t i, char *err,
		       size_t errlen)
{
	struct cx_slot *sl = slot_take(s);
	int rc;

	if (!sl)
		return hb_errorf(err, errlen, HB_ENOMEM,
				 "a %zu-byte message slot: out of memory",
				 s->size);
	sl->tag = tag;
	fill_message(s, sl, i);
	if (s->submit_hook && s->handed[0])
		s->submit_hook(s->handed[0], s->size);
	rc = s->ops->job_submit(s->jobs, &sl->job, err, errlen);
	if (rc) {
		slot_put(s, sl);
		return rc;
	}
	s->msgno++;
	return 0;
}

int cx_jobs_submit(struct cx_state *s, uint64_t tag, char *err, size_t errlen)
{
	return submit_unit(s, tag, tag, err, errlen);
}

/* The status of a finished message and, in decrypt, its MAC and tag. */
static int check_message(const struct cx_state *s, const struct cx_slot *sl,
			 char *err, size_t errlen)
{
	const struct cx_job *j = &sl->job;
	unsigned long long n = (unsigned long long)sl->msgno;

	if (j->status)
		return hb_errorf(err, errlen,
				 j->status < 0 ? j->status : HB_EFAIL,
				 "%s message %llu failed: %s",
				 s->ci ? s->ci->name : s->hi->name, n,
				 j->why ? j->why : "no reason given");
	if (s->encrypt)
		return 0;
	if (s->hi && cx_memneq(j->mac, s->want_mac, s->hi->out_len))
		return hb_errorf(err, errlen, HB_EVERIFY,
				 "%s mismatch on message %llu", s->hi->name, n);
	if (s->ci && s->ci->kind == CX_AEAD &&
	    cx_memneq(j->tag, s->want_tag, s->ci->out_len))
		return hb_errorf(err, errlen, HB_EVERIFY,
				 "%s tag mismatch on message %llu", s->ci->name,
				 n);
	return 0;
}

int cx_jobs_poll(struct cx_state *s, unsigned min, unsigned max,
		 struct hb_completion *out, char *err, size_t errlen)
{
	unsigned got = 0;

	while (got < max) {
		struct cx_job *j = s->ops->job_reap(s->jobs, got < min);
		struct cx_slot *sl = (struct cx_slot *)j;
		int rc;

		if (!j)
			break;
		rc = check_message(s, sl, err, errlen);
		if (s->encrypt) {
			cx_timed_tag(s, j->tag, sizeof(j->tag));
			cx_timed_tag(s, j->mac, sizeof(j->mac));
		}
		if (s->ci)
			cx_timed_out(s, sl->out, j->len);
		s->handed[0] = s->handed[1];
		s->handed[1] = sl->out;
		/* the tag, MAC or digest into the core's buffer, as it ends */
		if (s->hi)
			memcpy(sl->out_tag, j->mac, s->hi->out_len);
		else if (s->ci->kind == CX_AEAD)
			memcpy(sl->out_tag, j->tag, s->ci->out_len);
		out[got++] = (struct hb_completion){
			.tag = s->tag_back ? s->tag_back(sl->tag) : sl->tag,
			.done = { .bytes = s->size, .ops = 1 },
		};
		slot_put(s, sl);
		if (rc)
			return rc;
	}
	return (int)got;
}

int cx_jobs_run(struct cx_state *s, uint64_t iterations, struct hb_done *done,
		char *err, size_t errlen)
{
	struct hb_completion c;
	int rc = 0;

	for (uint64_t i = 0; i < iterations && !rc; i++) {
		rc = submit_unit(s, 0, s->units, err, errlen);
		if (rc == HB_BUSY)
			return hb_errorf(err, errlen, HB_EFAIL,
					 "the job queue is full with nothing "
					 "in flight");
		if (!rc)
			rc = cx_jobs_poll(s, 1, 1, &c, err, errlen);
		if (rc == 0)
			return hb_errorf(err, errlen, HB_EFAIL,
					 "message %llu was submitted and "
					 "never finished",
					 (unsigned long long)(s->msgno - 1));
		if (rc == 1) {
			done->bytes += s->size;
			done->ops++;
			s->units++;
			rc = 0;
		}
	}
	return rc;
}

void cx_jobs_close(struct cx_state *s)
{
	if (s->jobs)
		s->ops->job_close(s->jobs);
	s->jobs = NULL;
	for (unsigned i = 0; i < s->nslots; i++)
		free(s->slots[i]);
	free(s->slots);
	s->slots = NULL;
	s->nslots = 0;
	s->free_slots = NULL;
}
