/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench-serve: the receiving end of transfer/tcp, transfer/tls and
 * transfer/tls-handshake on another host. `hostbench serve ARGS` runs it.
 * It answers only clients that prove they know the token, serves up to
 * --max-clients of them at once (each in its own thread, with a fixed
 * receive buffer; serve_conn.c keeps the limits and deadlines), logs to
 * stderr, and never stores or writes what it receives. SIGINT or SIGTERM
 * ends it after a last summary.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "serve.h"
#include "protocol/tls.h"

/* The signal that asks the server to end, or 0. */
static volatile sig_atomic_t stopping;

static void on_stop(int sig)
{
	stopping = sig;
}

/* SIGINT and SIGTERM end the accept loop; SIGPIPE is ignored. */
static void signals(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	/* no SA_RESTART: poll() returns EINTR and the loop sees the flag */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	/*
	 * Sockets never raise SIGPIPE (MSG_NOSIGNAL); this covers stderr, so
	 * a log reader that goes away cannot stop the server.
	 */
	signal(SIGPIPE, SIG_IGN);
}

/* Accept until stopped, closing what outlives its deadline meanwhile. */
static void serve_loop(struct server *srv, int lfd)
{
	while (!stopping) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int ms = (int)(serve_reap(srv) * 1000) + 1, fd;

		if (poll(&p, 1, ms) <= 0)
			continue;
		fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		if (fd >= 0) {
			serve_dispatch(srv, fd);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		/* Out of descriptors or memory: wait, then carry on. */
		serve_log("accept: %s", strerror(errno));
		sleep(1);
	}
}

int main(int argc, char **argv)
{
	struct server srv = {
		.cfg = { .max_time = 600 },
		.net = { .io_timeout = 30 },
		.preauth = 30,
		.max_clients = 16,
		.lock = PTHREAD_MUTEX_INITIALIZER,
		.freed = PTHREAD_COND_INITIALIZER,
	};
	const char *listen_on = NULL;
	char err[256], addr[64];
	int lfd, rc;

	rc = serve_args(argc, argv, &srv, &listen_on);
	if (rc)
		return rc == 1 ? 0 : rc;
	signals();
	srv.cfg.bio = tls_bio_method();
	if (!srv.cfg.bio ||
	    tls_server_ctx(1u << TLS_KEY_RSA2048 | 1u << TLS_KEY_EC_P256,
			   &srv.cfg.tls, err, sizeof(err))) {
		serve_log("TLS setup failed: %s", srv.cfg.bio ? err : "no BIO");
		return 1;
	}
	if (serve_conns_init(&srv) ||
	    net_listen(listen_on, &srv.net, &lfd, err, sizeof(err))) {
		serve_log("%s", srv.conns ? err : "out of memory");
		return 1;
	}
	net_addr_text(lfd, 0, addr, sizeof(addr));
	serve_log("listening on %s (token required, %d authenticated "
		  "clients at once, %d unauthenticated, %d per address, "
		  "%.0f s each, %g s idle and to prove the token)",
		  addr, srv.max_clients, srv.max_pending, srv.max_per_address,
		  srv.cfg.max_time, srv.preauth);
	serve_loop(&srv, lfd);
	pthread_mutex_lock(&srv.lock);
	serve_summary(&srv);
	pthread_mutex_unlock(&srv.lock);
	serve_log("stopped by signal %d", (int)stopping);
	return 0;
}
