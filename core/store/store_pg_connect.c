/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Connecting to a lab's PostgreSQL server: the URL as libpq parses it,
 * the store's defaults for what it leaves unset, and libpq's connection
 * driven here (PQconnectStartParams, PQconnectPoll) so that a stop signal
 * or a server that goes silent ends it, and the guard can stand in
 * between on a libpq without require_auth.
 */
#include "store/store_pg.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/pgurl.h"
#include "base/util.h"

/* The first libpq with require_auth (PQlibVersion()). */
#define LIBPQ_REQUIRE_AUTH 160000

/* How often a wait looks at the stop flag, whatever wakes it. */
#define STEP_POLL_MS 250

/*
 * The store's defaults, each unless the URL or its environment variable
 * sets it: a silent server or a dead link ends the connection instead
 * of holding the run (docs/reliability.md).
 */
static const struct {
	const char *key, *value, *env;
	int libpq; /* the first PQlibVersion() that has it */
} defaults[] = {
	{ "connect_timeout", "10", "PGCONNECT_TIMEOUT", 0 },
	{ "keepalives", "1", NULL, 0 },
	{ "keepalives_idle", "10", NULL, 0 },
	{ "keepalives_interval", "5", NULL, 0 },
	{ "keepalives_count", "3", NULL, 0 },
	{ "tcp_user_timeout", "30000", NULL, 0 },
	{ "require_auth", STORE_PG_REQUIRE_AUTH, "PGREQUIREAUTH",
	  LIBPQ_REQUIRE_AUTH },
};

#define NDEFAULTS (sizeof(defaults) / sizeof(defaults[0]))

