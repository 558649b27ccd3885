/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The crypto engine: setup, run and teardown for every shared crypto
 * target, written once over a small table of library primitives that each
 * backend fills. The engine owns buffers, message numbering, directions,
 * modes, composites and known-answer checks; a backend only maps cx_alg
 * onto its library's calls.
 *
 * A backend fills the update calls (cipher_* and hash_*: a library that
 * keeps state between calls, such as OpenSSL or libgcrypt), the job calls
 * (job_*: a library or device that takes whole messages and returns them
 * when done, such as a multi-buffer manager, an offload queue, or
 * OpenSSL's asynchronous jobs), or both. Whole messages (mode = message)
 * take the job path when the backend has it, known answers included;
 * stream mode takes the update calls. The engine offers the plugin's
 * asynchronous slots (cx_submit, cx_poll) on both paths, so the core
 * keeps queue_depth messages in flight per worker (one in stream mode).
 *
 * Every backend function returns 0 or a negative HB_E* code with a
 * one-line reason in err (the library's own words where it has them).
 */
#ifndef HB_CRYPTO_ENGINE_H
#define HB_CRYPTO_ENGINE_H

#include <stddef.h>
#include <stdint.h>

#include <hostbench/plugin.h>

#include "cx.h"

/*
 * One whole message on the job path. The engine fills the inputs, submits
 * it, and reads the outputs when the backend hands it back; the backend
 * owns the job from submission until then.
 */
struct cx_job {
	const uint8_t *iv;  /* IV or nonce of the cipher, NULL without */
	const uint8_t *aad; /* AEAD only; NULL when aad_len is 0 */
	size_t aad_len;
	const uint8_t *mac_key; /* this message's one-time MAC key, or NULL */
	const uint8_t *src;	/* the message */
	uint8_t *dst;		/* the cipher's output; NULL without cipher */
	size_t len;		/* bytes of src (and dst) */
	/* Outputs. A composite encrypt works in place (src == dst), so its
	 * MAC is over the ciphertext; a decrypt MACs src, then decrypts. */
	/* AEAD tag: encrypt writes it; decrypt is given the expected one
	 * and either checks it (status HB_EVERIFY on a mismatch) or
	 * overwrites it with the tag it computed, which the engine checks */
	uint8_t tag[CX_MAX_OUT];
	uint8_t mac[CX_MAX_OUT]; /* MAC or digest */
	int status;		 /* 0, or a negative HB_E* code */
	const char *why; /* with status: the library's reason, valid until
			    the next job_submit on the queue */
	/* The backend's while the job is in flight. */
	struct cx_job *next;
	size_t off;
	int stage;
	uint8_t scratch[CX_MAX_IV];
};

/* What every job of one queue shares: algorithms, direction, keys, size. */
struct cx_jobspec {
	enum cx_alg alg; /* cipher or AEAD; CX_NONE for a MAC or digest */
	enum cx_alg mac; /* MAC or digest; CX_NONE for a cipher alone */
	int encrypt;	 /* 0: decrypt (MAC checked over src first) */
	const uint8_t *key;
	const uint8_t *mac_key; /* NULL for digests and one-time keys */
	size_t mac_key_len;
	size_t len;	/* bytes of every message of the queue */
	unsigned depth; /* messages in flight at most (the case's
			   queue_depth); 0 counts as 1 */
};

/* The primitives a backend provides. Handles are the backend's own. */
struct cx_ops {
	/*
	 * Prepare the library for one worker of case c (load providers,
	 * read backend options). c is never NULL. HB_SKIP when the library
	 * cannot do this case here.
	 */
	int (*lib_open)(const struct hb_case *c, void **lib, char *err,
			size_t errlen);
	void (*lib_close)(void *lib);

	/*
	 * A cipher or AEAD handle for alg and direction with key (the alg's
	 * key length). c, when not NULL, receives notes about who does the
	 * work ("provider", "library").
	 */
	int (*cipher_open)(void *lib, const struct hb_case *c, enum cx_alg alg,
			   int encrypt, const uint8_t *key, void **h, char *err,
			   size_t errlen);
	/*
	 * Start a new message with iv (the alg's IV length); key, when not
	 * NULL, is set again first, in the same call where the library
	 * takes both at once (mode rekey: openssl speed's AEAD loop).
	 */
	int (*cipher_start)(void *h, const uint8_t *key, const uint8_t *iv,
			    char *err, size_t errlen);
	/* Authenticate aad (AEAD only), after start and before any data. */
	int (*cipher_aad)(void *h, const uint8_t *aad, size_t len, char *err,
			  size_t errlen);
	/* Encrypt or decrypt len bytes; in == out works in place. */
	int (*cipher_update)(void *h, const uint8_t *in, uint8_t *out,
			     size_t len, char *err, size_t errlen);
	/*
	 * Optional: n updates of len bytes each from in to out, the same
	 * buffers every time (in == out works in place): stream mode's
	 * inner loop, as `openssl speed -evp` runs it, in the library's own
	 * calls with nothing of the engine's between them. NULL: the engine
	 * calls cipher_update n times.
	 */
	int (*cipher_updates)(void *h, const uint8_t *in, uint8_t *out,
			      size_t len, uint64_t n, char *err, size_t errlen);
	/*
	 * End the message. AEAD encrypt writes the tag; with tag NULL it
	 * computes it all the same and leaves it in the library, unread (the
	 * loop of openssl speed, whose final computes the tag and never
	 * reads it out). AEAD decrypt checks it and returns HB_EVERIFY on a
	 * mismatch. Other ciphers ignore tag.
	 */
	int (*cipher_finish)(void *h, uint8_t *tag, char *err, size_t errlen);
	/*
	 * Optional: start (key and iv as cipher_start), update len bytes
	 * from in to out and finish (tag as cipher_finish) in one call, so
	 * a timed message costs the engine one call into the backend, not
	 * three. NULL: the engine makes the three.
	 */
	int (*cipher_message)(void *h, const uint8_t *key, const uint8_t *iv,
			      const uint8_t *in, uint8_t *out, size_t len,
			      uint8_t *tag, char *err, size_t errlen);
	void (*cipher_close)(void *h);

	/* A MAC or digest handle; notes as for cipher_open. */
	int (*hash_open)(void *lib, const struct hb_case *c, enum cx_alg alg,
			 void **h, char *err, size_t errlen);
	/*
	 * Start a new message. MACs: key sets a new key; NULL keeps the
	 * previous one (HMAC's precomputed pads). Digests: key is NULL.
	 */
	int (*hash_start)(void *h, const uint8_t *key, size_t key_len,
			  char *err, size_t errlen);
	int (*hash_update)(void *h, const uint8_t *in, size_t len, char *err,
			   size_t errlen);
	/* Write the MAC or digest (the alg's out_len bytes). */
	int (*hash_finish)(void *h, uint8_t *out, char *err, size_t errlen);
	void (*hash_close)(void *h);

	/* ---- the job path (all four, or none) ---- */

	/*
	 * A queue of jobs for spec on lib; notes as for cipher_open. HB_SKIP
	 * with the reason when the library cannot take spec->len bytes as
	 * one message. Queues of one lib are used one at a time.
	 */
	int (*job_open)(void *lib, const struct hb_case *c,
			const struct cx_jobspec *spec, void **q, char *err,
			size_t errlen);
	/*
	 * Start job j (inputs filled). Returns 0, HB_BUSY when the queue is
	 * full (reap first), or a negative code with err filled. A job the
	 * library refuses is returned by job_reap with its status set.
	 */
	int (*job_submit)(void *q, struct cx_job *j, char *err, size_t errlen);
	/*
	 * A finished job, in any order, or NULL when none has finished. With
	 * flush, finish one even if the library would wait for more work
	 * (lanes not full); NULL then means none is in flight.
	 */
	struct cx_job *(*job_reap)(void *q, int flush);
	/* Close a queue; a job still in flight is finished and dropped. */
	void (*job_close)(void *q);
};

/*
 * The plugin's validate() (ABI 1.1): a size the cipher cannot take (CBC
 * without padding) is refused before the suite runs.
 */
int cx_validate(const struct hb_case *c, char *err, size_t errlen);

/*
 * Prepare one worker of case c with backend ops: read size, mode,
 * direction and the case's queue depth, check every primitive against its
 * known-answer vector on the same path it will time, allocate and touch
 * the buffers (one per message in flight), and prepare valid ciphertexts
 * and tags for decrypt. Returns 0, HB_SKIP, HB_EINVAL (a size the mode
 * cannot take, or stream mode above depth 1), HB_EVERIFY (wrong known
 * answer) or another code, with err filled.
 */
int cx_setup(const struct cx_ops *ops, const struct hb_case *c, void **state,
	     char *err, size_t errlen);

/* Process iterations buffers of `size` bytes: the plugin's run(). */
int cx_run(void *state, uint64_t iterations, struct hb_done *done, char *err,
	   size_t errlen);

/*
 * The plugin's submit() (ABI 1.2): start the next message, tagged tag.
 * Returns 0, HB_BUSY, or a negative code. On the update path (stream
 * mode) the buffer is done at once and one is in flight at most.
 */
int cx_submit(void *state, uint64_t tag, char *err, size_t errlen);

/*
 * The plugin's poll(): up to max finished messages into out, finishing
 * work the library holds back (a flush) until at least min are done or
 * none is in flight (a job paused by an asynchronous provider is waited
 * for in the backend's job_reap, on its descriptors), so timeout_ns is
 * not used.
 * Every message's status is checked, and in decrypt its tag and MAC: a
 * failure returns its negative code with err filled.
 */
int cx_poll(void *state, unsigned min, unsigned max, uint64_t timeout_ns,
	    struct hb_completion *out, char *err, size_t errlen);

/* Free what cx_setup made: the plugin's teardown(). */
void cx_teardown(void *state);

/*
 * Check alg against its published vector through ops on lib, in the given
 * direction (ignored for MACs and digests), on the job path when the
 * backend has one. Returns 0, HB_EVERIFY with a reason naming the vector,
 * or the backend's error.
 */
int cx_kat_check(const struct cx_ops *ops, void *lib, enum cx_alg alg,
		 int encrypt, char *err, size_t errlen);

#endif
