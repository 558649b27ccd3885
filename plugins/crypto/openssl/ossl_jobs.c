/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The OpenSSL backend's job calls: each message runs whole through the
 * update calls inside its own ASYNC_JOB (ossl_async.c), so a provider that
 * works asynchronously (an offload card's) pauses the job and the worker
 * goes on with the next message, as `openssl speed -async_jobs` does. A
 * paused job holds its contexts' state, so the queue opens one set of
 * contexts per message in flight (the case's queue_depth).
 *
 * At depth 1 the message runs on the worker's own stack: with one in
 * flight nothing could go on while a job waits, and a provider works
 * synchronously outside a job, so a job would add only its two context
 * switches (about 300 ns a message, as much as a 64-byte GCM message).
 */
#include <stdlib.h>
#include <string.h>

#include "ossl.h"
#include "ossl_async.h"

/* One message's EVP contexts, and the job using them. */
struct jobs_ctx {
	struct ossl_jobs *q;
	void *cipher, *hash; /* handles of the queue's update calls */
	struct cx_job *job;  /* in flight, or NULL */
	int status;	     /* depth 1: the finished message's */
	struct jobs_ctx *next_free;
	char why[256]; /* the failed job's reason */
};

/* A queue: its pool of jobs and a context set per job in flight. */
struct ossl_jobs {
	const struct cx_ops *o;	     /* the update calls, from the lib */
	struct ossl_pool *pool;	     /* NULL at depth 1: no jobs */
	struct jobs_ctx *done;	     /* depth 1: finished, not reaped */
	const struct cx_alginfo *ci; /* cipher or AEAD, NULL if none */
	const struct cx_alginfo *hi; /* MAC or digest, NULL if none */
	int encrypt;
	uint8_t mac_key[CX_MAX_KEY]; /* a one-time MAC's key for messages
					that bring none of their own */
	struct jobs_ctx *ctxs;
	unsigned nctx;
	struct jobs_ctx *free;
};

/* The MAC or digest of len bytes at in into out, in the job's context. */
static int jobs_hash(struct jobs_ctx *x, const uint8_t *in, uint8_t *out)
{
	const struct cx_ops *o = x->q->o;
	const struct ossl_jobs *q = x->q;
	const struct cx_job *j = x->job;
	const uint8_t *key = j->mac_key;
	int rc;

	if (!key && q->hi->one_time_key)
		key = q->mac_key; /* such a key is never kept by OpenSSL */
	rc = o->hash_start(x->hash, key, q->hi->key_len, x->why,
			   sizeof(x->why));
	if (!rc)
		rc = o->hash_update(x->hash, in, j->len, x->why,
				    sizeof(x->why));
	if (!rc)
		rc = o->hash_finish(x->hash, out, x->why, sizeof(x->why));
	return rc;
}

/* The cipher over the job's message; decrypt checks the tag given. */
static int jobs_crypt(struct jobs_ctx *x)
{
	const struct cx_ops *o = x->q->o;
	struct cx_job *j = x->job;
	int rc;

	rc = o->cipher_start(x->cipher, NULL, j->iv, x->why, sizeof(x->why));
	if (!rc && j->aad_len)
		rc = o->cipher_aad(x->cipher, j->aad, j->aad_len, x->why,
				   sizeof(x->why));
	if (!rc)
		rc = o->cipher_update(x->cipher, j->src, j->dst, j->len, x->why,
				      sizeof(x->why));
	if (!rc)
		rc = o->cipher_finish(x->cipher, j->tag, x->why,
				      sizeof(x->why));
	return rc;
}

/*
 * One whole message, inside its ASYNC_JOB: a decrypt MACs what it
 * received first; an encrypt MACs what the cipher wrote (in place, the
 * ciphertext).
 */
static int jobs_fiber(void *arg)
{
	struct jobs_ctx *x = arg;
	struct cx_job *j = x->job;
	int mac_first = x->q->ci && !x->q->encrypt;
	int rc = 0;

	if (x->hash && mac_first)
		rc = jobs_hash(x, j->src, j->mac);
	if (!rc && x->cipher)
		rc = jobs_crypt(x);
	if (!rc && x->hash && !mac_first)
		rc = jobs_hash(x, x->q->ci ? j->dst : j->src, j->mac);
	return rc;
}

/* Open one context set for spec; notes go to c when not NULL. */
static int jobs_ctx_open(struct jobs_ctx *x, void *lib, const struct hb_case *c,
			 const struct cx_jobspec *spec, char *err,
			 size_t errlen)
{
	const struct cx_ops *o = x->q->o;
	int rc = 0;

	if (x->q->ci)
		rc = o->cipher_open(lib, c, spec->alg, spec->encrypt, spec->key,
				    &x->cipher, err, errlen);
	if (!rc && x->q->hi)
		rc = o->hash_open(lib, c, spec->mac, &x->hash, err, errlen);
	/* a kept key (HMAC) is set once: its pads are computed once */
	if (!rc && x->q->hi && spec->mac_key && !x->q->hi->one_time_key)
		rc = o->hash_start(x->hash, spec->mac_key, spec->mac_key_len,
				   err, errlen);
	return rc;
}

void ossl_jobs_close(void *queue)
{
	struct ossl_jobs *q = queue;

	if (!q)
		return;
	ossl_pool_close(q->pool);
	for (unsigned i = 0; q->ctxs && i < q->nctx; i++) {
		if (q->ctxs[i].cipher)
			q->o->cipher_close(q->ctxs[i].cipher);
		if (q->ctxs[i].hash)
			q->o->hash_close(q->ctxs[i].hash);
	}
	free(q->ctxs);
	free(q);
}

int ossl_jobs_open(void *lib, const struct hb_case *c,
		   const struct cx_jobspec *spec, void **out, char *err,
		   size_t errlen)
{
	struct ossl_jobs *q = calloc(1, sizeof(*q));
	int rc = 0;

	if (!q)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	q->o = ossl_lib_updates(lib);
	q->ci = cx_alg_info(spec->alg);
	q->hi = cx_alg_info(spec->mac);
	q->encrypt = spec->encrypt;
	if (q->hi && q->hi->one_time_key && spec->mac_key)
		memcpy(q->mac_key, spec->mac_key, q->hi->key_len);
	q->nctx = spec->depth ? spec->depth : 1;
	q->ctxs = calloc(q->nctx, sizeof(*q->ctxs));
	if (!q->ctxs) {
		rc = hb_errorf(err, errlen, HB_ENOMEM,
			       "%u context sets: out of memory", q->nctx);
		goto fail_queue;
	}
	if (q->nctx > 1)
		rc = ossl_pool_open(q->nctx, &q->pool, err, errlen);
	for (unsigned i = q->nctx; !rc && i-- > 0;) {
		q->ctxs[i].q = q;
		rc = jobs_ctx_open(&q->ctxs[i], lib, i ? NULL : c, spec, err,
				   errlen);
		q->ctxs[i].next_free = q->free;
		q->free = &q->ctxs[i];
	}
	if (rc)
		goto fail_queue;
	*out = q;
	return 0;

fail_queue:
	ossl_jobs_close(q);
	return rc;
}

int ossl_jobs_submit(void *queue, struct cx_job *j, char *err, size_t errlen)
{
	struct ossl_jobs *q = queue;
	struct jobs_ctx *x = q->free;
	int rc;

	if (!x)
		return HB_BUSY;
	q->free = x->next_free;
	x->job = j;
	x->why[0] = '\0';
	if (!q->pool) {
		x->status = jobs_fiber(x);
		q->done = x;
		return 0;
	}
	rc = ossl_pool_submit(q->pool, jobs_fiber, x, err, errlen);
	if (rc) {
		x->job = NULL;
		x->next_free = q->free;
		q->free = x;
	}
	return rc;
}

struct cx_job *ossl_jobs_reap(void *queue, int flush)
{
	struct ossl_jobs *q = queue;
	struct jobs_ctx *x = q->done;
	int status = x ? x->status : 0;
	struct cx_job *j;

	q->done = NULL;
	if (q->pool)
		x = ossl_pool_reap(q->pool, &status, flush ? UINT64_MAX : 0);
	if (!x)
		return NULL;
	j = x->job;
	j->status = status;
	j->why = status ? (x->why[0] ? x->why : "the job was lost") : NULL;
	x->job = NULL;
	x->next_free = q->free;
	q->free = x;
	return j;
}
