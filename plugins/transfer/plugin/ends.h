/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Both ends of a network case, as its options say: the client's TLS
 * context, and the receivers to send to: the peers of option "peer" or,
 * when none is given, a loopback receiver with its own TLS context.
 * transfer/tcp, transfer/tls and transfer/tls-handshake share it.
 */
#ifndef HB_TRANSFER_ENDS_H
#define HB_TRANSFER_ENDS_H

#include <hostbench/plugin.h>

#include "local.h"
#include "peer.h"
#include "peers.h"

/* What a worker connects with; each pc[i] is ready for peer_open(). */
struct ends {
	struct peer_cfg *pc; /* one per receiver, in the order of "peer" */
	size_t npc;
	const char *where; /* "peer" as given, or the loopback receiver */
	struct peers peers;
	struct local local;
	int have_local;
	SSL_CTX *srv_tls;
	SSL_CTX *cli_tls;
	BIO_METHOD *bio;
};

/*
 * Fill e for case c and mode: socket options, TLS version, cipher and key
 * (TLS modes), and the receivers (the peers of option "peer" with their
 * tokens, or a new loopback receiver).
 * Returns 0, or a negative code with err filled; call ends_free() either
 * way.
 */
int ends_prepare(const struct hb_case *c, enum wire_mode mode, struct ends *e,
		 char *err, size_t errlen);

/* The token option of c, else $HOSTBENCH_TOKEN (not in ps); never NULL. */
const char *ends_token(const struct hb_case *c);

/* Stop the loopback receiver; free the contexts, sessions and peers. */
void ends_free(struct ends *e);

#endif
