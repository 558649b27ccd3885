/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL primitives for the crypto engine. Every algorithm is fetched
 * explicitly from the worker's own library context with the case's
 * property query, so the result can say which provider did the work.
 */
#include "ossl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/provider.h>

/* Most providers one case may load. */
#define OSSL_MAX_PROVIDERS 8

/* One worker's library context. */
struct ossl_lib {
	const struct cx_ops *updates; /* first: cx_openssl_ops (ossl.h) */
	OSSL_LIB_CTX *libctx;
	OSSL_PROVIDER *prov[OSSL_MAX_PROVIDERS];
	size_t nprov;
	char *props; /* property query, NULL for none */
	int chosen;  /* providers or properties differ from the defaults */
};

/* A cipher or AEAD context. */
struct ossl_cipher {
	EVP_CIPHER_CTX *ctx;
	EVP_CIPHER *cipher;
	const struct cx_alginfo *ai;
	int encrypt;
};

/* A digest or MAC context (exactly one of md, mac is set). */
struct ossl_hash {
	EVP_MD_CTX *md;
	EVP_MD *mdalg;
	EVP_MAC_CTX *mac;
	EVP_MAC *macalg;
};

/* OpenSSL's name for each cipher and digest; MACs name their digest. */
static const char *const ossl_names[CX_NALGS] = {
	[CX_AES_128_GCM] = "AES-128-GCM",
	[CX_AES_256_GCM] = "AES-256-GCM",
	[CX_AES_128_CTR] = "AES-128-CTR",
	[CX_AES_192_CTR] = "AES-192-CTR",
	[CX_AES_256_CTR] = "AES-256-CTR",
	[CX_AES_256_CBC] = "AES-256-CBC",
	[CX_CHACHA20_POLY1305] = "ChaCha20-Poly1305",
	[CX_BF_CBC] = "BF-CBC",
	[CX_HMAC_MD5] = "MD5",
	[CX_HMAC_SHA1] = "SHA1",
	[CX_HMAC_SHA256] = "SHA2-256",
	[CX_POLY1305] = "POLY1305",
	[CX_MD5] = "MD5",
	[CX_SHA1] = "SHA1",
	[CX_SHA256] = "SHA2-256",
	[CX_SHA512] = "SHA2-512",
	[CX_SHA3_256] = "SHA3-256",
	[CX_BLAKE2B_512] = "BLAKE2B-512",
};

int cx_openssl_fail(char *err, size_t errlen, int code, const char *what)
{
	const char *data, *reason = NULL, *detail = "";
	unsigned long e;
	int flags;

	while ((e = ERR_get_error_all(NULL, NULL, NULL, &data, &flags))) {
		if (reason)
			continue;
		reason = ERR_reason_error_string(e);
		if ((flags & ERR_TXT_STRING) && data && *data)
			detail = data;
	}
	return hb_errorf(err, errlen, code, "%s: %s%s%s%s", what,
			 reason ? reason : "OpenSSL gave no reason",
			 *detail ? " (" : "", detail, *detail ? ")" : "");
}

/* Split a provider list on '+' or ',' and load each into lib. */
static int load_providers(struct ossl_lib *lib, const char *list, char *err,
			  size_t errlen)
{
	char name[256], what[300];
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, "+,");
		const char *q = p;

		while (n && (*q == ' ' || *q == '"')) {
			q++;
			n--;
		}
		while (n && (q[n - 1] == ' ' || q[n - 1] == '"'))
			n--;
		if (n == 0 || n >= sizeof(name))
			return hb_errorf(
				err, errlen, HB_EINVAL,
				"provider: bad list \"%s\" (names "
				"joined with '+', e.g. default+legacy)",
				list);
		if (lib->nprov == OSSL_MAX_PROVIDERS)
			return hb_errorf(err, errlen, HB_EINVAL,
					 "provider: more than %d providers",
					 OSSL_MAX_PROVIDERS);
		memcpy(name, q, n);
		name[n] = '\0';
		lib->prov[lib->nprov] = OSSL_PROVIDER_load(lib->libctx, name);
		if (!lib->prov[lib->nprov]) {
			snprintf(what, sizeof(what),
				 "loading OpenSSL provider \"%s\"", name);
			return cx_openssl_fail(err, errlen, HB_ECRYPTO, what);
		}
		lib->nprov++;
		p += strcspn(p, "+,");
		if (*p)
			p++;
	}
	if (lib->nprov == 0)
		return hb_errorf(err, errlen, HB_EINVAL,
				 "provider: no provider named");
	return 0;
}

