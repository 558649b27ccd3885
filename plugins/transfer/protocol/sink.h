/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The receiving end of one connection: check the preface and token, then
 * read and discard frames, acknowledging each, until the sender says
 * goodbye. The plugin's loopback receiver and hostbench-serve both call it,
 * so the two can never drift apart.
 */
#ifndef HB_TRANSFER_SINK_H
#define HB_TRANSFER_SINK_H

#include <stddef.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "wire.h"

/* What a receiver offers and allows; the same for all its connections. */
struct sink_cfg {
	SSL_CTX *tls;	   /* server context; NULL refuses TLS modes */
	BIO_METHOD *bio;   /* from tls_bio_method(), with tls */
	const char *token; /* what a client must present */
	double max_time;   /* seconds one connection may last; 0 = no limit */
};

/* What happened on one connection, for the server's log. */
struct sink_stats {
	enum wire_mode mode;
	uint64_t bytes;	  /* payload received */
	char cipher[64];  /* TLS: negotiated suite */
	char version[16]; /* TLS: "TLSv1.3" */
};

/*
 * What a receiver asks once a client proved the token, before it says ok:
 * admit(arg, why, len) returns 0 to go on, or nonzero with the reason the
 * client is told in why ("too many clients").
 */
struct sink_gate {
	int (*admit)(void *arg, char *why, size_t len);
	void *arg;
};

/* One connection being served: its channel and what happened on it. */
struct sink_conn {
	struct chan ch;
	struct sink_stats st;
};

/*
 * The pre-authentication phase on fd (which the caller closes): the
 * preface, the TLS handshake in TLS modes, and the client's proof of the
 * token; then gate (NULL: every client that proves the token) decides.
 * Returns 0 when the client is authenticated and admitted, or a negative
 * code with the reason; call sink_close() either way.
 */
int sink_open(const struct sink_cfg *cfg, int fd, const struct sink_gate *gate,
	      struct sink_conn *c, char *err, size_t errlen);

/*
 * The rest of an authenticated connection, with a receive buffer of buflen
 * bytes: frames until the goodbye (stream modes, within cfg->max_time), or
 * until the client hangs up (handshake mode). Returns 0 when the session
 * ended as it should, or a negative code with the reason. Payload is only
 * ever counted, never stored or written anywhere.
 */
int sink_finish(const struct sink_cfg *cfg, struct sink_conn *c, char *buf,
		size_t buflen, char *err, size_t errlen);

/* Free the TLS state of c (the socket stays the caller's). */
void sink_close(struct sink_conn *c);

/*
 * sink_open(), sink_finish() and sink_close() of the connection on fd, for
 * a receiver that serves one connection at a time; st gets what happened.
 */
int sink_serve(const struct sink_cfg *cfg, int fd, char *buf, size_t buflen,
	       struct sink_stats *st, char *err, size_t errlen);

#endif
