/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transfer/tcp and transfer/tls: one connection per worker to the peer (a
 * loopback receiver thread by default). run() sends a frame of
 * iterations x size bytes and returns when the receiver acknowledged all of
 * them, so the figure is bytes received.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/errqueue.h>

#include "err.h"
#include "ends.h"
#include "transfer.h"

#ifndef SO_ZEROCOPY
#define SO_ZEROCOPY 60
#endif
#ifndef MSG_ZEROCOPY
#define MSG_ZEROCOPY 0x4000000
#endif

struct stream {
	struct transfer_state base;
	const struct hb_case *c;
	struct ends ends;
	struct chan ch;
	char *buf;
	size_t size;
	int zerocopy;
	int zc_copied; /* the kernel reported it copied anyway */
};

/* Reap MSG_ZEROCOPY completions so they never pile up in the socket. */
static void reap_zerocopy(struct stream *s)
{
	char control[128];
	struct msghdr msg = { .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *cm;

	while (recvmsg(s->ch.fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
		for (cm = CMSG_FIRSTHDR(&msg); cm; cm = CMSG_NXTHDR(&msg, cm)) {
			struct sock_extended_err *ee = (void *)CMSG_DATA(cm);

			if (ee->ee_origin == SO_EE_ORIGIN_ZEROCOPY &&
			    (ee->ee_code & SO_EE_CODE_ZEROCOPY_COPIED))
				s->zc_copied = 1;
		}
		msg.msg_controllen = sizeof(control);
	}
}

/*
 * Wait for completions when the socket has too many pending: ENOBUFS.
 * Returns 0, or -1 when none came within the I/O timeout.
 */
static int await_completions(struct stream *s)
{
	struct pollfd p = { .fd = s->ch.fd, .events = 0 };
	double t = s->ends.pc.net.io_timeout;

	/* POLLERR is always reported: it means the error queue has entries. */
	if (poll(&p, 1, t > 0 ? (int)(t * 1000) : -1) <= 0)
		return -1;
	reap_zerocopy(s);
	return 0;
}

/*
 * One MSG_ZEROCOPY send of the whole buffer. The kernel may still read the
 * pages after send() returns; that is safe because the payload never
 * changes after setup.
 */
static int send_zerocopy(struct stream *s, char *err, size_t errlen)
{
	const char *p = s->buf;
	size_t left = s->size;

	while (left) {
		ssize_t n =
			send(s->ch.fd, p, left, MSG_ZEROCOPY | MSG_NOSIGNAL);

		if (n < 0 && errno == ENOBUFS) {
			/* Too many completions pending: collect them. */
			if (await_completions(s))
				return hb_errorf(
					err, errlen, HB_EIO,
					"send: MSG_ZEROCOPY completions "
					"stopped coming");
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return hb_errorf(err, errlen, HB_EIO, "send: %s",
					 errno == EPIPE || errno == ECONNRESET
						 ? "connection closed by peer"
						 : strerror(errno));
		p += n;
		left -= (size_t)n;
	}
	reap_zerocopy(s);
	return 0;
}

static int stream_run(void *state, uint64_t iterations, struct hb_done *done,
		      char *err, size_t errlen)
{
	struct stream *s = state;
	uint64_t total = iterations * s->size, ack;
	int rc;

	rc = wire_send_count(&s->ch, total, 1, err, errlen);
	for (uint64_t i = 0; rc == 0 && i < iterations; i++)
		rc = s->zerocopy ? send_zerocopy(s, err, errlen)
				 : chan_write(&s->ch, s->buf, s->size, 0, err,
					      errlen);
	if (rc == 0)
		rc = wire_recv_count(&s->ch, &ack, err, errlen);
	if (rc == 0 && ack != total)
		rc = hb_errorf(err, errlen, HB_EVERIFY,
			       "receiver acknowledged %llu of %llu bytes",
			       (unsigned long long)ack,
			       (unsigned long long)total);
	if (rc)
		return rc;
	done->bytes += total;
	done->ops += iterations;
	return 0;
}

static void stream_teardown(void *state)
{
	struct stream *s = state;
	const struct hb_host *h = s->c->host;

	if (s->ch.fd >= 0) {
		/* Goodbye frame: the receiver ends its session cleanly. */
		wire_send_count(&s->ch, 0, 0, NULL, 0);
		if (s->zerocopy) {
			reap_zerocopy(s);
			if (s->zc_copied)
				h->note(s->c, "zerocopy",
					"requested; the kernel copied "
					"(loopback or unsupported device)");
		}
		peer_close(&s->ch);
	}
	ends_free(&s->ends);
	free(s->buf);
	free(s);
}

static const struct transfer_ops stream_ops = {
	.run = stream_run,
	.teardown = stream_teardown,
};

/* Turn on MSG_ZEROCOPY, or say why this host cannot. */
static int enable_zerocopy(struct stream *s, char *err, size_t errlen)
{
	int one = 1;

	if (setsockopt(s->ch.fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		return hb_errorf(
			err, errlen, HB_SKIP,
			"zerocopy: the kernel refuses SO_ZEROCOPY (%s)",
			strerror(errno));
	s->c->host->note(s->c, "zerocopy", "MSG_ZEROCOPY");
	return 0;
}

/* Record what the connection really is: peer, TLS version and suite. */
static void note_session(struct stream *s, const char *addr)
{
	const struct hb_host *h = s->c->host;

	h->note(s->c, "peer", addr);
	if (!s->ch.ssl)
		return;
	h->note(s->c, "tls_version", SSL_get_version(s->ch.ssl));
	h->note(s->c, "cipher", SSL_get_cipher_name(s->ch.ssl));
}

int stream_setup(const struct hb_case *c, int tls, void **state, char *err,
		 size_t errlen)
{
	struct stream *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	s->base.ops = &stream_ops;
	s->c = c;
	s->ch.fd = -1;
	s->size = c->host->get_size(c, "size");
	s->zerocopy = !tls && c->host->get_bool(c, "zerocopy");
	/* Touch the payload now so page faults stay out of the samples. */
	s->buf = malloc(s->size);
	if (!s->buf) {
		rc = hb_errorf(err, errlen, HB_ENOMEM,
			       "send buffer of %zu bytes", s->size);
		goto out_free;
	}
	memset(s->buf, 0xa5, s->size);
	rc = ends_prepare(c, tls ? WIRE_TLS : WIRE_TCP, &s->ends, err, errlen);
	if (rc == 0)
		rc = peer_open(&s->ends.pc, &s->ch, err, errlen);
	if (rc == 0 && s->zerocopy)
		rc = enable_zerocopy(s, err, errlen);
	if (rc)
		goto out_free;
	note_session(s, s->ends.pc.addr);
	*state = s;
	return 0;
out_free:
	s->zerocopy = 0;
	stream_teardown(s);
	return rc;
}
