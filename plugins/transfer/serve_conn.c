/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench-serve's connections: who is admitted, each one's thread, and
 * the deadlines that end them. A connection must prove it knows the token
 * within --idle-timeout in all (a client dribbling a byte at a time gains
 * nothing), may last --max-time in every mode, and unauthenticated ones
 * are capped overall and per address, so slots stay for authenticated
 * streams.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "serve.h"

/* Receive buffer per connection: the memory bound of one client. */
#define CONN_BUF (256 * 1024)

/* One accepted connection, owned by its thread; a slot of the table. */
struct conn {
	struct server *srv;
	int fd;
	int slot;
	unsigned long id;
	char peer[64]; /* "host:port" */
	char addr[64]; /* "host": what --max-pending-per-address counts */
	double start;
	double deadline; /* the proof, then --max-time */
	int authed;
	int expired; /* the server ended it at its deadline */
};

static const char *const mode_names[] = { "(no preface)", "tcp", "tls",
					  "handshake" };

void serve_log(const char *fmt, ...)
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

int serve_conns_init(struct server *srv)
{
	/* a table of pointers, one per slot */
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	srv->conns = calloc((size_t)srv->max_clients, sizeof(*srv->conns));
	srv->next_summary = hb_now() + SERVE_SUMMARY_EVERY;
	return srv->conns ? 0 : -1;
}

/* The address of "host:port" or "[v6]:port", without the port. */
static void addr_of(const char *peer, char *out, size_t len)
{
	const char *colon = strrchr(peer, ':');
	size_t n = colon ? (size_t)(colon - peer) : strlen(peer);

	snprintf(out, len, "%.*s", (int)n, peer);
}

/* Unauthenticated connections from addr (under the lock). */
static int pending_from(const struct server *srv, const char *addr)
{
	int n = 0;

	for (int i = 0; i < srv->max_clients; i++)
		n += srv->conns[i] && !srv->conns[i]->authed &&
		     strcmp(srv->conns[i]->addr, addr) == 0;
	return n;
}

/*
 * Take a slot for cn, unauthenticated (under the lock). Returns NULL, or
 * why not into why.
 */
static const char *admit(struct server *srv, struct conn *cn, char *why,
			 size_t len)
{
	int slot = 0;

	if (srv->active >= srv->max_clients)
		snprintf(why, len, "too many clients (--max-clients %d)",
			 srv->max_clients);
	else if (srv->pending >= srv->max_pending)
		snprintf(why, len,
			 "too many unauthenticated clients (--max-pending %d)",
			 srv->max_pending);
	else if (pending_from(srv, cn->addr) >= srv->max_per_address)
		snprintf(why, len,
			 "too many unauthenticated clients from %s "
			 "(--max-pending-per-address %d)",
			 cn->addr, srv->max_per_address);
	else
		why = NULL;
	if (why)
		return why;
	while (srv->conns[slot])
		slot++;
	srv->conns[slot] = cn;
	cn->slot = slot;
	cn->id = ++srv->next_id;
	cn->start = hb_now();
	cn->deadline = cn->start + srv->preauth;
	srv->active++;
	srv->pending++;
	return NULL;
}

/* Give back cn's slot (under the lock). */
static void release(struct server *srv, struct conn *cn)
{
	srv->conns[cn->slot] = NULL;
	srv->active--;
	srv->pending -= !cn->authed;
}

/* cn proved the token: it now runs until --max-time. */
static void authenticated(struct server *srv, struct conn *cn)
{
	pthread_mutex_lock(&srv->lock);
	cn->authed = 1;
	srv->pending--;
	cn->deadline = cn->start + srv->cfg.max_time;
	pthread_mutex_unlock(&srv->lock);
}

/* Count a handshake of addr for the next summary (under the lock). */
static void count_handshake(struct server *srv, const char *addr)
{
	for (int i = 0; i < SERVE_SOURCES; i++) {
		struct serve_source *s = &srv->sources[i];

		if (s->handshakes && strcmp(s->addr, addr) != 0)
			continue;
		snprintf(s->addr, sizeof(s->addr), "%s", addr);
		s->handshakes++;
		return;
	}
	srv->other_handshakes++;
}

void serve_summary(struct server *srv)
{
	for (int i = 0; i < SERVE_SOURCES && srv->sources[i].handshakes; i++) {
		serve_log("%lu handshakes from %s (in %.0f s or less)",
			  srv->sources[i].handshakes, srv->sources[i].addr,
			  SERVE_SUMMARY_EVERY);
		srv->sources[i].handshakes = 0;
	}
	if (srv->other_handshakes)
		serve_log("%lu handshakes from other addresses",
			  srv->other_handshakes);
	srv->other_handshakes = 0;
}

