/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench-serve's connections: who is admitted, each one's thread, and
 * the deadlines that end them. A connection must prove it knows the token
 * within --idle-timeout in all (a client dribbling a byte at a time gains
 * nothing), may last --max-time in every mode. Connections that have not
 * proved the token have a budget of their own, where a newcomer replaces
 * the oldest of the address that holds the most, silent ones first: silent
 * sockets, from however many addresses, cannot keep out a client that
 * proves the token promptly, nor take the room of authenticated streams.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "serve.h"

/* Seconds a new connection waits for a closing one's slot. */
#define SERVE_SLOT_WAIT 2

/* Receive buffer per connection: the memory bound of one client. */
#define CONN_BUF (256 * 1024)

/* One accepted connection, owned by its thread; a slot of the table. */
struct conn {
	struct server *srv;
	int fd;
	int slot;
	unsigned long id;
	char peer[64]; /* "host:port" */
	char addr[64]; /* "host", IPv6 "prefix/64": what the limits count */
	double start;
	double deadline; /* the proof, then --max-time */
	int authed;
	int expired;	   /* the server ended it at its deadline */
	char dropped[160]; /* why it made room for a newer one, or "" */
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
	/* room for both budgets, and for as many dropped ones still ending */
	srv->nslots = srv->max_clients + 2 * srv->max_pending;
	/* tables of pointers, one per slot */
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	srv->conns = calloc((size_t)srv->nslots, sizeof(*srv->conns));
	/* NOLINTNEXTLINE(bugprone-sizeof-expression) */
	srv->scratch = calloc((size_t)srv->nslots, sizeof(*srv->scratch));
	srv->next_summary = hb_now() + SERVE_SUMMARY_EVERY;
	return srv->conns && srv->scratch ? 0 : -1;
}

/*
 * The address fd is connected from, as the limits count it: IPv4 (and
 * IPv4-mapped IPv6) whole, IPv6 by its /64 prefix, which one host or
 * network usually holds all of.
 */
static void addr_of(int fd, char *out, size_t len)
{
	struct sockaddr_storage ss = { 0 };
	struct sockaddr_in6 *s6 = (struct sockaddr_in6 *)&ss;
	socklen_t sl = sizeof(ss);
	char text[INET6_ADDRSTRLEN] = "?";

	if (getpeername(fd, (struct sockaddr *)&ss, &sl) == 0 &&
	    ss.ss_family == AF_INET)
		inet_ntop(AF_INET, &((struct sockaddr_in *)&ss)->sin_addr, text,
			  sizeof(text));
	else if (ss.ss_family == AF_INET6 &&
		 IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
		inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], text,
			  sizeof(text));
	else if (ss.ss_family == AF_INET6) {
		memset(&s6->sin6_addr.s6_addr[8], 0, 8);
		inet_ntop(AF_INET6, &s6->sin6_addr, text, sizeof(text));
		snprintf(out, len, "%s/64", text);
		return;
	}
	snprintf(out, len, "%s", text);
}

/* Nonzero when cn is in the unauthenticated budget (under the lock). */
static int waiting(const struct conn *cn)
{
	return cn && !cn->authed && !cn->dropped[0];
}

/*
 * The oldest waiting connection from addr, or NULL; its address's count of
 * them into *n (under the lock).
 */
static struct conn *oldest_from(const struct server *srv, const char *addr,
				int *n)
{
	struct conn *old = NULL;

	*n = 0;
	for (int i = 0; i < srv->nslots; i++) {
		struct conn *cn = srv->conns[i];

		if (!waiting(cn) || strcmp(cn->addr, addr) != 0)
			continue;
		++*n;
		if (!old || cn->id < old->id)
			old = cn;
	}
	return old;
}

/* Order of waiting connections: by address, then oldest first. */
static int by_addr_then_age(const void *a, const void *b)
{
	const struct conn *x = *(struct conn *const *)a;
	const struct conn *y = *(struct conn *const *)b;
	int c = strcmp(x->addr, y->addr);

	return c ? c : (x->id > y->id) - (x->id < y->id);
}

/* Nonzero when a byte ever came from cn's peer (the kernel's count). */
static int spoke(const struct conn *cn)
{
	struct tcp_info ti = { 0 };
	socklen_t len = sizeof(ti);

	return getsockopt(cn->fd, IPPROTO_TCP, TCP_INFO, &ti, &len) == 0 &&
	       len >= offsetof(struct tcp_info, tcpi_bytes_received) +
			       sizeof(ti.tcpi_bytes_received) &&
	       ti.tcpi_bytes_received > 0;
}

/*
 * The oldest waiting connection of the address holding the most of them;
 * of equal addresses, the one whose oldest is oldest. Silent connections
 * (no byte sent yet) go first: a client that is proving the token is
 * dropped only when every waiting one has spoken (under the lock).
 */
static struct conn *oldest_of_busiest(struct server *srv)
{
	struct conn *best = NULL;
	int n = 0, best_n = 0, nsilent = 0;

	for (int i = 0; i < srv->nslots; i++)
		if (waiting(srv->conns[i])) {
			struct conn *cn = srv->conns[i];

			/* the silent ones to the front */
			if (!spoke(cn)) {
				srv->scratch[n++] = srv->scratch[nsilent];
				srv->scratch[nsilent++] = cn;
			} else
				srv->scratch[n++] = cn;
		}
	n = nsilent ? nsilent : n;
	/* an array of pointers, sorted as pointers */
	// NOLINTNEXTLINE(bugprone-sizeof-expression)
	qsort(srv->scratch, (size_t)n, sizeof(*srv->scratch), by_addr_then_age);
	for (int i = 0, run; i < n; i += run) {
		struct conn *first = srv->scratch[i];

		for (run = 1; i + run < n && strcmp(srv->scratch[i + run]->addr,
						    first->addr) == 0;
		     run++)
			;
		if (run > best_n || (run == best_n && first->id < best->id)) {
			best = first;
			best_n = run;
		}
	}
	return best;
}

