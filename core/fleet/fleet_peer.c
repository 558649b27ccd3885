/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host-pair transfers: cases with a peer mode (`rank-pairs`, `ring`,
 * `all-to-one`, `all-to-all`) send to other ranks' hosts. Every rank runs
 * one hostbench-serve for the whole run, on a free port with a fresh
 * token; the ranks exchange where theirs listens, and each such case is
 * copied with peer and token set to its partners'. Plugins see an
 * ordinary `peer = HOST:PORT` (all-to-all: a comma list of them, with a
 * comma list of their tokens).
 */
#define _GNU_SOURCE /* pipe2, asprintf */
#include "fleet/fleet_int.h"

#include <ctype.h>
#include <errno.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <ifaddrs.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <unistd.h>

#include <jansson.h>

#include "proc/childenv.h"

/* Seconds a receiver may take to make its keys and start listening. */
#define SERVE_START_WAIT 60

/* Where one rank's receiver listens, as the others need it. */
struct fleet_endpoint {
	char addr[FLEET_HOST_MAX]; /* see my_addr(); "" = by host name */
	int32_t port;		   /* 0: the receiver did not start */
	char token[40];
};

/* A fresh token: 16 random bytes as hex. */
static int fresh_token(char *buf, size_t len)
{
	unsigned char raw[16];

	if (getrandom(raw, sizeof(raw), 0) != (ssize_t)sizeof(raw) ||
	    len < 2 * sizeof(raw) + 1)
		return -EIO;
	for (size_t i = 0; i < sizeof(raw); i++)
		snprintf(buf + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* addr with brackets when it is an IPv6 literal, then ":port". */
static void host_port(const char *addr, int port, char *buf, size_t len)
{
	snprintf(buf, len, strchr(addr, ':') ? "[%s]:%d" : "%s:%d", addr, port);
}

/*
 * The environment with HOSTBENCH_TOKEN=token in it, so the token stays
 * out of ps, and without the core's secrets (proc/childenv.h). Returns a
 * NULL-terminated array (free the array and *tok_entry), or NULL.
 */
static char **env_with_token(const char *token, char **tok_entry)
{
	if (asprintf(tok_entry, "HOSTBENCH_TOKEN=%s", token) < 0) {
		*tok_entry = NULL;
		return NULL;
	}
	return childenv_make(*tok_entry);
}

/* In the child: the receiver, its log into fd, dying with this rank. */
static void exec_serve(const char *serve, char *const argv[], char *const env[],
		       int fd)
{
	int null = open("/dev/null", O_RDWR);

	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    dup2(fd, 2) < 0)
		_exit(127);
	execve(serve, argv, env);
	dprintf(2, "exec %s: %s\n", serve, strerror(errno));
	_exit(127);
}

/*
 * Read the receiver's log from fd until it says where it listens. Returns
 * the port, or 0 with its last line (or what went wrong) in err.
 */
static int read_port(int fd, char *err, size_t errlen)
{
	char log[4096];
	size_t used = 0;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	const char *at;

	snprintf(err, errlen, "no \"listening on\" line within %d s",
		 SERVE_START_WAIT);
	while (used + 1 < sizeof(log) &&
	       poll(&p, 1, SERVE_START_WAIT * 1000) > 0) {
		ssize_t n = read(fd, log + used, sizeof(log) - 1 - used);

		if (n <= 0)
			break;
		used += (size_t)n;
		log[used] = '\0';
		at = strstr(log, "listening on ");
		if (at && strchr(at, '(')) {
			const char *colon = strchr(at, '(');

			while (colon > at && *colon != ':')
				colon--;
			return (int)strtol(colon + 1, NULL, 10);
		}
	}
	log[used] = '\0';
	if (used)
		snprintf(err, errlen, "%.*s", (int)strcspn(log, "\n"), log);
	return 0;
}

/*
 * Start serve listening on listen (port 0) with token; *pid and the port
 * it bound. Returns the port, or 0 with err filled.
 */
static int serve_start(const char *serve, const char *listen, const char *token,
		       int max_clients, pid_t *pid, char *err, size_t errlen)
{
	char clients[16], *tok_entry = NULL, **env;
	/* every connection may come at once, all from one address (ranks
	   of one host, or behind one router): none waits as a stranger */
	char *argv[] = { (char *)serve,	 "--listen",
			 (char *)listen, "--max-clients",
			 clients,	 "--max-pending",
			 clients,	 "--max-pending-per-address",
			 clients,	 "--max-time",
			 "604800",	 NULL };
	int fds[2], port = 0;

	if (serve[0] != '/') /* never a name the current directory resolves */
		return hb_errorf(err, errlen, 0,
				 "hostbench-serve is not installed beside "
				 "hostbench (the transfer plugin was not "
				 "built)");
	snprintf(clients, sizeof(clients), "%d", max_clients);
	env = env_with_token(token, &tok_entry);
	if (!env || pipe2(fds, O_CLOEXEC)) {
		snprintf(err, errlen, "%s", strerror(env ? errno : ENOMEM));
		goto out_env;
	}
	*pid = fork();
	if (*pid == 0)
		exec_serve(serve, argv, env, fds[1]);
	close(fds[1]);
	if (*pid < 0)
		snprintf(err, errlen, "fork: %s", strerror(errno));
	else
		port = read_port(fds[0], err, errlen);
	/* serve goes on when its log has no reader (docs/transfer.md) */
	close(fds[0]);
	if (*pid > 0 && !port) {
		kill(*pid, SIGTERM);
		waitpid(*pid, NULL, 0);
		*pid = 0;
	}
out_env:
	free(tok_entry);
	free(env);
	return port;
}

/* Nonzero when every rank runs on this rank's host. */
static int one_host(const struct fleet *f)
{
	for (int r = 0; r < f->size; r++)
		if (strcmp(f->st->ranks[r].host, f->st->ranks[f->rank].host) !=
		    0)
			return 0;
	return 1;
}

/*
 * The most connections any host-pair case makes to one receiver, so
 * serve admits them all: parallel, or parallel from every other rank at
 * once for all-to-one and all-to-all.
 */
static int max_streams(const struct suite *s, int size)
{
	unsigned most = 0;

	for (size_t i = 0; i < s->ncases; i++) {
		const char *mode = fleet_peer_mode(&s->cases[i]);
		unsigned n = s->cases[i].parallel;

		if (mode && (strcmp(mode, "all-to-one") == 0 ||
			     strcmp(mode, "all-to-all") == 0))
			n *= (unsigned)(size > 1 ? size - 1 : 1);
		if (mode && n > most)
			most = n;
	}
	return (int)most;
}

/* The first IPv4 address of interface name into buf. 0 or -ENOENT. */
static int if_addr(const char *name, char *buf, size_t len)
{
	struct ifaddrs *all, *a;
	int rc = -ENOENT;

	if (getifaddrs(&all))
		return -errno;
	for (a = all; a && rc; a = a->ifa_next)
		if (a->ifa_addr && a->ifa_addr->sa_family == AF_INET &&
		    strcmp(a->ifa_name, name) == 0 &&
		    inet_ntop(AF_INET,
			      &((struct sockaddr_in *)(void *)a->ifa_addr)
				       ->sin_addr,
			      buf, (socklen_t)len))
			rc = 0;
	freeifaddrs(all);
	return rc;
}

/*
 * The address others reach this rank's receiver at, into mine->addr:
 * HOSTBENCH_FLEET_ADDR, else the IPv4 address of HOSTBENCH_FLEET_IF (one
 * value for every host: mpirun -x), else "" (by host name). Returns 0, or
 * -ENOENT with err filled.
 */
static int my_addr(struct fleet_endpoint *mine, char *err, size_t errlen)
{
	const char *addr = getenv("HOSTBENCH_FLEET_ADDR");
	const char *ifname = getenv("HOSTBENCH_FLEET_IF");

	if (addr && *addr)
		snprintf(mine->addr, sizeof(mine->addr), "%s", addr);
	else if (ifname && *ifname &&
		 if_addr(ifname, mine->addr, sizeof(mine->addr)))
		return hb_errorf(err, errlen, -ENOENT,
				 "HOSTBENCH_FLEET_IF=%s: no IPv4 address on "
				 "this host",
				 ifname);
	return 0;
}

/* Start this rank's receiver into mine; port 0 and err when it failed. */
static void start_mine(struct fleet *f, const char *serve, int streams,
		       struct fleet_endpoint *mine, char *err, size_t errlen)
{
	char listen[FLEET_HOST_MAX + 16];

	if (my_addr(mine, err, errlen))
		return;
	/* listen where others are told to connect; on one host, loopback */
	host_port(mine->addr[0] ? mine->addr
		  : one_host(f) ? "127.0.0.1"
				: "0.0.0.0",
		  0, listen, sizeof(listen));
	if (fresh_token(mine->token, sizeof(mine->token))) {
		snprintf(err, errlen, "no random bytes for a token");
		return;
	}
	mine->port = serve_start(serve, listen, mine->token, streams + 16,
				 &f->st->serve, err, errlen);
}

/* Where this rank reaches rank p's receiver, "HOST:PORT", into buf. */
static void where_of(const struct fleet *f, const struct fleet_endpoint *ends,
		     int p, char *buf, size_t len)
{
	const struct fleet_rank *me = &f->st->ranks[f->rank];

	host_port(ends[p].addr[0] ? ends[p].addr
		  : strcmp(f->st->ranks[p].host, me->host) == 0
			  ? "127.0.0.1"
			  : f->st->ranks[p].host,
		  ends[p].port, buf, len);
}

/* Why this rank sends nowhere in a case with partner p, or NULL. */
static char *no_partner(const struct fleet *f, int p)
{
	char *why = NULL;
	int rc;

	if (p == -1)
		rc = asprintf(&why,
			      "peer = rank-pairs: rank %d of %d has no "
			      "partner (run an even number of ranks)",
			      f->rank, f->size);
	else
		rc = asprintf(&why, "%s", FLEET_RECEIVES_ONLY);
	return rc < 0 ? NULL : why;
}

/* Nonzero when this rank sends to rank r in a case with partner p. */
static int sends_to(const struct fleet *f, int p, int r)
{
	return p == FLEET_EVERY_OTHER ? r != f->rank : r == p;
}

/*
 * The comma lists of every partner's address and token into *peers and
 * *tokens (the caller frees both), each rank's list starting at the rank
 * after it, so that the first connections of all-to-all spread over
 * every receiver instead of all going to rank 0's at once. A partner
 * that was lost: left out of all-to-all (only its pairs fail), else
 * -ENOENT; either way it is in *lost. Returns 0, -ENOENT (no partner
 * left) or -ENOMEM.
 */
static int partner_lists(const struct fleet *f, int p,
			 const struct fleet_endpoint *ends, char **peers,
			 char **tokens, int *lost)
{
	char where[FLEET_HOST_MAX + 16];
	size_t plen, tlen;
	FILE *pf = open_memstream(peers, &plen);
	FILE *tf = open_memstream(tokens, &tlen);
	const char *sep = "";
	int rc = pf && tf ? 0 : -ENOMEM;

	for (int k = 1; rc == 0 && k <= f->size; k++) {
		int r = (f->rank + k) % f->size;

		if (!sends_to(f, p, r))
			continue;
		if (ends[r].port <= 0) {
			*lost = r;
			if (p != FLEET_EVERY_OTHER)
				rc = -ENOENT;
			continue;
		}
		where_of(f, ends, r, where, sizeof(where));
		fprintf(pf, "%s%s", sep, where);
		fprintf(tf, "%s%s", sep, ends[r].token);
		sep = ",";
	}
	if (pf && fclose(pf))
		rc = -ENOMEM;
	if (tf && fclose(tf))
		rc = -ENOMEM;
	if (rc == 0 && !sep[0])
		rc = -ENOENT; /* every partner lost */
	return rc;
}

/* Case out does not run here, for why (NULL: out of memory). */
static int runs_nowhere(struct bench_case *out, char *why)
{
	out->plugin = NULL;
	out->tdesc = NULL;
	out->reason = why;
	return why ? 0 : -ENOMEM;
}

/* Why case c cannot send: its partner lost, which rank that was. */
static char *partner_lost(const struct fleet *f, const struct bench_case *c,
			  int lost)
{
	char who[FLEET_HOST_MAX + 32], *why;

	if (asprintf(&why,
		     "peer = %s: its partner %s was lost before the first case",
		     fleet_peer_mode(c),
		     fleet_rank_name(f, lost, who, sizeof(who))) < 0)
		return NULL;
	return why;
}

/*
 * Copy case c for this rank into *out: peer and token of its partners
 * (or, with none, plugin NULL and the reason). Returns 0 or -ENOMEM.
 */
static int resolve_case(const struct fleet *f, const struct bench_case *c,
			const struct fleet_endpoint *ends,
			struct bench_case *out)
{
	int p = fleet_partner(fleet_peer_mode(c), f->rank, f->size), lost = -1;
	char *peers = NULL, *tokens = NULL;
	int rc;

	*out = *c;
	out->params = (struct kvlist){ 0 };
	out->reason = NULL;
	if (p < 0 && p != FLEET_EVERY_OTHER)
		return runs_nowhere(out, no_partner(f, p));
	rc = partner_lists(f, p, ends, &peers, &tokens, &lost);
	if (rc == -ENOENT)
		rc = runs_nowhere(out, partner_lost(f, c, lost));
	else if (rc == 0 && (kvlist_copy(&out->params, &c->params) ||
			     kvlist_set(&out->params, "peer", peers) ||
			     kvlist_set(&out->params, "token", tokens)))
		rc = -ENOMEM;
	free(peers);
	free(tokens);
	return rc;
}

int fleet_peer_receives(const struct fleet *f, size_t i)
{
	const struct suite *resolved = &f->st->resolved;

	return resolved->cases && i < resolved->ncases &&
	       !resolved->cases[i].plugin && resolved->cases[i].reason &&
	       strcmp(resolved->cases[i].reason, FLEET_RECEIVES_ONLY) == 0;
}

/* Keep where every rank's receiver is reached, for fleet_peer_blame(). */
static int keep_where(struct fleet *f, const struct fleet_endpoint *ends)
{
	char where[FLEET_HOST_MAX + 16];

	f->st->where = calloc((size_t)f->size, sizeof(*f->st->where));
	if (!f->st->where)
		return -ENOMEM;
	f->st->nwhere = f->size;
	for (int r = 0; r < f->size; r++) {
		if (ends[r].port <= 0)
			continue;
		where_of(f, ends, r, where, sizeof(where));
		f->st->where[r] = strdup(where);
		if (!f->st->where[r])
			return -ENOMEM;
	}
	return 0;
}

/*
 * *text with the rank of the first partner's receiver it names added
 * after the address ("127.0.0.1:40123 (rank 2 (lab3))"); unchanged when
 * it names none. Returns 0 or -ENOMEM.
 */
static int name_rank(const struct fleet *f, char **text)
{
	const struct fleet_state *st = f->st;
	char who[FLEET_HOST_MAX + 32], *named;
	const char *at = NULL;
	int p;

	for (p = 0; *text && p < st->nwhere; p++) {
		if (p == f->rank || !st->where[p])
			continue;
		at = strstr(*text, st->where[p]);
		at = at ? at + strlen(st->where[p]) : NULL;
		if (at && !isdigit((unsigned char)*at))
			break; /* not the start of a longer port */
	}
	if (!*text || p == st->nwhere)
		return 0;
	if (asprintf(&named, "%.*s (%s)%s", (int)(at - *text), *text,
		     fleet_rank_name(f, p, who, sizeof(who)), at) < 0)
		return -ENOMEM;
	free(*text);
	*text = named;
	return 0;
}

/* The pairs a plugin told of ("pair ADDR": "failed: ..."), named. */
static int name_pairs(const struct fleet *f, struct kvlist *info)
{
	for (size_t k = 0; k < info->n; k++) {
		struct kv *kv = &info->items[k];

		if (strncmp(kv->key, "pair ", 5) != 0)
			continue;
		if (name_rank(f, &kv->key) || name_rank(f, &kv->value))
			return -ENOMEM;
	}
	return 0;
}

int fleet_peer_blame(const struct fleet *f, size_t i, struct result *r)
{
	int rc = 0;

	if (!f->st->where || !fleet_peer_mode(&f->st->suite->cases[i]))
		return 0;
	if (r->status == RESULT_FAILED)
		rc = name_rank(f, &r->reason);
	for (size_t k = 0; rc == 0 && k < r->warnings.n; k++)
		rc = name_rank(f, &r->warnings.items[k]);
	return rc ? rc : name_pairs(f, &r->info);
}

/* Build st->resolved from st->suite with every host-pair case resolved. */
static int resolve_suite(struct fleet *f, const struct fleet_endpoint *ends)
{
	struct fleet_state *st = f->st;
	const struct suite *s = st->suite;

	if (keep_where(f, ends))
		return -ENOMEM;
	st->resolved = (struct suite){ .jobs = s->jobs, .njobs = s->njobs };
	st->resolved.cases = calloc(s->ncases, sizeof(*st->resolved.cases));
	if (!st->resolved.cases)
		return -ENOMEM;
	st->resolved.ncases = s->ncases;
	for (size_t i = 0; i < s->ncases; i++) {
		if (!fleet_peer_mode(&s->cases[i])) {
			st->resolved.cases[i] = s->cases[i];
			continue;
		}
		if (resolve_case(f, &s->cases[i], ends, &st->resolved.cases[i]))
			return -ENOMEM;
	}
	return 0;
}

/* This rank's receiver as JSON for the round; port 0 with why. */
static json_t *endpoint_json(const struct fleet_endpoint *e, const char *why)
{
	return json_pack("{s:s, s:i, s:s, s:s}", "addr", e->addr, "port",
			 (int)e->port, "token", e->token, "why", why);
}

/* Rank 0: every rank's receiver, and the first that did not start. */
static json_t *decide_peers(struct fleet *f, json_t *const *all, void *arg)
{
	json_t *ends = json_array(), *answer;
	char who[FLEET_HOST_MAX + 32], *why = NULL;

	(void)arg;
	for (int r = 0; r < f->size; r++) {
		json_array_append(ends, all[r] ? all[r] : json_null());
		if (!why && all[r] &&
		    json_integer_value(json_object_get(all[r], "port")) <= 0 &&
		    asprintf(&why,
			     "fleet: %s could not start its receiver for "
			     "host-pair transfers (its message is above); "
			     "nothing ran",
			     fleet_rank_name(f, r, who, sizeof(who))) < 0)
			why = NULL;
	}
	answer = json_pack("{s:o, s:s?}", "ends", ends, "error", why);
	free(why);
	return answer;
}

/* The receivers rank 0 sent into ends[] (port 0: a lost rank's). */
static void take_ends(const struct fleet *f, const json_t *answer,
		      struct fleet_endpoint *ends)
{
	const json_t *all = json_object_get(answer, "ends");

	for (int r = 0; r < f->size; r++) {
		const json_t *e = json_array_get(all, (size_t)r);
		const char *addr =
			json_string_value(json_object_get(e, "addr"));
		const char *tok =
			json_string_value(json_object_get(e, "token"));

		snprintf(ends[r].addr, sizeof(ends[r].addr), "%s",
			 addr ? addr : "");
		snprintf(ends[r].token, sizeof(ends[r].token), "%s",
			 tok ? tok : "");
		ends[r].port =
			(int32_t)json_integer_value(json_object_get(e, "port"));
	}
}

/* Exchange the receivers through rank 0 and resolve the suite. */
static int exchange(struct fleet *f, const struct fleet_endpoint *mine,
		    const char *why, char *err, size_t errlen)
{
	struct fleet_endpoint *ends = calloc((size_t)f->size, sizeof(*ends));
	json_t *answer = NULL, *me = endpoint_json(mine, why);
	const char *problem;
	int rc = me ? fleet_round(f, FLEET_TAG_PEERS, me, f->st->wait,
				  "while the ranks started receivers",
				  decide_peers, NULL, &answer)
		    : -ENOMEM;

	json_decref(me); /* fleet_round() keeps its own reference */
	if (rc || !ends) {
		rc = hb_errorf(err, errlen, rc ? rc : -ENOMEM,
			       rc == -ETIMEDOUT ? "fleet: no answer from rank "
						  "0 (rank 0 died or hung)"
						: "fleet: the ranks could not "
						  "exchange their receivers");
		goto out_ends;
	}
	problem = json_string_value(json_object_get(answer, "error"));
	if (json_is_true(json_object_get(answer, "out")))
		rc = hb_errorf(err, errlen, -ECANCELED,
			       "fleet: rank 0 counted this rank lost");
	else if (problem)
		rc = hb_errorf(err, errlen, -EIO, "%s", problem);
	take_ends(f, answer, ends);
	if (!rc && resolve_suite(f, ends))
		rc = hb_errorf(err, errlen, -ENOMEM, "fleet: out of memory");
out_ends:
	json_decref(answer);
	free(ends);
	return rc;
}

int fleet_peers_resolve(struct fleet *f, const char *serve, char *err,
			size_t errlen)
{
	struct fleet_endpoint mine = { 0 };
	int streams = max_streams(f->st->suite, f->size);
	char why[512] = "";

	if (!streams)
		return 0; /* the same on every rank: the suites agree */
	start_mine(f, serve, streams, &mine, why, sizeof(why));
	if (!mine.port)
		fprintf(stderr,
			"hostbench: fleet: rank %d (%s): no receiver for "
			"host-pair transfers (%s): %s\n",
			f->rank, f->st->ranks[f->rank].host, serve, why);
	return exchange(f, &mine, why, err, errlen);
}

void fleet_peers_release(struct fleet_state *st)
{
	for (size_t i = 0; st->resolved.cases && i < st->resolved.ncases; i++) {
		struct bench_case *c = &st->resolved.cases[i];

		if (c->params.items != st->suite->cases[i].params.items)
			kvlist_free(&c->params);
		if (c->reason != st->suite->cases[i].reason)
			free(c->reason);
	}
	free(st->resolved.cases);
	st->resolved = (struct suite){ 0 };
	for (int r = 0; st->where && r < st->nwhere; r++)
		free(st->where[r]);
	free(st->where);
	st->where = NULL;
	st->nwhere = 0;
	if (st->serve > 0) {
		kill(st->serve, SIGTERM);
		waitpid(st->serve, NULL, 0);
		st->serve = 0;
	}
}
