/* SPDX-License-Identifier: Apache-2.0 */
/* The PostgreSQL backend (libpq): a lab's shared store. */
#include "store/store_int.h"

#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define PG_MAX_ARGS 32
#define PG_MAX_COLS 32

/* PostgreSQL type oids (catalog/pg_type.h) the store reads as numbers. */
enum {
	PG_INT8 = 20,
	PG_INT2 = 21,
	PG_INT4 = 23,
	PG_FLOAT4 = 700,
	PG_FLOAT8 = 701,
	PG_NUMERIC = 1700
};

/* libpq's message on one line, without its newlines. */
static int pg_error(PGconn *db, const char *what, char *err, size_t errlen)
{
	char *p;

	hb_error_fill(err, errlen, "%s%s", what, PQerrorMessage(db));
	for (p = err; p && *p; p++)
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
	while (p && p > err && p[-1] == ' ')
		*--p = '\0';
	return -EIO;
}

/* NOTICEs (CREATE TABLE IF NOT EXISTS says one) are not the user's. */
static void quiet(void *arg, const char *message)
{
	(void)arg;
	(void)message;
}

static int pg_open(struct store *st, const char *url, char *err, size_t errlen)
{
	PGconn *db = PQconnectdb(url);

	if (!db)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	st->conn = db;
	if (PQstatus(db) != CONNECTION_OK)
		return pg_error(db, "", err, errlen);
	PQsetNoticeProcessor(db, quiet, NULL);
	return 0;
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

/* Every row of res through row; its first nonzero return. */
static int rows(PGresult *res, store_row_fn row, void *arg)
{
	struct store_val v[PG_MAX_COLS];
	int nc = PQnfields(res), rc = 0;

	if (nc > PG_MAX_COLS)
		nc = PG_MAX_COLS;
	for (int r = 0; r < PQntuples(res) && !rc; r++) {
		for (int c = 0; c < nc; c++)
			v[c] = column(res, r, c);
		rc = row(arg, v, (size_t)nc);
	}
	return rc;
}

static int pg_exec(struct store *st, const char *sql,
		   const struct store_val *args, size_t nargs, store_row_fn row,
		   void *arg, char *err, size_t errlen)
{
	char num[PG_MAX_ARGS][32];
	const char *values[PG_MAX_ARGS];
	char *text = numbered(sql);
	PGresult *res;
	int rc = 0;

	if (!text || nargs > PG_MAX_ARGS) {
		free(text);
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < nargs; i++) {
		values[i] = num[i];
		if (args[i].type == STORE_TEXT)
			values[i] = args[i].s;
		else if (args[i].type == STORE_INT)
			snprintf(num[i], sizeof(num[i]), "%lld", args[i].i);
		else if (args[i].type == STORE_REAL)
			snprintf(num[i], sizeof(num[i]), "%.17g", args[i].d);
		else
			values[i] = NULL;
	}
	res = PQexecParams(st->conn, text, (int)nargs, NULL, values, NULL, NULL,
			   0);
	free(text);
	if (PQresultStatus(res) != PGRES_COMMAND_OK &&
	    PQresultStatus(res) != PGRES_TUPLES_OK)
		rc = pg_error(st->conn, "", err, errlen);
	else if (row)
		rc = rows(res, row, arg);
	PQclear(res);
	return rc;
}

static void pg_close(struct store *st)
{
	PQfinish(st->conn);
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
