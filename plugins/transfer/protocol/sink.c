/* SPDX-License-Identifier: Apache-2.0 */
/* The receiving end of one transfer connection. */
#include "sink.h"

#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <sys/socket.h>
#include <string.h>
#include <time.h>

#include <hostbench/plugin.h>

#include "err.h"
#include "tls.h"

/* Check the client's proof of the token, ask gate, answer the hello. */
static int greet(const struct sink_cfg *cfg, const struct sink_gate *gate,
		 struct chan *ch, enum wire_mode mode, char *err, size_t errlen)
{
	struct wire_auth a = { .mode = mode };
	char why[160];
	int rc = wire_auth_begin(ch, &a, 1, err, errlen);

	if (rc == 0)
		rc = wire_recv_hello(ch, &a, cfg->token, err, errlen);
	if (rc == HB_EINVAL) {
		wire_send_reply(ch, WIRE_BAD_TOKEN, "wrong token", &a,
				cfg->token, NULL, 0);
		return rc;
	}
	if (rc)
		return rc;
	if (gate && gate->admit(gate->arg, why, sizeof(why))) {
		wire_send_reply(ch, WIRE_BUSY, why, &a, cfg->token, NULL, 0);
		return hb_errorf(err, errlen, HB_EFAIL, "%s", why);
	}
	return wire_send_reply(ch, WIRE_OK, "", &a, cfg->token, err, errlen);
}

/* Read frames until the goodbye frame, acknowledging each. */
static int drain(const struct sink_cfg *cfg, struct chan *ch, char *buf,
		 size_t buflen, struct sink_stats *st, char *err, size_t errlen)
{
	double deadline = cfg->max_time > 0 ? hb_now() + cfg->max_time : 0;
	uint64_t n, left;
	size_t got;
	int rc;

	for (;;) {
		rc = wire_recv_count(ch, &n, err, errlen);
		if (rc)
			return rc;
		if (n == 0)
			return 0;
		for (left = n; left; left -= got) {
			size_t want = left < buflen ? (size_t)left : buflen;

			rc = chan_read_some(ch, buf, want, &got, err, errlen);
			if (rc)
				return rc;
			st->bytes += got;
			if (deadline > 0 && hb_now() > deadline)
				return hb_errorf(
					err, errlen, HB_EFAIL,
					"connection time limit of %.0f s "
					"reached",
					cfg->max_time);
		}
		rc = wire_send_count(ch, n, 0, err, errlen);
		if (rc)
			return rc;
	}
}

/* Handshake mode: wait for the client to hang up; any ending is fine. */
static void await_close(struct chan *ch, char *buf, size_t buflen)
{
	size_t got;

	while (chan_read_some(ch, buf, buflen, &got, NULL, 0) == 0)
		;
}

int sink_open(const struct sink_cfg *cfg, int fd, const struct sink_gate *gate,
	      struct sink_conn *c, char *err, size_t errlen)
{
	struct sink_stats *st = &c->st;
	int rc, one = 1;

	memset(c, 0, sizeof(*c));
	c->ch.fd = fd;
	/* Replies and acks are small and awaited: never hold them back. */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	rc = wire_recv_preface(fd, &st->mode, err, errlen);
	if (rc)
		return rc;
	if (st->mode == WIRE_TCP)
		return greet(cfg, gate, &c->ch, st->mode, err, errlen);
	if (!cfg->tls)
		return hb_errorf(err, errlen, HB_ENOTSUP,
				 "TLS asked of a plain receiver");
	c->ch.ssl = tls_wrap(cfg->tls, cfg->bio, fd);
	if (!c->ch.ssl)
		return hb_errorf(err, errlen, HB_ENOMEM, "SSL_new failed");
	errno = 0;
	rc = SSL_accept(c->ch.ssl);
	if (rc <= 0)
		return tls_fail(c->ch.ssl, rc, "TLS handshake", err, errlen);
	rc = tls_check_session(c->ch.ssl, err, errlen);
	if (rc)
		return rc;
	snprintf(st->cipher, sizeof(st->cipher), "%s",
		 SSL_get_cipher_name(c->ch.ssl));
	snprintf(st->version, sizeof(st->version), "%s",
		 SSL_get_version(c->ch.ssl));
	return greet(cfg, gate, &c->ch, st->mode, err, errlen);
}

int sink_finish(const struct sink_cfg *cfg, struct sink_conn *c, char *buf,
		size_t buflen, char *err, size_t errlen)
{
	if (c->st.mode == WIRE_HANDSHAKE) {
		await_close(&c->ch, buf, buflen);
		return 0;
	}
	return drain(cfg, &c->ch, buf, buflen, &c->st, err, errlen);
}

void sink_close(struct sink_conn *c)
{
	if (!c->ch.ssl)
		return;
	/* No close_notify, as s_time: the session stays resumable. */
	SSL_set_shutdown(c->ch.ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
	SSL_free(c->ch.ssl);
	c->ch.ssl = NULL;
}

int sink_serve(const struct sink_cfg *cfg, int fd, char *buf, size_t buflen,
	       struct sink_stats *st, char *err, size_t errlen)
{
	struct sink_conn c;
	int rc = sink_open(cfg, fd, NULL, &c, err, errlen);

	if (rc == 0)
		rc = sink_finish(cfg, &c, buf, buflen, err, errlen);
	sink_close(&c);
	*st = c.st;
	return rc;
}
