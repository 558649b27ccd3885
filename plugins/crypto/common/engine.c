/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The crypto engine: one worker's buffers, keys and handles, and the tight
 * loops that drive a backend's primitives over them.
 */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include <hostbench/crypto.h>

#include "seam.h"
#include "state.h"
#include "targets.h"

/* The cipher key a message sets again (rekey), or NULL to keep it. */
static const uint8_t *message_cipher_key(const struct cx_state *s)
{
	return s->rekey ? s->key : NULL;
}

/* MAC or digest of len bytes at in into out, with message n's key. */
static int hash_message(struct cx_state *s, uint64_t n, const uint8_t *in,
			size_t len, uint8_t *out, char *err, size_t errlen)
{
	const struct cx_ops *o = s->ops;
	int rc;

	rc = o->hash_start(s->hash, cx_message_key(s, n, s->msg_key),
			   s->hi->key_len, err, errlen);
	if (!rc)
		rc = o->hash_update(s->hash, in, len, err, errlen);
	if (!rc)
		rc = o->hash_finish(s->hash, out, err, errlen);
	return rc;
}

/*
 * The slot of the worker's unit i in the core's ring (struct hb_buffers):
 * a ring of 4, 2 or 1 takes a mask, not a 64-bit division, per message
 * (some 20 ns of a 16-byte message's 350 here).
 */
static size_t unit_slot(const struct cx_state *s, uint64_t i)
{
	unsigned n = s->io->n;

	return (n & (n - 1)) == 0 ? (size_t)(i & (n - 1)) : (size_t)(i % n);
}

/* The core's output and tag of the worker's unit i. */
static uint8_t *unit_out(const struct cx_state *s, uint64_t i)
{
	return s->io->out[unit_slot(s, i)];
}

static uint8_t *unit_tag(const struct cx_state *s, uint64_t i)
{
	return s->io->tag[unit_slot(s, i)];
}

/* Start, update and finish one message of len bytes, tag as cipher_finish. */
static int cipher_message(struct cx_state *s, const uint8_t *key,
			  const uint8_t *iv, const uint8_t *in, uint8_t *out,
			  size_t len, uint8_t *tag, char *err, size_t errlen)
{
	const struct cx_ops *o = s->ops;
	int rc;

	if (o->cipher_message)
		return o->cipher_message(s->cipher, key, iv, in, out, len, tag,
					 err, errlen);
	rc = o->cipher_start(s->cipher, key, iv, err, errlen);
	if (!rc)
		rc = o->cipher_update(s->cipher, in, out, len, err, errlen);
	if (!rc)
		rc = o->cipher_finish(s->cipher, tag, err, errlen);
	return rc;
}

/*
 * One whole message, encrypted from the input into out (never in place:
 * the input is the core's), then MACed (a composite: out), its tag, MAC
 * or digest into tag.
 */
static int encrypt_message(struct cx_state *s, uint8_t *out, uint8_t *tag,
			   char *err, size_t errlen)
{
	size_t len = s->timed_len;
	uint8_t iv[CX_MAX_IV];
	int rc;

	if (s->cipher) {
		/* rekey is openssl speed's loop: the tag stays unread */
		rc = cipher_message(s, message_cipher_key(s),
				    cx_message_iv(s, s->msgno, iv), s->src, out,
				    len, s->rekey ? NULL : tag, err, errlen);
		if (rc)
			return rc;
		cx_timed_out(s, out, len);
		cx_timed_tag(s, tag, s->ci->out_len);
	}
	if (!s->hash)
		return 0;
	rc = hash_message(s, s->msgno, s->cipher ? out : s->src, len, tag, err,
			  errlen);
	cx_timed_tag(s, tag, s->hi->out_len);
	return rc;
}

/*
 * One received message: MAC checked (the MAC it computed into tag), then
 * decrypted into out and its tag checked.
 */
