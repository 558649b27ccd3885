/* SPDX-License-Identifier: Apache-2.0 */
/* SHA-256 (FIPS 180-4) of a buffer: the store's identities and file hashes. */
#ifndef HB_CORE_STORE_STORE_SHA256_H
#define HB_CORE_STORE_STORE_SHA256_H

#include <stddef.h>
#include <stdint.h>

/* The 32-byte digest of len bytes at data into out. */
void store_sha256(const void *data, size_t len, uint8_t out[32]);

#endif
