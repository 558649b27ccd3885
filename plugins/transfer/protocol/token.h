/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a token must be, on both ends: hostbench-serve checks its --token
 * and the plugin each token of a case with the same rule, so neither end
 * accepts a token the other would refuse.
 */
#ifndef HB_TRANSFER_TOKEN_H
#define HB_TRANSFER_TOKEN_H

#include <stddef.h>

/* Fewest characters of a token: 16 hex digits are 64 random bits. */
#define TOKEN_MIN 16
/* Most bytes of a token. */
#define TOKEN_MAX 256
/*
 * Fewest different characters: one repeated character, or a short pattern
 * repeated, is a mistake; 16 random hex digits have fewer than 6 different
 * ones once in 40000 tries.
 */
#define TOKEN_MIN_DISTINCT 6

/*
 * Check token against the rule above. Returns 0, or HB_EINVAL with what is
 * wrong and how to make a good one in err; the message never holds the
 * token or any part of it.
 */
int token_check(const char *token, char *err, size_t errlen);

#endif
