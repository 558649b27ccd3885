/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The environment masks OpenSSL reads, judged before anything is
 * measured: OpenSSL parses OPENSSL_ia32cap without a word of complaint,
 * and text it cannot read turns every CPU capability off, so a typo
 * would measure a host without AES-NI and say nothing.
 */
#include "ossl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/plugin.h>

/* Longest value quoted back in a message. */
#define OSSL_ENV_QUOTE 64

/* Whether c is a digit of base. */
static int is_digit(char c, int base)
{
	if (base == 16)
		return isxdigit((unsigned char)c);
	return c >= '0' && c < '0' + base;
}

/*
 * One vector as OpenSSL reads it (crypto/cpuid.c): an optional '~', then
 * digits in base 16 ("0x"), 8 (a leading 0) or 10. Returns what follows
 * it, or NULL where no digit was read.
 */
static const char *vector_end(const char *s)
{
	const char *digits;
	int base = 10;

	if (*s == '~')
		s++;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if (s[0] == '0') {
		base = 8;
	}
	for (digits = s; is_digit(*s, base); s++)
		;
	return s > digits ? s : NULL;
}

int ossl_env_valid_ia32cap(const char *v)
{
	const char *at = v;

	for (;;) {
		at = vector_end(at);
		if (!at)
			return 0;
		if (*at == '\0')
			return 1;
		if (*at++ != ':')
			return 0;
	}
}

int ossl_env_check(char *err, size_t errlen)
{
	const char *v = getenv("OPENSSL_ia32cap");

	if (!v || ossl_env_valid_ia32cap(v))
		return 0;
	return hb_errorf(err, errlen, HB_EINVAL,
			 "OPENSSL_ia32cap=\"%.*s%s\" is not a capability mask "
			 "OpenSSL can read (it would turn every CPU feature "
			 "off): give [~]0xHEX[:[~]0xHEX], e.g. "
			 "OPENSSL_ia32cap=~0x200000200000000:~0 for no AES-NI",
			 OSSL_ENV_QUOTE, v,
			 strlen(v) > OSSL_ENV_QUOTE ? "..." : "");
}
