/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The pk group's curves: their names as suites write them and their
 * sizes. Below pk.c (which reads a case's curve) and pk_kat.c (which
 * names it in a message), so neither calls the other for them.
 */
#include <string.h>

#include "pk.h"

/* The suite names of the curves, indexed by enum pk_curve. */
static const char *const curve_names[] = {
	[PK_NO_CURVE] = "",	  [PK_P256] = "p256",	  [PK_P384] = "p384",
	[PK_P521] = "p521",	  [PK_X25519] = "x25519", [PK_X448] = "x448",
	[PK_ED25519] = "ed25519", [PK_ED448] = "ed448",
};

const char *pk_curve_name(enum pk_curve curve)
{
	return curve_names[curve];
}

size_t pk_curve_bytes(enum pk_curve curve)
{
	static const size_t bytes[] = {
		[PK_NO_CURVE] = 0, [PK_P256] = 32,   [PK_P384] = 48,
		[PK_P521] = 66,	   [PK_X25519] = 32, [PK_X448] = 56,
		[PK_ED25519] = 32, [PK_ED448] = 57,
	};

	return bytes[curve];
}

enum pk_curve pk_curve_find(const char *text)
{
	for (size_t i = 1; i < sizeof(curve_names) / sizeof(curve_names[0]);
	     i++)
		if (strcmp(curve_names[i], text) == 0)
			return (enum pk_curve)i;
	return PK_NO_CURVE;
}