/* The line that says how a connection ended. */
static void log_end(struct server *srv, const struct conn *cn,
		    const struct sink_stats *st, int rc, const char *err,
		    int expired)
{
	double secs = hb_now() - cn->start;
	char why[160] = "";

	if (expired && cn->authed)
		snprintf(why, sizeof(why),
			 "connection time limit of %.0f s reached (--max-time)",
			 srv->cfg.max_time);
	else if (expired)
		snprintf(why, sizeof(why),
			 "no proof of the token within %g s (--idle-timeout)",
			 srv->preauth);
	if (rc || expired)
		serve_log("client %lu %s: %s: %s", cn->id, cn->peer,
			  mode_names[st->mode], expired ? why : err);
	else if (st->mode != WIRE_HANDSHAKE)
		serve_log("client %lu %s: %s%s%s: %llu bytes in %.2f s "
			  "(%.3f Gbit/s)",
			  cn->id, cn->peer, mode_names[st->mode],
			  st->cipher[0] ? " " : "", st->cipher,
			  (unsigned long long)st->bytes, secs,
			  secs > 0 ? (double)st->bytes * 8 / secs / 1e9 : 0.0);
}

/* Serve one connection, log how it ended and give its slot back. */
static void *conn_main(void *arg)
{
	struct conn *cn = arg;
	struct server *srv = cn->srv;
	struct sink_conn c;
	char err[256] = "", *buf = malloc(CONN_BUF);
	int rc = HB_ENOMEM, expired;

	memset(&c, 0, sizeof(c));
	if (buf)
		rc = net_apply(cn->fd, &srv->net, err, sizeof(err));
	if (rc == 0)
		rc = sink_open(&srv->cfg, cn->fd, &c, err, sizeof(err));
	if (rc == 0) {
		authenticated(srv, cn);
		rc = sink_finish(&srv->cfg, &c, buf, CONN_BUF, err,
				 sizeof(err));
	}
	sink_close(&c);
	if (rc && !err[0])
		snprintf(err, sizeof(err), "out of memory");
	pthread_mutex_lock(&srv->lock);
	expired = cn->expired;
	if (!rc && c.st.mode == WIRE_HANDSHAKE)
		count_handshake(srv, cn->addr);
	release(srv, cn);
	pthread_mutex_unlock(&srv->lock);
	log_end(srv, cn, &c.st, rc, err, expired);
	free(buf);
	close(cn->fd);
	free(cn);
	return NULL;
}

/* Start cn's thread, detached. Returns 0 or an errno value. */
static int start(struct conn *cn)
{
	pthread_attr_t at;
	pthread_t t;
	int rc;

	pthread_attr_init(&at);
	pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
	rc = pthread_create(&t, &at, conn_main, cn);
	pthread_attr_destroy(&at);
	return rc;
}

void serve_dispatch(struct server *srv, int fd)
{
	struct conn *cn = calloc(1, sizeof(*cn));
	char buf[160];
	const char *why;

	if (!cn) {
		serve_log("refused a client: out of memory");
		close(fd);
		return;
	}
	cn->srv = srv;
	cn->fd = fd;
	net_addr_text(fd, 1, cn->peer, sizeof(cn->peer));
	addr_of(cn->peer, cn->addr, sizeof(cn->addr));
	pthread_mutex_lock(&srv->lock);
	why = admit(srv, cn, buf, sizeof(buf));
	pthread_mutex_unlock(&srv->lock);
	if (!why && start(cn) == 0)
		return;
	if (!why) {
		why = "cannot start a thread";
		pthread_mutex_lock(&srv->lock);
		release(srv, cn);
		pthread_mutex_unlock(&srv->lock);
	}
	serve_log("refused %s: %s", cn->peer, why);
	close(fd);
	free(cn);
}

double serve_reap(struct server *srv)
{
	double now = hb_now(), next;

	pthread_mutex_lock(&srv->lock);
	if (now >= srv->next_summary) {
		serve_summary(srv);
		srv->next_summary = now + SERVE_SUMMARY_EVERY;
	}
	/* a deadline may move earlier meanwhile (a proof moves it to
	 * --max-time): look again soon whatever the table says now */
	next = now + SERVE_REAP_EVERY < srv->next_summary
		       ? now + SERVE_REAP_EVERY
		       : srv->next_summary;
	for (int i = 0; i < srv->max_clients; i++) {
		struct conn *cn = srv->conns[i];

		if (!cn || cn->expired)
			continue;
		if (now < cn->deadline) {
			next = cn->deadline < next ? cn->deadline : next;
			continue;
		}
		/* wakes the connection's thread wherever it waits */
		cn->expired = 1;
		shutdown(cn->fd, SHUT_RDWR);
	}
	pthread_mutex_unlock(&srv->lock);
	return next > now ? next - now : 0;
}