static int decrypt_message(struct cx_state *s, uint8_t *out, uint8_t *tag,
			   char *err, size_t errlen)
{
	uint8_t iv[CX_MAX_IV];
	int rc;

	if (s->hash) {
		rc = hash_message(s, 0, s->src, s->size, tag, err, errlen);
		if (rc)
			return rc;
		if (cx_memneq(tag, s->want_mac, s->hi->out_len))
			return hb_errorf(err, errlen, HB_EVERIFY,
					 "%s mismatch on message %llu",
					 s->hi->name,
					 (unsigned long long)s->msgno);
	}
	if (s->cipher) {
		rc = cipher_message(s, message_cipher_key(s),
				    cx_message_iv(s, 0, iv), s->src, out,
				    s->size, s->want_tag, err, errlen);
		if (rc)
			return rc;
		cx_timed_out(s, out, s->size);
	}
	return 0;
}

/* Stream: start its next message when the next buffer would not fit. */
static int stream_fit(struct cx_state *s, char *err, size_t errlen)
{
	uint8_t iv[CX_MAX_IV];
	int rc;

	if (s->stream_left >= s->size)
		return 0;
	s->msgno++;
	rc = s->ops->cipher_start(s->cipher, NULL,
				  cx_message_iv(s, s->msgno, iv), err, errlen);
	if (!rc)
		s->stream_left = HB_CRYPTO_STREAM_MESSAGE;
	return rc;
}

/* Stream: the next buffer of the endless message, into out. */
static int stream_buffer(struct cx_state *s, uint8_t *out, uint8_t *tag,
			 char *err, size_t errlen)
{
	const struct cx_ops *o = s->ops;
	int rc;

	(void)tag; /* an endless MAC has none until it ends */
	if (s->cipher) {
		rc = stream_fit(s, err, errlen);
		if (!rc)
			rc = o->cipher_update(s->cipher, s->src, out, s->size,
					      err, errlen);
		if (rc)
			return rc;
		cx_timed_out(s, out, s->size);
		s->stream_left -= s->size;
	}
	if (s->hash)
		return o->hash_update(s->hash,
				      s->encrypt && s->cipher ? out : s->src,
				      s->size, err, errlen);
	return 0;
}

/*
 * Stream, a cipher alone, through the backend's own update loop: runs of
 * buffers up to the end of the current message, all into out[0] (the
 * core gives a stream one). *done counts buffers.
 */
static int stream_cipher_runs(struct cx_state *s, uint64_t iterations,
			      uint64_t *done, char *err, size_t errlen)
{
	uint64_t run;
	int rc = 0;

	while (!rc && *done < iterations) {
		rc = stream_fit(s, err, errlen);
		if (rc)
			break;
		run = s->stream_left / s->size;
		if (run > iterations - *done)
			run = iterations - *done;
		rc = s->ops->cipher_updates(s->cipher, s->src, unit_out(s, 0),
					    s->size, run, err, errlen);
		if (!rc) {
			cx_timed_out(s, unit_out(s, 0), s->size);
			s->stream_left -= run * s->size;
			*done += run;
		}
	}
	return rc;
}

int cx_run(void *state, uint64_t iterations, struct hb_done *done, char *err,
	   size_t errlen)
{
	struct cx_state *s = state;
	int (*step)(struct cx_state *, uint8_t *, uint8_t *, char *, size_t);
	uint64_t i = 0;
	int rc = 0;

	if (s->jobs)
		return cx_jobs_run(s, iterations, done, err, errlen);
	if (s->stream && s->cipher && !s->hash && s->ops->cipher_updates &&
	    s->io->n == 1) {
		rc = stream_cipher_runs(s, iterations, &i, err, errlen);
		s->units += i;
		iterations = i;
	}
	if (s->stream)
		step = stream_buffer;
	else
		step = s->encrypt ? encrypt_message : decrypt_message;
	for (; !rc && i < iterations; i++) {
		rc = step(s, unit_out(s, s->units), unit_tag(s, s->units), err,
			  errlen);
		if (rc)
			break;
		s->units++;
		if (!s->stream)
			s->msgno++;
	}
	done->bytes += i * s->size;
	done->ops += i;
	return rc;
}

