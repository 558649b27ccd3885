/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench crypto SDK: what a crypto backend shares with the built-in ones
 * (openssl, gcrypt, ipsec-mb), so that a vendor's accelerator measured
 * beside them does the same work on the same data, takes the same suite
 * keys and is checked against the same answers. Header only: it needs
 * plugin.h and nothing to link.
 *
 *   - the options of the crypto targets (HB_CRYPTO_OPT_*, and the option
 *     classes HB_CRYPTO_OPTIONS_*), to which a backend may append its own;
 *   - the data conventions: how keys, IVs and buffers are filled, the IV
 *     and one-time MAC key of message n, where a stream restarts;
 *   - the published known-answer vectors of every crypto target.
 *
 * See docs/plugins.md, "Accelerators", for a complete plugin using it.
 */
#ifndef HOSTBENCH_CRYPTO_H
#define HOSTBENCH_CRYPTO_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <hostbench/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- options ---------------------------------------------------------- */

/* Largest buffer (one message) a crypto case may ask for. */
#define HB_CRYPTO_MAX_SIZE (INT64_C(1) << 30)

/* clang-format off */
/* size: bytes of one buffer (one message), at least lo. */
#define HB_CRYPTO_OPT_SIZE(lo)                                                 \
	{                                                                      \
		.name = "size", .type = HB_OPT_SIZE, .def = "1M",              \
		.help = "bytes in one buffer; in message mode one whole "      \
			"message",                                             \
		.min = (lo), .max = HB_CRYPTO_MAX_SIZE                         \
	}
/* CBC sizes: the table says the minimum, setup refuses other multiples. */
#define HB_CRYPTO_OPT_SIZE_BLOCK(blk)                                          \
	{                                                                      \
		.name = "size", .type = HB_OPT_SIZE, .def = "1M",              \
		.help = "bytes in one buffer, a multiple of " #blk             \
			" (CBC runs without padding); in message mode one "    \
			"message",                                             \
		.min = (blk), .max = HB_CRYPTO_MAX_SIZE                        \
	}
/* mode: whole messages (the default), or one endless message. */
#define HB_CRYPTO_OPT_MODE                                                     \
	{                                                                      \
		.name = "mode", .type = HB_OPT_ENUM, .def = "message",         \
		.help = "message: each buffer is a whole message with a "      \
			"fresh IV "                                            \
			"and its tag; stream: one endless message (openssl "   \
			"speed)",                                              \
		.choices = (const char *const[])                               \
		{                                                              \
			"message", "stream", NULL                              \
		}                                                              \
	}
/*
 * rekey: each message sets its key again with its IV (or its MAC key), as
 * `openssl speed -evp` does for GCM, CCM, OCB and SIV; message mode only. A backend that can set a key per message
 * appends it to its cipher and MAC tables.
 */
#define HB_CRYPTO_OPT_REKEY                                                    \
	{                                                                      \
		.name = "rekey", .type = HB_OPT_BOOL, .def = "no",             \
		.help = "yes: every message sets its key again before its "    \
			"IV (openssl speed's loop for GCM); "                  \
			"message mode only"                                    \
	}
/* direction: ciphers, AEADs and MACs; not digests. */
#define HB_CRYPTO_OPT_DIRECTION                                                \
	{                                                                      \
		.name = "direction", .type = HB_OPT_ENUM, .def = "encrypt",    \
		.help = "encrypt, or decrypt (checks the tag or MAC of every " \
			"message)",                                            \
		.choices = (const char *const[])                               \
		{                                                              \
			"encrypt", "decrypt", NULL                             \
		}                                                              \
	}
/* The end of an option table. */
#define HB_CRYPTO_OPT_END                                                      \
	{                                                                      \
		.name = NULL                                                   \
	}

