/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The loopback receiver: a listener on 127.0.0.1 and a thread that serves
 * each connection with sink_serve() until stopped. A worker with no peer
 * starts one in setup and stops it in teardown, so the figure is what a
 * real receiver got, on the same host.
 */
#ifndef HB_TRANSFER_LOCAL_H
#define HB_TRANSFER_LOCAL_H

#include <pthread.h>

#include "protocol/net.h"
#include "protocol/sink.h"

/* One running receiver; fields are its own. */
struct local {
	int lfd; /* listening socket */
	pthread_t thread;
	struct sink_cfg cfg; /* token points at token[] */
	struct net_opts net; /* applied to accepted sockets */
	char token[33];	     /* random, hex */
	char addr[64];	     /* "127.0.0.1:PORT" to connect to */
	char *buf;	     /* receive buffer */
	size_t buflen;
	volatile int stopping;
};

/*
 * Listen on a free loopback port and start serving. tls (may be NULL) and
 * bio stay owned by the caller and must outlive local_stop(). Returns 0, or
 * a negative code with err filled (nothing is left running).
 */
int local_start(struct local *l, SSL_CTX *tls, BIO_METHOD *bio,
		const struct net_opts *net, size_t buflen, char *err,
		size_t errlen);

/* Stop accepting, wait for the thread and free everything. */
void local_stop(struct local *l);

#endif