int store_pg_message(const char *msg, char *err, size_t errlen)
{
	char *p;

	hb_error_fill(err, errlen, "%s", msg);
	for (p = err; p && *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	while (p && p > err && p[-1] == ' ')
		*--p = '\0';
	return -EIO;
}

int store_pg_interrupted(int sig, char *err, size_t errlen)
{
	return hb_errorf(err, errlen, -EINTR, "interrupted by signal %d (%s)",
			 sig, strsignal(sig));
}

/*
 * Why libpq cannot parse url. Its message may quote the URL whole,
 * password and all, so the message is libpq's of the URL with its
 * passwords masked, which fails the same way unless what is wrong is in
 * a masked part.
 */
static int unparsable(const char *url, char *err, size_t errlen)
{
	size_t n = pgurl_mask(url, "***", NULL, 0) + 1;
	char *masked = malloc(n), *msg = NULL;
	PQconninfoOption *o = NULL;

	if (masked) {
		pgurl_mask(url, "***", masked, n);
		o = PQconninfoParse(masked, &msg);
	}
	if (o)
		hb_error_fill(err, errlen,
			      "libpq cannot read the URL where it is masked "
			      "here: in a password, a '%%' must be followed "
			      "by two hex digits (not %%00), and '=', '&', "
			      "'/' and '@' must be percent-encoded");
	else if (msg)
		store_pg_message(msg, err, errlen);
	else
		hb_error_fill(err, errlen, "out of memory");
	PQconninfoFree(o);
	PQfreemem(msg);
	free(masked);
	return o || msg ? -EINVAL : -ENOMEM;
}

/* Nonzero when opts (PQconninfoParse()'s) sets key. */
static int url_sets(const PQconninfoOption *opts, const char *key)
{
	for (const PQconninfoOption *o = opts; o->keyword; o++)
		if (o->val && strcmp(o->keyword, key) == 0)
			return 1;
	return 0;
}

/*
 * Start connecting with what opts sets and the store's defaults for the
 * rest. Returns 0 with *db started, or a negative code.
 */
static int start(const PQconninfoOption *opts, PGconn **db, char *err,
		 size_t errlen)
{
	const char *keys[128], *values[128];
	size_t n = 0;

	for (size_t i = 0; i < NDEFAULTS; i++) {
		const char *env =
			defaults[i].env ? getenv(defaults[i].env) : NULL;

		if (PQlibVersion() >= defaults[i].libpq &&
		    !url_sets(opts, defaults[i].key) && !(env && *env)) {
			keys[n] = defaults[i].key;
			values[n++] = defaults[i].value;
		}
	}
	for (const PQconninfoOption *o = opts; o->keyword && n < 127; o++)
		if (o->val) {
			keys[n] = o->keyword;
			values[n++] = o->val;
		}
	keys[n] = values[n] = NULL;
	*db = PQconnectStartParams(keys, values, 0);
	if (!*db)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	return PQstatus(*db) == CONNECTION_BAD
		       ? store_pg_message(PQerrorMessage(*db), err, errlen)
		       : 0;
}

/* How long one step of the connection may wait, in ms (0: no limit). */
static long step_limit(PGconn *db)
{
	PQconninfoOption *opts = PQconninfo(db);
	long s = 0;

	for (PQconninfoOption *o = opts; o && o->keyword; o++)
		if (strcmp(o->keyword, "connect_timeout") == 0 && o->val)
			s = strtol(o->val, NULL, 10);
	PQconninfoFree(opts);
	return s <= 0 ? 0 : s < 2 ? 2000 : s * 1000; /* libpq's floor */
}

/* Milliseconds of CLOCK_MONOTONIC. */
static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A connection being driven: libpq's, the guard's, and its steps. */
struct drive {
	PGconn *db;
	struct store_pg_guard *g; /* NULL for a libpq with require_auth */
	const volatile sig_atomic_t *stop;
	struct pollfd fds[3];  /* libpq's socket, then the guard's */
	ConnStatusType status; /* a new status or socket is a step */
	int fd;
	long long since; /* ms, when the step began */
	long limit;	 /* ms a step may take, 0: no limit */
};

/* Note a step forward; how long to wait now, in ms. */
static int step_left(struct drive *d)
{
	long long wait = STEP_POLL_MS, left;

	if (PQstatus(d->db) != d->status || PQsocket(d->db) != d->fd) {
		d->status = PQstatus(d->db);
		d->fd = PQsocket(d->db);
		d->since = now_ms();
	}
	left = d->since + d->limit - now_ms();
	if (d->limit && left < wait)
		wait = left;
	return wait < 0 ? 0 : (int)wait;
}

/* Why the connection stops waiting: a signal or the limit; 0 if not. */
static int stopped(const struct drive *d, char *err, size_t errlen)
{
	if (d->stop && *d->stop)
		return store_pg_interrupted(*d->stop, err, errlen);
	if (d->limit && now_ms() >= d->since + d->limit)
		return hb_errorf(err, errlen, -ETIMEDOUT,
				 "no answer from the server within %ld s "
				 "(connect_timeout)",
				 d->limit / 1000);
	return 0;
}

/*
 * Wait until libpq's socket is ready as ps asks (or the guard's, whose
 * bytes are then passed), a signal or the step's limit. Returns 0, or why
 * the connection stops.
 */
static int wait_step(struct drive *d, PostgresPollingStatusType ps, char *err,
		     size_t errlen)
{
	int n = 1, rc;

	d->fds[0] = (struct pollfd){ .fd = PQsocket(d->db),
				     .events = ps == PGRES_POLLING_READING
						       ? POLLIN
						       : POLLOUT };
	if (d->g)
		n += store_pg_guard_fds(d->g, d->fds + 1);
	if (poll(d->fds, (nfds_t)n, step_left(d)) < 0 && errno != EINTR)
		return hb_errorf(err, errlen, -errno, "poll: %s",
				 strerror(errno));
	rc = stopped(d, err, errlen);
	if (!rc && n > 1)
		rc = store_pg_guard_pump(d->g, d->fds + 1, err, errlen);
	return rc;
}

/* Drive libpq's connection, and the guard g (or NULL), to its end. */
static int drive(PGconn *db, struct store_pg_guard *g,
		 const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	PostgresPollingStatusType ps = PGRES_POLLING_WRITING;
	struct drive d = { .db = db,
			   .g = g,
			   .stop = stop,
			   .fd = -2,
			   .limit = step_limit(db) };
	int rc = 0;

	while (!rc && ps != PGRES_POLLING_OK) {
		if (ps == PGRES_POLLING_FAILED)
			return store_pg_message(PQerrorMessage(db), err,
						errlen);
		rc = g ? store_pg_guard_take(g, db, err, errlen) : 0;
		if (!rc)
			rc = wait_step(&d, ps, err, errlen);
		if (!rc && d.fds[0].revents)
			ps = PQconnectPoll(db);
	}
	return rc;
}

/*
 * The guard for a libpq without require_auth, url without the
 * require_auth it cannot parse (*rest), allowing what that require_auth,
 * PGREQUIREAUTH or the store's default says.
 */
static int guard_for(const char *url, char **rest, struct store_pg_guard **g,
		     char *err, size_t errlen)
{
	const char *env = getenv("PGREQUIREAUTH"),
		   *policy = STORE_PG_REQUIRE_AUTH;
	char *require = NULL;
	unsigned allowed;
	int rc = pgurl_take(url, "require_auth", rest, &require);

	if (rc)
		return hb_errorf(err, errlen, rc,
				 rc == -EINVAL ? "require_auth: a '%%' not "
						 "followed by two hex digits"
					       : "out of memory");
	if (require)
		policy = require;
	else if (env && *env)
		policy = env;
	rc = store_pg_auth_parse(policy, &allowed, err, errlen);
	free(require);
	return rc ? rc : store_pg_guard_new(g, allowed);
}

int store_pg_connect(PGconn **db, const char *url,
		     const volatile sig_atomic_t *stop, char *err,
		     size_t errlen)
{
	struct store_pg_guard *g = NULL;
	PQconninfoOption *opts = NULL;
	char *rest = NULL, *msg = NULL;
	int rc = 0;

	*db = NULL;
	if (PQlibVersion() < LIBPQ_REQUIRE_AUTH)
		rc = guard_for(url, &rest, &g, err, errlen);
	if (!rc) {
		opts = PQconninfoParse(rest ? rest : url, &msg);
		rc = opts ? 0 : unparsable(rest ? rest : url, err, errlen);
	}
	if (!rc)
		rc = start(opts, db, err, errlen);
	if (!rc)
		rc = drive(*db, g, stop, err, errlen);
	if (rc) {
		PQfinish(*db); /* NULL is fine */
		*db = NULL;
	}
	store_pg_guard_free(g);
	PQconninfoFree(opts);
	PQfreemem(msg);
	free(rest);
	return rc;
}