/*
 * The shared options of each class of crypto target, in the built-ins'
 * order; a backend appends its own (OpenSSL's provider) and then
 * HB_CRYPTO_OPT_END:
 *   static const struct hb_option ctr_options[] = {
 *           HB_CRYPTO_OPTIONS_CIPHER, HB_CRYPTO_OPT_END };
 * CIPHER: ciphers and AEADs of any size (CTR, GCM, ChaCha20-Poly1305);
 * CBC(blk): sizes a multiple of the block; MAC; DIGEST (no direction).
 */
#define HB_CRYPTO_OPTIONS_CIPHER                                               \
	HB_CRYPTO_OPT_SIZE(1), HB_CRYPTO_OPT_MODE, HB_CRYPTO_OPT_DIRECTION
#define HB_CRYPTO_OPTIONS_CBC(blk)                                             \
	HB_CRYPTO_OPT_SIZE_BLOCK(blk), HB_CRYPTO_OPT_MODE,                     \
		HB_CRYPTO_OPT_DIRECTION
#define HB_CRYPTO_OPTIONS_MAC                                                  \
	HB_CRYPTO_OPT_SIZE(1), HB_CRYPTO_OPT_MODE, HB_CRYPTO_OPT_DIRECTION
#define HB_CRYPTO_OPTIONS_DIGEST HB_CRYPTO_OPT_SIZE(1), HB_CRYPTO_OPT_MODE
/* clang-format on */

/* ---- data conventions ------------------------------------------------- */

/*
 * Seeds of hb_crypto_fill: what every worker's keys, IVs and data are
 * filled with. The built-ins fill 64 bytes of key, MAC key and IV and use
 * the first bytes their algorithm needs (the pattern's start does not
 * depend on its length).
 */
#define HB_CRYPTO_SEED_KEY	    1 /* the cipher key */
#define HB_CRYPTO_SEED_MAC_KEY	    2 /* the MAC key (HMAC, Poly1305's base) */
#define HB_CRYPTO_SEED_IV	    3 /* the base IV or nonce */
#define HB_CRYPTO_SEED_DATA(worker) (4 + (uint64_t)(worker)) /* the buffer */

/*
 * Messages. In message mode (the default) each buffer is one whole
 * message: encrypting, the worker's messages are numbered from 0 and each
 * gets its own IV and one-time MAC key (hb_crypto_message_iv, _key); a
 * decrypt receives the same message every time, message 0: the DATA buffer
 * encrypted (then MACed) once in setup with message 0's IV and key, then
 * decrypted (its MAC and tag checked) once per buffer. A composite
 * (aes-256-cbc-hmac-sha256) encrypts the buffer in place and MACs the
 * ciphertext; its decrypt checks the MAC of what it received, then
 * decrypts it. No AAD is used outside the known answers.
 *
 * In stream mode a cipher starts a new message after this many bytes: GCM
 * allows 2^36 - 32 bytes per message and libraries enforce it, so an
 * endless message is a run of 4 GiB ones. A stream starts with message 0;
 * before a buffer that would not fit in what is left of the current
 * message, it starts message n + 1 (hb_crypto_message_iv) with a full
 * HB_CRYPTO_STREAM_MESSAGE bytes ahead. The MAC of a stream is one
 * endless MAC, keyed once.
 */
#define HB_CRYPTO_STREAM_MESSAGE (UINT64_C(1) << 32)

/*
 * Fill n bytes at p with the deterministic pattern of seed (xorshift64),
 * so every run and every backend sees the same keys, IVs and data. A
 * buffer is filled whole, rounded up to 64 bytes, as the built-ins
 * allocate it.
 */
static inline void hb_crypto_fill(uint8_t *p, size_t n, uint64_t seed)
{
	uint64_t x = seed * UINT64_C(0x9e3779b97f4a7c15) + 1;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (uint8_t)(x >> 24);
	}
}

/*
 * The IV of message n (0, 1, 2, ... in the order a worker starts them)
 * into iv: the base IV of len bytes with n, big-endian, XORed into its
 * nonce part: bytes 4..11 of a 12-byte nonce (GCM, ChaCha20-Poly1305), the
 * first 8 bytes otherwise (an initial counter block or a CBC IV), so a
 * counter never runs into the next message's. Returns iv.
 */