static void ossl_lib_close(void *h)
{
	struct ossl_lib *lib = h;

	if (!lib)
		return;
	while (lib->nprov)
		OSSL_PROVIDER_unload(lib->prov[--lib->nprov]);
	OSSL_LIB_CTX_free(lib->libctx);
	free(lib->props);
	free(lib);
}

/* The default text of option name in t's table, or "". */
static const char *option_default(const struct hb_target *t, const char *name)
{
	for (const struct hb_option *o = t->options; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o->def ? o->def : "";
	return "";
}

/*
 * A failure caused by the host (a default provider or algorithm missing)
 * skips the case; one caused by what the suite chose fails it.
 */
static int host_or_choice(const struct ossl_lib *lib, int code)
{
	return lib->chosen ? code : HB_SKIP;
}

static int ossl_lib_open(const struct hb_case *c, void **out, char *err,
			 size_t errlen)
{
	const char *provider = c->host->get_str(c, "provider");
	const char *props = c->host->get_str(c, "properties");
	struct ossl_lib *lib;
	int rc;

	if (!provider)
		provider = "default";
	lib = calloc(1, sizeof(*lib));
	if (!lib)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	lib->updates = &cx_openssl_ops;
	lib->chosen =
		strcmp(provider, option_default(c->target, "provider")) != 0 ||
		(props && *props);
	if (props && *props && !(lib->props = strdup(props))) {
		rc = hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
		goto fail_lib;
	}
	lib->libctx = OSSL_LIB_CTX_new();
	if (!lib->libctx) {
		rc = cx_openssl_fail(err, errlen, HB_ECRYPTO,
				     "OSSL_LIB_CTX_new");
		goto fail_lib;
	}
	rc = load_providers(lib, provider, err, errlen);
	if (rc == HB_ECRYPTO)
		rc = host_or_choice(lib, rc);
	if (rc)
		goto fail_lib;
	*out = lib;
	return 0;

fail_lib:
	ossl_lib_close(lib);
	return rc;
}

int cx_openssl_probe(const char *list, char *err, size_t errlen)
{
	struct ossl_lib *lib = calloc(1, sizeof(*lib));
	int rc;

	if (!lib)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	lib->libctx = OSSL_LIB_CTX_new();
	rc = lib->libctx ? load_providers(lib, list, err, errlen)
			 : cx_openssl_fail(err, errlen, HB_ECRYPTO,
					   "OSSL_LIB_CTX_new");
	ossl_lib_close(lib);
	return rc;
}

/* Failure to fetch name: the library's reason, with the property query. */
static int fetch_failed(const struct ossl_lib *lib, const char *name, char *err,
			size_t errlen)
{
	char what[300];

	snprintf(what, sizeof(what), "fetching %s%s%s%s from OpenSSL", name,
		 lib->props ? " (properties \"" : "",
		 lib->props ? lib->props : "", lib->props ? "\")" : "");
	return cx_openssl_fail(err, errlen, host_or_choice(lib, HB_ECRYPTO),
			       what);
}

/* Tell the result which provider and library did the work. */
static void note_provider(const struct hb_case *c, const OSSL_PROVIDER *p)
{
	if (!c)
		return;
	c->host->note(c, "provider", p ? OSSL_PROVIDER_get0_name(p) : "?");
	c->host->note(c, "library", OpenSSL_version(OPENSSL_VERSION));
}

static void ossl_cipher_close(void *h)
{
	struct ossl_cipher *k = h;

	if (!k)
		return;
	EVP_CIPHER_CTX_free(k->ctx);
	EVP_CIPHER_free(k->cipher);
	free(k);
}

static int ossl_cipher_open(void *libp, const struct hb_case *c,
			    enum cx_alg alg, int encrypt, const uint8_t *key,
			    void **out, char *err, size_t errlen)
{
	struct ossl_lib *lib = libp;
	struct ossl_cipher *k;
	int rc;

	k = calloc(1, sizeof(*k));
	if (!k)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	k->ai = cx_alg_info(alg);
	k->encrypt = encrypt;
	k->cipher = EVP_CIPHER_fetch(lib->libctx, ossl_names[alg], lib->props);
	if (!k->cipher) {
		rc = fetch_failed(lib, ossl_names[alg], err, errlen);
		goto fail_cipher;
	}
	k->ctx = EVP_CIPHER_CTX_new();
	if (!k->ctx ||
	    !EVP_CipherInit_ex2(k->ctx, k->cipher, key, NULL, encrypt, NULL) ||
	    !EVP_CIPHER_CTX_set_padding(k->ctx, 0)) {
		rc = cx_openssl_fail(err, errlen, HB_ECRYPTO,
				     "EVP_CipherInit_ex2");
		goto fail_cipher;
	}
	if ((size_t)EVP_CIPHER_CTX_get_key_length(k->ctx) != k->ai->key_len ||
	    (size_t)EVP_CIPHER_CTX_get_iv_length(k->ctx) != k->ai->iv_len) {
		rc = hb_errorf(err, errlen, HB_ECRYPTO,
			       "%s from OpenSSL has a %d-byte key and %d-byte "
			       "IV, want %zu and %zu",
			       k->ai->name,
			       EVP_CIPHER_CTX_get_key_length(k->ctx),
			       EVP_CIPHER_CTX_get_iv_length(k->ctx),
			       k->ai->key_len, k->ai->iv_len);
		goto fail_cipher;
	}
	note_provider(c, EVP_CIPHER_get0_provider(k->cipher));
	*out = k;
	return 0;

fail_cipher:
	ossl_cipher_close(k);
	return rc;
}

static int ossl_cipher_start(void *h, const uint8_t *key, const uint8_t *iv,
			     char *err, size_t errlen)
{
	struct ossl_cipher *k = h;

	/*
	 * A new key of an AEAD comes with its IV length, as in openssl
	 * speed's AEAD loop (which also drops OpenSSL's cached IV length).
	 */
	if (key && k->ai->kind == CX_AEAD &&
	    EVP_CIPHER_CTX_ctrl(k->ctx, EVP_CTRL_AEAD_SET_IVLEN,
				(int)k->ai->iv_len, NULL) <= 0)
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       "EVP_CTRL_AEAD_SET_IVLEN");
	if (!EVP_CipherInit_ex2(k->ctx, NULL, key, iv, -1, NULL))
		return cx_openssl_fail(
			err, errlen, HB_ECRYPTO,
			key ? "EVP_CipherInit_ex2 (new key and IV)"
			    : "EVP_CipherInit_ex2 (new IV)");
	return 0;
}

