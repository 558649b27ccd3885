/* SPDX-License-Identifier: Apache-2.0 */
/* OpenSSL contexts, in-memory certificates and a SIGPIPE-free socket BIO. */
#include "tls.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

#include <hostbench/plugin.h>

#include "err.h"

/* Every TLS 1.3 suite OpenSSL implements, so the client's choice decides. */
#define TLS13_ALL                                                              \
	"TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256:"                 \
	"TLS_AES_128_GCM_SHA256:TLS_AES_128_CCM_SHA256:"                       \
	"TLS_AES_128_CCM_8_SHA256"

/*
 * Every TLS 1.2 suite with an ephemeral key exchange. A static RSA key
 * exchange lets a relay that re-encrypts the premaster secret share one
 * master secret with both ends, and so pass the proof bound to it.
 */
#define TLS12_FORWARD_SECRET "kECDHE:kDHE:!aNULL:!eNULL"

/* A fresh key of type k. */
static EVP_PKEY *make_key(enum tls_key k)
{
	if (k == TLS_KEY_EC_P256)
		return EVP_EC_gen("P-256");
	return EVP_RSA_gen(2048);
}

/* A self-signed certificate for key, valid from an hour ago for a year. */
static X509 *make_cert(EVP_PKEY *key)
{
	X509 *x = X509_new();
	X509_NAME *name;

	if (!x)
		return NULL;
	name = X509_get_subject_name(x);
	if (!X509_set_version(x, 2) ||
	    !ASN1_INTEGER_set(X509_get_serialNumber(x), 1) ||
	    !X509_gmtime_adj(X509_getm_notBefore(x), -3600) ||
	    !X509_gmtime_adj(X509_getm_notAfter(x), 365L * 86400) ||
	    !X509_set_pubkey(x, key) ||
	    !X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC,
					(const unsigned char *)"hostbench", -1,
					-1, 0) ||
	    !X509_set_issuer_name(x, name) ||
	    !X509_sign(x, key, EVP_sha256())) {
		X509_free(x);
		return NULL;
	}
	return x;
}

/* Give ctx a new key of type k and its certificate. */
static int add_identity(SSL_CTX *ctx, enum tls_key k, char *err, size_t errlen)
{
	EVP_PKEY *key = make_key(k);
	X509 *cert = key ? make_cert(key) : NULL;
	int rc = 0;

	if (!cert || !SSL_CTX_use_certificate(ctx, cert) ||
	    !SSL_CTX_use_PrivateKey(ctx, key)) {
		hb_error_fill(err, errlen, "make %s certificate",
			      k == TLS_KEY_EC_P256 ? "EC P-256" : "RSA 2048");
		err_ssl(err, errlen);
		rc = HB_ECRYPTO;
	}
	X509_free(cert);
	EVP_PKEY_free(key);
	return rc;
}

int tls_server_ctx(unsigned keys, SSL_CTX **out, char *err, size_t errlen)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
	int rc;

	if (!ctx) {
		hb_error_fill(err, errlen, "SSL_CTX_new");
		err_ssl(err, errlen);
		return HB_ECRYPTO;
	}
	if (!SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) ||
	    !SSL_CTX_set_ciphersuites(ctx, TLS13_ALL) ||
	    !SSL_CTX_set_cipher_list(ctx, TLS12_FORWARD_SECRET) ||
	    !SSL_CTX_set_dh_auto(ctx, 1) ||
	    !SSL_CTX_set_session_id_context(ctx, (const unsigned char *)"hb",
					    2)) {
		rc = hb_errorf(err, errlen, HB_ECRYPTO,
			       "configure server context");
		err_ssl(err, errlen);
		goto out_free;
	}
	/*
	 * Read whole socket buffers rather than one record header and body
	 * at a time: a third of the receiver's system calls otherwise.
	 */
	SSL_CTX_set_read_ahead(ctx, 1);
	SSL_CTX_set_default_read_buffer_len(ctx, 64 * 1024);
	for (int k = TLS_KEY_RSA2048; k <= TLS_KEY_EC_P256; k++) {
		if (!(keys & (1u << k)))
			continue;
		rc = add_identity(ctx, (enum tls_key)k, err, errlen);
		if (rc)
			goto out_free;
	}
	*out = ctx;
	return 0;
out_free:
	SSL_CTX_free(ctx);
	return rc;
}

