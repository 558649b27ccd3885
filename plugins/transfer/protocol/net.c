/* SPDX-License-Identifier: Apache-2.0 */
/* Socket helpers: addresses, connect with a deadline, listeners, whole I/O. */
#include "net.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "err.h"

int net_split_hostport(const char *text, char *host, size_t hostlen, char *port,
		       size_t portlen, char *err, size_t errlen)
{
	const char *colon, *h = text;
	size_t hl;

	if (text[0] == '[') {
		const char *close = strchr(text, ']');

		if (!close || close[1] != ':')
			goto bad;
		h = text + 1;
		hl = (size_t)(close - h);
		colon = close + 1;
	} else {
		colon = strrchr(text, ':');
		if (!colon)
			goto bad;
		hl = (size_t)(colon - text);
	}
	if (hl == 0 || hl >= hostlen || colon[1] == '\0' ||
	    strlen(colon + 1) >= portlen)
		goto bad;
	memcpy(host, h, hl);
	host[hl] = '\0';
	strcpy(port, colon + 1);
	return 0;
bad:
	return hb_errorf(err, errlen, HB_EINVAL,
			 "\"%s\" is not HOST:PORT (try 192.0.2.7:5201)", text);
}

int net_check_hostport(const char *text, int listening, char *err,
		       size_t errlen)
{
	char host[256], port[32];
	int rc = net_split_hostport(text, host, sizeof(host), port,
				    sizeof(port), err, errlen);
	unsigned long n;

	if (rc)
		return rc;
	/* digits only: getaddrinfo would take "70000" as 4464 */
	n = strspn(port, "0123456789") == strlen(port) && strlen(port) <= 5
		    ? strtoul(port, NULL, 10)
		    : 65536;
	if (n <= 65535 && (n > 0 || listening))
		return 0;
	return hb_errorf(err, errlen, HB_EINVAL,
			 "\"%s\": the port must be a number from %d to 65535",
			 text, listening ? 0 : 1);
}

/* Resolve host:port into a list the caller frees with freeaddrinfo. */
static int resolve(const char *hostport, int passive, struct addrinfo **out,
		   char *err, size_t errlen)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = passive ? AI_PASSIVE : 0 };
	char host[256], port[32];
	int rc = net_check_hostport(hostport, passive, err, errlen);

	if (rc == 0)
		rc = net_split_hostport(hostport, host, sizeof(host), port,
					sizeof(port), err, errlen);
	if (rc)
		return rc;
	rc = getaddrinfo(host, port, &hints, out);
	if (rc)
		return hb_errorf(err, errlen, HB_EIO, "resolve %s: %s",
				 hostport, gai_strerror(rc));
	return 0;
}

/* Seconds as a timeval for SO_RCVTIMEO/SO_SNDTIMEO. */
static struct timeval to_timeval(double s)
{
	struct timeval tv = { .tv_sec = (time_t)s };

	tv.tv_usec = (suseconds_t)((s - (double)tv.tv_sec) * 1e6);
	return tv;
}

int net_apply(int fd, const struct net_opts *o, char *err, size_t errlen)
{
	struct timeval tv = to_timeval(o->io_timeout);
	int one = 1;

	if (o->sndbuf &&
	    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &o->sndbuf, sizeof(int)))
		return hb_errorf(err, errlen, HB_EIO,
				 "setsockopt SO_SNDBUF: %s", strerror(errno));
	if (o->rcvbuf &&
	    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &o->rcvbuf, sizeof(int)))
		return hb_errorf(err, errlen, HB_EIO,
				 "setsockopt SO_RCVBUF: %s", strerror(errno));
	if (o->nodelay &&
	    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one)))
		return hb_errorf(err, errlen, HB_EIO,
				 "setsockopt TCP_NODELAY: %s", strerror(errno));
	if (o->io_timeout > 0 &&
	    (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	     setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv))))
		return hb_errorf(err, errlen, HB_EIO,
				 "setsockopt SO_RCVTIMEO: %s", strerror(errno));
	return 0;
}

/* Connect fd to a within timeout seconds; 0 or an errno value. */
static int connect_deadline(int fd, const struct addrinfo *a, double timeout)
{
	int flags = fcntl(fd, F_GETFL), soerr = 0;
	socklen_t len = sizeof(soerr);
	struct pollfd p = { .fd = fd, .events = POLLOUT };
	int ms = timeout > 0 ? (int)(timeout * 1000) : -1;
	int rc;

	/* Non-blocking only for the connect, so it can be bounded in time. */
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK))
		return errno;
	if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
		goto done;
	if (errno != EINPROGRESS)
		return errno;
	do
		rc = poll(&p, 1, ms);
	while (rc < 0 && errno == EINTR);
	if (rc == 0)
		return ETIMEDOUT;
	if (rc < 0)
		return errno;
	if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &len))
		return errno;
	if (soerr)
		return soerr;
