/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SipHash-2-4 (Aumasson and Bernstein, 2012): a keyed hash of short
 * inputs. The journal keys secret values with it, so cases stay apart and
 * the value itself is never written (docs/reliability.md).
 */
#ifndef HB_CORE_BASE_SIPHASH_H
#define HB_CORE_BASE_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* Bytes of a SipHash key. */
#define SIPHASH_KEY 16

/* SipHash-2-4 of data[0..len) under key, as the reference computes it. */
uint64_t siphash(const unsigned char key[SIPHASH_KEY], const void *data,
		 size_t len);

#endif
