/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The intel-ipsec-mb backend of the crypto engine: the library's job API
 * (one IMB_MGR per worker, whole messages submitted to its lanes and
 * returned when done) behind the engine's job calls. This backend's own
 * names start with ipmb_, apart from the library's IMB_ and imb_.
 */
#ifndef HB_CRYPTO_IPMB_H
#define HB_CRYPTO_IPMB_H

#include <stddef.h>
#include <stdint.h>

#include <intel-ipsec-mb.h>

#include "../common/engine.h"

/*
 * The most one job takes in 1.3 for CBC encrypt, HMAC and SHA (the
 * library's MB_MAX_LEN16); a CBC encrypt job must also be whole blocks.
 */
#define IPMB_MAX_LEN16 ((1u << 16) - 2)
#define IPMB_CBC_MAX   (IPMB_MAX_LEN16 & ~15u)

/* One worker's multi-buffer manager. */
struct ipmb_lib {
	IMB_MGR *mgr;
	IMB_ARCH arch;
};

/*
 * A queue: the keys of one cx_jobspec, expanded as the library wants
 * them, and the messages it holds. Jobs of every queue of a lib go
 * through the lib's manager; the library's user_data2 names the queue a
 * job belongs to.
 */
struct ipmb_queue {
	struct gcm_key_data gcm; /* first: the library wants 64-byte aligned */
	uint32_t enc[60] __attribute__((aligned(16))); /* AES round keys */
	uint32_t dec[60] __attribute__((aligned(16)));
	uint8_t ipad[64] __attribute__((aligned(16))); /* HMAC: the hashed */
	uint8_t opad[64] __attribute__((aligned(16))); /* key ^ pads       */
	uint8_t key[32];			       /* ChaCha20 */
	uint8_t mac_key[32]; /* Poly1305, unless one-time */
	IMB_MGR *mgr;
	const struct cx_alginfo *ci; /* cipher or AEAD, NULL if none */
	const struct cx_alginfo *hi; /* MAC or digest, NULL if none */
	IMB_CIPHER_MODE cipher;	     /* IMB_CIPHER_NULL without cipher */
	IMB_HASH_ALG hash;	     /* the MAC, digest or AEAD tag */
	IMB_CIPHER_DIRECTION dir;
	struct cx_job *done, *done_tail; /* finished, not yet reaped */
	struct cx_job *pending; /* waiting to submit their next piece */
	unsigned inflight;	/* messages submitted and not finished */
};

/* The primitives: lib_open and the four job calls. */
extern const struct cx_ops cx_ipsecmb_ops;

/* The library's name for arch ("avx512"). */
const char *ipmb_arch_name(IMB_ARCH arch);

/*
 * 0 when the backend offers alg, else HB_ENOTSUP naming it. describe()
 * and job_open use it.
 */
int ipmb_offers(enum cx_alg alg, char *err, size_t errlen);

/* The job calls (ipmb_job.c); job_open and job_close are ipmb_queue.c's. */
int ipmb_job_submit(void *q, struct cx_job *j, char *err, size_t errlen);
struct cx_job *ipmb_job_reap(void *q, int flush);

#endif