/* The update path's submit: one buffer done at once, one in flight. */
static int updates_submit(struct cx_state *s, uint64_t tag, char *err,
			  size_t errlen)
{
	int (*step)(struct cx_state *, uint8_t *, uint8_t *, char *, size_t);
	int rc;

	if (s->sync_done)
		return HB_BUSY;
	if (s->stream)
		step = stream_buffer;
	else
		step = s->encrypt ? encrypt_message : decrypt_message;
	rc = step(s, unit_out(s, tag), unit_tag(s, tag), err, errlen);
	if (rc)
		return rc;
	if (!s->stream)
		s->msgno++;
	s->sync_done = 1;
	s->sync_tag = tag;
	return 0;
}

/* The update path's poll: the buffer submit did, once. */
static int updates_poll(struct cx_state *s, unsigned max,
			struct hb_completion *out)
{
	if (!s->sync_done || max == 0)
		return 0;
	s->sync_done = 0;
	out[0] = (struct hb_completion){
		.tag = s->sync_tag,
		.done = { .bytes = s->size, .ops = 1 },
	};
	return 1;
}

int cx_submit(void *state, uint64_t tag, char *err, size_t errlen)
{
	struct cx_state *s = state;

	if (!s->jobs)
		return updates_submit(s, tag, err, errlen);
	return cx_jobs_submit(s, tag, err, errlen);
}

int cx_poll(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
	    struct hb_completion *out, char *err, size_t errlen)
{
	struct cx_state *s = state;

	/* a backend that waits (a paused job) waits in its job_reap */
	(void)timeout_ns;
	if (!s->jobs)
		return updates_poll(s, max, out);
	return cx_jobs_poll(s, min, max, out, err, errlen);
}

/* Known answer of a cipher or AEAD in one direction. */
static int kat_cipher(const struct cx_ops *o, void *lib,
		      const struct cx_alginfo *ai, enum cx_alg alg,
		      const struct cx_kat *kat, int encrypt, char *err,
		      size_t errlen)
{
	uint8_t out[sizeof(kat->in)], tag[CX_MAX_OUT];
	void *h = NULL;
	int rc;

	memcpy(tag, kat->tag, sizeof(tag));
	rc = o->cipher_open(lib, NULL, alg, encrypt, kat->key, &h, err, errlen);
	if (rc)
		return rc;
	rc = o->cipher_start(h, NULL, kat->iv, err, errlen);
	if (!rc && kat->aad_len)
		rc = o->cipher_aad(h, kat->aad, kat->aad_len, err, errlen);
	if (!rc)
		rc = o->cipher_update(h, encrypt ? kat->in : kat->out, out,
				      kat->in_len, err, errlen);
	if (!rc)
		rc = o->cipher_finish(h, tag, err, errlen);
	o->cipher_close(h);
	if (rc == HB_EVERIFY)
		return hb_errorf(err, errlen, HB_EVERIFY,
				 "known-answer check failed: %s decrypt "
				 "rejects the tag of %s",
				 ai->name, kat->source);
	if (rc)
		return rc;
	if (encrypt) {
		rc = cx_kat_compare(ai, kat, "ciphertext", out, kat->out,
				    kat->out_len, err, errlen);
		if (!rc && ai->kind == CX_AEAD)
			rc = cx_kat_compare(ai, kat, "tag", tag, kat->tag,
					    kat->tag_len, err, errlen);
		return rc;
	}
	return cx_kat_compare(ai, kat, "decrypted plaintext", out, kat->in,
			      kat->in_len, err, errlen);
}

