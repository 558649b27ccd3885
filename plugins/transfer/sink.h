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
 * Serve the connection on fd (which the caller closes) with a receive
 * buffer of buflen bytes. Returns 0 when
 * the client ended the session cleanly, or a negative code with the reason.
 * Payload is only ever counted, never stored or written anywhere.
 */
int sink_serve(const struct sink_cfg *cfg, int fd, char *buf, size_t buflen,
	       struct sink_stats *st, char *err, size_t errlen);

#endif
