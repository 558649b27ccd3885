/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sending end's connection: connect, send the preface, shake hands
 * for TLS modes, present the token and read the receiver's answer.
 */
#ifndef HB_TRANSFER_PEER_H
#define HB_TRANSFER_PEER_H

#include <openssl/ssl.h>

#include "protocol/chan.h"
#include "protocol/net.h"
#include "protocol/wire.h"

/* Where and how to connect. */
struct peer_cfg {
	const char *addr; /* "host:port" */
	const char *token;
	struct net_opts net;
	enum wire_mode mode;
	SSL_CTX *tls;	      /* client context, TLS modes */
	BIO_METHOD *bio;      /* from tls_bio_method(), TLS modes */
	SSL_SESSION *session; /* resume this session, or NULL */
};

/*
 * Open a session to cfg->addr on ch. Returns 0, or a negative code with the
 * reason: connection refused or timed out, TLS failure, wrong token (the
 * receiver's message). Nothing stays open on failure.
 */
int peer_open(const struct peer_cfg *cfg, struct chan *ch, char *err,
	      size_t errlen);

/* Close ch without a goodbye (handshake mode, or after a failure). */
void peer_close(struct chan *ch);

#endif