/* Known answer of a MAC or digest. */
static int kat_hash(const struct cx_ops *o, void *lib,
		    const struct cx_alginfo *ai, enum cx_alg alg,
		    const struct cx_kat *kat, char *err, size_t errlen)
{
	uint8_t out[CX_MAX_OUT];
	void *h = NULL;
	int rc;

	rc = o->hash_open(lib, NULL, alg, &h, err, errlen);
	if (rc)
		return rc;
	rc = o->hash_start(h, kat->key_len ? kat->key : NULL, kat->key_len, err,
			   errlen);
	if (!rc)
		rc = o->hash_update(h, kat->in, kat->in_len, err, errlen);
	if (!rc)
		rc = o->hash_finish(h, out, err, errlen);
	o->hash_close(h);
	if (rc)
		return rc;
	return cx_kat_compare(ai, kat, ai->kind == CX_MAC ? "MAC" : "digest",
			      out, kat->out, kat->out_len, err, errlen);
}

/*
 * The known answer of alg on the update calls (depth 0), or on the job
 * path through a queue of depth, as the timed messages go.
 */
static int kat_check_on(const struct cx_ops *ops, void *lib, enum cx_alg alg,
			int encrypt, unsigned depth, char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	struct cx_kat kat;

	if (!ai || cx_kat_load(alg, &kat))
		return hb_errorf(err, errlen, HB_EFAIL,
				 "no known-answer vector for algorithm %d",
				 (int)alg);
	if (depth)
		return cx_jobs_kat(ops, lib, alg, &kat, encrypt, depth, err,
				   errlen);
	if (ai->kind == CX_CIPHER || ai->kind == CX_AEAD)
		return kat_cipher(ops, lib, ai, alg, &kat, encrypt, err,
				  errlen);
	return kat_hash(ops, lib, ai, alg, &kat, err, errlen);
}

int cx_kat_check(const struct cx_ops *ops, void *lib, enum cx_alg alg,
		 int encrypt, char *err, size_t errlen)
{
	return kat_check_on(ops, lib, alg, encrypt, ops->job_open ? 1 : 0, err,
			    errlen);
}

/* Whether target t declares option name (rekey is a backend's choice). */
static int declares(const struct hb_target *t, const char *name)
{
	for (const struct hb_option *o = t->options; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return 1;
	return 0;
}

/*
 * Read size, mode, rekey, direction and queue depth; reject a size the
 * cipher cannot take, stream mode (one endless message, a buffer at a
 * time) with more than one in flight, and rekey in stream mode.
 */
static int read_options(struct cx_state *s, const struct hb_case *c, char *err,
			size_t errlen)
{
	const struct hb_host *h = c->host;
	const char *mode = h->get_str(c, "mode");
	int64_t depth = h->get_int(c, "queue_depth");
	const char *dir;

	s->depth = depth > 1 ? (unsigned)depth : 1;
	s->size = (size_t)h->get_size(c, "size");
	s->stream = mode && strcmp(mode, "stream") == 0;
	s->rekey = declares(c->target, "rekey") && h->get_bool(c, "rekey");
	s->encrypt = 1;
	if (s->ci || s->hi->kind == CX_MAC) {
		dir = h->get_str(c, "direction");
		s->encrypt = !(dir && strcmp(dir, "decrypt") == 0);
	}
	if (s->size == 0)
		return hb_errorf(err, errlen, HB_EINVAL, "size must be > 0");
	if (s->ci && s->size % s->ci->block)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "size %zu is not a multiple of %zu, the %s "
				 "block: CBC runs without padding",
				 s->size, s->ci->block, s->ci->name);
	if (s->stream && s->rekey)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "rekey = yes sets a key per message: it needs "
				 "mode = message, not stream");
	if (s->rekey && s->depth > 1)
		return hb_errorf(
			err, errlen, HB_EINVAL,
			"rekey = yes runs one message at a time, as "
			"openssl speed: queue_depth %u needs rekey = no",
			s->depth);
	if (s->stream && s->depth > 1)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "mode = stream is one endless message, one "
				 "buffer at a time: queue_depth %u needs "
				 "mode = message",
				 s->depth);
	return 0;
}

