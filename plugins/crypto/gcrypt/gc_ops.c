/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libgcrypt primitives for the crypto engine. libgcrypt has no providers:
 * it picks its own implementation (AES-NI, VAES, SHA-NI, ...) from the CPU.
 */
#include "gc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gcrypt.h>

/* How libgcrypt names one algorithm. */
struct gc_name {
	int algo; /* GCRY_CIPHER_*, GCRY_MAC_* or GCRY_MD_* */
	int mode; /* GCRY_CIPHER_MODE_* for ciphers */
};

static const struct gc_name gc_names[CX_NALGS] = {
	[CX_AES_128_GCM] = { GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_GCM },
	[CX_AES_256_GCM] = { GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM },
	[CX_AES_128_CTR] = { GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_CTR },
	[CX_AES_192_CTR] = { GCRY_CIPHER_AES192, GCRY_CIPHER_MODE_CTR },
	[CX_AES_256_CTR] = { GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CTR },
	[CX_AES_256_CBC] = { GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_CBC },
	[CX_CHACHA20_POLY1305] = { GCRY_CIPHER_CHACHA20,
				   GCRY_CIPHER_MODE_POLY1305 },
	[CX_BF_CBC] = { GCRY_CIPHER_BLOWFISH, GCRY_CIPHER_MODE_CBC },
	[CX_HMAC_MD5] = { GCRY_MAC_HMAC_MD5, 0 },
	[CX_HMAC_SHA1] = { GCRY_MAC_HMAC_SHA1, 0 },
	[CX_HMAC_SHA256] = { GCRY_MAC_HMAC_SHA256, 0 },
	[CX_POLY1305] = { GCRY_MAC_POLY1305, 0 },
	[CX_MD5] = { GCRY_MD_MD5, 0 },
	[CX_SHA1] = { GCRY_MD_SHA1, 0 },
	[CX_SHA256] = { GCRY_MD_SHA256, 0 },
	[CX_SHA512] = { GCRY_MD_SHA512, 0 },
	[CX_SHA3_256] = { GCRY_MD_SHA3_256, 0 },
	[CX_BLAKE2B_512] = { GCRY_MD_BLAKE2B_512, 0 },
};

/* A cipher or AEAD handle. */
struct gc_cipher {
	gcry_cipher_hd_t h;
	const struct cx_alginfo *ai;
	int encrypt;
	int ctr; /* counter mode: the IV is the initial counter block */
};

/* A MAC or digest handle (exactly one of mac, md is set). */
struct gc_hash {
	gcry_mac_hd_t mac;
	gcry_md_hd_t md;
	const struct cx_alginfo *ai;
};

int cx_gcrypt_fail(char *err, size_t errlen, int code, const char *what,
		   gcry_error_t e)
{
	return hb_errorf(err, errlen, code, "%s: %s", what, gcry_strerror(e));
}

int cx_gcrypt_init(char *err, size_t errlen)
{
	if (gcry_control(GCRYCTL_INITIALIZATION_FINISHED_P))
		return 0;
	if (!gcry_check_version(GCRYPT_VERSION))
		return hb_errorf(err, errlen, HB_ECRYPTO,
				 "libgcrypt %s is older than the %s it was "
				 "built with",
				 gcry_check_version(NULL), GCRYPT_VERSION);
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	return 0;
}

int cx_gcrypt_available(enum cx_alg alg, char *err, size_t errlen)
{
	const struct cx_alginfo *ai = cx_alg_info(alg);
	gcry_error_t e;

	if (!ai)
		return hb_errorf(err, errlen, HB_ENOTSUP, "unknown algorithm");
	if (ai->kind == CX_MAC)
		e = gcry_mac_test_algo(gc_names[alg].algo);
	else if (ai->kind == CX_DIGEST)
		e = gcry_md_test_algo(gc_names[alg].algo);
	else
		e = gcry_cipher_test_algo(gc_names[alg].algo);
	if (e)
		return hb_errorf(err, errlen, HB_SKIP, "libgcrypt %s: %s: %s",
				 gcry_check_version(NULL), ai->name,
				 gcry_strerror(e));
	return 0;
}

static int gc_lib_open(const struct hb_case *c, void **lib, char *err,
		       size_t errlen)
{
	(void)c;
	*lib = NULL;
	return cx_gcrypt_init(err, errlen);
}

static void gc_lib_close(void *lib)
{
	(void)lib;
}

/*
 * Tell the result which library did the work, and the CPU features it
 * uses (libgcrypt picks AES-NI, VAES, SHA-NI, ... itself).
 */