enum tls_key tls_key_for_cipher(const char *cipher)
{
	return strstr(cipher, "ECDSA") ? TLS_KEY_EC_P256 : TLS_KEY_RSA2048;
}

/* The cipher of ctx's list whose OpenSSL or IANA name is name, or NULL. */
static const SSL_CIPHER *find_cipher(SSL_CTX *ctx, const char *name)
{
	STACK_OF(SSL_CIPHER) *list = SSL_CTX_get_ciphers(ctx);

	for (int i = 0; i < sk_SSL_CIPHER_num(list); i++) {
		const SSL_CIPHER *c = sk_SSL_CIPHER_value(list, i);
		const char *std = SSL_CIPHER_standard_name(c);

		if (strcmp(SSL_CIPHER_get_name(c), name) == 0 ||
		    (std && strcmp(std, name) == 0))
			return c;
	}
	return NULL;
}

/* Nonzero when c's key exchange is ephemeral (every TLS 1.3 suite's is). */
static int forward_secret(const SSL_CIPHER *c)
{
	int kx = SSL_CIPHER_get_kx_nid(c);

	return kx == NID_kx_ecdhe || kx == NID_kx_dhe || kx == NID_kx_any;
}

int tls_check_session(SSL *ssl, char *err, size_t errlen)
{
	const SSL_CIPHER *c = SSL_get_current_cipher(ssl);

	if (!c || !forward_secret(c))
		return hb_errorf(err, errlen, HB_ECRYPTO,
				 "TLS handshake: suite %s has no forward "
				 "secrecy (static RSA key exchange): refused",
				 c ? SSL_CIPHER_get_name(c) : "(none)");
	if (SSL_version(ssl) < TLS1_3_VERSION &&
	    SSL_get_extms_support(ssl) != 1)
		return hb_errorf(err, errlen, HB_ECRYPTO,
				 "TLS handshake: TLS 1.2 without the extended "
				 "master secret (RFC 7627): refused");
	return 0;
}

/* Restrict ctx to o->cipher; HB_EINVAL when OpenSSL has no such suite. */
static int pin_cipher(SSL_CTX *ctx, const struct tls_client_opts *o, char *err,
		      size_t errlen)
{
	const char *vname = o->version == TLS1_3_VERSION ? "1.3" : "1.2";
	const SSL_CIPHER *c;
	int is13;

	/*
	 * OpenSSL skips unknown TLS 1.3 names silently and a 1.2 list that
	 * matches nothing fails: either way, look the suite up afterwards.
	 */
	if (o->version == TLS1_3_VERSION)
		SSL_CTX_set_ciphersuites(ctx, o->cipher);
	else
		SSL_CTX_set_cipher_list(ctx, o->cipher);
	ERR_clear_error();
	c = find_cipher(ctx, o->cipher);
	if (!c)
		return hb_errorf(
			err, errlen, HB_EINVAL,
			"cipher \"%s\": OpenSSL has no such TLS %s suite "
			"(try TLS_AES_256_GCM_SHA384 for 1.3, "
			"ECDHE-RSA-AES256-GCM-SHA384 for 1.2)",
			o->cipher, vname);
	is13 = strcmp(SSL_CIPHER_get_version(c), "TLSv1.3") == 0;
	if (is13 != (o->version == TLS1_3_VERSION))
		return hb_errorf(err, errlen, HB_EINVAL,
				 "cipher \"%s\" is not a TLS %s suite (set "
				 "tls_version = %s)",
				 o->cipher, vname, is13 ? "1.3" : "1.2");
	if (!forward_secret(c))
		return hb_errorf(err, errlen, HB_EINVAL,
				 "cipher \"%s\" has no forward secrecy (its "
				 "key exchange is static RSA): use an ECDHE or "
				 "DHE suite, e.g. ECDHE-RSA-AES256-GCM-SHA384",
				 o->cipher);
	return 0;
}

