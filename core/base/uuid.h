/* SPDX-License-Identifier: Apache-2.0 */
/* Random (version 4) UUIDs as RFC 4122 text, naming one run; and the
   check that text read back is a UUID. */
#ifndef HB_CORE_BASE_UUID_H
#define HB_CORE_BASE_UUID_H

#include <stddef.h>

/* "0b6c2f0e-5a1c-4c5e-9d53-2f1f7f0c9a11" and its NUL. */
#define UUID_TEXT 37

/*
 * bytes[16] as a version 4, variant 1 UUID in out: the version and variant
 * bits are set over the random bits given. Pure, for tests.
 */
void uuid_v4_text(const unsigned char bytes[16], char out[UUID_TEXT]);

/*
 * Nonzero when s is a UUID as text: 32 hex digits (either case) in groups
 * of 8-4-4-4-12 joined by dashes, and nothing more. NULL is none. Pure.
 */
int uuid_is_text(const char *s);

/* A new version 4 UUID from getrandom(). Returns 0 or -errno. */
int uuid_v4(char out[UUID_TEXT]);

#endif
