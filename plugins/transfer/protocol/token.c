/* SPDX-License-Identifier: Apache-2.0 */
/* The length and variety a token needs. */
#include "token.h"

#include <string.h>

#include <hostbench/plugin.h>

#define TOKEN_HINT "make one with: openssl rand -hex 16"

/* How many different bytes s holds. */
static int distinct(const char *s)
{
	unsigned char seen[256] = { 0 };
	int n = 0;

	for (; *s; s++) {
		n += !seen[(unsigned char)*s];
		seen[(unsigned char)*s] = 1;
	}
	return n;
}

int token_check(const char *token, char *err, size_t errlen)
{
	size_t len = strlen(token);

	if (len == 0)
		return hb_errorf(err, errlen, HB_EINVAL, "no token given (%s)",
				 TOKEN_HINT);
	if (len < TOKEN_MIN)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "the token has %zu character%s, at least %d "
				 "are needed (%s)",
				 len, len == 1 ? "" : "s", TOKEN_MIN,
				 TOKEN_HINT);
	if (len > TOKEN_MAX)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "the token has %zu bytes, at most %d are "
				 "allowed",
				 len, TOKEN_MAX);
	if (distinct(token) < TOKEN_MIN_DISTINCT)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "the token has only %d different character%s, "
				 "at least %d are needed: it is too easy to "
				 "guess (%s)",
				 distinct(token),
				 distinct(token) == 1 ? "" : "s",
				 TOKEN_MIN_DISTINCT, TOKEN_HINT);
	return 0;
}
