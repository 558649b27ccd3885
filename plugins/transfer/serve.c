/*
 * hostbench-serve: the receiving end of transfer/tcp, transfer/tls and
 * transfer/tls-handshake on another host. `hostbench serve ARGS` runs it.
 * It answers only clients that present the token, serves up to
 * --max-clients connections at once (each in its own thread, with a fixed
 * receive buffer, an idle timeout and a time limit), logs to stderr, and
 * never stores or writes what it receives.
 */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "net.h"
#include "sink.h"
#include "tls.h"

/* Receive buffer per connection: the memory bound of one client. */
#define CONN_BUF (256 * 1024)

/* The server's settings and its count of live connections. */
struct server {
	struct sink_cfg cfg;
	struct net_opts net; /* idle timeout for every connection */
	int max_clients;
	int active;
	unsigned long next_id;
	pthread_mutex_t lock;
};

/* One accepted connection, owned by its thread. */
struct conn {
	struct server *srv;
	int fd;
	unsigned long id;
	char peer[64];
};

static const char *const mode_names[] = { "(no preface)", "tcp", "tls",
					  "handshake" };

/* One line on stderr with a UTC time stamp. */
static void logf_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_(const char *fmt, ...)
{
	char stamp[32], line[512];
	time_t t = time(NULL);
	struct tm tm;
	va_list ap;

	strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", gmtime_r(&t, &tm));
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s hostbench-serve: %s\n", stamp, line);
}

/* Serve one connection and log how it went. */
static void *conn_main(void *arg)
{
	struct conn *cn = arg;
	struct server *srv = cn->srv;
	struct sink_stats st = { 0 };
	char err[256] = "", *buf = malloc(CONN_BUF);
	double t0 = hb_now(), secs;
	int rc = HB_ENOMEM;

	if (buf && net_apply(cn->fd, &srv->net, err, sizeof(err)) == 0)
		rc = sink_serve(&srv->cfg, cn->fd, buf, CONN_BUF, &st, err,
				sizeof(err));
	secs = hb_now() - t0;
	if (rc && !err[0])
		snprintf(err, sizeof(err), "out of memory");
	/* Handshakes come by the thousand: only failures are worth a line. */
	if (rc)
		logf_("client %lu %s: %s: %s", cn->id, cn->peer,
		      mode_names[st.mode], err);
	else if (st.mode != WIRE_HANDSHAKE)
		logf_("client %lu %s: %s%s%s: %llu bytes in %.2f s "
		      "(%.3f Gbit/s)",
		      cn->id, cn->peer, mode_names[st.mode],
		      st.cipher[0] ? " " : "", st.cipher,
		      (unsigned long long)st.bytes, secs,
		      secs > 0 ? (double)st.bytes * 8 / secs / 1e9 : 0.0);
	free(buf);
	close(cn->fd);
	pthread_mutex_lock(&srv->lock);
	srv->active--;
	pthread_mutex_unlock(&srv->lock);
	free(cn);
	return NULL;
}

/* Hand fd to a new detached thread, or refuse it when the server is full. */
static void dispatch(struct server *srv, int fd)
{
	struct conn *cn = calloc(1, sizeof(*cn));
	pthread_attr_t at;
	pthread_t t;
	int full;

	if (!cn) {
		logf_("refused a client: out of memory");
		close(fd);
		return;
	}
	net_addr_text(fd, 1, cn->peer, sizeof(cn->peer));
	pthread_mutex_lock(&srv->lock);
	full = srv->active >= srv->max_clients;
	if (!full)
		srv->active++;
	pthread_mutex_unlock(&srv->lock);
	if (full) {
		logf_("refused %s: too many clients (--max-clients %d)",
		      cn->peer, srv->max_clients);
		goto out_close;
	}
	cn->srv = srv;
	cn->fd = fd;
	cn->id = ++srv->next_id;
	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	if (pthread_create(&t, &at, conn_main, cn) == 0) {
		pthread_attr_destroy(&at);
		return;
	}
	pthread_attr_destroy(&at);
	logf_("refused %s: cannot start a thread", cn->peer);
	pthread_mutex_lock(&srv->lock);
	srv->active--;
	pthread_mutex_unlock(&srv->lock);
out_close:
	close(fd);
	free(cn);
}

