/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench-serve's pieces: its settings, its table of connections and the
 * limits it keeps (serve_conn.c), its command line (serve_args.c) and its
 * log. serve.c ties them together around accept().
 */
#ifndef HB_TRANSFER_SERVE_H
#define HB_TRANSFER_SERVE_H

#include <pthread.h>

#include "protocol/net.h"
#include "protocol/sink.h"

/* How often deadlines are looked at, in seconds. */
#define SERVE_REAP_EVERY 0.25
/* How often the handshake summary is logged, in seconds. */
#define SERVE_SUMMARY_EVERY 10.0
/* Addresses the handshake summary tells apart; the rest are "others". */
#define SERVE_SOURCES 64

struct conn;

/* Handshakes of one address since the last summary. */
struct serve_source {
	char addr[64];
	unsigned long handshakes;
};

/*
 * The settings (from the command line) and the live connections. Clients
 * that proved the token and clients that have not yet are counted apart,
 * so those that have not can never take the room of those that have.
 */
struct server {
	struct sink_cfg cfg;   /* token, TLS, --max-time */
	struct net_opts net;   /* per-read --idle-timeout of every socket */
	double preauth;	       /* --idle-timeout: total before the proof */
	int max_clients;       /* authenticated connections at once */
	int max_pending;       /* unauthenticated connections at once */
	int max_per_address;   /* of those, from one address (IPv6: /64) */
	int nslots;	       /* conns[]: room for both, and the dropped */
	pthread_mutex_t lock;  /* guards everything below */
	pthread_cond_t freed;  /* signalled as a slot is given back */
	struct conn **conns;   /* nslots slots, NULL when free */
	struct conn **scratch; /* nslots pointers for choosing whom to drop */
	int authed, pending;   /* connections of each budget */
	unsigned long next_id; /* the number of the next connection */
	struct serve_source sources[SERVE_SOURCES];
	unsigned long other_handshakes;
	double next_summary;
};

/* One line on stderr with a UTC time stamp. */
void serve_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Read the command line into srv and *listen_on. Returns 0, 1 after
 * --help, or 2 after a one-line message naming the option and its allowed
 * range.
 */
int serve_args(int argc, char **argv, struct server *srv,
	       const char **listen_on);

/* The connection table for srv's limits. Returns 0 or -1 (no memory). */
int serve_conns_init(struct server *srv);

/*
 * Serve accepted socket fd in its own thread. A new connection always
 * gets in: when its address already has --max-pending-per-address
 * unauthenticated connections, the oldest of them is dropped, else when
 * --max-pending are waiting, the oldest of the address (IPv6: /64) that
 * has the most. Once it proves the token it is refused only when
 * --max-clients connections are authenticated already.
 */
void serve_dispatch(struct server *srv, int fd);

/*
 * Close the connections past their deadline (the proof not made within
 * --idle-timeout, or --max-time reached), log the handshake summary when
 * due, and return the seconds until this should be called again (at most
 * SERVE_REAP_EVERY).
 */
double serve_reap(struct server *srv);

/* Log the handshakes counted since the last summary, if any. */
void serve_summary(struct server *srv);

#endif
