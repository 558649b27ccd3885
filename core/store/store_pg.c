/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The PostgreSQL backend (libpq): a lab's shared store. Statements go
 * out and results come back without blocking in libpq, so a stop signal
 * cancels the statement under way at once (docs/reliability.md).
 */
#include "store/store_int.h"

#include <errno.h>
#include <limits.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/store_pg.h"

#define PG_MAX_ARGS 32
#define PG_MAX_COLS 32

/* How often a wait looks at the stop flag, whatever wakes it. */
#define WAIT_POLL_MS 250

/* PostgreSQL type oids (catalog/pg_type.h) read as numbers or bytes. */
enum {
	PG_BYTEA = 17,
	PG_INT8 = 20,
	PG_INT2 = 21,
	PG_INT4 = 23,
	PG_FLOAT4 = 700,
	PG_FLOAT8 = 701,
	PG_NUMERIC = 1700
};

/* What st->conn holds: the connection and what cancels its statement. */
struct pg {
	PGconn *db;
	PGcancel *cancel;
};

/*
 * What every session of the store sets, unless the client (the URL's
 * options, PGOPTIONS) set it: a statement that waits on another
 * session's lock, or runs away, ends with an error instead of holding
 * the run (docs/reliability.md).
 */
static const char session_sql[] =
	"SELECT set_config(d.name, d.value, false) FROM (VALUES "
	"('lock_timeout', '10s'), ('statement_timeout', '5min')) "
	"AS d(name, value) JOIN pg_settings s ON s.name = d.name "
	"WHERE s.source <> 'client'";

/* NOTICEs (CREATE TABLE IF NOT EXISTS says one) are not the user's. */
static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

/*
 * A stop signal came while the server works: cancel the statement there
 * (the transaction then rolls back) and say so.
 */
static int stopped(struct pg *pg, int sig, char *err, size_t errlen)
{
	char why[256];

	if (pg->cancel)
		PQcancel(pg->cancel, why, sizeof(why));
	return store_pg_interrupted(sig, err, errlen);
}

/*
 * Wait until libpq's socket is ready for events, looking at the stop flag
 * whatever wakes the wait. Returns 0 or a negative code.
 */
static int wait_socket(struct store *st, short events, char *err, size_t errlen)
{
	struct pg *pg = st->conn;
	struct pollfd p = { .fd = PQsocket(pg->db), .events = events };
	int n;

	do {
		n = poll(&p, 1, WAIT_POLL_MS);
		if (n < 0 && errno != EINTR)
			return hb_errorf(err, errlen, -errno, "poll: %s",
					 strerror(errno));
		if (st->stop && *st->stop)
			return stopped(pg, *st->stop, err, errlen);
	} while (n <= 0);
	return 0;
}

/* Read what the server sent; libpq's message on error. */
static int consume(PGconn *db, char *err, size_t errlen)
{
	return PQconsumeInput(db)
		       ? 0
		       : store_pg_message(PQerrorMessage(db), err, errlen);
}

/* Send what libpq holds for the server. Returns 0 or a negative code. */
static int send_all(struct store *st, char *err, size_t errlen)
{
	PGconn *db = ((struct pg *)st->conn)->db;
	int f = 0, rc = 0;

	while (!rc && (f = PQflush(db)) == 1) {
		rc = wait_socket(st, POLLIN | POLLOUT, err, errlen);
		if (!rc)
			rc = consume(db, err, errlen);
	}
	if (!rc && f < 0)
		rc = store_pg_message(PQerrorMessage(db), err, errlen);
	return rc;
}

static int pg_open(struct store *st, const char *url, char *err, size_t errlen)
{
	struct pg *pg = calloc(1, sizeof(*pg));
	int rc;

	if (!pg)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	st->conn = pg;
	rc = store_pg_connect(&pg->db, url, st->stop, err, errlen);
	if (rc)
		return rc;
	PQsetNoticeProcessor(pg->db, quiet, NULL);
	pg->cancel = PQgetCancel(pg->db);
	if (!pg->cancel || PQsetnonblocking(pg->db, 1))
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	return store_exec(st, session_sql, NULL, 0, err, errlen);
}

/* sql with its '?' placeholders as $1, $2, ... (quoted text skipped). */
static char *numbered(const char *sql)
{
	char *out = malloc(strlen(sql) * 4 + 1), *o = out;
	char quote = 0;
	int n = 0;

	if (!out)
		return NULL;
	for (const char *p = sql; *p; p++) {
		if (quote && *p == quote)
			quote = 0;
		else if (!quote && (*p == '\'' || *p == '"'))
			quote = *p;
		if (!quote && *p == '?')
			o += sprintf(o, "$%d", ++n);
		else
			*o++ = *p;
	}
	*o = '\0';
	return out;
}

/* One column of row r of res as a value. */
static struct store_val column(PGresult *res, int r, int c)
{
	const char *s = PQgetvalue(res, r, c);
	struct store_val v = store_text(s);

	if (PQgetisnull(res, r, c))
		return (struct store_val){ .type = STORE_NULL };
	switch (PQftype(res, c)) {
	case PG_INT2:
	case PG_INT4:
	case PG_INT8:
		v = store_int(strtoll(s, NULL, 10));
		v.d = (double)v.i;
		break;
	case PG_FLOAT4:
	case PG_FLOAT8:
	case PG_NUMERIC:
		v = store_real(strtod(s, NULL));
		v.i = (long long)v.d;
		break;
	default:
		break;
	}
	return v;
}

/*
 * A BYTEA column (text format: "\\x" and hex) as its bytes into *v,
 * malloc'd into *own. Returns 0 or -ENOMEM.
 */
