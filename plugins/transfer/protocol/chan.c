/* SPDX-License-Identifier: Apache-2.0 */
/* Whole-buffer I/O over a plain or TLS socket. */
#include "chan.h"

#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include <hostbench/plugin.h>

#include "err.h"
#include "net.h"
#include "tls.h"

int chan_write(struct chan *ch, const void *buf, size_t len, int more,
	       char *err, size_t errlen)
{
	size_t n;
	int rc;

	if (!ch->ssl)
		return net_send_all(ch->fd, buf, len, more, err, errlen);
	/* SSL_write_ex without partial writes returns only when all is sent. */
	errno = 0;
	rc = SSL_write_ex(ch->ssl, buf, len, &n);
	if (rc <= 0)
		return tls_fail(ch->ssl, rc, "TLS send", err, errlen);
	return 0;
}

int chan_read_some(struct chan *ch, void *buf, size_t len, size_t *got,
		   char *err, size_t errlen)
{
	ssize_t n;
	int rc;

	if (ch->ssl) {
		errno = 0;
		rc = SSL_read_ex(ch->ssl, buf, len, got);
		if (rc <= 0)
			return tls_fail(ch->ssl, rc, "TLS receive", err,
					errlen);
		return 0;
	}
	do
		n = recv(ch->fd, buf, len, 0);
	while (n < 0 && errno == EINTR);
	if (n == 0)
		return hb_errorf(err, errlen, HB_EIO,
				 "receive: connection closed by peer");
	if (n < 0)
		return hb_errorf(err, errlen, HB_EIO, "receive: %s",
				 errno == EAGAIN ? "timed out"
						 : strerror(errno));
	*got = (size_t)n;
	return 0;
}

int chan_read(struct chan *ch, void *buf, size_t len, char *err, size_t errlen)
{
	char *p = buf;
	size_t done = 0, got;
	int rc;

	if (!ch->ssl)
		return net_recv_all(ch->fd, buf, len, err, errlen);
	while (done < len) {
		rc = chan_read_some(ch, p + done, len - done, &got, err,
				    errlen);
		if (rc)
			return rc;
		done += got;
	}
	return 0;
}
