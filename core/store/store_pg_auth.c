/* SPDX-License-Identifier: Apache-2.0 */
/*
 * require_auth, as libpq 16 reads it, for the guard that holds libpq 15
 * to it: which methods a server may authenticate the store by.
 */
#include "store/store_pg.h"

#include <errno.h>
#include <string.h>

#include "base/util.h"

/* The methods by require_auth's names. */
static const struct {
	const char *name;
	unsigned bit;
} methods[] = {
	{ "password", STORE_PG_PASSWORD },
	{ "md5", STORE_PG_MD5 },
	{ "gss", STORE_PG_GSS },
	{ "sspi", STORE_PG_SSPI },
	{ "scram-sha-256", STORE_PG_SCRAM },
	{ "none", STORE_PG_NONE },
};

#define NMETHODS (sizeof(methods) / sizeof(methods[0]))

/* The bit of the n bytes at name, 0 for no method. */
static unsigned method_bit(const char *name, size_t n)
{
	for (size_t i = 0; i < NMETHODS; i++)
		if (strlen(methods[i].name) == n &&
		    strncmp(methods[i].name, name, n) == 0)
			return methods[i].bit;
	return 0;
}

/* What is wrong with an item of require_auth, or NULL when nothing is. */
static const char *wrong(unsigned bit, unsigned listed, int neg, int negated)
{
	if (!bit)
		return "no method (password, md5, gss, sspi, scram-sha-256, "
		       "none)";
	if (listed & bit)
		return "there twice";
	if (negated >= 0 && neg != negated)
		return "negated where another is not, or the other way round";
	return NULL;
}

int store_pg_auth_parse(const char *text, unsigned *allowed, char *err,
			size_t errlen)
{
	unsigned listed = 0;
	int negated = -1;

	*allowed = STORE_PG_ALL;
	for (const char *p = text; *text;) {
		size_t n = strcspn(p, ",");
		int neg = *p == '!';
		unsigned bit = method_bit(p + neg, n - (size_t)neg);
		const char *why = wrong(bit, listed, neg, negated);

		if (why)
			return hb_errorf(err, errlen, -EINVAL,
					 "require_auth \"%s\": \"%.*s\" is %s",
					 text, (int)n, p, why);
		listed |= bit;
		negated = neg;
		if (!p[n])
			break;
		p += n + 1;
	}
	if (negated >= 0)
		*allowed = negated ? STORE_PG_ALL & ~listed : listed;
	return 0;
}

unsigned store_pg_auth_method(long code)
{
	switch (code) {
	case 3:
		return STORE_PG_PASSWORD;
	case 5:
		return STORE_PG_MD5;
	case 7:
		return STORE_PG_GSS;
	case 9:
		return STORE_PG_SSPI;
	case 10:
		return STORE_PG_SCRAM;
	default:
		return 0;
	}
}

const char *store_pg_auth_name(unsigned method)
{
	for (size_t i = 0; i < NMETHODS; i++)
		if (methods[i].bit == method)
			return methods[i].name;
	return "?";
}
