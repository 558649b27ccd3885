/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench-serve's command line. Every number has a finite range, and an
 * integer option takes digits only: "nan", "1e-9", "inf", "0.5" or a port
 * above 65535 never reach the server, they end it with exit status 2.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>

#include "serve.h"
#include "protocol/token.h"

/* A number option: its name, its range, and whether it is an integer. */
struct range {
	const char *name;
	double lo, hi;
	int integer;
};

static const struct range max_clients = { "--max-clients", 1, 4096, 1 };
static const struct range max_pending = { "--max-pending", 1, 4096, 1 };
static const struct range per_address = { "--max-pending-per-address", 1, 4096,
					  1 };
static const struct range max_time = { "--max-time", 1, 604800, 0 };
static const struct range idle = { "--idle-timeout", 0.1, 3600, 0 };

static void usage(FILE *f)
{
	/* clang-format off */
	fputs("usage: hostbench serve --listen ADDR:PORT --token TOKEN "
	      "[options]\n"
	      "  --listen ADDR:PORT   where to listen (port 0: any free "
	      "port, logged)\n"
	      "  --token TOKEN        clients must prove they know it (or set "
	      "HOSTBENCH_TOKEN);\n"
	      "                       16 characters or more (32 random hex "
	      "digits will do)\n"
	      "  --max-clients N      authenticated connections at once, "
	      "1-4096 (default 16)\n"
	      "  --max-pending N      unauthenticated connections at once, "
	      "1-4096; a new one\n"
	      "                       replaces the oldest (default: half of "
	      "--max-clients)\n"
	      "  --max-pending-per-address N  of those, from one address or "
	      "IPv6 /64\n"
	      "                       (default: half of --max-pending)\n"
	      "  --max-time SECONDS   longest a connection may last, 1-604800 "
	      "(default 600)\n"
	      "  --idle-timeout SECONDS  longest wait for a client's next "
	      "bytes, and for its\n"
	      "                       proof of the token in all, 0.1-3600 "
	      "(default 30)\n",
	      f);
	/* clang-format on */
}

/* text as a number within r into *out; 0, or 2 after a message. */
static int number(const struct range *r, const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end != text && !*end && !errno && isfinite(v) && v >= r->lo &&
	    v <= r->hi &&
	    (!r->integer || strspn(text, "0123456789") == strlen(text))) {
		*out = v;
		return 0;
	}
	fprintf(stderr, "hostbench serve: %s %s: not %s from %g to %g\n",
		r->name, text, r->integer ? "an integer" : "a number", r->lo,
		r->hi);
	return 2;
}

/* One option with its value into srv; 0, 1 (--help) or 2. */
static int option(int opt, const char *arg, struct server *srv,
		  const char **listen_on)
{
	double v = 0;
	int rc = 0;

	switch (opt) {
	case 'l':
		*listen_on = arg;
		break;
	case 't':
		srv->cfg.token = arg;
		break;
	case 'c':
		rc = number(&max_clients, arg, &v);
		srv->max_clients = (int)v;
		break;
	case 'p':
		rc = number(&max_pending, arg, &v);
		srv->max_pending = (int)v;
		break;
	case 'a':
		rc = number(&per_address, arg, &v);
		srv->max_per_address = (int)v;
		break;
	case 'm':
		rc = number(&max_time, arg, &srv->cfg.max_time);
		break;
	case 'i':
		rc = number(&idle, arg, &srv->preauth);
		srv->net.io_timeout = srv->preauth;
		break;
	case 'h':
		usage(stdout);
		return 1;
	default:
		usage(stderr);
		return 2;
	}
	return rc;
}

/* Fill the limits left unset from --max-clients, and check they nest. */
static int limits(struct server *srv)
{
	if (!srv->max_pending)
		srv->max_pending = (srv->max_clients + 1) / 2;
	if (!srv->max_per_address)
		srv->max_per_address = (srv->max_pending + 1) / 2;
	if (srv->max_per_address <= srv->max_pending)
		return 0;
	fprintf(stderr,
		"hostbench serve: --max-pending-per-address %d must not "
		"exceed --max-pending %d\n",
		srv->max_per_address, srv->max_pending);
	return 2;
}

/* The token and the address are required; the token must be a good one. */
static int required(const struct server *srv, const char *listen_on)
{
	char err[256];

	if (!listen_on || !srv->cfg.token || !srv->cfg.token[0]) {
		fputs("hostbench serve: --listen and a non-empty --token are "
		      "required\n",
		      stderr);
		usage(stderr);
		return 2;
	}
	if (token_check(srv->cfg.token, err, sizeof(err))) {
		fprintf(stderr, "hostbench serve: --token: %s\n", err);
		return 2;
	}
	if (net_check_hostport(listen_on, 1, err, sizeof(err))) {
		fprintf(stderr, "hostbench serve: --listen %s\n", err);
		return 2;
	}
	return 0;
}

int serve_args(int argc, char **argv, struct server *srv,
	       const char **listen_on)
{
	static const struct option longopts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "token", required_argument, NULL, 't' },
		{ "max-clients", required_argument, NULL, 'c' },
		{ "max-pending", required_argument, NULL, 'p' },
		{ "max-pending-per-address", required_argument, NULL, 'a' },
		{ "max-time", required_argument, NULL, 'm' },
		{ "idle-timeout", required_argument, NULL, 'i' },
		{ "help", no_argument, NULL, 'h' },
		{ 0 },
	};
	int opt, rc;

	/* set-ID, it would lend its rights to anyone (hostbench refuses too) */
	if (getauxval(AT_SECURE)) {
		fputs("hostbench serve: refusing to run set-user-ID, "
		      "set-group-ID or with file capabilities: install it "
		      "without them and run it as the user it should be\n",
		      stderr);
		return 2;
	}
	while ((opt = getopt_long(argc, argv, "l:t:h", longopts, NULL)) != -1)
		if ((rc = option(opt, optarg, srv, listen_on)))
			return rc;
	if (optind < argc) {
		usage(stderr);
		return 2;
	}
	if (!srv->cfg.token)
		srv->cfg.token = getenv("HOSTBENCH_TOKEN");
	rc = required(srv, *listen_on);
	return rc ? rc : limits(srv);
}