/* Check every primitive of the target against its known answer. */
static int check_known_answers(struct cx_state *s, const struct cx_spec *sp,
			       char *err, size_t errlen)
{
	unsigned depth = s->jobpath ? s->depth : 0;
	int rc = 0;

	if (s->ci)
		rc = kat_check_on(s->ops, s->lib, sp->alg, s->encrypt, depth,
				  err, errlen);
	if (!rc && s->hi)
		rc = kat_check_on(s->ops, s->lib, s->ci ? sp->mac : sp->alg, 1,
				  depth, err, errlen);
	return rc;
}

/* A valid ciphertext, its AEAD tag and its MAC, by the update calls. */
static int received_by_updates(struct cx_state *s, enum cx_alg calg, char *err,
			       size_t errlen)
{
	const struct cx_ops *o = s->ops;
	uint8_t iv[CX_MAX_IV];
	void *enc = NULL;
	int rc;

	if (s->ci) {
		rc = o->cipher_open(s->lib, NULL, calg, 1, s->key, &enc, err,
				    errlen);
		if (rc)
			return rc;
		rc = o->cipher_start(enc, NULL, cx_message_iv(s, 0, iv), err,
				     errlen);
		if (!rc)
			rc = o->cipher_update(enc, s->src, s->ct, s->size, err,
					      errlen);
		if (!rc)
			rc = o->cipher_finish(enc, s->want_tag, err, errlen);
		o->cipher_close(enc);
		if (rc)
			return rc;
	}
	if (s->hi)
		return hash_message(s, 0, s->ct, s->size, s->want_mac, err,
				    errlen);
	return 0;
}

/* Decrypt: a valid ciphertext, its AEAD tag and its MAC, as a peer sends. */
static int prepare_received(struct cx_state *s, const struct cx_spec *sp,
			    char *err, size_t errlen)
{
	int rc;

	if (!s->ci) /* a MAC alone receives the message itself */
		memcpy(s->ct, s->src, s->size);
	if (s->jobpath)
		rc = cx_jobs_prepare_received(s, sp, err, errlen);
	else
		rc = received_by_updates(s, sp->alg, err, errlen);
	/* from now on a decrypt reads what it received */
	s->src = s->ct;
	cx_seam_received(s->ct, s->size);
	return rc;
}

/* Open the handles the worker times, keyed. */
static int open_handles(struct cx_state *s, const struct cx_spec *sp,
			const struct hb_case *c, char *err, size_t errlen)
{
	const struct cx_ops *o = s->ops;
	enum cx_alg halg = s->ci ? sp->mac : sp->alg;
	int rc = 0;

	if (s->jobpath)
		return cx_jobs_open(s, sp, c, err, errlen);
	if (s->ci) {
		rc = o->cipher_open(s->lib, c, sp->alg, s->encrypt, s->key,
				    &s->cipher, err, errlen);
		if (rc)
			return rc;
	}
	if (s->hi) {
		rc = o->hash_open(s->lib, c, halg, &s->hash, err, errlen);
		if (!rc)
			rc = o->hash_start(s->hash,
					   s->hi->key_len ? s->mac_key : NULL,
					   s->hi->key_len, err, errlen);
	}
	return rc;
}

/* Stream mode: begin the endless message, MAC freshly keyed. */
static int start_stream(struct cx_state *s, char *err, size_t errlen)
{
	const struct cx_ops *o = s->ops;
	uint8_t iv[CX_MAX_IV];
	int rc = 0;

	if (s->ci) {
		s->stream_left = HB_CRYPTO_STREAM_MESSAGE;
		rc = o->cipher_start(s->cipher, NULL, cx_message_iv(s, 0, iv),
				     err, errlen);
	}
	if (!rc && s->hi)
		rc = o->hash_start(s->hash, s->hi->key_len ? s->mac_key : NULL,
				   s->hi->key_len, err, errlen);
	return rc;
}

