/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Algorithm parameters and published known-answer vectors, one per
 * algorithm, kept as the hex text of their source documents so they can be
 * checked against the page by eye.
 */
#include "cx.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Parameters, indexed by enum cx_alg. */
static const struct cx_alginfo alg_infos[CX_NALGS] = {
	[CX_AES_128_GCM] = { "AES-128-GCM", CX_AEAD, 16, 12, 16, 1, 0 },
	[CX_AES_256_GCM] = { "AES-256-GCM", CX_AEAD, 32, 12, 16, 1, 0 },
	[CX_AES_128_CTR] = { "AES-128-CTR", CX_CIPHER, 16, 16, 0, 1, 0 },
	[CX_AES_192_CTR] = { "AES-192-CTR", CX_CIPHER, 24, 16, 0, 1, 0 },
	[CX_AES_256_CTR] = { "AES-256-CTR", CX_CIPHER, 32, 16, 0, 1, 0 },
	[CX_AES_256_CBC] = { "AES-256-CBC", CX_CIPHER, 32, 16, 0, 16, 0 },
	[CX_CHACHA20_POLY1305] = { "ChaCha20-Poly1305", CX_AEAD, 32, 12, 16, 1,
				   0 },
	[CX_BF_CBC] = { "Blowfish-CBC", CX_CIPHER, 16, 8, 0, 8, 0 },
	[CX_HMAC_MD5] = { "HMAC-MD5", CX_MAC, 16, 0, 16, 1, 0 },
	[CX_HMAC_SHA1] = { "HMAC-SHA1", CX_MAC, 20, 0, 20, 1, 0 },
	[CX_HMAC_SHA256] = { "HMAC-SHA256", CX_MAC, 32, 0, 32, 1, 0 },
	[CX_POLY1305] = { "Poly1305", CX_MAC, 32, 0, 16, 1, 1 },
	[CX_MD5] = { "MD5", CX_DIGEST, 0, 0, 16, 1, 0 },
	[CX_SHA1] = { "SHA-1", CX_DIGEST, 0, 0, 20, 1, 0 },
	[CX_SHA256] = { "SHA-256", CX_DIGEST, 0, 0, 32, 1, 0 },
	[CX_SHA512] = { "SHA-512", CX_DIGEST, 0, 0, 64, 1, 0 },
	[CX_SHA3_256] = { "SHA3-256", CX_DIGEST, 0, 0, 32, 1, 0 },
	[CX_BLAKE2B_512] = { "BLAKE2b-512", CX_DIGEST, 0, 0, 64, 1, 0 },
};

/* A vector as published: hex text, NULL for an absent field. */
struct kat_text {
	const char *source;
	const char *key;
	const char *iv;
	const char *aad;
	const char *in;
	const char *out;
	const char *tag;
};

/* The SP 800-38A plaintext, used by every AES-CTR and AES-CBC vector. */
#define SP800_38A_PT                                                           \
	"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"     \
	"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"

/* The plaintext, nonce and key of GCM test cases 3 and 15. */
#define GCM_PT                                                                 \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"     \
	"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
#define GCM_IV	   "cafebabefacedbaddecaf888"
#define GCM_KEY128 "feffe9928665731c6d6a8f9467308308"

/* RFC 2202 test case 2, shared by HMAC-MD5 and HMAC-SHA1. */
#define JEFE_KEY "4a656665"
#define JEFE_MSG "7768617420646f2079612077616e7420666f72206e6f7468696e673f"

/* "abc", the one-block example of FIPS 180, FIPS 202, RFC 1321, RFC 7693. */
#define ABC "616263"

