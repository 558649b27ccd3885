/*
 * What the fleet's files share: the state behind struct fleet, the
 * receivers of host-pair transfers (fleet_peer.c), the report
 * (fleet_report.c) and the peer modes (fleet_pairs.c, in every build).
 */
#ifndef HB_CORE_FLEET_FLEET_INT_H
#define HB_CORE_FLEET_FLEET_INT_H

#include <stddef.h>
#include <sys/types.h>

#include <jansson.h>

#include "fleet/fleet.h"

/* Longest host name a rank reports (MPI_MAX_PROCESSOR_NAME is 256). */
#define FLEET_HOST_MAX 256

/* What rank 0 knows of one rank. */
struct fleet_rank {
	char host[FLEET_HOST_MAX];
	int lost;	    /* rank 0 stopped waiting for it */
	char *lost_why;	    /* "no result for \"X\" within 140 s ..." */
	json_t *context;    /* its report without results: system, libraries */
	struct result *res; /* suite->ncases; rank 0's own live in main */
	int failed;	    /* one of its cases failed */
};

/* Everything a fleet keeps between calls. */
struct fleet_state {
	const struct suite *suite; /* the suite as loaded, for reports */
	struct suite run;	   /* resolved copy; cases NULL when unused */
	pid_t serve;		   /* this rank's receiver, 0 when none */
	struct fleet_rank *ranks;  /* size of them, every rank's host */
	size_t pending;		   /* together: case whose results are due */
	double due;		   /* rank 0: deadline of pending results */
	int stopped;		   /* this rank was told to stop */
	int started;		   /* rank 0: workers may wait for its word */
	int released;		   /* rank 0: every rank was told to stop */
};

/*
 * Resolve the rank-pairs and ring cases of st->suite into st->run for
 * rank of size (hosts in st->ranks): start serve, exchange addresses,
 * ports and tokens (collective), rewrite peer and token. Does nothing
 * (st->run stays empty) when no case asks for it. Returns 0, or -EIO /
 * -ENOMEM with err filled.
 */
int fleet_peers_resolve(struct fleet *f, const char *serve, char *err,
			size_t errlen);

/* Free st->run and stop this rank's receiver, if any. */
void fleet_peers_release(struct fleet_state *st);

/*
 * ctx (a report, here without results) as JSON text into *text, which
 * the caller frees. Returns 0 or a negative code.
 */
int fleet_context_text(const struct report *ctx, char **text);

/*
 * The partner of rank among size for a peer mode: "rank-pairs" pairs 0-1,
 * 2-3, ...; "ring" sends to rank + 1 (the last to 0). Returns the partner,
 * -1 for the odd rank out of rank-pairs, -2 when mode is neither. Pure.
 */
int fleet_partner(const char *mode, int rank, int size);

/*
 * The peer mode c asks for ("rank-pairs", "ring"), or NULL when c sends
 * to no rank (its target takes no peer and token, or peer is HOST:PORT).
 */
const char *fleet_peer_mode(const struct bench_case *c);

/*
 * The outlier of n values: the index farthest from their median, the
 * lower one on a tie (a slow host is the finding). *median gets the
 * median. Returns -1 when n is 0. Pure.
 */
int fleet_outlier(const double *v, size_t n, double *median);

#endif