static int ossl_cipher_aad(void *h, const uint8_t *aad, size_t len, char *err,
			   size_t errlen)
{
	struct ossl_cipher *k = h;
	int outl;

	if (!EVP_CipherUpdate(k->ctx, NULL, &outl, aad, (int)len))
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       "EVP_CipherUpdate (AAD)");
	return 0;
}

static int ossl_cipher_updates(void *h, const uint8_t *in, uint8_t *out,
			       size_t len, uint64_t n, char *err, size_t errlen)
{
	struct ossl_cipher *k = h;
	int outl;

	/* EVP_Update_loop of openssl speed: one call per buffer */
	if (k->encrypt) {
		for (; n; n--)
			if (!EVP_EncryptUpdate(k->ctx, out, &outl, in,
					       (int)len))
				return cx_openssl_fail(err, errlen, HB_ECRYPTO,
						       "EVP_EncryptUpdate");
	} else {
		for (; n; n--)
			if (!EVP_DecryptUpdate(k->ctx, out, &outl, in,
					       (int)len))
				return cx_openssl_fail(err, errlen, HB_ECRYPTO,
						       "EVP_DecryptUpdate");
	}
	return 0;
}

static int ossl_cipher_update(void *h, const uint8_t *in, uint8_t *out,
			      size_t len, char *err, size_t errlen)
{
	return ossl_cipher_updates(h, in, out, len, 1, err, errlen);
}

