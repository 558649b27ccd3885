/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transfer/tls-handshake: one TCP connection and TLS handshake per
 * iteration, closed without close_notify, as `openssl s_time` counts them.
 * With resume = true every handshake after the first resumes the session
 * (or TLS 1.3 ticket) of the one before with that peer. With several
 * peers the handshakes go to each in turn.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "protocol/err.h"
#include "ends.h"
#include "transfer.h"

struct handshake {
	struct transfer_state base;
	const struct hb_case *c;
	struct ends e;
	size_t next; /* the peer of the next handshake */
	int resume;
};

/*
 * One handshake with pc; with resume, check it resumed and keep the new
 * session.
 */
static int shake(struct handshake *h, struct peer_cfg *pc, char *err,
		 size_t errlen)
{
	struct chan ch;
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int rc = peer_open(pc, &ch, err, errlen);

	if (rc)
		return rc;
	if (h->resume && pc->session && !SSL_session_reused(ch.ssl))
		rc = hb_errorf(err, errlen, HB_EFAIL,
			       "%s: the receiver did not resume the session",
			       pc->addr);
	if (rc == 0 && h->resume) {
		SSL_SESSION_free(pc->session);
		pc->session = SSL_get1_session(ch.ssl);
	}
	/*
	 * Reset instead of FIN so thousands of handshakes a second do not
	 * fill the port range with TIME_WAIT sockets.
	 */
	setsockopt(ch.fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	peer_close(&ch);
	return rc;
}

static int handshake_run(void *state, uint64_t iterations, struct hb_done *done,
			 char *err, size_t errlen)
{
	struct handshake *h = state;

	for (uint64_t i = 0; i < iterations; i++) {
		int rc = shake(h, &h->e.pc[h->next], err, errlen);

		if (rc)
			return rc;
		h->next = (h->next + 1) % h->e.npc;
		done->ops++;
	}
	return 0;
}

static void handshake_teardown(void *state)
{
	struct handshake *h = state;

	ends_free(&h->e);
	free(h);
}

static const struct transfer_ops handshake_ops = {
	.run = handshake_run,
	.teardown = handshake_teardown,
};

/*
 * Record what a handshake with pc really negotiated, from one made in
 * setup (the notes of the first peer stand for all).
 */
static int probe(struct handshake *h, struct peer_cfg *pc, char *err,
		 size_t errlen)
{
	const struct hb_host *hh = h->c->host;
	struct chan ch;
	int rc = peer_open(pc, &ch, err, errlen);

	if (rc)
		return rc;
	if (pc == h->e.pc) {
		hh->note(h->c, "peer", h->e.where);
		hh->note(h->c, "tls_version", SSL_get_version(ch.ssl));
		hh->note(h->c, "cipher", SSL_get_cipher_name(ch.ssl));
	}
	if (h->resume)
		pc->session = SSL_get1_session(ch.ssl);
	peer_close(&ch);
	/* A resumed handshake now proves the receiver resumes at all. */
	if (h->resume) {
		rc = shake(h, pc, err, errlen);
		if (rc == 0 && pc == h->e.pc)
			hh->note(h->c, "resumed", "yes");
	}
	return rc;
}

int handshake_setup(const struct hb_case *c, void **state, char *err,
		    size_t errlen)
{
	struct handshake *h = calloc(1, sizeof(*h));
	int rc;

	if (!h)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	h->base.ops = &handshake_ops;
	h->c = c;
	h->resume = c->host->get_bool(c, "resume");
	rc = ends_prepare(c, WIRE_HANDSHAKE, &h->e, err, errlen);
	for (size_t k = 0; rc == 0 && k < h->e.npc; k++)
		rc = probe(h, &h->e.pc[k], err, errlen);
	if (rc) {
		handshake_teardown(h);
		return rc;
	}
	*state = h;
	return 0;
}
