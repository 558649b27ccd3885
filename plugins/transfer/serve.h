/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench-serve's pieces: its settings, its table of connections and the
 * limits it keeps (serve_conn.c), its command line (serve_args.c) and its
 * log. serve.c ties them together around accept().
 */
#ifndef HB_TRANSFER_SERVE_H
#define HB_TRANSFER_SERVE_H

#include <pthread.h>

#include "net.h"
#include "sink.h"

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

/* The settings (from the command line) and the live connections. */
struct server {
	struct sink_cfg cfg;   /* token, TLS, --max-time */
	struct net_opts net;   /* per-read --idle-timeout of every socket */
	double preauth;	       /* --idle-timeout: total before the proof */
	int max_clients;       /* connections at once */
	int max_pending;       /* of them not yet authenticated */
	int max_per_address;   /* not yet authenticated, from one address */
	pthread_mutex_t lock;  /* guards everything below */
	struct conn **conns;   /* max_clients slots, NULL when free */
	int active, pending;   /* connections; of them unauthenticated */
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
 * Serve accepted socket fd in its own thread, or close it with a log line
 * when a limit says no: --max-clients, --max-pending, or
 * --max-pending-per-address for its address.
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
