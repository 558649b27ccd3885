/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A portable AES-256 block encryption (FIPS 197), the engine of the
 * software device. Counter mode only ever runs the cipher forward, so there
 * is no decryption. Table-driven and not constant-time: fine for
 * measuring, not for protecting secrets.
 */
#ifndef ACCEL_AES256_H
#define ACCEL_AES256_H

#include <stdint.h>

/* An expanded AES-256 key: 15 round keys of four big-endian words. */
struct aes256_key {
	uint32_t rk[60];
};

/*
 * Build the lookup tables. Idempotent and thread-safe; must have returned
 * before the first aes256_expand() or aes256_encrypt().
 */
void aes256_init(void);

/* Expand a 32-byte key. */
void aes256_expand(struct aes256_key *k, const uint8_t key[32]);

/* Encrypt one 16-byte block; in and out may be the same. */
void aes256_encrypt(const struct aes256_key *k, const uint8_t in[16],
		    uint8_t out[16]);

#endif
