/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenSSL contexts for both ends of a transfer: a key and self-signed
 * certificate made in memory, a server context that accepts TLS 1.3 with
 * every suite OpenSSL offers and TLS 1.2 with every forward-secret one,
 * and a client context pinned to one version and one cipher. Sockets reach
 * OpenSSL through a BIO that sends with MSG_NOSIGNAL, so a closed peer is an
 * error, never a SIGPIPE.
 */
#ifndef HB_TRANSFER_TLS_H
#define HB_TRANSFER_TLS_H

#include <stddef.h>

#include <openssl/ssl.h>

/* Key types for the in-memory certificate. */
enum tls_key {
	TLS_KEY_RSA2048,
	TLS_KEY_EC_P256,
};

/* What the client side asks for. */
struct tls_client_opts {
	int version; /* TLS1_2_VERSION or TLS1_3_VERSION */
	const char
		*cipher;  /* one suite: IANA name (1.3) or OpenSSL name (1.2) */
	enum tls_key key; /* which certificate type the client accepts */
};

/*
 * A server context with a fresh key of each type in keys (a bit mask of
 * 1 << enum tls_key) and a self-signed certificate for it. Returns 0 with
 * *out set, or HB_ECRYPTO.
 */
int tls_server_ctx(unsigned keys, SSL_CTX **out, char *err, size_t errlen);

/*
 * A client context for o. A cipher OpenSSL does not know, one that does
 * not belong to the version, or a static-RSA one is HB_EINVAL naming the
 * cipher. The peer's
 * certificate is not verified: both ends are the user's own hosts and the
 * figure is throughput, not trust (docs/transfer.md).
 */
int tls_client_ctx(const struct tls_client_opts *o, SSL_CTX **out, char *err,
		   size_t errlen);

/*
 * Refuse a session a man in the middle could share with both ends: a
 * suite without an ephemeral key exchange, or TLS 1.2 without the extended
 * master secret (RFC 7627), whose exported keying material a relay can
 * make equal on both sides. Both ends call it after the handshake, before
 * the proofs. Returns 0, or HB_ECRYPTO with the reason.
 */
int tls_check_session(SSL *ssl, char *err, size_t errlen);

/* The key type that suits a cipher name: ECDSA suites need an EC key. */
enum tls_key tls_key_for_cipher(const char *cipher);

/*
 * An SSL object on connected socket fd through the MSG_NOSIGNAL BIO.
 * meth is from tls_bio_method() and must outlive the SSL. NULL on failure.
 */
SSL *tls_wrap(SSL_CTX *ctx, BIO_METHOD *meth, int fd);

/* A BIO method for sockets that sends with MSG_NOSIGNAL; free with
 * BIO_meth_free. */
BIO_METHOD *tls_bio_method(void);

/*
 * Describe why an SSL call returned rc into err after prefix: the socket
 * error (closed, reset, timed out) or OpenSSL's reason. Returns HB_EIO for
 * socket trouble, HB_ECRYPTO otherwise.
 */
int tls_fail(SSL *ssl, int rc, const char *prefix, char *err, size_t errlen);

#endif
