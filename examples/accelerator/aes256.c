/* SPDX-License-Identifier: Apache-2.0 */
/*
 * AES-256 encryption with one 1 KiB round table: Te[x] holds the S-box
 * output of x times the MixColumns column (2, 1, 1, 3); the other three
 * columns are rotations of it. The S-box itself is computed from its
 * definition (multiplicative inverse in GF(2^8), then the affine map), so
 * there are no hand-typed tables to get wrong.
 */
#include "aes256.h"

#include <pthread.h>

static uint8_t sbox[256];
static uint32_t te[256];
static pthread_once_t tables_once = PTHREAD_ONCE_INIT;

/* x times 2 in GF(2^8) modulo the AES polynomial x^8 + x^4 + x^3 + x + 1. */
static uint8_t xtime(uint8_t x)
{
	return (uint8_t)((x << 1) ^ ((x & 0x80) ? 0x1b : 0));
}

static uint8_t rotl8(uint8_t x, unsigned n)
{
	return (uint8_t)((x << n) | (x >> (8 - n)));
}

static uint32_t rotr32(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

/*
 * Walk p through every nonzero element as powers of 3 and q through their
 * inverses (powers of 3^-1 = 0xf6); each S-box entry is the affine map of
 * the inverse.
 */
static void build_tables(void)
{
	uint8_t p = 1, q = 1;

	do {
		p = (uint8_t)(p ^ xtime(p));
		q ^= (uint8_t)(q << 1);
		q ^= (uint8_t)(q << 2);
		q ^= (uint8_t)(q << 4);
		if (q & 0x80)
			q ^= 0x09;
		sbox[p] = (uint8_t)(q ^ rotl8(q, 1) ^ rotl8(q, 2) ^
				    rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63);
	} while (p != 1);
	sbox[0] = 0x63;
	for (unsigned x = 0; x < 256; x++) {
		uint8_t s = sbox[x], s2 = xtime(s);

		te[x] = (uint32_t)s2 << 24 | (uint32_t)s << 16 |
			(uint32_t)s << 8 | (uint32_t)(s2 ^ s);
	}
}

void aes256_init(void)
{
	pthread_once(&tables_once, build_tables);
}

static uint32_t load_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

static void store_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* The S-box applied to each byte of a word. */
static uint32_t sub_word(uint32_t w)
{
	return (uint32_t)sbox[w >> 24] << 24 |
	       (uint32_t)sbox[(w >> 16) & 0xff] << 16 |
	       (uint32_t)sbox[(w >> 8) & 0xff] << 8 | sbox[w & 0xff];
}

void aes256_expand(struct aes256_key *k, const uint8_t key[32])
{
	uint32_t rcon = 0x01;

	for (unsigned i = 0; i < 8; i++)
		k->rk[i] = load_be32(key + 4 * i);
	for (unsigned i = 8; i < 60; i++) {
		uint32_t t = k->rk[i - 1];

		if (i % 8 == 0) {
			t = sub_word(rotr32(t, 24)) ^ (rcon << 24);
			rcon = xtime((uint8_t)rcon);
		} else if (i % 8 == 4) {
			t = sub_word(t);
		}
		k->rk[i] = k->rk[i - 8] ^ t;
	}
}

/* One column of a middle round: SubBytes, ShiftRows, MixColumns. */
static uint32_t round_column(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	return te[a >> 24] ^ rotr32(te[(b >> 16) & 0xff], 8) ^
	       rotr32(te[(c >> 8) & 0xff], 16) ^ rotr32(te[d & 0xff], 24);
}

/* One column of the last round: no MixColumns. */
static uint32_t final_column(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
	return (uint32_t)sbox[a >> 24] << 24 |
	       (uint32_t)sbox[(b >> 16) & 0xff] << 16 |
	       (uint32_t)sbox[(c >> 8) & 0xff] << 8 | sbox[d & 0xff];
}

void aes256_encrypt(const struct aes256_key *k, const uint8_t in[16],
		    uint8_t out[16])
{
	const uint32_t *rk = k->rk;
	uint32_t s0 = load_be32(in) ^ rk[0], s1 = load_be32(in + 4) ^ rk[1];
	uint32_t s2 = load_be32(in + 8) ^ rk[2],
		 s3 = load_be32(in + 12) ^ rk[3];
	uint32_t t0, t1, t2, t3;

	for (unsigned r = 1; r < 14; r++) {
		rk += 4;
		t0 = round_column(s0, s1, s2, s3) ^ rk[0];
		t1 = round_column(s1, s2, s3, s0) ^ rk[1];
		t2 = round_column(s2, s3, s0, s1) ^ rk[2];
		t3 = round_column(s3, s0, s1, s2) ^ rk[3];
		s0 = t0;
		s1 = t1;
		s2 = t2;
		s3 = t3;
	}
	rk += 4;
	store_be32(out, final_column(s0, s1, s2, s3) ^ rk[0]);
	store_be32(out + 4, final_column(s1, s2, s3, s0) ^ rk[1]);
	store_be32(out + 8, final_column(s2, s3, s0, s1) ^ rk[2]);
	store_be32(out + 12, final_column(s3, s0, s1, s2) ^ rk[3]);
}