static void note_library(const struct hb_case *c)
{
	char v[64], *hwf;
	size_t n;

	if (!c)
		return;
	snprintf(v, sizeof(v), "libgcrypt %s", gcry_check_version(NULL));
	c->host->note(c, "library", v);
	hwf = gcry_get_config(0, "hwflist");
	if (!hwf)
		return;
	/* "hwflist:intel-cpu:intel-aesni:...:\n" -> "intel-cpu:..." */
	n = strcspn(hwf, "\n");
	while (n && hwf[n - 1] == ':')
		n--;
	hwf[n] = '\0';
	c->host->note(c, "features",
		      strncmp(hwf, "hwflist:", 8) == 0 ? hwf + 8 : hwf);
	gcry_free(hwf);
}

static void gc_cipher_close_h(void *h)
{
	struct gc_cipher *k = h;

	if (!k)
		return;
	gcry_cipher_close(k->h);
	free(k);
}

static int gc_cipher_open_h(void *lib, const struct hb_case *c, enum cx_alg alg,
			    int encrypt, const uint8_t *key, void **out,
			    char *err, size_t errlen)
{
	struct gc_cipher *k;
	gcry_error_t e;
	int rc;

	(void)lib;
	rc = cx_gcrypt_available(alg, err, errlen);
	if (rc)
		return rc;
	k = calloc(1, sizeof(*k));
	if (!k)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	k->ai = cx_alg_info(alg);
	k->encrypt = encrypt;
	k->ctr = gc_names[alg].mode == GCRY_CIPHER_MODE_CTR;
	e = gcry_cipher_open(&k->h, gc_names[alg].algo, gc_names[alg].mode, 0);
	if (e) {
		rc = cx_gcrypt_fail(err, errlen, HB_ECRYPTO, "gcry_cipher_open",
				    e);
		goto fail_cipher;
	}
	e = gcry_cipher_setkey(k->h, key, k->ai->key_len);
	if (e) {
		rc = cx_gcrypt_fail(err, errlen, HB_ECRYPTO,
				    "gcry_cipher_setkey", e);
		goto fail_cipher;
	}
	note_library(c);
	*out = k;
	return 0;

fail_cipher:
	gc_cipher_close_h(k);
	return rc;
}

static int gc_cipher_start(void *h, const uint8_t *key, const uint8_t *iv,
			   char *err, size_t errlen)
{
	struct gc_cipher *k = h;
	gcry_error_t e;

	if (key) {
		e = gcry_cipher_setkey(k->h, key, k->ai->key_len);
		if (e)
			return cx_gcrypt_fail(err, errlen, HB_ECRYPTO,
					      "gcry_cipher_setkey", e);
	}
	if (k->ctr) {
		e = gcry_cipher_setctr(k->h, iv, k->ai->iv_len);
	} else {
		/* For GCM and Poly1305 a new IV also starts a new tag. */
		e = gcry_cipher_setiv(k->h, iv, k->ai->iv_len);
	}
	if (e)
		return cx_gcrypt_fail(
			err, errlen, HB_ECRYPTO,
			k->ctr ? "gcry_cipher_setctr" : "gcry_cipher_setiv", e);
	return 0;
}

static int gc_cipher_aad(void *h, const uint8_t *aad, size_t len, char *err,
			 size_t errlen)
{
	struct gc_cipher *k = h;
	gcry_error_t e = gcry_cipher_authenticate(k->h, aad, len);

	if (e)
		return cx_gcrypt_fail(err, errlen, HB_ECRYPTO,
				      "gcry_cipher_authenticate", e);
	return 0;
}

static int gc_cipher_update(void *h, const uint8_t *in, uint8_t *out,
			    size_t len, char *err, size_t errlen)
{
	struct gc_cipher *k = h;
	const void *src = in == out ? NULL : in;
	size_t srclen = in == out ? 0 : len;
	gcry_error_t e;

	if (k->encrypt)
		e = gcry_cipher_encrypt(k->h, out, len, src, srclen);
	else
		e = gcry_cipher_decrypt(k->h, out, len, src, srclen);
	if (e)
		return cx_gcrypt_fail(err, errlen, HB_ECRYPTO,
				      k->encrypt ? "gcry_cipher_encrypt"
						 : "gcry_cipher_decrypt",
				      e);
	return 0;
}