static inline const uint8_t *
hb_crypto_message_iv(const uint8_t *base, size_t len, uint64_t n, uint8_t *iv)
{
	size_t off = len == 12 ? 4 : 0;
	uint64_t w;

	if (len != 12 && len != 16) {
		memcpy(iv, base, len);
		for (size_t i = 0; i < 8 && off + i < len; i++)
			iv[off + i] ^= (uint8_t)(n >> (56 - 8 * i));
		return iv;
	}
	/*
	 * A timed loop's IV: fixed-size copies and one word, no calls; the
	 * word read from base, never back from iv just written (a load
	 * from a wider store stalls store forwarding, some 10 ns here).
	 */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	n = __builtin_bswap64(n);
#endif
	memcpy(&w, base + off, 8);
	w ^= n;
	if (len == 12)
		memcpy(iv, base, 12);
	else
		memcpy(iv, base, 16);
	memcpy(iv + off, &w, 8);
	return iv;
}

/*
 * The one-time MAC key of message n (Poly1305: a key is never used twice)
 * into key: the len-byte base MAC key with n, little-endian, XORed into its
 * first 8 bytes. Returns key. MACs with reusable keys (HMAC) keep the base
 * key for every message.
 */
static inline const uint8_t *
hb_crypto_message_key(const uint8_t *base, size_t len, uint64_t n, uint8_t *key)
{
	memcpy(key, base, len);
	for (size_t i = 0; i < 8 && i < len; i++)
		key[i] ^= (uint8_t)(n >> (8 * i));
	return key;
}

/* ---- known-answer vectors --------------------------------------------- */

/*
 * One published known-answer vector, as the hex text of its source
 * document (NULL for a field it has not). For ciphers and AEADs `in` is
 * the plaintext, `out` the ciphertext and `tag` the AEAD tag; for MACs and
 * digests `in` is the message and `out` the MAC or digest. Check the
 * target's primitive on the path you time, in the direction you time
 * (decrypt `out` and compare with `in`), and fail setup with HB_EVERIFY
 * naming `source` on a mismatch.
 */
struct hb_crypto_kat {
	const char *target; /* "crypto/aes-256-ctr": group/name of the target */
	const char *alg;    /* "AES-256-CTR", for messages */
	const char *source; /* "NIST SP 800-38A F.5.5 CTR-AES256.Encrypt" */
	const char *key;
	const char *iv;
	const char *aad;
	const char *in;
	const char *out;
	const char *tag;
};

/* The SP 800-38A plaintext, used by every AES-CTR and AES-CBC vector. */
#define HB_CRYPTO_KAT_SP800_38A_PT                                             \
	"6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"     \
	"30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710"

/* The plaintext, nonce and key of GCM test cases 3 and 15. */
#define HB_CRYPTO_KAT_GCM_PT                                                   \
	"d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72"     \
	"1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255"
#define HB_CRYPTO_KAT_GCM_IV	 "cafebabefacedbaddecaf888"
#define HB_CRYPTO_KAT_GCM_KEY128 "feffe9928665731c6d6a8f9467308308"

/* RFC 2202 test case 2, shared by HMAC-MD5 and HMAC-SHA1. */
#define HB_CRYPTO_KAT_JEFE_KEY "4a656665"
#define HB_CRYPTO_KAT_JEFE_MSG                                                 \
	"7768617420646f2079612077616e7420666f72206e6f7468696e673f"

/* "abc", the one-block example of FIPS 180, FIPS 202, RFC 1321, RFC 7693. */
#define HB_CRYPTO_KAT_ABC "616263"