static int ossl_cipher_finish(void *h, uint8_t *tag, char *err, size_t errlen)
{
	struct ossl_cipher *k = h;
	int aead = k->ai->kind == CX_AEAD, tlen = (int)k->ai->out_len;
	uint8_t tail[32];
	int outl;

	if (aead && !k->encrypt &&
	    EVP_CIPHER_CTX_ctrl(k->ctx, EVP_CTRL_AEAD_SET_TAG, tlen, tag) <= 0)
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       "EVP_CTRL_AEAD_SET_TAG");
	if (EVP_CipherFinal_ex(k->ctx, tail, &outl) <= 0) {
		if (aead && !k->encrypt) {
			ERR_clear_error();
			return hb_errorf(err, errlen, HB_EVERIFY,
					 "%s tag mismatch", k->ai->name);
		}
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       "EVP_CipherFinal_ex");
	}
	/* the final computed the tag: reading it out is a parameter call */
	if (aead && k->encrypt && tag &&
	    EVP_CIPHER_CTX_ctrl(k->ctx, EVP_CTRL_AEAD_GET_TAG, tlen, tag) <= 0)
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       "EVP_CTRL_AEAD_GET_TAG");
	return 0;
}

/* One whole message: the three above, inlined into one call. */
static int ossl_cipher_message(void *h, const uint8_t *key, const uint8_t *iv,
			       const uint8_t *in, uint8_t *out, size_t len,
			       uint8_t *tag, char *err, size_t errlen)
{
	int rc = ossl_cipher_start(h, key, iv, err, errlen);

	if (!rc)
		rc = ossl_cipher_update(h, in, out, len, err, errlen);
	if (!rc)
		rc = ossl_cipher_finish(h, tag, err, errlen);
	return rc;
}

static void ossl_hash_close(void *h)
{
	struct ossl_hash *x = h;

	if (!x)
		return;
	EVP_MD_CTX_free(x->md);
	EVP_MD_free(x->mdalg);
	EVP_MAC_CTX_free(x->mac);
	EVP_MAC_free(x->macalg);
	free(x);
}

/* An HMAC or Poly1305 context, its digest fetched with the same query. */
static int open_mac(struct ossl_lib *lib, struct ossl_hash *x, enum cx_alg alg,
		    char *err, size_t errlen)
{
	const char *macname = alg == CX_POLY1305 ? "POLY1305" : "HMAC";
	OSSL_PARAM params[3], *p = params;

	x->macalg = EVP_MAC_fetch(lib->libctx, macname, lib->props);
	if (!x->macalg)
		return fetch_failed(lib, macname, err, errlen);
	x->mac = EVP_MAC_CTX_new(x->macalg);
	if (!x->mac)
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       "EVP_MAC_CTX_new");
	if (alg == CX_POLY1305)
		return 0;
	*p++ = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST,
						(char *)ossl_names[alg], 0);
	if (lib->props)
		*p++ = OSSL_PARAM_construct_utf8_string(
			OSSL_MAC_PARAM_PROPERTIES, lib->props, 0);
	*p = OSSL_PARAM_construct_end();
	if (!EVP_MAC_CTX_set_params(x->mac, params))
		return cx_openssl_fail(err, errlen,
				       host_or_choice(lib, HB_ECRYPTO),
				       "setting the HMAC digest");
	return 0;
}