int tls_client_ctx(const struct tls_client_opts *o, SSL_CTX **out, char *err,
		   size_t errlen)
{
	SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
	const char *sigalgs =
		o->key == TLS_KEY_EC_P256
			? "ecdsa_secp256r1_sha256"
			: "rsa_pss_rsae_sha256:rsa_pss_rsae_sha384:"
			  "rsa_pkcs1_sha256:rsa_pkcs1_sha384";
	int rc;

	if (!ctx) {
		hb_error_fill(err, errlen, "SSL_CTX_new");
		err_ssl(err, errlen);
		return HB_ECRYPTO;
	}
	if (!SSL_CTX_set_min_proto_version(ctx, o->version) ||
	    !SSL_CTX_set_max_proto_version(ctx, o->version) ||
	    !SSL_CTX_set1_sigalgs_list(ctx, sigalgs)) {
		rc = hb_errorf(err, errlen, HB_ECRYPTO,
			       "configure client context");
		err_ssl(err, errlen);
		goto out_free;
	}
	rc = pin_cipher(ctx, o, err, errlen);
	if (rc)
		goto out_free;
	SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, NULL);
	SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT);
	*out = ctx;
	return 0;
out_free:
	SSL_CTX_free(ctx);
	return rc;
}

/* The socket of a BIO made by tls_wrap. */
static int bio_fd(BIO *b)
{
	return (int)(intptr_t)BIO_get_data(b);
}

/* Send without SIGPIPE; no retry flags, since sockets block with timeouts. */
static int bio_write(BIO *b, const char *buf, int len)
{
	ssize_t n;

	BIO_clear_retry_flags(b);
	do
		n = send(bio_fd(b), buf, (size_t)len, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return (int)n;
}

static int bio_read(BIO *b, char *buf, int len)
{
	ssize_t n;

	BIO_clear_retry_flags(b);
	do
		n = recv(bio_fd(b), buf, (size_t)len, 0);
	while (n < 0 && errno == EINTR);
	return (int)n;
}

static long bio_ctrl(BIO *b, int cmd, long num, void *ptr)
{
	(void)num;
	(void)ptr;
	if (cmd == BIO_CTRL_FLUSH)
		return 1;
	if (cmd == BIO_C_GET_FD)
		return bio_fd(b);
	return 0;
}

static int bio_create(BIO *b)
{
	BIO_set_init(b, 1);
	return 1;
}

BIO_METHOD *tls_bio_method(void)
{
	BIO_METHOD *m =
		BIO_meth_new(BIO_get_new_index() | BIO_TYPE_SOURCE_SINK |
				     BIO_TYPE_DESCRIPTOR,
			     "hostbench socket");

	if (!m)
		return NULL;
	if (!BIO_meth_set_write(m, bio_write) ||
	    !BIO_meth_set_read(m, bio_read) ||
	    !BIO_meth_set_ctrl(m, bio_ctrl) ||
	    !BIO_meth_set_create(m, bio_create)) {
		BIO_meth_free(m);
		return NULL;
	}
	return m;
}

SSL *tls_wrap(SSL_CTX *ctx, BIO_METHOD *meth, int fd)
{
	SSL *ssl = SSL_new(ctx);
	BIO *b = ssl ? BIO_new(meth) : NULL;

	if (!b) {
		SSL_free(ssl);
		return NULL;
	}
	/* the BIO's data is the socket number itself */
	/* NOLINTNEXTLINE(performance-no-int-to-ptr) */
	BIO_set_data(b, (void *)(intptr_t)fd);
	SSL_set_bio(ssl, b, b);
	return ssl;
}

int tls_fail(SSL *ssl, int rc, const char *prefix, char *err, size_t errlen)
{
	int e = errno, kind = SSL_get_error(ssl, rc);
	unsigned long top = ERR_peek_error();

	if (kind == SSL_ERROR_ZERO_RETURN ||
	    (kind == SSL_ERROR_SSL &&
	     ERR_GET_REASON(top) == SSL_R_UNEXPECTED_EOF_WHILE_READING) ||
	    (kind == SSL_ERROR_SYSCALL &&
	     (e == 0 || e == EPIPE || e == ECONNRESET))) {
		ERR_clear_error();
		return hb_errorf(err, errlen, HB_EIO,
				 "%s: connection closed by peer", prefix);
	}
	if (kind == SSL_ERROR_SYSCALL) {
		ERR_clear_error();
		return hb_errorf(err, errlen, HB_EIO, "%s: %s", prefix,
				 e == EAGAIN ? "timed out" : strerror(e));
	}
	hb_error_fill(err, errlen, "%s", prefix);
	err_ssl(err, errlen);
	return HB_ECRYPTO;
}