/* Every vector, one per primitive target, ending with a NULL target. */
static const struct hb_crypto_kat hb_crypto_kat_table[] = {
	{
		.target = "crypto/aes-128-gcm",
		.alg = "AES-128-GCM",
		.source = "GCM specification (McGrew-Viega, NIST) test case 3",
		.key = HB_CRYPTO_KAT_GCM_KEY128,
		.iv = HB_CRYPTO_KAT_GCM_IV,
		.in = HB_CRYPTO_KAT_GCM_PT,
		.out = "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e0"
		       "35c17e2329aca12e21d514b25466931c7d8f6a5aac84aa05"
		       "1ba30b396a0aac973d58e091473f5985",
		.tag = "4d5c2af327cd64a62cf35abd2ba6fab4",
	},
	{
		.target = "crypto/aes-256-gcm",
		.alg = "AES-256-GCM",
		.source = "GCM specification (McGrew-Viega, NIST) test case 15",
		.key = HB_CRYPTO_KAT_GCM_KEY128 HB_CRYPTO_KAT_GCM_KEY128,
		.iv = HB_CRYPTO_KAT_GCM_IV,
		.in = HB_CRYPTO_KAT_GCM_PT,
		.out = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c9"
		       "7598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838"
		       "c5f61e6393ba7a0abcc9f662898015ad",
		.tag = "b094dac5d93471bdec1a502270e3cc6c",
	},
	{
		.target = "crypto/aes-128-ctr",
		.alg = "AES-128-CTR",
		.source = "NIST SP 800-38A F.5.1 CTR-AES128.Encrypt",
		.key = "2b7e151628aed2a6abf7158809cf4f3c",
		.iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		.in = HB_CRYPTO_KAT_SP800_38A_PT,
		.out = "874d6191b620e3261bef6864990db6ce9806f66b7970fdff"
		       "8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab"
		       "1e031dda2fbe03d1792170a0f3009cee",
	},
	{
		.target = "crypto/aes-192-ctr",
		.alg = "AES-192-CTR",
		.source = "NIST SP 800-38A F.5.3 CTR-AES192.Encrypt",
		.key = "8e73b0f7da0e6452c810f32b809079e562f8ead2522c6b7b",
		.iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		.in = HB_CRYPTO_KAT_SP800_38A_PT,
		.out = "1abc932417521ca24f2b0459fe7e6e0b090339ec0aa6faef"
		       "d5ccc2c6f4ce8e941e36b26bd1ebc670d1bd1d665620abf7"
		       "4f78a7f6d29809585a97daec58c6b050",
	},
	{
		.target = "crypto/aes-256-ctr",
		.alg = "AES-256-CTR",
		.source = "NIST SP 800-38A F.5.5 CTR-AES256.Encrypt",
		.key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d7"
		       "2d9810a30914dff4",
		.iv = "f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff",
		.in = HB_CRYPTO_KAT_SP800_38A_PT,
		.out = "601ec313775789a5b7a7f504bbf3d228f443e3ca4d62b59a"
		       "ca84e990cacaf5c52b0930daa23de94ce87017ba2d84988d"
		       "dfc9c58db67aada613c2dd08457941a6",
	},
	{
		.target = "crypto/aes-256-cbc",
		.alg = "AES-256-CBC",
		.source = "NIST SP 800-38A F.2.5 CBC-AES256.Encrypt",
		.key = "603deb1015ca71be2b73aef0857d77811f352c073b6108d7"
		       "2d9810a30914dff4",
		.iv = "000102030405060708090a0b0c0d0e0f",
		.in = HB_CRYPTO_KAT_SP800_38A_PT,
		.out = "f58c4c04d6e5f1ba779eabfb5f7bfbd69cfc4e967edb808d"
		       "679f777bc6702c7d39f23369a9d9bacfa530e26304231461"
		       "b2eb05e2c39be9fcda6c19078c6a9d1b",
	},
	{
		.target = "crypto/chacha20-poly1305",
		.alg = "ChaCha20-Poly1305",
		.source = "RFC 8439 2.8.2 AEAD_CHACHA20_POLY1305",
		.key = "808182838485868788898a8b8c8d8e8f9091929394959697"
		       "98999a9b9c9d9e9f",
		.iv = "070000004041424344454647",
		.aad = "50515253c0c1c2c3c4c5c6c7",
		.in = "4c616469657320616e642047656e746c656d656e206f6620"
		      "74686520636c617373206f66202739393a20496620492063"
		      "6f756c64206f6666657220796f75206f6e6c79206f6e6520"
		      "74697020666f7220746865206675747572652c2073756e73"
		      "637265656e20776f756c642062652069742e",
		.out = "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fe"
		       "a9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b"
		       "1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c"
		       "9803aee328091b58fab324e4fad675945585808b4831d7bc"
		       "3ff4def08e4b7a9de576d26586cec64b6116",
		.tag = "1ae10b594f09e26a7e902ecbd0600691",
	},
	{
		.target = "crypto/blowfish-cbc",
		.alg = "Blowfish-CBC",
		/* The CBC vector Schneier publishes with Blowfish (E. Young):
		 * "7654321 Now is the time for " and its NUL, zero-padded. */
		.source = "Blowfish CBC test vector (Schneier/Young, bftest)",
		.key = "0123456789abcdeff0e1d2c3b4a59687",
		.iv = "fedcba9876543210",
		.in = "37363534333231204e6f77206973207468652074696d6520"
		      "666f722000000000",
		.out = "6b77b4d63006dee605b156e27403979358deb9e7154616d9"
		       "59f1652bd5ff92cc",
	},
	{
		.target = "mac/hmac-md5",
		.alg = "HMAC-MD5",
		.source = "RFC 2202 HMAC-MD5 test case 2",
		.key = HB_CRYPTO_KAT_JEFE_KEY,
		.in = HB_CRYPTO_KAT_JEFE_MSG,
		.out = "750c783e6ab0b503eaa86e310a5db738",
	},
	{
		.target = "mac/hmac-sha1",
		.alg = "HMAC-SHA1",
		.source = "RFC 2202 HMAC-SHA1 test case 2",
		.key = HB_CRYPTO_KAT_JEFE_KEY,
		.in = HB_CRYPTO_KAT_JEFE_MSG,
		.out = "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
	},
	{
		.target = "mac/hmac-sha256",
		.alg = "HMAC-SHA256",
		.source = "RFC 4231 HMAC-SHA256 test case 2",
		.key = HB_CRYPTO_KAT_JEFE_KEY,
		.in = HB_CRYPTO_KAT_JEFE_MSG,
		.out = "5bdcc146bf60754e6a042426089575c75a003f089d273983"
		       "9dec58b964ec3843",
	},
	{
		.target = "mac/poly1305",
		.alg = "Poly1305",
		.source = "RFC 8439 2.5.2 Poly1305",
		.key = "85d6be7857556d337f4452fe42d506a80103808afb0db2fd"
		       "4abff6af4149f51b",
		.in = "43727970746f6772617068696320466f72756d2052657365"
		      "617263682047726f7570",
		.out = "a8061dc1305136c6c22b8baf0c0127a9",
	},
	{
		.target = "hash/md5",
		.alg = "MD5",
		.source = "RFC 1321 A.5 MD5(\"abc\")",
		.in = HB_CRYPTO_KAT_ABC,
		.out = "900150983cd24fb0d6963f7d28e17f72",
	},
	{
		.target = "hash/sha1",
		.alg = "SHA-1",
		.source = "FIPS 180 example SHA-1(\"abc\")",
		.in = HB_CRYPTO_KAT_ABC,
		.out = "a9993e364706816aba3e25717850c26c9cd0d89d",
	},
	{
		.target = "hash/sha256",
		.alg = "SHA-256",
		.source = "FIPS 180 example SHA-256(\"abc\")",
		.in = HB_CRYPTO_KAT_ABC,
		.out = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9c"
		       "b410ff61f20015ad",
	},
	{
		.target = "hash/sha512",
		.alg = "SHA-512",
		.source = "FIPS 180 example SHA-512(\"abc\")",
		.in = HB_CRYPTO_KAT_ABC,
		.out = "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea2"
		       "0a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd"
		       "454d4423643ce80e2a9ac94fa54ca49f",
	},
	{
		.target = "hash/sha3-256",
		.alg = "SHA3-256",
		.source = "FIPS 202 example SHA3-256(\"abc\")",
		.in = HB_CRYPTO_KAT_ABC,
		.out = "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b"
		       "46bfe24511431532",
	},
	{
		.target = "hash/blake2b-512",
		.alg = "BLAKE2b-512",
		.source = "RFC 7693 Appendix A BLAKE2b-512(\"abc\")",
		.in = HB_CRYPTO_KAT_ABC,
		.out = "ba80a53f981c4d0d6a2797b69f12f6e94c212f14685ac4b7"
		       "4b12bb6fdbffa2d17d87c5392aab792dc252d5de4533cc95"
		       "18d38aa8dbf1925ab92386edd4009923",
	},
	{ .target = NULL },
};