static int ossl_hash_open(void *libp, const struct hb_case *c, enum cx_alg alg,
			  void **out, char *err, size_t errlen)
{
	struct ossl_lib *lib = libp;
	struct ossl_hash *x;
	int rc = 0;

	x = calloc(1, sizeof(*x));
	if (!x)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	if (cx_alg_info(alg)->kind == CX_MAC) {
		rc = open_mac(lib, x, alg, err, errlen);
	} else {
		x->mdalg =
			EVP_MD_fetch(lib->libctx, ossl_names[alg], lib->props);
		if (!x->mdalg)
			rc = fetch_failed(lib, ossl_names[alg], err, errlen);
		else if (!(x->md = EVP_MD_CTX_new()) ||
			 !EVP_DigestInit_ex2(x->md, x->mdalg, NULL))
			rc = cx_openssl_fail(err, errlen, HB_ECRYPTO,
					     "EVP_DigestInit_ex2");
	}
	if (rc) {
		ossl_hash_close(x);
		return rc;
	}
	note_provider(c, x->mac ? EVP_MAC_get0_provider(x->macalg)
				: EVP_MD_get0_provider(x->mdalg));
	*out = x;
	return 0;
}

static int ossl_hash_start(void *h, const uint8_t *key, size_t key_len,
			   char *err, size_t errlen)
{
	struct ossl_hash *x = h;

	if (x->mac) {
		if (!EVP_MAC_init(x->mac, key, key ? key_len : 0, NULL))
			return cx_openssl_fail(err, errlen, HB_ECRYPTO,
					       "EVP_MAC_init");
	} else if (!EVP_DigestInit_ex2(x->md, NULL, NULL)) {
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       "EVP_DigestInit_ex2");
	}
	return 0;
}

static int ossl_hash_update(void *h, const uint8_t *in, size_t len, char *err,
			    size_t errlen)
{
	struct ossl_hash *x = h;

	if (x->mac ? !EVP_MAC_update(x->mac, in, len)
		   : !EVP_DigestUpdate(x->md, in, len))
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       x->mac ? "EVP_MAC_update"
					      : "EVP_DigestUpdate");
	return 0;
}

static int ossl_hash_finish(void *h, uint8_t *out, char *err, size_t errlen)
{
	struct ossl_hash *x = h;
	unsigned int mdlen;
	size_t maclen;

	if (x->mac ? !EVP_MAC_final(x->mac, out, &maclen, CX_MAX_OUT)
		   : !EVP_DigestFinal_ex(x->md, out, &mdlen))
		return cx_openssl_fail(err, errlen, HB_ECRYPTO,
				       x->mac ? "EVP_MAC_final"
					      : "EVP_DigestFinal_ex");
	return 0;
}

const struct cx_ops cx_openssl_ops = {
	.lib_open = ossl_lib_open,
	.lib_close = ossl_lib_close,
	.cipher_open = ossl_cipher_open,
	.cipher_start = ossl_cipher_start,
	.cipher_aad = ossl_cipher_aad,
	.cipher_update = ossl_cipher_update,
	.cipher_updates = ossl_cipher_updates,
	.cipher_finish = ossl_cipher_finish,
	.cipher_message = ossl_cipher_message,
	.cipher_close = ossl_cipher_close,
	.hash_open = ossl_hash_open,
	.hash_start = ossl_hash_start,
	.hash_update = ossl_hash_update,
	.hash_finish = ossl_hash_finish,
	.hash_close = ossl_hash_close,
	.job_open = ossl_jobs_open,
	.job_submit = ossl_jobs_submit,
	.job_reap = ossl_jobs_reap,
	.job_close = ossl_jobs_close,
};
