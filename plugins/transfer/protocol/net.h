/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Socket helpers for the transfer plugin and hostbench-serve: address
 * parsing, connect with a deadline, listeners, and whole-buffer send and
 * receive that never raise SIGPIPE. Every function that can fail returns 0
 * or a negative HB_E* code with a one-line message in err.
 */
#ifndef HB_TRANSFER_NET_H
#define HB_TRANSFER_NET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/* Socket tuning applied to a connection; 0 leaves the kernel default. */
struct net_opts {
	int sndbuf;	   /* SO_SNDBUF bytes */
	int rcvbuf;	   /* SO_RCVBUF bytes */
	int nodelay;	   /* TCP_NODELAY */
	double io_timeout; /* seconds for connect, each send and each receive */
};

/*
 * Split "host:port" or "[v6addr]:port" into host and port texts. Returns 0,
 * or HB_EINVAL when the text has no port or the host is empty.
 */
int net_split_hostport(const char *text, char *host, size_t hostlen, char *port,
		       size_t portlen, char *err, size_t errlen);

/*
 * Check "host:port" (net_split_hostport) and its port: decimal, 1 to
 * 65535, or 0 too when listening (any free port). Returns 0, or HB_EINVAL
 * naming the text and the allowed range.
 */
int net_check_hostport(const char *text, int listening, char *err,
		       size_t errlen);

/*
 * Connect a TCP socket to "host:port" within o->io_timeout seconds and
 * apply o. Returns 0 with *fd set, or HB_EIO naming the peer and the
 * reason (refused, unreachable, timed out).
 */
int net_connect(const char *hostport, const struct net_opts *o, int *fd,
		char *err, size_t errlen);

/*
 * A listening TCP socket on "host:port" (port 0 picks a free one) with
 * SO_REUSEADDR; o->rcvbuf, if set, is inherited by accepted sockets.
 * Returns 0 with *fd set, or HB_EIO.
 */
int net_listen(const char *hostport, const struct net_opts *o, int *fd,
	       char *err, size_t errlen);

/* The "host:port" a socket is bound to (peer = 0) or connected to (peer = 1).
 */
void net_addr_text(int fd, int peer, char *buf, size_t len);

/* Apply buffer sizes, TCP_NODELAY and send/receive timeouts to fd. */
int net_apply(int fd, const struct net_opts *o, char *err, size_t errlen);

/*
 * Send all len bytes (MSG_NOSIGNAL; more = MSG_MORE). Returns 0, or
 * HB_EIO with what happened: a closed peer, a reset or a timeout.
 */
int net_send_all(int fd, const void *buf, size_t len, int more, char *err,
		 size_t errlen);

/*
 * Receive exactly len bytes. Returns 0; HB_EIO when the peer closed first
 * (the message says after how many bytes), on a reset or on a timeout.
 */
int net_recv_all(int fd, void *buf, size_t len, char *err, size_t errlen);

/* Store and load big-endian integers for the wire format. */
void net_put_u64(unsigned char *p, uint64_t v);
uint64_t net_get_u64(const unsigned char *p);

#endif