static int gc_cipher_finish(void *h, uint8_t *tag, char *err, size_t errlen)
{
	struct gc_cipher *k = h;
	uint8_t unread[CX_MAX_OUT];
	gcry_error_t e;

	if (k->ai->kind != CX_AEAD)
		return 0;
	if (k->encrypt) {
		/* libgcrypt computes the tag when asked for it */
		e = gcry_cipher_gettag(k->h, tag ? tag : unread,
				       k->ai->out_len);
		if (e)
			return cx_gcrypt_fail(err, errlen, HB_ECRYPTO,
					      "gcry_cipher_gettag", e);
		return 0;
	}
	e = gcry_cipher_checktag(k->h, tag, k->ai->out_len);
	if (gcry_err_code(e) == GPG_ERR_CHECKSUM)
		return hb_errorf(err, errlen, HB_EVERIFY, "%s tag mismatch",
				 k->ai->name);
	if (e)
		return cx_gcrypt_fail(err, errlen, HB_ECRYPTO,
				      "gcry_cipher_checktag", e);
	return 0;
}

static void gc_hash_close(void *h)
{
	struct gc_hash *x = h;

	if (!x)
		return;
	if (x->mac)
		gcry_mac_close(x->mac);
	if (x->md)
		gcry_md_close(x->md);
	free(x);
}

static int gc_hash_open(void *lib, const struct hb_case *c, enum cx_alg alg,
			void **out, char *err, size_t errlen)
{
	struct gc_hash *x;
	gcry_error_t e;
	int rc;

	(void)lib;
	rc = cx_gcrypt_available(alg, err, errlen);
	if (rc)
		return rc;
	x = calloc(1, sizeof(*x));
	if (!x)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	x->ai = cx_alg_info(alg);
	if (x->ai->kind == CX_MAC)
		e = gcry_mac_open(&x->mac, gc_names[alg].algo, 0, NULL);
	else
		e = gcry_md_open(&x->md, gc_names[alg].algo, 0);
	if (e) {
		rc = cx_gcrypt_fail(err, errlen, HB_ECRYPTO,
				    x->ai->kind == CX_MAC ? "gcry_mac_open"
							  : "gcry_md_open",
				    e);
		gc_hash_close(x);
		return rc;
	}
	note_library(c);
	*out = x;
	return 0;
}

static int gc_hash_start(void *h, const uint8_t *key, size_t key_len, char *err,
			 size_t errlen)
{
	struct gc_hash *x = h;
	gcry_error_t e;

	if (!x->mac) {
		gcry_md_reset(x->md);
		return 0;
	}
	e = key ? gcry_mac_setkey(x->mac, key, key_len)
		: gcry_mac_reset(x->mac);
	if (e)
		return cx_gcrypt_fail(
			err, errlen, HB_ECRYPTO,
			key ? "gcry_mac_setkey" : "gcry_mac_reset", e);
	return 0;
}

static int gc_hash_update(void *h, const uint8_t *in, size_t len, char *err,
			  size_t errlen)
{
	struct gc_hash *x = h;
	gcry_error_t e;

	if (!x->mac) {
		gcry_md_write(x->md, in, len);
		return 0;
	}
	e = gcry_mac_write(x->mac, in, len);
	if (e)
		return cx_gcrypt_fail(err, errlen, HB_ECRYPTO, "gcry_mac_write",
				      e);
	return 0;
}

static int gc_hash_finish(void *h, uint8_t *out, char *err, size_t errlen)
{
	struct gc_hash *x = h;
	size_t len = x->ai->out_len;
	const unsigned char *d;
	gcry_error_t e;

	if (x->mac) {
		e = gcry_mac_read(x->mac, out, &len);
		if (e)
			return cx_gcrypt_fail(err, errlen, HB_ECRYPTO,
					      "gcry_mac_read", e);
		return 0;
	}
	d = gcry_md_read(x->md, 0);
	if (!d)
		return hb_errorf(err, errlen, HB_ECRYPTO,
				 "gcry_md_read: no digest");
	memcpy(out, d, len);
	return 0;
}

const struct cx_ops cx_gcrypt_ops = {
	.lib_open = gc_lib_open,
	.lib_close = gc_lib_close,
	.cipher_open = gc_cipher_open_h,
	.cipher_start = gc_cipher_start,
	.cipher_aad = gc_cipher_aad,
	.cipher_update = gc_cipher_update,
	.cipher_finish = gc_cipher_finish,
	.cipher_close = gc_cipher_close_h,
	.hash_open = gc_hash_open,
	.hash_start = gc_hash_start,
	.hash_update = gc_hash_update,
	.hash_finish = gc_hash_finish,
	.hash_close = gc_hash_close,
};