static int bytes_of(struct store_val *v, unsigned char **own)
{
	size_t n = 0;

	*own = PQunescapeBytea((const unsigned char *)v->s, &n);
	if (!*own)
		return -ENOMEM;
	*v = store_blob(*own, n);
	return 0;
}

/* Row r of res into v (nc columns), BYTEA bytes malloc'd into own. */
static int row_of(PGresult *res, int r, int nc, struct store_val *v,
		  unsigned char **own)
{
	int rc = 0;

	for (int c = 0; c < nc; c++) {
		v[c] = column(res, r, c);
		own[c] = NULL;
		if (!rc && v[c].type == STORE_TEXT &&
		    PQftype(res, c) == PG_BYTEA)
			rc = bytes_of(&v[c], &own[c]);
	}
	return rc;
}

/* Every row of res through row; its first nonzero return. */
static int rows(PGresult *res, store_row_fn row, void *arg)
{
	struct store_val v[PG_MAX_COLS];
	unsigned char *own[PG_MAX_COLS];
	int nc = PQnfields(res), rc = 0;

	if (nc > PG_MAX_COLS)
		nc = PG_MAX_COLS;
	for (int r = 0; r < PQntuples(res) && !rc; r++) {
		rc = row_of(res, r, nc, v, own);
		if (!rc)
			rc = row(arg, v, (size_t)nc);
		for (int c = 0; c < nc; c++)
			PQfreemem(own[c]);
	}
	return rc;
}

/* The parameters of a statement as libpq takes them. */
struct pg_params {
	char num[PG_MAX_ARGS][32]; /* numbers as text */
	const char *values[PG_MAX_ARGS];
	int lengths[PG_MAX_ARGS]; /* a binary value's bytes */
	int formats[PG_MAX_ARGS]; /* 1: binary (BYTEA), 0: text */
};

/*
 * The values of args into p: text, NULL for SQL's NULL, bytes (a BLOB)
 * bound as binary with their length, as they are.
 */
static void bind_args(const struct store_val *args, size_t nargs,
		      struct pg_params *p)
{
	for (size_t i = 0; i < nargs; i++) {
		p->values[i] = p->num[i];
		p->lengths[i] = 0;
		p->formats[i] = 0;
		if (args[i].type == STORE_TEXT)
			p->values[i] = args[i].s;
		else if (args[i].type == STORE_INT)
			snprintf(p->num[i], sizeof(p->num[i]), "%lld",
				 args[i].i);
		else if (args[i].type == STORE_REAL)
			snprintf(p->num[i], sizeof(p->num[i]), "%.17g",
				 args[i].d);
		else if (args[i].type == STORE_BLOB) {
			p->values[i] = args[i].s;
			p->lengths[i] = (int)args[i].n;
			p->formats[i] = 1;
		} else
			p->values[i] = NULL;
	}
}

/* The next result of the statement sent (NULL after the last). */
static int next_result(struct store *st, PGresult **res, char *err,
		       size_t errlen)
{
	PGconn *db = ((struct pg *)st->conn)->db;
	int rc = 0;

	while (!rc && PQisBusy(db))
		rc = wait_socket(st, POLLIN, err, errlen)
			     ?: consume(db, err, errlen);
	*res = rc ? NULL : PQgetResult(db);
	return rc;
}

/*
 * The result of the statement sent: its rows through row (may be NULL),
 * or its error. The statement is read to its end first: a row may run a
 * statement of its own.
 */
static int results(struct store *st, store_row_fn row, void *arg, char *err,
		   size_t errlen)
{
	PGresult *res, *extra;
	int rc = next_result(st, &res, err, errlen);

	while (!rc && res && !(rc = next_result(st, &extra, err, errlen)) &&
	       extra)
		PQclear(extra);
	if (!rc && res && PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = store_pg_message(PQresultErrorMessage(res), err, errlen);
	else if (!rc && res && row && (rc = rows(res, row, arg)) == -ENOMEM)
		hb_error_fill(err, errlen, "out of memory");
	PQclear(res);
	return rc;
}

static int pg_exec(struct store *st, const char *sql,
		   const struct store_val *args, size_t nargs, store_row_fn row,
		   void *arg, char *err, size_t errlen)
{
	struct pg_params p;
	PGconn *db = ((struct pg *)st->conn)->db;
	char *text;
	int rc;

	if (st->stop && *st->stop) /* the statement before was cancelled */
		return store_pg_interrupted(*st->stop, err, errlen);
	text = numbered(sql);
	if (!text || nargs > PG_MAX_ARGS) {
		free(text);
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nargs; i++)
		if (args[i].type == STORE_BLOB && args[i].n > INT_MAX) {
			free(text);
			return hb_errorf(err, errlen, -E2BIG,
					 "a value of %zu bytes: more than "
					 "PostgreSQL takes in one",
					 args[i].n);
		}
	bind_args(args, nargs, &p);
	if (PQsendQueryParams(db, text, (int)nargs, NULL, p.values, p.lengths,
			      p.formats, 0))
		rc = send_all(st, err, errlen);
	else
		rc = store_pg_message(PQerrorMessage(db), err, errlen);
	free(text);
	return rc ? rc : results(st, row, arg, err, errlen);
}

static void pg_close(struct store *st)
{
	struct pg *pg = st->conn;

	PQfreeCancel(pg->cancel);
	PQfinish(pg->db); /* NULL is fine */
	free(pg);
	st->conn = NULL;
}

const struct store_ops store_pg_ops = {
	.name = "postgresql",
	.open = pg_open,
	.exec = pg_exec,
	.close = pg_close,
	.begin = "BEGIN",
	/* two first runs of a lab must not both create the tables */
	.lock = "SELECT pg_advisory_xact_lock(7268530)",
};