static void usage(FILE *f)
{
	fputs("usage: hostbench serve --listen ADDR:PORT --token TOKEN "
	      "[options]\n"
	      "  --listen ADDR:PORT   where to listen (port 0: any free "
	      "port, logged)\n"
	      "  --token TOKEN        clients must present it (or set "
	      "HOSTBENCH_TOKEN)\n"
	      "  --max-clients N      connections served at once "
	      "(default 16)\n"
	      "  --max-time SECONDS   longest a connection may last "
	      "(default 600)\n"
	      "  --idle-timeout SECONDS  longest wait for a client's next "
	      "bytes (default 30)\n",
	      f);
}

/* A positive number from an option, or -1. */
static double positive(const char *text)
{
	char *end;
	double v = strtod(text, &end);

	return *end || v <= 0 ? -1 : v;
}

/* Read the command line into srv and *listen; 0, or 2 after a message. */
static int parse_args(int argc, char **argv, struct server *srv,
		      const char **listen_on)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "token", required_argument, NULL, 't' },
		{ "max-clients", required_argument, NULL, 'c' },
		{ "max-time", required_argument, NULL, 'm' },
		{ "idle-timeout", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt;
	double v;

	while ((opt = getopt_long(argc, argv, "l:t:h", longopts, NULL)) != -1) {
		v = optarg ? positive(optarg) : 0;
		if (opt == 'l')
			*listen_on = optarg;
		else if (opt == 't')
			srv->cfg.token = optarg;
		else if (opt == 'h')
			return usage(stdout), 1;
		else if (opt != '?' && v < 0)
			return fprintf(stderr,
				       "hostbench serve: %s: not a positive "
				       "number\n",
				       optarg),
			       2;
		else if (opt == 'c')
			srv->max_clients = (int)v;
		else if (opt == 'm')
			srv->cfg.max_time = v;
		else if (opt == 'i')
			srv->net.io_timeout = v;
		else
			return usage(stderr), 2;
	}
	if (!srv->cfg.token)
		srv->cfg.token = getenv("HOSTBENCH_TOKEN");
	if (optind < argc || !*listen_on || !srv->cfg.token ||
	    !srv->cfg.token[0]) {
		fputs("hostbench serve: --listen and a non-empty --token are "
		      "required\n",
		      stderr);
		usage(stderr);
		return 2;
	}
	if (strlen(srv->cfg.token) > WIRE_TOKEN_MAX) {
		fprintf(stderr,
			"hostbench serve: the token is longer than %d "
			"bytes\n",
			WIRE_TOKEN_MAX);
		return 2;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct server srv = {
		.cfg = { .max_time = 600 },
		.net = { .io_timeout = 30 },
		.max_clients = 16,
		.lock = PTHREAD_MUTEX_INITIALIZER,
	};
	const char *listen_on = NULL;
	char err[256], addr[64];
	int lfd, rc;

	rc = parse_args(argc, argv, &srv, &listen_on);
	if (rc)
		return rc == 1 ? 0 : rc;
	/*
	 * Sockets never raise SIGPIPE (MSG_NOSIGNAL); this covers stderr, so
	 * a log reader that goes away cannot stop the server.
	 */
	signal(SIGPIPE, SIG_IGN);
	srv.cfg.bio = tls_bio_method();
	if (!srv.cfg.bio ||
	    tls_server_ctx(1u << TLS_KEY_RSA2048 | 1u << TLS_KEY_EC_P256,
			   &srv.cfg.tls, err, sizeof(err))) {
		logf_("TLS setup failed: %s", srv.cfg.bio ? err : "no BIO");
		return 1;
	}
	if (net_listen(listen_on, &srv.net, &lfd, err, sizeof(err))) {
		logf_("%s", err);
		return 1;
	}
	net_addr_text(lfd, 0, addr, sizeof(addr));
	logf_("listening on %s (token required, %d clients at once, %.0f s "
	      "each, %.0f s idle)",
	      addr, srv.max_clients, srv.cfg.max_time, srv.net.io_timeout);
	for (;;) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);

		if (fd >= 0) {
			dispatch(&srv, fd);
			continue;
		}
		if (errno == EINTR || errno == ECONNABORTED)
			continue;
		/* Out of descriptors or memory: wait, then carry on. */
		logf_("accept: %s", strerror(errno));
		sleep(1);
	}
}
