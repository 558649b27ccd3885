/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The guard (store_pg.h): libpq 15 answers any AuthenticationRequest a
 * server sends, the password in clear text to a server that asks for it
 * so, even after it began SCRAM; and reads ahead, so looking at its
 * socket (MSG_PEEK) before it does cannot tell what it will answer. So
 * the guard swaps libpq's socket, under the same descriptor number
 * (dup3), for one end of a socket pair, and passes the server's bytes to
 * the other end one message at a time, each request read before it is
 * passed, none read ahead: a request the store does not allow is never
 * passed, and libpq, which never sees it, never answers it. Once the
 * server has accepted the client, or TLS or GSS encryption is agreed
 * (the guard cannot read on), and every byte passed is read, the
 * server's socket goes back under libpq's number and the guard is out
 * of the way for the rest of the session.
 *
 * The protocol (PostgreSQL's "Message Flow"): before its startup message
 * a client may send SSLRequest or GSSENCRequest (8 bytes, no type),
 * answered with one byte: 'S' or 'G' (encryption follows), 'N' (go on in
 * clear), or the 'E' of an error. Then the server sends typed messages
 * (a type byte, a 4-byte length counting itself), 'R' an authentication
 * request whose first 4 bytes are its code, until 'R' with code 0.
 */
#define _GNU_SOURCE /* dup3 */
#include "store/store_pg.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"

/* The untyped requests a client may send before its startup message. */
#define SSL_REQUEST    80877103
#define GSSENC_REQUEST 80877104

/* libpq's own bound on an authentication request (fe-connect.c). */
#define MAX_AUTH_LENGTH 2000

/* What the guard reads next from the server. */
enum down_state {
	DOWN_ANSWER, /* the one byte that answers SSL/GSSENCRequest */
	DOWN_CLIENT, /* nothing until the client's next request says */
	DOWN_HEADER, /* a message's type and length */
	DOWN_CODE,   /* an authentication request's code */
	DOWN_BODY,   /* the rest of a message, passed as it comes */
	DOWN_DONE,   /* nothing: the socket goes back to libpq */
};

/* Bytes on their way from one socket to the other. */
struct pipe_buf {
	unsigned char data[1024];
	size_t len, off;
};

struct store_pg_guard {
	unsigned allowed; /* enum store_pg_method */
	int asked;	  /* the server asked for a method (allowed) */
	int app;	  /* libpq's descriptor number while taken, else -1 */
	ino_t pair_ino;	  /* the socket-pair end libpq has under it */
	ino_t released;	  /* the last server socket handed back */
	int mine;	  /* the guard's end of the pair */
	int server;	  /* the server's socket */
	enum down_state down, after_body;
	unsigned char hdr[9]; /* type, length, code */
	size_t hdr_have, body_left;
	int server_eof;
	struct pipe_buf to_app, to_server;
	/* the client's untyped requests, until its startup message */
	int started;
	unsigned char req[8];
	size_t req_have, req_left;
};

/* The inode of fd's socket, 0 when fd is not open. */
static ino_t inode_of(int fd)
{
	struct stat sb;

	return fd >= 0 && fstat(fd, &sb) == 0 ? sb.st_ino : 0;
}

/* Big-endian 32 bits at p. */
static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* Bytes waiting to be read on fd. */
static int unread(int fd)
{
	int n = 0;

	return ioctl(fd, FIONREAD, &n) == 0 ? n : 1;
}

int store_pg_guard_new(struct store_pg_guard **g, unsigned allowed)
{
	*g = calloc(1, sizeof(**g));
	if (!*g)
		return -ENOMEM;
	(*g)->allowed = allowed;
	(*g)->app = (*g)->mine = (*g)->server = -1;
	return 0;
}

/* Close the guard's own descriptors and forget the socket it held. */
static void drop(struct store_pg_guard *g)
{
	if (g->mine >= 0)
		close(g->mine);
	if (g->server >= 0)
		close(g->server);
	g->mine = g->server = g->app = -1;
}

void store_pg_guard_free(struct store_pg_guard *g)
{
	if (!g)
		return;
	drop(g);
	free(g);
}

/* A socket of the guard's own failed (rc): say so. */
static int broken(int rc, char *err, size_t errlen)
{
	return hb_errorf(err, errlen, rc, "guarding the connection: %s",
			 strerror(-rc));
}

/*
 * A fresh relay of libpq's socket fd, in state down: libpq's socket under
 * fd becomes one end of a socket pair, the server's kept by the guard.
 */
static int swap_in(struct store_pg_guard *g, int fd, enum down_state down,
		   char *err, size_t errlen)
{
	int pair[2], rc;

	g->server = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (g->server < 0)
		return broken(-errno, err, errlen);
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0,
		       pair) < 0) {
		rc = -errno;
		goto fail_socketpair;
	}
	if (dup3(pair[0], fd, O_CLOEXEC) < 0) {
		rc = -errno;
		goto fail_dup;
	}
	close(pair[0]);
	*g = (struct store_pg_guard){ .allowed = g->allowed,
				      .released = g->released,
				      .server = g->server,
				      .mine = pair[1],
				      .app = fd,
				      .pair_ino = inode_of(fd),
				      .down = down,
				      .started = down != DOWN_ANSWER };
	return 0;