void cx_teardown(void *state)
{
	struct cx_state *s = state;

	if (!s)
		return;
	cx_jobs_close(s);
	if (s->hash)
		s->ops->hash_close(s->hash);
	if (s->cipher)
		s->ops->cipher_close(s->cipher);
	if (s->lib)
		s->ops->lib_close(s->lib);
	free(s->ct);
	cx_message_buffers_free(s);
	free(s);
}

/* The cipher and MAC (or hash) halves of target sp. */
static void set_kind(struct cx_state *s, const struct cx_spec *sp)
{
	const struct cx_alginfo *ai = cx_alg_info(sp->alg);

	if (ai->kind == CX_CIPHER || ai->kind == CX_AEAD) {
		s->ci = ai;
		s->hi = cx_alg_info(sp->mac);
	} else {
		s->hi = ai;
	}
}

int cx_validate(const struct hb_case *c, char *err, size_t errlen)
{
	const struct cx_spec *sp = cx_spec_find(c->target);
	struct cx_state s = { 0 };

	if (!sp)
		return hb_errorf(err, errlen, HB_ENOTSUP,
				 "%s/%s is not a crypto target",
				 c->target->group, c->target->name);
	set_kind(&s, sp);
	return read_options(&s, c, err, errlen);
}

int cx_setup(const struct cx_ops *ops, const struct hb_case *c, void **state,
	     char *err, size_t errlen)
{
	const struct cx_spec *sp = cx_spec_find(c->target);
	struct cx_state *s;
	int rc;

	if (!sp)
		return hb_errorf(err, errlen, HB_ENOTSUP,
				 "%s/%s is not a crypto target",
				 c->target->group, c->target->name);
	s = calloc(1, sizeof(*s));
	if (!s)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	s->engine = CX_ENGINE_SYMMETRIC;
	s->ops = ops;
	s->worker = c->worker;
	set_kind(s, sp);
	rc = read_options(s, c, err, errlen);
	/* the seam decided once: the timed loop makes no call for it */
	s->timed_len = cx_seam_timed_len(s->size);
	s->tamper = cx_seam_timed_tag();
	s->out_tamper = cx_seam_timed_out(s->stream, s->encrypt);
	s->submit_hook = cx_seam_timed_submit();
	s->tag_back = cx_seam_timed_completion();
	if (!rc && s->stream && !ops->cipher_open)
		rc = hb_errorf(err, errlen, HB_SKIP,
			       "this backend takes whole messages (jobs), so "
			       "it has no stream mode: use mode = message");
	if (rc)
		goto fail_state;
	/* rekey times the update calls, as openssl speed calls them */
	s->jobpath = ops->job_open && !s->stream && !s->rekey;
	rc = ops->lib_open(c, &s->lib, err, errlen);
	if (rc)
		goto fail_state;
	rc = check_known_answers(s, sp, err, errlen);
	if (rc)
		goto fail_state;
	hb_crypto_fill(s->key, sizeof(s->key), HB_CRYPTO_SEED_KEY);
	hb_crypto_fill(s->mac_key, sizeof(s->mac_key), HB_CRYPTO_SEED_MAC_KEY);
	hb_crypto_fill(s->iv, sizeof(s->iv), HB_CRYPTO_SEED_IV);
	cx_seam_timed_key(s->key, sizeof(s->key));
	cx_seam_timed_key(s->mac_key, sizeof(s->mac_key));
	rc = cx_message_buffers(s, c);
	if (!rc && !s->encrypt) {
		s->ct = cx_message_buffer(s->size, 0);
		rc = s->ct ? 0 : HB_ENOMEM;
	}
	if (rc) {
		rc = hb_errorf(err, errlen, HB_ENOMEM,
			       "allocating %zu-byte buffers: out of memory",
			       s->size);
		goto fail_state;
	}
	rc = open_handles(s, sp, c, err, errlen);
	if (!rc && !s->encrypt)
		rc = prepare_received(s, sp, err, errlen);
	if (!rc && s->stream)
		rc = start_stream(s, err, errlen);
	if (rc)
		goto fail_state;
	*state = s;
	return 0;

fail_state:
	cx_teardown(s);
	return rc;
}