/* End victim to make room for a newer connection (under the lock). */
static void drop(struct server *srv, struct conn *victim, const char *why)
{
	snprintf(victim->dropped, sizeof(victim->dropped), "%s", why);
	srv->pending--;
	/* wakes the connection's thread wherever it waits */
	shutdown(victim->fd, SHUT_RDWR);
}

/* Make room in the unauthenticated budget for cn (under the lock). */
static void make_room(struct server *srv, const struct conn *cn)
{
	char why[160];
	int n;
	struct conn *old = oldest_from(srv, cn->addr, &n);

	if (n >= srv->max_per_address) {
		snprintf(why, sizeof(why),
			 "dropped for a newer unauthenticated client from %s "
			 "(--max-pending-per-address %d)",
			 cn->addr, srv->max_per_address);
		drop(srv, old, why);
	} else if (srv->pending >= srv->max_pending) {
		snprintf(why, sizeof(why),
			 "dropped for a newer unauthenticated client "
			 "(--max-pending %d)",
			 srv->max_pending);
		drop(srv, oldest_of_busiest(srv), why);
	}
}

/*
 * A free slot, waiting up to SERVE_SLOT_WAIT seconds for a connection that
 * is closing to give its slot back (a flood of dropped sockets outpaces
 * their threads' ends); nslots if none came free (under the lock).
 */
static int free_slot(struct server *srv)
{
	struct timespec until;
	int slot;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += SERVE_SLOT_WAIT;
	for (;;) {
		for (slot = 0; slot < srv->nslots && srv->conns[slot]; slot++)
			;
		if (slot < srv->nslots ||
		    pthread_cond_timedwait(&srv->freed, &srv->lock, &until))
			return slot;
	}
}

/*
 * Take a slot for cn, unauthenticated, dropping an older one if the
 * budget is full (under the lock). Returns NULL, or why not: every slot
 * is still held by a connection that is ending.
 */
static const char *admit(struct server *srv, struct conn *cn)
{
	int slot = free_slot(srv);

	if (slot == srv->nslots)
		return "too many connections still closing";
	make_room(srv, cn);
	srv->conns[slot] = cn;
	cn->slot = slot;
	cn->id = ++srv->next_id;
	cn->start = hb_now();
	cn->deadline = cn->start + srv->preauth;
	srv->pending++;
	return NULL;
}

/* Give back cn's slot (under the lock). */
static void release(struct server *srv, struct conn *cn)
{
	srv->conns[cn->slot] = NULL;
	pthread_cond_signal(&srv->freed);
	srv->authed -= cn->authed;
	srv->pending -= waiting(cn);
}

/*
 * The sink_gate of a connection that proved the token: it moves to the
 * authenticated budget and runs until --max-time, unless that budget is
 * full or it was dropped meanwhile.
 */
static int authenticated(void *arg, char *why, size_t len)
{
	struct conn *cn = arg;
	struct server *srv = cn->srv;
	int rc = -1;

	pthread_mutex_lock(&srv->lock);
	if (cn->dropped[0] || cn->expired)
		snprintf(why, len, "%s",
			 cn->dropped[0] ? cn->dropped : "timed out");
	else if (srv->authed >= srv->max_clients)
		snprintf(why, len, "too many clients (--max-clients %d)",
			 srv->max_clients);
	else {
		cn->authed = 1;
		srv->authed++;
		srv->pending--;
		cn->deadline = cn->start + srv->cfg.max_time;
		rc = 0;
	}
	pthread_mutex_unlock(&srv->lock);
	return rc;
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
	if (cn->dropped[0])
		serve_log("client %lu %s: %s: %s", cn->id, cn->peer,
			  mode_names[st->mode], cn->dropped);
	else if (rc || expired)
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
	struct sink_gate gate = { .admit = authenticated, .arg = cn };
	struct sink_conn c;
	char err[256] = "", *buf = NULL;
	int rc, expired;

	memset(&c, 0, sizeof(c));
	rc = net_apply(cn->fd, &srv->net, err, sizeof(err));
	if (rc == 0)
		rc = sink_open(&srv->cfg, cn->fd, &gate, &c, err, sizeof(err));
	/* only an authenticated client costs the receive buffer */
	if (rc == 0) {
		buf = malloc(CONN_BUF);
		rc = buf ? sink_finish(&srv->cfg, &c, buf, CONN_BUF, err,
				       sizeof(err))
			 : HB_ENOMEM;
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
	const char *why;

	if (!cn) {
		serve_log("refused a client: out of memory");
		close(fd);
		return;
	}
	cn->srv = srv;
	cn->fd = fd;
	net_addr_text(fd, 1, cn->peer, sizeof(cn->peer));
	addr_of(fd, cn->addr, sizeof(cn->addr));
	pthread_mutex_lock(&srv->lock);
	why = admit(srv, cn);
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
	for (int i = 0; i < srv->nslots; i++) {
		struct conn *cn = srv->conns[i];

		if (!cn || cn->expired || cn->dropped[0])
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
