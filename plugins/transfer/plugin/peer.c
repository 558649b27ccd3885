/* SPDX-License-Identifier: Apache-2.0 */
/* The sending end's connection setup. */
#include "peer.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "protocol/err.h"
#include "protocol/tls.h"

/* Shake hands over TLS on ch->fd, resuming cfg->session if given. */
static int handshake(const struct peer_cfg *cfg, struct chan *ch, char *err,
		     size_t errlen)
{
	int rc;

	ch->ssl = tls_wrap(cfg->tls, cfg->bio, ch->fd);
	if (!ch->ssl)
		return hb_errorf(err, errlen, HB_ENOMEM, "SSL_new failed");
	if (cfg->session && !SSL_set_session(ch->ssl, cfg->session))
		return hb_errorf(err, errlen, HB_ECRYPTO,
				 "SSL_set_session failed");
	errno = 0;
	rc = SSL_connect(ch->ssl);
	if (rc <= 0)
		return tls_fail(ch->ssl, rc, "TLS handshake", err, errlen);
	return tls_check_session(ch->ssl, err, errlen);
}

int peer_open(const struct peer_cfg *cfg, struct chan *ch, char *err,
	      size_t errlen)
{
	struct wire_auth a = { .mode = cfg->mode };
	char what[300];
	int rc;

	ch->ssl = NULL;
	rc = net_connect(cfg->addr, &cfg->net, &ch->fd, err, errlen);
	if (rc)
		return rc;
	rc = wire_send_preface(ch->fd, cfg->mode, err, errlen);
	if (rc == 0 && cfg->mode != WIRE_TCP)
		rc = handshake(cfg, ch, err, errlen);
	if (rc == 0)
		rc = wire_auth_begin(ch, &a, 0, err, errlen);
	if (rc == 0)
		rc = wire_send_hello(ch, &a, cfg->token, err, errlen);
	if (rc == 0)
		rc = wire_recv_reply(ch, &a, cfg->token, err, errlen);
	if (rc) {
		/*
		 * Name the peer: "127.0.0.1:5201: refused by receiver: ...". A
		 * receiver that hangs up before answering is most likely not
		 * hostbench serve, or one at its --max-clients: say so.
		 */
		snprintf(what, sizeof(what), "%s", err);
		hb_error_fill(err, errlen, "%s: %s%s", cfg->addr, what,
			      rc == HB_EIO && strstr(what, "closed by peer")
				      ? " (is it hostbench serve, below its "
					"--max-clients?)"
				      : "");
		peer_close(ch);
	}
	return rc;
}

void peer_close(struct chan *ch)
{
	if (ch->ssl) {
		/* No close_notify, like s_time, and the session stays usable.
		 */
		SSL_set_shutdown(ch->ssl,
				 SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
		SSL_free(ch->ssl);
		ch->ssl = NULL;
	}
	if (ch->fd >= 0)
		close(ch->fd);
	ch->fd = -1;
}