/*
 * Every vector, one per primitive target, ending with a NULL target. A
 * composite target (aes-256-cbc-hmac-sha256) is checked with the vectors
 * of its parts.
 */
static inline const struct hb_crypto_kat *hb_crypto_kats(void)
{
	return hb_crypto_kat_table;
}

/* The vector of target ("crypto/aes-256-gcm"), or NULL when it has none. */
static inline const struct hb_crypto_kat *hb_crypto_kat_find(const char *target)
{
	for (const struct hb_crypto_kat *k = hb_crypto_kats(); k->target; k++)
		if (strcmp(k->target, target) == 0)
			return k;
	return NULL;
}

/* Value of one hex digit, or -1. */
static inline int hb_crypto_hexdigit(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

/*
 * Decode hex (NULL reads as empty) into at most max bytes at out, and their
 * count into len. Returns 0, or HB_EINVAL when hex is malformed or longer.
 */
static inline int hb_crypto_unhex(const char *hex, uint8_t *out, size_t max,
				  size_t *len)
{
	size_t n = 0;

	*len = 0;
	if (!hex)
		return 0;
	for (; hex[0] && hex[1]; hex += 2) {
		int hi = hb_crypto_hexdigit(hex[0]),
		    lo = hb_crypto_hexdigit(hex[1]);

		if (hi < 0 || lo < 0 || n == max)
			return HB_EINVAL;
		out[n++] = (uint8_t)(hi << 4 | lo);
	}
	if (*hex)
		return HB_EINVAL;
	*len = n;
	return 0;
}

/* ---- what check verifies ---------------------------------------------- */

/*
 * `hostbench check` (docs/plugins.md, "What check proves") compares a
 * backend with a reference through the transform slot, and the backend's
 * timed path through the buffers the core owns (struct hb_buffers, ABI
 * 1.4), which every run samples too. Key lengths it relies on,
 * the first bytes of each 64-byte key an algorithm takes: AES-128/192/256
 * 16/24/32, ChaCha20 32, Blowfish 16; HMAC-MD5/SHA1/SHA256 as many as the
 * digest has (16, 20, 32); Poly1305 32. A MAC target reads its key from
 * hb_message.key, a composite its MAC key from hb_message.mac_key.
 */

/*
 * What a unit of a HB_TARGET_VERIFIED crypto target writes into the core's
 * buffers (struct hb_buffers, ABI 1.4), unit i of message n:
 *   - encrypt, a cipher or AEAD: out[i] = the ciphertext of in (never in
 *     place: in is the core's and stays as filled), tag[i] = the AEAD tag
 *     (with rekey = yes the tag may stay unread, as openssl speed's loop);
 *   - encrypt, a composite: out[i] the ciphertext, tag[i] its MAC (over
 *     out[i], with message n's MAC key);
 *   - a MAC or digest: tag[i] = the MAC or digest of in (out[i] unused);
 *   - decrypt: out[i] = the plaintext (the core compares it with in);
 *     a MAC target's verify writes the MAC it computed to tag[i];
 *   - stream mode: out[i] = the next len bytes of the endless message's
 *     output, each buffer of it reading in.
 */

/*
 * The keys and IV of one message, 64 bytes each, as struct hb_message
 * takes them (the first bytes an algorithm needs are used).
 */
struct hb_crypto_inputs {
	uint8_t key[64];     /* the cipher key; a MAC target's MAC key */
	uint8_t mac_key[64]; /* a composite's MAC key */
	uint8_t iv[64];	     /* the message's IV or nonce */
};

/*
 * Whether full ("crypto/aes-256-gcm") or one of parts (a composite's, or
 * NULL) is name.
 */
static inline int hb_crypto_is_or_has(const char *full,
				      const char *const *parts,
				      const char *name)
{
	if (strcmp(full, name) == 0)
		return 1;
	for (; parts && *parts; parts++)
		if (strcmp(*parts, name) == 0)
			return 1;
	return 0;
}

/*
 * Bytes of the IV or nonce of full, or of its cipher part (a composite):
 * 12 (GCM, ChaCha20-Poly1305), 16 (CTR, AES-CBC), 8 (Blowfish), 0 for a
 * MAC or digest. Read from the known-answer vectors.
 */
static inline size_t hb_crypto_iv_len(const char *full,
				      const char *const *parts)
{
	const char *const self[] = { full, NULL };

	for (int pass = 0; pass < 2; pass++)
		for (const char *const *t = pass ? parts : self; t && *t; t++)
			for (size_t i = 0; hb_crypto_kat_table[i].target; i++)
				if (strcmp(hb_crypto_kat_table[i].target, *t) ==
					    0 &&
				    hb_crypto_kat_table[i].iv)
					return strlen(hb_crypto_kat_table[i]
							      .iv) /
					       2;
	return 0;
}

/*
 * The inputs of message n of every worker of a target (full, its parts),
 * as the built-ins time it and `hostbench check` verifies a timed path
 * (struct hb_buffers, ABI 1.4) through the reference's transform slot:
 *   - key: the cipher key, HB_CRYPTO_SEED_KEY; for a MAC target (mac/...)
 *     the MAC key, HB_CRYPTO_SEED_MAC_KEY: transform reads a MAC target's
 *     key from hb_message.key, never from mac_key;
 *   - mac_key: a composite's MAC key, HB_CRYPTO_SEED_MAC_KEY;
 *   - a one-time MAC key (Poly1305, alone or in a composite) is the base
 *     key with n in it (hb_crypto_message_key); HMAC keeps the base key;
 *   - iv: message n's IV (hb_crypto_message_iv over the algorithm's IV
 *     length, hb_crypto_iv_len).
 * No AAD: the timed messages have none.
 */
static inline void hb_crypto_message_inputs(const char *full,
					    const char *const *parts,
					    uint64_t n,
					    struct hb_crypto_inputs *in)
{
	uint8_t base[64];
	size_t iv_len = hb_crypto_iv_len(full, parts);
	int one_time = hb_crypto_is_or_has(full, parts, "mac/poly1305");

	hb_crypto_fill(in->key, sizeof(in->key), HB_CRYPTO_SEED_KEY);
	hb_crypto_fill(base, sizeof(base), HB_CRYPTO_SEED_MAC_KEY);
	if (one_time)
		hb_crypto_message_key(base, sizeof(base), n, in->mac_key);
	else
		memcpy(in->mac_key, base, sizeof(base));
	if (strncmp(full, "mac/", 4) == 0)
		memcpy(in->key, in->mac_key, sizeof(in->key));
	hb_crypto_fill(base, sizeof(base), HB_CRYPTO_SEED_IV);
	memcpy(in->iv, base, sizeof(base));
	if (iv_len)
		hb_crypto_message_iv(base, iv_len, n, in->iv);
}

#ifdef __cplusplus
}
#endif

#endif /* HOSTBENCH_CRYPTO_H */