done:
	if (fcntl(fd, F_SETFL, flags))
		return errno;
	return 0;
}

int net_connect(const char *hostport, const struct net_opts *o, int *fd,
		char *err, size_t errlen)
{
	struct addrinfo *list, *a;
	int rc, e = 0, s = -1;

	rc = resolve(hostport, 0, &list, err, errlen);
	if (rc)
		return rc;
	for (a = list; a; a = a->ai_next) {
		s = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
			   a->ai_protocol);
		if (s < 0) {
			e = errno;
			continue;
		}
		/* Buffer sizes must be set before connect to take effect. */
		rc = net_apply(s, o, err, errlen);
		if (rc == 0) {
			e = connect_deadline(s, a, o->io_timeout);
			if (e == 0)
				break;
		}
		close(s);
		s = -1;
		if (rc)
			break;
	}
	freeaddrinfo(list);
	if (s < 0 && rc)
		return rc;
	if (s < 0)
		return hb_errorf(err, errlen, HB_EIO, "connect to %s: %s",
				 hostport,
				 e == ETIMEDOUT ? "timed out (unreachable?)"
						: strerror(e));
	*fd = s;
	return 0;
}

int net_listen(const char *hostport, const struct net_opts *o, int *fd,
	       char *err, size_t errlen)
{
	struct addrinfo *list;
	int rc, s, one = 1;

	rc = resolve(hostport, 1, &list, err, errlen);
	if (rc)
		return rc;
	s = socket(list->ai_family, list->ai_socktype | SOCK_CLOEXEC,
		   list->ai_protocol);
	if (s < 0) {
		rc = hb_errorf(err, errlen, HB_EIO, "socket: %s",
			       strerror(errno));
		goto out_free;
	}
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) ||
	    (o->rcvbuf &&
	     setsockopt(s, SOL_SOCKET, SO_RCVBUF, &o->rcvbuf, sizeof(int)))) {
		rc = hb_errorf(err, errlen, HB_EIO,
			       "setsockopt on listener: %s", strerror(errno));
		goto out_close;
	}
	/* the kernel's most (net.core.somaxconn): a fleet's all-to-all
	   connects every rank to every receiver at once */
	if (bind(s, list->ai_addr, list->ai_addrlen) || listen(s, SOMAXCONN)) {
		rc = hb_errorf(err, errlen, HB_EIO, "listen on %s: %s",
			       hostport, strerror(errno));
		goto out_close;
	}
	*fd = s;
	freeaddrinfo(list);
	return 0;
out_close:
	close(s);
out_free:
	freeaddrinfo(list);
	return rc;
}

void net_addr_text(int fd, int peer, char *buf, size_t len)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl = sizeof(ss);
	char host[128] = "?", port[16] = "?";
	int rc = peer ? getpeername(fd, (struct sockaddr *)&ss, &sl)
		      : getsockname(fd, (struct sockaddr *)&ss, &sl);

	if (rc == 0)
		getnameinfo((struct sockaddr *)&ss, sl, host, sizeof(host),
			    port, sizeof(port),
			    NI_NUMERICHOST | NI_NUMERICSERV);
	snprintf(buf, len, ss.ss_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host,
		 port);
}

/* The reason a send or receive failed, in words a user understands. */
static const char *io_reason(int e)
{
	if (e == EAGAIN || e == EWOULDBLOCK)
		return "timed out";
	if (e == EPIPE || e == ECONNRESET)
		return "connection closed by peer";
	return strerror(e);
}

int net_send_all(int fd, const void *buf, size_t len, int more, char *err,
		 size_t errlen)
{
	const char *p = buf;
	int flags = MSG_NOSIGNAL | (more ? MSG_MORE : 0);

	while (len) {
		ssize_t n = send(fd, p, len, flags);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return hb_errorf(err, errlen, HB_EIO, "send: %s",
					 io_reason(errno));
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int net_recv_all(int fd, void *buf, size_t len, char *err, size_t errlen)
{
	char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = recv(fd, p + got, len - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return hb_errorf(err, errlen, HB_EIO, "receive: %s",
					 io_reason(errno));
		if (n == 0)
			return hb_errorf(
				err, errlen, HB_EIO,
				"connection closed by peer after %zu of "
				"%zu bytes",
				got, len);
		got += (size_t)n;
	}
	return 0;
}

void net_put_u64(unsigned char *p, uint64_t v)
{
	for (int i = 7; i >= 0; i--, v >>= 8)
		p[i] = (unsigned char)(v & 0xff);
}

uint64_t net_get_u64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 0; i < 8; i++)
		v = v << 8 | p[i];
	return v;
}
