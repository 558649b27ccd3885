/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the files of store/ share: the backend table (one per database
 * kind, designated initializers as fio's ioengine_ops), typed values for
 * bound parameters and result rows, and the store itself.
 */
#ifndef HB_CORE_STORE_STORE_INT_H
#define HB_CORE_STORE_STORE_INT_H

#include <signal.h>
#include <stddef.h>

#include "store/store.h"

/* A bound parameter or a column's value. */
enum store_type { STORE_NULL, STORE_TEXT, STORE_INT, STORE_REAL, STORE_BLOB };

struct store_val {
	enum store_type type;
	const char *s; /* STORE_TEXT, or STORE_BLOB's bytes */
	long long i;   /* STORE_INT */
	double d;      /* STORE_REAL */
	size_t n;      /* STORE_BLOB: how many bytes s holds */
};

/* Text s as a value; NULL is SQL's NULL. */
static inline struct store_val store_text(const char *s)
{
	return (struct store_val){ .type = s ? STORE_TEXT : STORE_NULL,
				   .s = s };
}

/* n bytes at p as a binary value (BLOB, BYTEA). */
static inline struct store_val store_blob(const void *p, size_t n)
{
	return (struct store_val){ .type = STORE_BLOB, .s = p, .n = n };
}

static inline struct store_val store_int(long long i)
{
	return (struct store_val){ .type = STORE_INT, .i = i };
}

static inline struct store_val store_real(double d)
{
	return (struct store_val){ .type = STORE_REAL, .d = d };
}

/* Called for each row of a query; nonzero stops it and is returned. */
typedef int (*store_row_fn)(void *arg, const struct store_val *cols,
			    size_t ncols);

/*
 * One kind of database. SQL is portable with '?' placeholders (a backend
 * rewrites them to its own); where the dialects differ, the table gives
 * the backend's string.
 */
struct store_ops {
	const char *name; /* "sqlite", "postgresql" */
	/* connect to target (a path or a libpq URL); fills st->conn */
	int (*open)(struct store *st, const char *target, char *err,
		    size_t errlen);
	/* run one statement with args bound; row (may be NULL) per row */
	int (*exec)(struct store *st, const char *sql,
		    const struct store_val *args, size_t nargs,
		    store_row_fn row, void *arg, char *err, size_t errlen);
	void (*close)(struct store *st);
	const char *begin; /* a transaction that will write */
	const char *lock;  /* serializes migrations, NULL when begin does */
};

extern const struct store_ops store_sqlite_ops;

/* The name of the VFS store_sqlite_vfs() registers. */
#define STORE_SQLITE_VFS "hostbench-dirfd"

/*
 * Register (once) the SQLite VFS that opens names through a directory's
 * descriptor without resolving links (store_sqlite_vfs.c). 0, or -1
 * when SQLite has no unix VFS to wrap.
 */
int store_sqlite_vfs(void);
extern const struct store_ops store_pg_ops;

struct store {
	const struct store_ops *ops;
	void *conn;
	char *where; /* URL, every password masked (base/pgurl.h) */
	/* nonzero once a signal asks to stop (store_open()); or NULL */
	const volatile sig_atomic_t *stop;
};

/* Run sql with args, no rows wanted. */
int store_exec(struct store *st, const char *sql, const struct store_val *args,
	       size_t nargs, char *err, size_t errlen);

/* Run sql, row called per row. */
int store_query(struct store *st, const char *sql, const struct store_val *args,
		size_t nargs, store_row_fn row, void *arg, char *err,
		size_t errlen);

/* Begin a writing transaction; store_end() commits (rc 0) or rolls back. */
int store_begin(struct store *st, char *err, size_t errlen);
int store_end(struct store *st, int rc, char *err, size_t errlen);

/* Create the tables or bring them to STORE_SCHEMA_VERSION (store_schema.c). */
int store_schema_migrate(struct store *st, char *err, size_t errlen);

/* "prefix-" and the first hexlen hex digits of SHA-256(text) into out. */
void store_hash_id(const char *prefix, const char *text, size_t len,
		   unsigned hexlen, char *out, size_t outlen);

/* "a\nb\nc" (NULL as ""), malloc'd; NULL when out of memory. */
char *store_join(const char *a, const char *b, const char *c);

/*
 * A run's report text as kept in run.report_z (schema 4): an xz stream
 * (store_report.c). *out malloc'd, *outlen its bytes. Returns 0 or
 * -ENOMEM.
 */
int store_report_pack(const char *text, size_t len, unsigned char **out,
		      size_t *outlen, char *err, size_t errlen);

/* The current UTC time as RFC 3339 with milliseconds. */
void store_now(char *buf, size_t len);

/*
 * Does a case (its job, title or target; NULL reads "") match the
 * fnmatch(3) pattern of --case? A NULL pattern matches every case.
 */
int store_case_matches(const char *pattern, const char *job, const char *title,
		       const char *target);

#endif
