/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The engine's own: one worker's state, the parts of a message its two
 * paths share (message.c, below both), and the job path (jobs.c), which
 * the update path (engine.c) calls, never the other way round. Not for
 * backends: they see only engine.h.
 */
#ifndef HB_CRYPTO_STATE_H
#define HB_CRYPTO_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/crypto.h>

#include "engine.h"
#include "seam.h"
#include "targets.h"

struct cx_slot;

/* One worker. */
struct cx_state {
	enum cx_engine engine; /* first: CX_ENGINE_SYMMETRIC */
	const struct cx_ops *ops;
	void *lib;
	const struct cx_alginfo *ci; /* cipher or AEAD, NULL if none */
	const struct cx_alginfo *hi; /* MAC or digest, NULL if none */
	void *cipher;		     /* handle for ci */
	void *hash;		     /* handle for hi */
	void *jobs;		     /* the job path: the backend's queue */
	int encrypt;		     /* 0: decrypt and verify */
	int stream;		     /* 0: message mode */
	int rekey;		     /* message mode: a key set per message */
	int jobpath;		     /* whole messages through the job calls */
	unsigned depth;		     /* the case's queue_depth */
	unsigned worker;
	size_t size;
	size_t timed_len;	   /* bytes a timed message processes: size */
	cx_tag_tamper *tamper;	   /* a timed tag goes through it; NULL: none */
	cx_tag_tamper *out_tamper; /* a timed output, the same */
	cx_tag_tamper *submit_hook; /* a timed submit calls it; NULL: none */
	uint8_t *handed[2];	    /* the outputs poll handed back last */
	cx_tag_map *tag_back;	    /* a completion's tag; NULL: its own */
	/* the core's buffers (hb_case.buffers), or own ones (no core's) */
	const struct hb_buffers *io;
	struct hb_buffers own;
	const uint8_t *src;	/* cipher and MAC input: io->in, or ct */
	uint8_t *ct;		/* decrypt: a valid ciphertext, else NULL */
	uint8_t *data;		/* own input (no core's, or the data seam) */
	uint64_t units;		/* run(): units done, so out[units % n] */
	uint64_t msgno;		/* messages started */
	uint64_t stream_left;	/* stream: bytes left in the current message */
	struct cx_slot **slots; /* the job path: one per message in flight */
	unsigned nslots;
	struct cx_slot *free_slots;
	int sync_done;	   /* the update path: a buffer done, not polled */
	uint64_t sync_tag; /* its tag */
	uint8_t key[CX_MAX_KEY];
	uint8_t mac_key[CX_MAX_KEY];
	uint8_t msg_key[CX_MAX_KEY]; /* the one-time MAC key of a message */
	uint8_t iv[CX_MAX_IV];
	uint8_t tag[CX_MAX_OUT];
	uint8_t want_tag[CX_MAX_OUT]; /* decrypt: the AEAD tag of ct */
	uint8_t mac[CX_MAX_OUT];
	uint8_t want_mac[CX_MAX_OUT]; /* decrypt: the MAC of src */
};

/* A timed message's tag, MAC or digest (len bytes), once made. */
static inline void cx_timed_tag(const struct cx_state *s, uint8_t *tag,
				size_t len)
{
	if (s->tamper)
		s->tamper(tag, len);
}

/* A timed unit's output (len bytes), once made. */
static inline void cx_timed_out(const struct cx_state *s, uint8_t *out,
				size_t len)
{
	if (s->out_tamper)
		s->out_tamper(out, len);
}

/* message.c: a timed message's parts, for both paths. */

/* A 64-byte aligned buffer of n bytes, filled (so touched) with seed. */
uint8_t *cx_message_buffer(size_t n, uint64_t seed);

/*
 * The buffers of the worker of c: the core's (ABI 1.4), or its own when
 * the core gives none, with depth units. Its input is the core's unless
 * the test seam says other data. 0 or HB_ENOMEM.
 */
int cx_message_buffers(struct cx_state *s, const struct hb_case *c);

/* Free what cx_message_buffers made. */
void cx_message_buffers_free(struct cx_state *s);

/* The IV of message n into iv: the base IV with n in its nonce part. */
static inline const uint8_t *cx_message_iv(const struct cx_state *s, uint64_t n,
					   uint8_t *iv)
{
	return hb_crypto_message_iv(s->iv, s->ci->iv_len, n, iv);
}

/*
 * The MAC key of message n into key: NULL (keep it) unless one-time, or
 * the MAC key itself when every message sets its key (rekey).
 */
const uint8_t *cx_message_key(const struct cx_state *s, uint64_t n,
			      uint8_t *key);

/* jobs.c: the job path, which engine.c calls and which calls it not. */

/*
 * One job j through a queue of spec opened on lib, submitted and reaped
 * (flushed) at once: 0, or the job's or the queue's error named after
 * name. For one-off messages (known answers, the transform slot).
 */
int cx_jobs_one(const struct cx_ops *ops, void *lib,
		const struct cx_jobspec *spec, struct cx_job *j,
		const char *name, char *err, size_t errlen);

/* The job path's submit and poll: cx_submit and cx_poll with a queue. */
int cx_jobs_submit(struct cx_state *s, uint64_t tag, char *err, size_t errlen);
int cx_jobs_poll(struct cx_state *s, unsigned min, unsigned max,
		 struct hb_completion *out, char *err, size_t errlen);

/* The job path's parts of cx_setup, cx_run, cx_kat_check, cx_teardown. */
/* kat through a queue of depth, the case's (its messages' path) */
int cx_jobs_kat(const struct cx_ops *ops, void *lib, enum cx_alg alg,
		const struct cx_kat *kat, int encrypt, unsigned depth,
		char *err, size_t errlen);
int cx_jobs_open(struct cx_state *s, const struct cx_spec *sp,
		 const struct hb_case *c, char *err, size_t errlen);
int cx_jobs_prepare_received(struct cx_state *s, const struct cx_spec *sp,
			     char *err, size_t errlen);
int cx_jobs_run(struct cx_state *s, uint64_t iterations, struct hb_done *done,
		char *err, size_t errlen);
void cx_jobs_close(struct cx_state *s);

#endif
