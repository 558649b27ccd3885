/* SPDX-License-Identifier: Apache-2.0 */
/* The published vectors of the pk targets, decoded (pk_vectors.c). */
#ifndef HB_CRYPTO_PK_VEC_H
#define HB_CRYPTO_PK_VEC_H

#include <stddef.h>
#include <stdint.h>

#include "pk.h"

/* One vector per algorithm and curve. */
enum pk_vector_id {
	PK_V_RSA,
	PK_V_ECDSA_P256,
	PK_V_ECDSA_P384,
	PK_V_ECDSA_P521,
	PK_V_ECDH_P256,
	PK_V_ECDH_P384,
	PK_V_ECDH_P521,
	PK_V_X25519,
	PK_V_X448,
	PK_V_ED25519,
	PK_V_ED448,
	PK_V_COUNT,
};

/* A decoded vector: key (and peer) material pointing into its buffers. */
struct pk_vector {
	const char *source;
	struct pk_keydata key;
	struct pk_keydata peer_key; /* derivation: pub only */
	uint8_t n[512], e[8], d[512];
	uint8_t priv[72], pub[160], peer[160];
	uint8_t msg[PK_MAX_MSG];
	size_t msg_len;
	uint8_t out[512];
	size_t out_len;
};

/*
 * Fill v with the vector that checks p's algorithm and curve. Returns 0,
 * or -1 when there is none. Built with CX_KAT_CORRUPT (tests only), the
 * expected output is deliberately wrong in its last byte.
 */
int pk_vector_load(const struct pk_params *p, struct pk_vector *v);

#endif
