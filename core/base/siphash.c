/* SPDX-License-Identifier: Apache-2.0 */
/* SipHash-2-4, after the reference implementation. */
#include "base/siphash.h"

#define ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

/* The little-endian 64-bit word at p. */
static uint64_t load64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* n SipRounds over v. */
static void rounds(uint64_t v[4], int n)
{
	while (n--) {
		v[0] += v[1];
		v[1] = ROTL(v[1], 13) ^ v[0];
		v[0] = ROTL(v[0], 32);
		v[2] += v[3];
		v[3] = ROTL(v[3], 16) ^ v[2];
		v[0] += v[3];
		v[3] = ROTL(v[3], 21) ^ v[0];
		v[2] += v[1];
		v[1] = ROTL(v[1], 17) ^ v[2];
		v[2] = ROTL(v[2], 32);
	}
}

uint64_t siphash(const unsigned char key[SIPHASH_KEY], const void *data,
		 size_t len)
{
	const unsigned char *p = data;
	uint64_t k0 = load64(key), k1 = load64(key + 8), last;
	uint64_t v[4] = { 0x736f6d6570736575ull ^ k0,
			  0x646f72616e646f6dull ^ k1,
			  0x6c7967656e657261ull ^ k0,
			  0x7465646279746573ull ^ k1 };
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t m = load64(p + i);

		v[3] ^= m;
		rounds(v, 2);
		v[0] ^= m;
	}
	last = (uint64_t)len << 56;
	for (size_t j = 0; i + j < len; j++)
		last |= (uint64_t)p[i + j] << (8 * j);
	v[3] ^= last;
	rounds(v, 2);
	v[0] ^= last;
	v[2] ^= 0xff;
	rounds(v, 4);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}
