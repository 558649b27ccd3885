/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The libgcrypt backend of the crypto engine: gcry_cipher, gcry_mac and
 * gcry_md behind the engine's primitive table. This backend's own names
 * start with gc_, apart from libgcrypt's gcry_.
 */
#ifndef HB_CRYPTO_GC_H
#define HB_CRYPTO_GC_H

#include <stddef.h>

#include <hostbench/plugin.h>

#include <gcrypt.h>

#include "../common/engine.h"
#include "../common/pk.h"

/* The libgcrypt primitives. lib_open initializes the library once. */
extern const struct cx_ops cx_gcrypt_ops;

/*
 * Initialize libgcrypt if nobody has (no secure memory: benchmark data is
 * not secret). Returns 0 or HB_ECRYPTO with err filled.
 */
int cx_gcrypt_init(char *err, size_t errlen);

/* 0 when libgcrypt offers alg here, else HB_SKIP with its reason. */
int cx_gcrypt_available(enum cx_alg alg, char *err, size_t errlen);

/* err = "what: libgcrypt's reason"; returns code. */
int cx_gcrypt_fail(char *err, size_t errlen, int code, const char *what,
		   gcry_error_t e);

/*
 * Record the library "libgcrypt CPU" on a: the CPU features libgcrypt's
 * hwflist lets it use, and the list (cpu.h).
 */
void gc_cpu_note(struct hb_about *a);

/* The libgcrypt pk calls (gc_pk.c). */
extern const struct pk_ops pk_gcrypt_ops;

#endif
