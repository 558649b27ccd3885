/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SQLite backend: one file, write-ahead log and a busy timeout so
 * runs storing at once wait for each other instead of failing.
 */
#define _GNU_SOURCE /* asprintf */
#include "store/store_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fspath.h"
#include "base/util.h"

/* How long a writer waits for another one: a run's store is short. */
#define SQLITE_WAIT_MS	30000
#define SQLITE_CACHED	48
#define SQLITE_MAX_COLS 32

/* A connection and its prepared statements, by their SQL text. */
struct sqlite_conn {
	sqlite3 *db;
	int dir; /* the judged directory the store is opened through */
	struct {
		const char *sql;
		sqlite3_stmt *stmt;
	} cache[SQLITE_CACHED];
	size_t ncache;
};

/*
 * Whether every directory above dir (an absolute path, links resolved) is
 * root's or the caller's, and writable by others (a group of others
 * included: fspath_others_write) only if sticky: else
 * its owner, or anyone who may write to it, could move dir away and put
 * a directory of their own in its place between this check and SQLite's
 * open by name. A sticky directory (/tmp) lets no one move an entry that
 * is not theirs, and the entry below it is checked in turn.
 */
static int store_ancestors(const char *dir, char *err, size_t errlen)
{
	char *up = strdup(dir), *slash;
	struct stat st;
	int rc = 0;

	if (!up)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	while (!rc && (slash = strrchr(up, '/')) != NULL) {
		slash[slash == up] = '\0'; /* "/a" goes up to "/", "/" ends */
		if (lstat(up, &st) != 0)
			rc = hb_errorf(err, errlen, -errno, "%s: %s", up,
				       strerror(errno));
		else if (st.st_uid != geteuid() && st.st_uid != 0)
			rc = hb_errorf(err, errlen, -EPERM,
				       "%s, above the store, is a directory of "
				       "user %u, who could move the store's "
				       "directory away (give a directory of "
				       "your own)",
				       up, (unsigned)st.st_uid);
		else if (fspath_others_write(&st) && !(st.st_mode & S_ISVTX))
			rc = hb_errorf(
				err, errlen, -EPERM,
				"%s, above the store, may be written by "
				"other users (mode %04o, group %u), who could "
				"move the store's directory away (give a "
				"directory of your own)",
				up, (unsigned)(st.st_mode & 07777),
				(unsigned)st.st_gid);
		if (!strcmp(up, "/"))
			break;
	}
	free(up);
	return rc;
}

/*
 * An existing store file must be a regular file of the caller's that no one
 * else may write: another user's file, or one a group of others may write,
 * could have been planted, or be changed after (a trigger, figures x100).
 */
static int store_file_judge(const struct fspath *at, char *err, size_t errlen)
{
	struct stat st;

	if (fstatat(at->dirfd, at->name, &st, AT_SYMLINK_NOFOLLOW))
		return hb_errorf(err, errlen, -errno, "%s: %s", at->name,
				 strerror(errno));
	if (!S_ISREG(st.st_mode))
		return hb_errorf(err, errlen, -EINVAL,
				 "%s is not a regular file", at->name);
	if (st.st_uid != geteuid())
		return hb_errorf(err, errlen, -EPERM,
				 "%s belongs to user %u, not you (a store is "
				 "read back as your own: give a file of your "
				 "own)",
				 at->name, (unsigned)st.st_uid);
	if (fspath_others_write(&st))
		return hb_errorf(err, errlen, -EPERM,
				 "%s may be written by other users (mode "
				 "%04o, group %u; fix: chmod go-w)",
				 at->name, (unsigned)(st.st_mode & 07777),
				 (unsigned)st.st_gid);
	return 0;
}

/*
 * The name SQLite opens the store by: its file in the judged directory
 * through a descriptor of that directory (*dir, the caller's to close),
 * "/proc/self/fd/N/NAME", so that no rename above it between the checks
 * and SQLite's opens (the database, its -wal and -shm) leads elsewhere.
 */