fail_dup:
	close(pair[0]);
	close(pair[1]);
fail_socketpair:
	close(g->server);
	g->server = -1;
	return broken(rc, err, errlen);
}

int store_pg_guard_take(struct store_pg_guard *g, PGconn *db, char *err,
			size_t errlen)
{
	ConnStatusType s = PQstatus(db);
	int fd = PQsocket(db);
	ino_t ino = inode_of(fd);

	if (g->app >= 0 && (g->app != fd || ino != g->pair_ino))
		drop(g); /* libpq closed the socket it had through us */
	if (g->app >= 0 || fd < 0 || ino == g->released || PQsslInUse(db))
		return 0;
	if (s == CONNECTION_SSL_STARTUP || s == CONNECTION_GSS_STARTUP)
		return swap_in(g, fd, DOWN_ANSWER, err, errlen);
	if (s == CONNECTION_AWAITING_RESPONSE)
		return swap_in(g, fd, DOWN_HEADER, err, errlen);
	return 0;
}

/* Nonzero while the guard reads from the server. */
static int reading(const struct store_pg_guard *g)
{
	return g->down != DOWN_CLIENT && g->down != DOWN_DONE &&
	       !g->server_eof && g->to_app.len == 0;
}

int store_pg_guard_fds(const struct store_pg_guard *g, struct pollfd *fds)
{
	if (g->app < 0)
		return 0;
	fds[0] = (struct pollfd){
		.fd = g->mine,
		.events = (short)((g->to_server.len ? 0 : POLLIN) |
				  (g->to_app.len ? POLLOUT : 0))
	};
	fds[1] = (struct pollfd){ .fd = g->server_eof ? -1 : g->server,
				  .events = (short)((reading(g) ? POLLIN : 0) |
						    (g->to_server.len ? POLLOUT
								      : 0)) };
	return 2;
}

/* Send what b holds to fd, as much as it takes now. */
static int flush_to(int fd, struct pipe_buf *b)
{
	while (b->off < b->len) {
		ssize_t n = send(fd, b->data + b->off, b->len - b->off,
				 MSG_NOSIGNAL);

		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -errno;
		b->off += (size_t)n;
	}
	b->len = b->off = 0;
	return 0;
}

/* Queue n bytes for libpq. */
static void pass(struct store_pg_guard *g, const void *p, size_t n)
{
	memcpy(g->to_app.data + g->to_app.len, p, n);
	g->to_app.len += n;
}

/* What the server asks for by method, as a refusal says it. */
static const char *asked_for(unsigned method)
{
	switch (method) {
	case STORE_PG_PASSWORD:
		return "the password in clear text";
	case STORE_PG_MD5:
		return "the password's MD5 hash";
	case STORE_PG_NONE:
		return "no authentication";
	default:
		return store_pg_auth_name(method);
	}
}

/* The refusal of method, said as what it would give away. */
static int refuse(unsigned method, char *err, size_t errlen)
{
	return hb_errorf(err, errlen, -EACCES,
			 "the server asked for %s, which require_auth does "
			 "not allow (by default the store refuses the "
			 "password in clear text and MD5, what an impostor "
			 "asks for to read or replay the password; see "
			 "docs/history.md)",
			 asked_for(method));
}

/* Judge the request in g->hdr; pass it on, or refuse it. */
static int judge(struct store_pg_guard *g, char *err, size_t errlen)
{
	uint32_t len = be32(g->hdr + 1), code = be32(g->hdr + 5);
	unsigned method = store_pg_auth_method(code);

	if (len < 8 || len > MAX_AUTH_LENGTH)
		return hb_errorf(err, errlen, -EPROTO,
				 "the server sent a malformed authentication "
				 "request (%u bytes)",
				 len);
	if (code == 0 && !g->asked)
		method = STORE_PG_NONE;
	if (method && !(g->allowed & method))
		return refuse(method, err, errlen);
	g->asked |= method != 0;
	pass(g, g->hdr, 9);
	g->body_left = len - 8;
	g->after_body = code == 0 ? DOWN_DONE : DOWN_HEADER;
	g->down = DOWN_BODY;
	return 0;
}

/* The header in g->hdr is whole: on to its code or its body. */
static void header_done(struct store_pg_guard *g)
{
	uint32_t len = be32(g->hdr + 1);

	if (g->hdr[0] == 'R') {
		g->down = DOWN_CODE;
		return;
	}
	pass(g, g->hdr, 5);
	g->body_left = len > 4 ? len - 4 : 0;
	g->after_body = DOWN_HEADER;
	g->down = DOWN_BODY;
}

/* One answer byte c to SSL/GSSENCRequest. */
static void answer(struct store_pg_guard *g, unsigned char c)
{
	if (c == 'S' || c == 'G' || c == 'N') {
		pass(g, &c, 1);
		g->down = c == 'N' ? DOWN_CLIENT : DOWN_DONE;
		return;
	}
	g->hdr[0] = c; /* the type of a message: an error */
	g->hdr_have = 1;
	g->down = DOWN_HEADER;
}

