/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transfer-holder: a client that authenticates like the plugin (peer.c)
 * and then holds its connection open, writing one byte every 0.3 s, until
 * the receiver closes it or LIMIT seconds pass. It prints `connected` once
 * the receiver took its proof, then the seconds the connection lasted; exit 0
 * when the receiver closed it, 1 when it was still open at LIMIT, 2 on a
 * failure to connect. For the tests of the receiver's limits, which need a
 * client past the token check.
 *
 * Usage: transfer-holder tcp|tls|handshake HOST:PORT TOKEN LIMIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <hostbench/plugin.h>

#include "peer.h"
#include "protocol/tls.h"

/* The connection of mode to addr with token into ch; 0 or an error. */
static int open_session(enum wire_mode mode, const char *addr,
			const char *token, struct peer_cfg *pc, struct chan *ch)
{
	struct tls_client_opts to = { .version = TLS1_3_VERSION,
				      .cipher = "TLS_AES_256_GCM_SHA384",
				      .key = TLS_KEY_RSA2048 };
	char err[512];
	int rc = 0;

	*pc = (struct peer_cfg){ .addr = addr,
				 .token = token,
				 .mode = mode,
				 .net = { .io_timeout = 10, .nodelay = 1 } };
	if (mode != WIRE_TCP) {
		pc->bio = tls_bio_method();
		rc = pc->bio ? tls_client_ctx(&to, &pc->tls, err, sizeof(err))
			     : HB_ENOMEM;
	}
	if (rc == 0)
		rc = peer_open(pc, ch, err, sizeof(err));
	if (rc)
		fprintf(stderr, "transfer-holder: %s\n", err);
	return rc;
}

int main(int argc, char **argv)
{
	static const char *const modes[] = { "", "tcp", "tls", "handshake" };
	enum wire_mode mode = WIRE_TCP;
	struct peer_cfg pc;
	struct chan ch;
	double t0, limit;
	int closed = 0;

	if (argc != 5)
		return fputs("usage: transfer-holder tcp|tls|handshake "
			     "HOST:PORT TOKEN LIMIT\n",
			     stderr),
		       2;
	for (int m = WIRE_TCP; m <= WIRE_HANDSHAKE; m++)
		if (strcmp(argv[1], modes[m]) == 0)
			mode = (enum wire_mode)m;
	limit = atof(argv[4]);
	if (open_session(mode, argv[2], argv[3], &pc, &ch))
		return 2;
	puts("connected");
	fflush(stdout);
	t0 = hb_now();
	while (!closed && hb_now() - t0 < limit) {
		struct timespec nap = { 0, 300 * 1000 * 1000 };

		/* stream modes: the header of a frame that never ends */
		closed = chan_write(&ch, "\1", 1, 0, NULL, 0) != 0;
		nanosleep(&nap, NULL);
	}
	printf("%.2f\n", hb_now() - t0);
	peer_close(&ch);
	SSL_CTX_free(pc.tls);
	BIO_meth_free(pc.bio);
	return closed ? 0 : 1;
}