static int store_file_name(const struct fspath *at, int *dir, char **real,
			   char *err, size_t errlen)
{
	*dir = fcntl(at->dirfd, F_DUPFD_CLOEXEC, 3);
	if (*dir < 0)
		return hb_errorf(err, errlen, -errno, "%s", strerror(errno));
	if (asprintf(real, "/proc/self/fd/%d/%s", *dir, at->name) < 0) {
		close(*dir);
		*dir = -1;
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}

/*
 * The store's file at path, walked as every file hostbench writes
 * (base/fspath.h): a link on the way is followed only under the kernel's
 * protected_symlinks rule, a missing directory on the way is made 0700
 * (results are private) only once the walk to it was judged, and the file's
 * directory may not be shared (sticky, or writable by others) nor another
 * user's (root's is fine), where someone else could place the file, or its -wal
 * and -shm files, first, nor below a directory someone else could move it
 * out of (store_ancestors). Creates it 0600 (with no link at its name) unless
 * it exists (then store_file_judge()), since SQLite would make it 0644, and
 * sets *dir and *real as store_file_name() does.
 */
static int store_file(const char *path, int *dir, char **real, char *err,
		      size_t errlen)
{
	struct fspath at;
	char why[512];
	int rc = fspath_walk(&at, path, FSPATH_FOLLOW | FSPATH_MKDIR, why,
			     sizeof(why)),
	    fd;

	if (rc) {
		hb_error_fill(err, errlen, "%s", why);
		goto out_free;
	}
	if (fspath_shared(&at.dst)) {
		rc = hb_errorf(err, errlen, -EPERM,
			       "%s is in the shared directory %s, where "
			       "another user could place the store's files "
			       "(give a directory of your own)",
			       at.name, at.dir);
		goto out_free;
	}
	if (at.dst.st_uid != geteuid() && at.dst.st_uid != 0) {
		rc = hb_errorf(err, errlen, -EPERM,
			       "%s is in %s, a directory of user %u, who could "
			       "replace the store's files (give a directory "
			       "of your own)",
			       at.name, at.dir, (unsigned)at.dst.st_uid);
		goto out_free;
	}
	rc = store_ancestors(at.dir, err, errlen);
	if (rc)
		goto out_free;
	fd = openat(at.dirfd, at.name,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	else if (errno == EEXIST)
		rc = store_file_judge(&at, err, errlen);
	else if (errno != EROFS && errno != EACCES)
		rc = hb_errorf(err, errlen, -errno, "%s", strerror(errno));
	/* else SQLite says why it cannot open it */
	if (!rc)
		rc = store_file_name(&at, dir, real, err, errlen);
out_free:
	fspath_free(&at);
	return rc;
}

static int sqlite_open(struct store *st, const char *path, char *err,
		       size_t errlen)
{
	struct sqlite_conn *c;
	char *real = NULL;
	int dir = -1, rc;

	if (store_sqlite_vfs())
		return hb_errorf(err, errlen, -ENOSYS,
				 "SQLite has no unix VFS to open it with");
	rc = store_file(path, &dir, &real, err, errlen);
	if (rc)
		return rc;
	c = calloc(1, sizeof(*c));
	if (!c) {
		free(real);
		close(dir);
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	}
	c->dir = dir;
	st->conn = c;
	/* one thread uses a connection: no lock around each of its calls */
	rc = sqlite3_open_v2(real, &c->db,
			     SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX |
				     SQLITE_OPEN_NOFOLLOW,
			     STORE_SQLITE_VFS);
	free(real);
	if (rc != SQLITE_OK)
		return hb_errorf(err, errlen, -EIO, "%s",
				 c->db ? sqlite3_errmsg(c->db)
				       : "out of memory");
	sqlite3_busy_timeout(c->db, SQLITE_WAIT_MS);
	/* WAL: readers never block the writer; NORMAL is crash-safe in WAL */
	sqlite3_exec(c->db, "PRAGMA journal_mode=WAL", NULL, NULL, NULL);
	sqlite3_exec(c->db, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL);
	sqlite3_exec(c->db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
	return 0;
}

/* The prepared statement of sql, from the cache or made now. */
static sqlite3_stmt *prepared(struct sqlite_conn *c, const char *sql)
{
	sqlite3_stmt *s = NULL;

	for (size_t i = 0; i < c->ncache; i++)
		if (c->cache[i].sql == sql || strcmp(c->cache[i].sql, sql) == 0)
			return c->cache[i].stmt;
	if (sqlite3_prepare_v2(c->db, sql, -1, &s, NULL) != SQLITE_OK)
		return NULL;
	if (c->ncache < SQLITE_CACHED) {
		c->cache[c->ncache].sql = strdup(sql);
		if (c->cache[c->ncache].sql) {
			c->cache[c->ncache++].stmt = s;
			return s;
		}
	}
	return s; /* uncached: finalized after its use */
}

/* Nonzero when s is in the cache (kept after its use). */
static int cached(const struct sqlite_conn *c, const sqlite3_stmt *s)
{
	for (size_t i = 0; i < c->ncache; i++)
		if (c->cache[i].stmt == s)
			return 1;
	return 0;
}

static int bind_all(sqlite3_stmt *s, const struct store_val *args, size_t nargs)
{
	int rc = SQLITE_OK;

	for (size_t i = 0; i < nargs && rc == SQLITE_OK; i++) {
		int at = (int)i + 1;

		switch (args[i].type) {
		case STORE_TEXT:
			rc = sqlite3_bind_text(s, at, args[i].s, -1,
					       SQLITE_TRANSIENT);
			break;
		case STORE_INT:
			rc = sqlite3_bind_int64(s, at, args[i].i);
			break;
		case STORE_REAL:
			rc = sqlite3_bind_double(s, at, args[i].d);
			break;
		case STORE_BLOB:
			rc = sqlite3_bind_blob64(s, at, args[i].s, args[i].n,
						 SQLITE_TRANSIENT);
			break;
		default:
			rc = sqlite3_bind_null(s, at);
		}
	}
	return rc;
}

/* The columns of the current row of s as values into v. */
static size_t row_values(sqlite3_stmt *s, struct store_val *v)
{
	int n = sqlite3_column_count(s);

	if (n > SQLITE_MAX_COLS)
		n = SQLITE_MAX_COLS;
	for (int i = 0; i < n; i++) {
		switch (sqlite3_column_type(s, i)) {
		case SQLITE_INTEGER:
			v[i] = store_int(sqlite3_column_int64(s, i));
			v[i].d = (double)v[i].i;
			break;
		case SQLITE_FLOAT:
			v[i] = store_real(sqlite3_column_double(s, i));
			v[i].i = (long long)v[i].d;
			break;
		case SQLITE_NULL:
			v[i] = (struct store_val){ .type = STORE_NULL };
			break;
		case SQLITE_BLOB:
			v[i] = store_blob(sqlite3_column_blob(s, i),
					  (size_t)sqlite3_column_bytes(s, i));
			break;
		default:
			v[i] = store_text(
				(const char *)sqlite3_column_text(s, i));
		}
	}
	return (size_t)n;
}

static int sqlite_exec(struct store *st, const char *sql,
		       const struct store_val *args, size_t nargs,
		       store_row_fn row, void *arg, char *err, size_t errlen)
{
	struct sqlite_conn *c = st->conn;
	struct store_val v[SQLITE_MAX_COLS];
	sqlite3_stmt *s = prepared(c, sql);
	int rc, stop = 0;

	if (!s)
		return hb_errorf(err, errlen, -EIO, "%s",
				 sqlite3_errmsg(c->db));
	rc = bind_all(s, args, nargs);
	while (rc == SQLITE_OK || rc == SQLITE_ROW) {
		rc = sqlite3_step(s);
		if (rc == SQLITE_ROW && row) {
			stop = row(arg, v, row_values(s, v));
			if (stop)
				break;
		}
	}
	if (rc != SQLITE_DONE && !stop)
		hb_error_fill(err, errlen, "%s", sqlite3_errmsg(c->db));
	sqlite3_reset(s);
	sqlite3_clear_bindings(s);
	if (!cached(c, s))
		sqlite3_finalize(s);
	if (stop)
		return stop;
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static void sqlite_close(struct store *st)
{
	struct sqlite_conn *c = st->conn;

	for (size_t i = 0; i < c->ncache; i++) {
		sqlite3_finalize(c->cache[i].stmt);
		free((char *)c->cache[i].sql);
	}
	sqlite3_close(c->db);
	close(c->dir);
	free(c);
	st->conn = NULL;
}

const struct store_ops store_sqlite_ops = {
	.name = "sqlite",
	.open = sqlite_open,
	.exec = sqlite_exec,
	.close = sqlite_close,
	/* take the write lock now: a later upgrade could deadlock */
	.begin = "BEGIN IMMEDIATE",
	.lock = NULL,
};