/* How many bytes the server's next read may take, none read ahead. */
static size_t wanted(const struct store_pg_guard *g)
{
	size_t room = sizeof(g->to_app.data);

	switch (g->down) {
	case DOWN_ANSWER:
		return 1;
	case DOWN_HEADER:
		return 5 - g->hdr_have;
	case DOWN_CODE:
		return 9 - g->hdr_have;
	case DOWN_BODY:
		return g->body_left < room ? g->body_left : room;
	default:
		return 0;
	}
}

/* n bytes just read from the server into buf, taken in. */
static int take_in(struct store_pg_guard *g, const unsigned char *buf, size_t n,
		   char *err, size_t errlen)
{
	int rc = 0;

	if (g->down == DOWN_ANSWER) {
		answer(g, buf[0]);
		return 0;
	}
	if (g->down == DOWN_BODY) {
		pass(g, buf, n);
		g->body_left -= n;
	} else {
		memcpy(g->hdr + g->hdr_have, buf, n);
		g->hdr_have += n;
	}
	if (g->down == DOWN_HEADER && g->hdr_have == 5)
		header_done(g);
	else if (g->down == DOWN_CODE && g->hdr_have == 9)
		rc = judge(g, err, errlen);
	if (!rc && g->down == DOWN_BODY && !g->body_left) {
		g->down = g->after_body;
		g->hdr_have = 0;
	}
	return rc;
}

/* The server is gone: libpq reads the end of its socket. */
static void server_gone(struct store_pg_guard *g)
{
	g->server_eof = 1;
	g->to_server.len = g->to_server.off = 0;
	shutdown(g->mine, SHUT_WR);
}

/* Read what the server's next unit allows, none of the next one. */
static int from_server(struct store_pg_guard *g, char *err, size_t errlen)
{
	unsigned char buf[sizeof(g->to_app.data)];
	size_t want = wanted(g);
	ssize_t n;

	if (!want)
		return 0;
	n = recv(g->server, buf, want, 0);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return 0;
	if (n <= 0) {
		server_gone(g);
		return 0;
	}
	return take_in(g, buf, (size_t)n, err, errlen);
}

/*
 * The client's bytes in b (just read), watched until its startup message:
 * after SSL/GSSENCRequest the server answers with one byte.
 */
static void watch_client(struct store_pg_guard *g, const struct pipe_buf *b)
{
	for (size_t i = 0; i < b->len && !g->started; i++) {
		if (g->req_left) {
			g->req_left--;
			continue;
		}
		g->req[g->req_have++] = b->data[i];
		if (g->req_have < 8)
			continue;
		g->req_have = 0;
		g->req_left = be32(g->req) > 8 ? be32(g->req) - 8 : 0;
		if (be32(g->req + 4) != SSL_REQUEST &&
		    be32(g->req + 4) != GSSENC_REQUEST)
			g->started = 1;
		if (g->down == DOWN_CLIENT)
			g->down = g->started ? DOWN_HEADER : DOWN_ANSWER;
	}
}

/* Read libpq's bytes for the server; 1 when libpq closed its end. */
static int from_app(struct store_pg_guard *g)
{
	ssize_t n =
		recv(g->mine, g->to_server.data, sizeof(g->to_server.data), 0);

	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (n == 0)
		return 1;
	g->to_server.len = (size_t)n;
	g->to_server.off = 0;
	watch_client(g, &g->to_server);
	return 0;
}

/*
 * Once the server has accepted the client (or encryption is agreed) and
 * every byte is where it goes, the server's socket goes back under
 * libpq's number.
 */
static int release(struct store_pg_guard *g, char *err, size_t errlen)
{
	if (g->down != DOWN_DONE || g->to_app.len || g->to_server.len ||
	    unread(g->mine) || unread(g->app))
		return 0;
	if (dup3(g->server, g->app, O_CLOEXEC) < 0)
		return hb_errorf(err, errlen, -errno,
				 "handing the connection back: %s",
				 strerror(errno));
	g->released = inode_of(g->app);
	drop(g);
	return 0;
}

int store_pg_guard_pump(struct store_pg_guard *g, const struct pollfd *fds,
			char *err, size_t errlen)
{
	int rc = 0;

	if (g->app < 0)
		return 0;
	if ((fds[0].revents & (POLLIN | POLLHUP)) && !g->to_server.len)
		rc = from_app(g);
	if (rc == 1) {
		drop(g); /* libpq gave this socket up */
		return 0;
	}
	if (rc)
		return broken(rc, err, errlen);
	if ((fds[1].revents & (POLLIN | POLLHUP | POLLERR)) && reading(g))
		rc = from_server(g, err, errlen);
	if (rc)
		return rc; /* a request refused, or malformed */
	rc = flush_to(g->mine, &g->to_app);
	if (rc)
		return broken(rc, err, errlen);
	if (flush_to(g->server, &g->to_server))
		server_gone(g);
	return release(g, err, errlen);
}
