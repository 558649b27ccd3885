/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the files of the PostgreSQL backend share: which ways of asking
 * for the password a server may use (require_auth, libpq 16's parameter,
 * which libpq 15 does not have), the guard that holds libpq 15 to it, and
 * connecting under a timeout that a stop signal cuts short.
 */
#ifndef HB_CORE_STORE_STORE_PG_H
#define HB_CORE_STORE_STORE_PG_H

#include <libpq-fe.h>
#include <signal.h>
#include <stddef.h>

struct pollfd;

/* How a server authenticates a client, as require_auth names them. */
enum store_pg_method {
	STORE_PG_NONE = 1 << 0,	    /* it asks for nothing (trust, peer) */
	STORE_PG_PASSWORD = 1 << 1, /* the password in clear text */
	STORE_PG_MD5 = 1 << 2,
	STORE_PG_GSS = 1 << 3,
	STORE_PG_SSPI = 1 << 4,
	STORE_PG_SCRAM = 1 << 5, /* scram-sha-256 */
	STORE_PG_ALL = (1 << 6) - 1,
};

/*
 * What the store allows when neither the URL nor PGREQUIREAUTH says:
 * every method but those that hand the password (or a hash that stands
 * for it) to whoever asks.
 */
#define STORE_PG_REQUIRE_AUTH "!password,!md5"

/*
 * require_auth's value as libpq 16 reads it ("scram-sha-256,none",
 * "!password,!md5": names, all negated or none; "" allows all) into
 * *allowed (enum store_pg_method bits). Pure. Returns 0, or -EINVAL with
 * what is wrong in err.
 */
int store_pg_auth_parse(const char *text, unsigned *allowed, char *err,
			size_t errlen);

/*
 * The method an AuthenticationRequest code asks for (3 password, 5 md5,
 * 7 gss, 9 sspi, 10 SASL), 0 for one that starts none (0 ok, the
 * continuations, codes libpq refuses itself).
 */
unsigned store_pg_auth_method(long code);

/* require_auth's name of one method bit ("password", ...). */
const char *store_pg_auth_name(unsigned method);

/*
 * The guard: for a libpq without require_auth, it stands between libpq
 * and each server socket libpq opens until the server has authenticated
 * the client, reads every request the server makes, and ends the
 * connection before libpq sees a request of a method not allowed, so
 * libpq never answers it. It reads only what is not encrypted: once TLS
 * or GSS encryption is agreed, the socket goes back to libpq unwatched
 * (docs/history.md says so).
 */
struct store_pg_guard;

/* A new guard allowing *allowed methods. Returns 0 or -ENOMEM. */
int store_pg_guard_new(struct store_pg_guard **g, unsigned allowed);

/* Free g and close what it holds (NULL is fine). */
void store_pg_guard_free(struct store_pg_guard *g);

/*
 * After each PQconnectPoll(): put the guard between libpq and a socket
 * libpq has just sent its first request on. Returns 0 or a negative code
 * with err filled.
 */
int store_pg_guard_take(struct store_pg_guard *g, PGconn *db, char *err,
			size_t errlen);

/* The descriptors g waits on, into fds (room for 2); how many. */
int store_pg_guard_fds(const struct store_pg_guard *g, struct pollfd *fds);

/*
 * Pass what fds (as store_pg_guard_fds() filled them, after poll) say is
 * ready; hand the socket back to libpq once the server has accepted the
 * client. Returns 0, or -EACCES with err saying which request was
 * refused, or another negative code.
 */
int store_pg_guard_pump(struct store_pg_guard *g, const struct pollfd *fds,
			char *err, size_t errlen);

/* "interrupted by signal N (name)" into err. Returns -EINTR. */
int store_pg_interrupted(int sig, char *err, size_t errlen);

/*
 * libpq's message msg on one line (newlines and tabs as spaces, no
 * trailing space) into err. Returns -EIO.
 */
int store_pg_message(const char *msg, char *err, size_t errlen);

/*
 * Connect to url (a libpq URL): the store's defaults for what the URL
 * and the environment leave unset (connect_timeout 10 s, keepalives;
 * require_auth STORE_PG_REQUIRE_AUTH, held by libpq 16 and later, by the
 * guard before), without a step of the connection waiting longer than
 * connect_timeout, and giving up once *stop (may be NULL) is nonzero.
 * Returns 0 with *db connected, or a negative code with err filled
 * (-EINTR for a stop, -ETIMEDOUT, -EACCES for a refused request).
 */
int store_pg_connect(PGconn **db, const char *url,
		     const volatile sig_atomic_t *stop, char *err,
		     size_t errlen);

#endif