static const struct kat_text kat_texts[CX_NALGS] = {
    [CX_AES_128_GCM] =
	{
	    .source = "GCM specification (McGrew-Viega, NIST) test case 3",
	    .key = GCM_KEY128,
	    .iv = GCM_IV,
	    .in = GCM_PT,
	    .out = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e23"
		   "29aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac97"
		   "3d58e091473f5985",
	    .tag = "4d5c2af327cd64a62cf35abd2ba6fab4",
	},
    [CX_AES_256_GCM] =
	{
	    .source = "GCM specification (McGrew-Viega, NIST) test case 15",
	    .key = GCM_KEY128 GCM_KEY128,
	    .iv = GCM_IV,
	    .in = GCM_PT,
	    .out = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd"
		   "2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0a"
		   "bcc9f662898015ad",
	    .tag = "b094dac5d93471bdec1a502270e3cc6c",
	},
    [CX_AES_128_CTR] =
	{
	    .source = "NIST SP 800-38A F.5.1 CTR-AES128.Encrypt",
	    .key = "2b7e151628aed2a6abf7158809cf4f3c",
	    .iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
	    .in = SP800_38A_PT,
	    .out = "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187b"
		   "b9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1"
		   "792170a0f3009cee",
	},
    [CX_AES_192_CTR] =
	{
	    .source = "NIST SP 800-38A F.5.3 CTR-AES192.Encrypt",
	    .key = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
	    .iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
	    .in = SP800_38A_PT,
	    .out = "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faefd5ccc2c6"
		   "f4ce8e941e36b26bd1ebc670d1bd1d665620abf74f78a7f6d2980958"
		   "5a97daec58c6b050",
	},
    [CX_AES_256_CTR] =
	{
	    .source = "NIST SP 800-38A F.5.5 CTR-AES256.Encrypt",
	    .key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a3"
		   "0914dff4",
	    .iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
	    .in = SP800_38A_PT,
	    .out = "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59aca84e990"
		   "cacaf5c52b0930daa23de94ce87017ba2d84988ddfc9c58db67aada6"
		   "13c2dd08457941a6",
	},
    [CX_AES_256_CBC] =
	{
	    .source = "NIST SP 800-38A F.2.5 CBC-AES256.Encrypt",
	    .key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d72d9810a3"
		   "0914dff4",
	    .iv = "000102030405060708090a0b0c0d0e0f",
	    .in = SP800_38A_PT,
	    .out = "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d679f777b"
		   "c6702c7d39f23369a9d9bacfa530e26304231461b2eb05e2c39be9fc"
		   "da6c19078c6a9d1b",
	},
    [CX_CHACHA20_POLY1305] =
	{
	    .source = "RFC 8439 2.8.2 AEAD_CHACHA20_POLY1305",
	    .key = "808182838485868788898a8b8c8d8e8f909192939495969798999a9b"
		   "9c9d9e9f",
	    .iv = "070000004041424344454647",
	    .aad = "50515253c0c1c2c3c4c5c6c7",
	    .in = "4c616469657320616e642047656e746c656d656e206f662074686520"
		  "636c617373206f66202739393a204966204920636f756c64206f6666"
		  "657220796f75206f6e6c79206f6e652074697020666f722074686520"
		  "6675747572652c2073756e73637265656e20776f756c642062652069"
		  "742e",
	    .out = "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a7"
		   "36ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b29"
		   "05d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4"
		   "fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b"
		   "6116",
	    .tag = "1ae10b594f09e26a7e902ecbd0600691",
	},
    [CX_BF_CBC] =
	{
	    /* The CBC vector Schneier publishes with Blowfish (E. Young):
	     * "7654321 Now is the time for " and its NUL, zero-padded. */
	    .source = "Blowfish CBC test vector (Schneier/Young, bftest)",
	    .key = "0123456789abcdeff0e1d2c3b4a59687",
	    .iv = "fedcba9876543210",
	    .in = "37363534333231204e6f77206973207468652074696d6520666f722000"
		  "000000",
	    .out = "6b77b4d63006dee605b156e27403979358deb9e7154616d959f1652b"
		   "d5ff92cc",
	},
    [CX_HMAC_MD5] =
	{
	    .source = "RFC 2202 HMAC-MD5 test case 2",
	    .key = JEFE_KEY,
	    .in = JEFE_MSG,
	    .out = "750c783e6ab0b503eaa86e310a5db738",
	},
    [CX_HMAC_SHA1] =
	{
	    .source = "RFC 2202 HMAC-SHA1 test case 2",
	    .key = JEFE_KEY,
	    .in = JEFE_MSG,
	    .out = "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
	},
    [CX_HMAC_SHA256] =
	{
	    .source = "RFC 4231 HMAC-SHA256 test case 2",
	    .key = JEFE_KEY,
	    .in = JEFE_MSG,
	    .out = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b9"
		   "64ec3843",
	},
    [CX_POLY1305] =
	{
	    .source = "RFC 8439 2.5.2 Poly1305",
	    .key = "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af"
		   "4149f51b",
	    .in = "43727970746f6772617068696320466f72756d20526573656172636820"
		  "47726f7570",
	    .out = "a8061dc1305136c6c22b8baf0c0127a9",
	},
    [CX_MD5] =
	{
	    .source = "RFC 1321 A.5 MD5(\"abc\")",
	    .in = ABC,
	    .out = "900150983cd24fb0d6963f7d28e17f72",
	},
    [CX_SHA1] =
	{
	    .source = "FIPS 180 example SHA-1(\"abc\")",
	    .in = ABC,
	    .out = "a9993e364706816aba3e25717850c26c9cd0d89d",
	},
    [CX_SHA256] =
	{
	    .source = "FIPS 180 example SHA-256(\"abc\")",
	    .in = ABC,
	    .out = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61"
		   "f20015ad",
	},
    [CX_SHA512] =
	{
	    .source = "FIPS 180 example SHA-512(\"abc\")",
	    .in = ABC,
	    .out = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee6"
		   "4b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e"
		   "2a9ac94fa54ca49f",
	},
    [CX_SHA3_256] =
	{
	    .source = "FIPS 202 example SHA3-256(\"abc\")",
	    .in = ABC,
	    .out = "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe245"
		   "11431532",
	},
    [CX_BLAKE2B_512] =
	{
	    .source = "RFC 7693 Appendix A BLAKE2b-512(\"abc\")",
	    .in = ABC,
	    .out = "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b74b12bb6f"
		   "dbffa2d17d87c5392aab792dc252d5de4533cc9518d38aa8dbf1925a"
		   "b92386edd4009923",
	},
};

