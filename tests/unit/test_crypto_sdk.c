/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The crypto SDK header (hostbench/crypto.h): the data conventions and
 * the published vectors a vendor's backend shares with the built-in ones.
 */
#include <string.h>

#include <hostbench/crypto.h>

#include "check.h"

static int message_iv_puts_the_number_in_the_nonce_part(void)
{
	uint8_t base[16], iv[16];

	hb_crypto_fill(base, sizeof(base), HB_CRYPTO_SEED_IV);
	/* 12-byte nonce (GCM): n big-endian in bytes 4..11 */
	hb_crypto_message_iv(base, 12, 0x0102, iv);
	CHECK(memcmp(iv, base, 10) == 0);
	CHECK_INT(iv[10], base[10] ^ 0x01);
	CHECK_INT(iv[11], base[11] ^ 0x02);
	/* 16-byte counter block (CTR): n big-endian in bytes 0..7 */
	hb_crypto_message_iv(base, 16, 1, iv);
	CHECK_INT(iv[7], base[7] ^ 0x01);
	CHECK(memcmp(iv, base, 7) == 0 && memcmp(iv + 8, base + 8, 8) == 0);
	/* message 0 is the base IV */
	hb_crypto_message_iv(base, 16, 0, iv);
	CHECK(memcmp(iv, base, 16) == 0);
	return 0;
}

/* Every byte of a full 64-bit message number, at every IV length. */
static int message_iv_is_the_same_whatever_the_length(void)
{
	const uint64_t n = UINT64_C(0x0102030405060708);
	uint8_t base[24], iv[24];

	hb_crypto_fill(base, sizeof(base), HB_CRYPTO_SEED_IV);
	for (size_t len = 8; len <= sizeof(base); len += 4) {
		size_t off = len == 12 ? 4 : 0;

		hb_crypto_message_iv(base, len, n, iv);
		for (size_t i = 0; i < len; i++) {
			uint8_t x = i >= off && i < off + 8
					    ? (uint8_t)(i - off + 1)
					    : 0;

			CHECK_INT(iv[i], base[i] ^ x);
		}
	}
	return 0;
}

static int message_key_puts_the_number_little_endian_first(void)
{
	uint8_t base[32], key[32];

	hb_crypto_fill(base, sizeof(base), HB_CRYPTO_SEED_MAC_KEY);
	hb_crypto_message_key(base, sizeof(base), 0x0102, key);
	CHECK_INT(key[0], base[0] ^ 0x02);
	CHECK_INT(key[1], base[1] ^ 0x01);
	CHECK(memcmp(key + 2, base + 2, 30) == 0);
	return 0;
}

static int fill_is_the_same_pattern_whatever_its_length(void)
{
	uint8_t a[32], b[64], c[32];

	hb_crypto_fill(a, sizeof(a), HB_CRYPTO_SEED_KEY);
	hb_crypto_fill(b, sizeof(b), HB_CRYPTO_SEED_KEY);
	hb_crypto_fill(c, sizeof(c), HB_CRYPTO_SEED_IV);
	CHECK(memcmp(a, b, sizeof(a)) == 0);
	CHECK(memcmp(a, c, sizeof(a)) != 0);
	return 0;
}

static int every_vector_decodes_and_names_its_source(void)
{
	size_t n = 0;

	for (const struct hb_crypto_kat *k = hb_crypto_kats(); k->target;
	     k++, n++) {
		uint8_t buf[256];
		size_t len;

		CHECK(k->alg && k->source && strchr(k->target, '/'));
		CHECK_INT(hb_crypto_unhex(k->key, buf, sizeof(buf), &len), 0);
		CHECK_INT(hb_crypto_unhex(k->iv, buf, sizeof(buf), &len), 0);
		CHECK_INT(hb_crypto_unhex(k->in, buf, sizeof(buf), &len), 0);
		CHECK_INT(hb_crypto_unhex(k->out, buf, sizeof(buf), &len), 0);
		CHECK(len > 0);
		CHECK_INT(hb_crypto_unhex(k->tag, buf, sizeof(buf), &len), 0);
	}
	CHECK_INT(n, 18);
	return 0;
}

static int kat_find_gives_the_published_vector(void)
{
	const struct hb_crypto_kat *k =
		hb_crypto_kat_find("crypto/aes-256-ctr");
	uint8_t out[64];
	size_t len;

	CHECK(k != NULL);
	CHECK_STR(k->source, "NIST SP 800-38A F.5.5 CTR-AES256.Encrypt");
	CHECK_INT(hb_crypto_unhex(k->out, out, sizeof(out), &len), 0);
	CHECK_INT(len, 64);
	CHECK_INT(out[0], 0x60);
	CHECK_INT(out[63], 0xa6);
	CHECK(hb_crypto_kat_find("crypto/aes-512-ctr") == NULL);
	return 0;
}

static int unhex_refuses_odd_bad_and_long_text(void)
{
	uint8_t buf[2];
	size_t len = 7;

	CHECK_INT(hb_crypto_unhex("abc", buf, sizeof(buf), &len), HB_EINVAL);
	CHECK_INT(hb_crypto_unhex("zz", buf, sizeof(buf), &len), HB_EINVAL);
	CHECK_INT(hb_crypto_unhex("010203", buf, sizeof(buf), &len), HB_EINVAL);
	CHECK_INT(hb_crypto_unhex("A0ff", buf, sizeof(buf), &len), 0);
	CHECK_INT(len, 2);
	CHECK_INT(buf[0], 0xa0);
	CHECK_INT(hb_crypto_unhex(NULL, buf, sizeof(buf), &len), 0);
	CHECK_INT(len, 0);
	return 0;
}

/* clang-format off */
static const struct test tests[] = {
	{"message_iv_puts_the_number_in_the_nonce_part", message_iv_puts_the_number_in_the_nonce_part},
	{"message_iv_is_the_same_whatever_the_length", message_iv_is_the_same_whatever_the_length},
	{"message_key_puts_the_number_little_endian_first", message_key_puts_the_number_little_endian_first},
	{"fill_is_the_same_pattern_whatever_its_length", fill_is_the_same_pattern_whatever_its_length},
	{"every_vector_decodes_and_names_its_source", every_vector_decodes_and_names_its_source},
	{"kat_find_gives_the_published_vector", kat_find_gives_the_published_vector},
	{"unhex_refuses_odd_bad_and_long_text", unhex_refuses_odd_bad_and_long_text},
};
/* clang-format on */

TEST_MAIN(tests)
