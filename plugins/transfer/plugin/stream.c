/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transfer/tcp and transfer/tls: each worker holds one connection to every
 * peer (a loopback receiver thread by default). run() deals its
 * iterations round-robin over the peers, sends each peer one frame of its
 * share of size-byte sends, interleaved, and returns when every receiver
 * acknowledged all of its share, so the figure is bytes received.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/errqueue.h>

#include "protocol/err.h"
#include "ends.h"
#include "pairs.h"
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
	struct chan *ch; /* ends.npc of them: ch[i] to ends.pc[i] */
	char *buf;
	size_t size;
	size_t next; /* the peer the next run() starts with */
	/* several receivers: how each pair goes, shared by the workers */
	struct pairs *pairs;
	size_t *open;	     /* the receivers this run() sends to */
	const char **addr;   /* ends.pc[k].addr, for the result */
	uint64_t *run_share; /* sends of this run() to open[j] */
	int zerocopy;
	int zc_copied; /* the kernel reported it copied anyway */
};

/* Reap MSG_ZEROCOPY completions so they never pile up in the socket. */
static void reap_zerocopy(struct stream *s, const struct chan *ch)
{
	char control[128];
	struct msghdr msg = { .msg_control = control,
			      .msg_controllen = sizeof(control) };
	struct cmsghdr *cm;

	while (recvmsg(ch->fd, &msg, MSG_ERRQUEUE | MSG_DONTWAIT) >= 0) {
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
static int await_completions(struct stream *s, const struct chan *ch)
{
	struct pollfd p = { .fd = ch->fd, .events = 0 };
	double t = s->ends.pc[0].net.io_timeout;

	/* POLLERR is always reported: it means the error queue has entries. */
	if (poll(&p, 1, t > 0 ? (int)(t * 1000) : -1) <= 0)
		return -1;
	reap_zerocopy(s, ch);
	return 0;
}

/*
 * One MSG_ZEROCOPY send of the whole buffer. The kernel may still read the
 * pages after send() returns; that is safe because the payload never
 * changes after setup.
 */
static int send_zerocopy(struct stream *s, const struct chan *ch, char *err,
			 size_t errlen)
{
	const char *p = s->buf;
	size_t left = s->size;

	while (left) {
		ssize_t n = send(ch->fd, p, left, MSG_ZEROCOPY | MSG_NOSIGNAL);

		if (n < 0 && errno == ENOBUFS) {
			/* Too many completions pending: collect them. */
			if (await_completions(s, ch))
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
	reap_zerocopy(s, ch);
	return 0;
}

/*
 * Deal iterations round-robin over the n open receivers, counted from
 * s->next: run_share[j] sends to open[j].
 */
static void deal(struct stream *s, size_t n, uint64_t iterations)
{
	for (size_t j = 0; j < n; j++) {
		size_t pos = (j + n - s->next % n) % n;

		s->run_share[j] = iterations / n + (pos < iterations % n);
	}
}

/*
 * The receivers this run() sends to, into s->open: every one that is
 * connected and no worker gave up. Returns how many.
 */
static size_t open_peers(struct stream *s)
{
	size_t n = 0;

	for (size_t k = 0; k < s->ends.npc; k++) {
		if (s->ch[k].fd >= 0 && s->pairs && pairs_failed(s->pairs, k))
			peer_close(&s->ch[k]); /* another worker's loss */
		if (s->ch[k].fd >= 0)
			s->open[n++] = k;
	}
	return n;
}

/* Put peer k's address before the message in err; returns rc. */
static int at_peer(const struct stream *s, size_t k, int rc, char *err,
		   size_t errlen)
{
	char what[300];

	snprintf(what, sizeof(what), "%s", err);
	hb_error_fill(err, errlen, "%s: %s", s->ends.pc[k].addr, what);
	return rc;
}

/* One send of the payload to peer k. */
static int send_one(struct stream *s, size_t k, char *err, size_t errlen)
{
	int rc = s->zerocopy ? send_zerocopy(s, &s->ch[k], err, errlen)
			     : chan_write(&s->ch[k], s->buf, s->size, 0, err,
					  errlen);

	return rc ? at_peer(s, k, rc, err, errlen) : 0;
}

/* Announce a frame of bytes to peer k. */
static int send_header(struct stream *s, size_t k, uint64_t bytes, char *err,
		       size_t errlen)
{
	int rc = wire_send_count(&s->ch[k], bytes, 1, err, errlen);

	return rc ? at_peer(s, k, rc, err, errlen) : 0;
}

/* Read peer k's acknowledgement of want bytes. */
static int recv_ack(struct stream *s, size_t k, uint64_t want, char *err,
		    size_t errlen)
{
	uint64_t ack;
	int rc = wire_recv_count(&s->ch[k], &ack, err, errlen);

	if (rc == 0 && ack != want)
		rc = hb_errorf(err, errlen, HB_EVERIFY,
			       "receiver acknowledged %llu of %llu bytes",
			       (unsigned long long)ack,
			       (unsigned long long)want);
	return rc ? at_peer(s, k, rc, err, errlen) : 0;
}

/*
 * Receiver open[j] failed with rc (err says how): with several receivers
 * only its pair fails (it takes no more sends, err is kept for the
 * result) and 0 is returned; with one, rc.
 */
static int lose(struct stream *s, size_t j, int rc, const char *err)
{
	if (!rc || !s->pairs)
		return rc;
	pairs_fail(s->pairs, s->open[j], err);
	peer_close(&s->ch[s->open[j]]);
	return 0;
}

/* Announce each open receiver its frame; a 0 frame would end a session. */
static int send_headers(struct stream *s, size_t n, char *err, size_t errlen)
{
	int rc = 0;

	for (size_t j = 0; rc == 0 && j < n; j++)
		if (s->run_share[j])
			rc = lose(s, j,
				  send_header(s, s->open[j],
					      s->run_share[j] * s->size, err,
					      errlen),
				  err);
	return rc;
}

/* The sends, interleaved over the receivers still open. */
static int send_all(struct stream *s, size_t n, uint64_t iterations, char *err,
		    size_t errlen)
{
	int rc = 0;

	for (uint64_t i = 0; rc == 0 && i < iterations; i++) {
		size_t j = (size_t)((s->next + i) % n);

		if (s->ch[s->open[j]].fd >= 0)
			rc = lose(s, j, send_one(s, s->open[j], err, errlen),
				  err);
	}
	return rc;
}

/* Read every acknowledgement; what the receivers took in into done. */
static int recv_acks(struct stream *s, size_t n, struct hb_done *done,
		     char *err, size_t errlen)
{
	int rc = 0;

	for (size_t j = 0; rc == 0 && j < n; j++) {
		size_t k = s->open[j];
		uint64_t bytes = s->run_share[j] * s->size;

		if (!s->run_share[j] || s->ch[k].fd < 0)
			continue;
		rc = recv_ack(s, k, bytes, err, errlen);
		if (rc == 0) {
			done->bytes += bytes;
			done->ops += s->run_share[j];
			if (s->pairs)
				pairs_add(s->pairs, k, bytes);
		}
		rc = lose(s, j, rc, err);
	}
	return rc;
}

static int stream_run(void *state, uint64_t iterations, struct hb_done *done,
		      char *err, size_t errlen)
{
	struct stream *s = state;
	size_t n = open_peers(s);
	struct hb_done got = { 0 };
	int rc;

	if (n == 0) /* setup connected to one receiver at least */
		return hb_errorf(err, errlen, HB_EIO,
				 "every receiver failed (see the pairs)");
	deal(s, n, iterations);
	rc = send_headers(s, n, err, errlen);
	if (rc == 0)
		rc = send_all(s, n, iterations, err, errlen);
	if (rc == 0)
		rc = recv_acks(s, n, &got, err, errlen);
	if (rc == 0 && got.ops == 0)
		rc = HB_EIO; /* every receiver failed: err says the last */
	if (rc)
		return rc;
	err[0] = '\0';
	s->next = (size_t)((s->next + iterations) % n);
	done->bytes += got.bytes;
	done->ops += got.ops;
	return 0;
}

/* Say goodbye to every open connection and close it. */
static void close_all(struct stream *s)
{
	const struct hb_host *h = s->c->host;

	for (size_t k = 0; s->ch && k < s->ends.npc; k++) {
		if (s->ch[k].fd < 0)
			continue;
		/* Goodbye frame: the receiver ends its session cleanly. */
		wire_send_count(&s->ch[k], 0, 0, NULL, 0);
		if (s->zerocopy)
			reap_zerocopy(s, &s->ch[k]);
		peer_close(&s->ch[k]);
	}
	if (s->zc_copied)
		h->note(s->c, "zerocopy",
			"requested; the kernel copied "
			"(loopback or unsupported device)");
}

static void stream_teardown(void *state)
{
	struct stream *s = state;

	close_all(s);
	pairs_leave(s->pairs, s->c, s->addr);
	ends_free(&s->ends);
	free(s->open);
	free(s->run_share);
	free(s->addr);
	free(s->ch);
	free(s->buf);
	free(s);
}

static const struct transfer_ops stream_ops = {
	.run = stream_run,
	.teardown = stream_teardown,
};

/* Turn on MSG_ZEROCOPY on ch, or say why this host cannot. */
static int enable_zerocopy(struct stream *s, const struct chan *ch, char *err,
			   size_t errlen)
{
	int one = 1;

	if (setsockopt(ch->fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		return hb_errorf(
			err, errlen, HB_SKIP,
			"zerocopy: the kernel refuses SO_ZEROCOPY (%s)",
			strerror(errno));
	s->c->host->note(s->c, "zerocopy", "MSG_ZEROCOPY");
	return 0;
}

/* Record what the connections really are: peers, TLS version and suite. */
static void note_session(struct stream *s)
{
	const struct hb_host *h = s->c->host;

	size_t k = 0;

	h->note(s->c, "peer", s->ends.where);
	while (k + 1 < s->ends.npc && !s->ch[k].ssl)
		k++; /* the first receiver reached */
	if (!s->ch[k].ssl)
		return;
	h->note(s->c, "tls_version", SSL_get_version(s->ch[k].ssl));
	h->note(s->c, "cipher", SSL_get_cipher_name(s->ch[k].ssl));
}

/*
 * The per-pair bookkeeping of a case with several receivers (s->pairs,
 * shared by the case's workers); none with one.
 */
static int track_pairs(struct stream *s, char *err, size_t errlen)
{
	size_t n = s->ends.npc;

	s->ch = calloc(n, sizeof(*s->ch));
	s->open = calloc(n, sizeof(*s->open));
	s->run_share = calloc(n, sizeof(*s->run_share));
	s->addr = calloc(n, sizeof(*s->addr));
	if (!s->ch || !s->open || !s->run_share || !s->addr)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	for (size_t k = 0; k < n; k++) {
		s->ch[k].fd = -1;
		s->addr[k] = s->ends.pc[k].addr;
	}
	if (n > 1 && !(s->pairs = pairs_join(s->c, n)))
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	return 0;
}

/*
 * Connect to every peer of s->ends, in order. With several receivers one
 * that cannot be reached fails only its pair; the case fails when none
 * can.
 */
static int open_all(struct stream *s, char *err, size_t errlen)
{
	size_t reached = 0;
	int rc = track_pairs(s, err, errlen);

	for (size_t k = 0; rc == 0 && k < s->ends.npc; k++) {
		rc = peer_open(&s->ends.pc[k], &s->ch[k], err, errlen);
		if (rc == 0 && s->zerocopy)
			rc = enable_zerocopy(s, &s->ch[k], err, errlen);
		if (rc && rc != HB_SKIP && s->pairs) {
			pairs_fail(s->pairs, k, err);
			peer_close(&s->ch[k]);
			rc = 0;
		}
		reached += rc == 0 && s->ch[k].fd >= 0;
	}
	if (rc == 0 && !reached)
		rc = HB_EIO; /* err says why the last one failed */
	return rc;
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
		rc = open_all(s, err, errlen);
	if (rc)
		goto out_free;
	note_session(s);
	*state = s;
	return 0;
out_free:
	s->zerocopy = 0;
	stream_teardown(s);
	return rc;
}