const struct cx_alginfo *cx_alg_info(enum cx_alg alg)
{
	if (alg <= CX_NONE || alg >= CX_NALGS)
		return NULL;
	return &alg_infos[alg];
}

/* Value of one hex digit, or -1. */
static int hex_value(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int cx_hex_decode(const char *hex, uint8_t *out, size_t max, size_t *len)
{
	size_t n = 0;

	*len = 0;
	if (!hex)
		return 0;
	for (; hex[0] && hex[1]; hex += 2) {
		int hi = hex_value(hex[0]), lo = hex_value(hex[1]);

		if (hi < 0 || lo < 0 || n == max)
			return -1;
		out[n++] = (uint8_t)(hi << 4 | lo);
	}
	if (*hex)
		return -1;
	*len = n;
	return 0;
}

int cx_kat_load(enum cx_alg alg, struct cx_kat *kat)
{
	const struct kat_text *t;

	memset(kat, 0, sizeof(*kat));
	if (alg <= CX_NONE || alg >= CX_NALGS || !kat_texts[alg].source)
		return -1;
	t = &kat_texts[alg];
	kat->source = t->source;
	if (cx_hex_decode(t->key, kat->key, sizeof(kat->key), &kat->key_len) ||
	    cx_hex_decode(t->iv, kat->iv, sizeof(kat->iv), &kat->iv_len) ||
	    cx_hex_decode(t->aad, kat->aad, sizeof(kat->aad), &kat->aad_len) ||
	    cx_hex_decode(t->in, kat->in, sizeof(kat->in), &kat->in_len) ||
	    cx_hex_decode(t->out, kat->out, sizeof(kat->out), &kat->out_len) ||
	    cx_hex_decode(t->tag, kat->tag, sizeof(kat->tag), &kat->tag_len))
		return -1;
#ifdef CX_KAT_CORRUPT
	/* Tests only: a wrong expected answer must fail the case. */
	kat->out[kat->out_len - 1] ^= 0x01;
	if (kat->tag_len)
		kat->tag[kat->tag_len - 1] ^= 0x01;
#endif
	return 0;
}

int cx_memneq(const uint8_t *a, const uint8_t *b, size_t n)
{
	uint8_t diff = 0;

	for (size_t i = 0; i < n; i++)
		diff |= (uint8_t)(a[i] ^ b[i]);
	return diff != 0;
}
