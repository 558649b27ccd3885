/* SPDX-License-Identifier: Apache-2.0 */
/* The loopback receiver thread. */
#include "local.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <openssl/rand.h>

#include <hostbench/plugin.h>

#include "protocol/err.h"

/* Accept and serve connections one after another until stopped. */
static void *serve_loop(void *arg)
{
	struct local *l = arg;
	struct sink_stats st;
	char err[256];

	while (!l->stopping) {
		int fd = accept4(l->lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			break; /* shut down by local_stop, or broken */
		}
		/* The sender reports any failure; the receiver just ends. */
		if (net_apply(fd, &l->net, err, sizeof(err)) == 0)
			sink_serve(&l->cfg, fd, l->buf, l->buflen, &st, err,
				   sizeof(err));
		close(fd);
	}
	return NULL;
}

/* A random token as hex, so nothing else on the host can use the port. */
static int make_token(char *out, size_t len)
{
	unsigned char raw[16];

	if (len < 2 * sizeof(raw) + 1 || RAND_bytes(raw, sizeof(raw)) != 1)
		return -1;
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(out + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

int local_start(struct local *l, SSL_CTX *tls, BIO_METHOD *bio,
		const struct net_opts *net, size_t buflen, char *err,
		size_t errlen)
{
	int rc;

	memset(l, 0, sizeof(*l));
	l->net = *net;
	l->buflen = buflen;
	if (make_token(l->token, sizeof(l->token)))
		return hb_errorf(err, errlen, HB_ECRYPTO, "RAND_bytes failed");
	l->cfg = (struct sink_cfg){ .tls = tls, .bio = bio, .token = l->token };
	l->buf = malloc(buflen);
	if (!l->buf)
		return hb_errorf(err, errlen, HB_ENOMEM,
				 "receive buffer of %zu bytes", buflen);
	rc = net_listen("127.0.0.1:0", net, &l->lfd, err, errlen);
	if (rc)
		goto out_buf;
	net_addr_text(l->lfd, 0, l->addr, sizeof(l->addr));
	rc = pthread_create(&l->thread, NULL, serve_loop, l);
	if (rc) {
		rc = hb_errorf(err, errlen, HB_EFAIL,
			       "start receiver thread: %s", strerror(rc));
		goto out_listen;
	}
	return 0;
out_listen:
	close(l->lfd);
out_buf:
	free(l->buf);
	return rc;
}

void local_stop(struct local *l)
{
	l->stopping = 1;
	/* Wakes accept() with EINVAL on Linux. */
	shutdown(l->lfd, SHUT_RDWR);
	pthread_join(l->thread, NULL);
	close(l->lfd);
	free(l->buf);
}
