/* SPDX-License-Identifier: Apache-2.0 */
/* The SHA-256 of a file's bytes (OpenSSL's libcrypto), as hex. */
#ifndef HB_CORE_BASE_DIGEST_H
#define HB_CORE_BASE_DIGEST_H

#include <stddef.h>
#include <stdint.h>

/* 64 hex digits and the NUL. */
#define DIGEST_SHA256_HEX 65

/* The SHA-256 of len bytes at data, into out. */
void digest_sha256(const void *data, size_t len, uint8_t out[32]);

/*
 * The SHA-256 of the bytes of the file at path, as lowercase hex. Returns 0,
 * or a negative errno code with "PATH: REASON" in err.
 */
int digest_file_sha256(const char *path, char hex[DIGEST_SHA256_HEX], char *err,
		       size_t errlen);

#endif
