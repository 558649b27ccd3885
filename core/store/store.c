/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which store a URL names, and opening it with its backend (its
 * statements go through store_sql.c).
 */
#include "store/store_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "base/digest.h"
#include "base/pgurl.h"
#include "base/util.h"

/* The backends, by URL scheme. */
static const struct {
	const char *prefix;
	const struct store_ops *ops;
	int keep_prefix; /* libpq takes the whole URL */
} schemes[] = {
	{ "sqlite:", &store_sqlite_ops, 0 },
	{ "postgresql://", &store_pg_ops, 1 },
	{ "postgres://", &store_pg_ops, 1 },
};

#define NSCHEMES (sizeof(schemes) / sizeof(schemes[0]))

/* st->where: url, every password of a libpq URL masked. 0 or -ENOMEM. */
static int set_where(struct store *st, const char *url)
{
	size_t n = pgurl_mask(url, "***", NULL, 0) + 1;

	st->where = malloc(n);
	if (!st->where)
		return -ENOMEM;
	pgurl_mask(url, "***", st->where, n);
	return 0;
}

int store_off(const char *url)
{
	const char *v = url ? url : getenv("HOSTBENCH_STORE");

	return v && strcmp(v, "none") == 0;
}

/* The default store's URL into buf: HOSTBENCH_STORE or the XDG path. */
static int default_url(char *buf, size_t len)
{
	const char *env = getenv("HOSTBENCH_STORE"),
		   *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	int n;

	if (env && *env)
		n = snprintf(buf, len, "%s", env);
	else if (xdg && *xdg == '/')
		n = snprintf(buf, len, "sqlite:%s/hostbench/results.db", xdg);
	else if (home && *home)
		n = snprintf(buf, len,
			     "sqlite:%s/.local/share/hostbench/results.db",
			     home);
	else
		return -ENOENT;
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* The backend of url and what it connects to; NULL for an unknown one. */
static const struct store_ops *pick_backend(const char *url,
					    const char **target)
{
	for (size_t i = 0; i < NSCHEMES; i++) {
		size_t n = strlen(schemes[i].prefix);

		if (strncmp(url, schemes[i].prefix, n) == 0) {
			*target = schemes[i].keep_prefix ? url : url + n;
			return schemes[i].ops;
		}
	}
	return NULL;
}

int store_exists(const char *url)
{
	const char *target = NULL;
	char buf[4096];
	struct stat sb;

	if (!url && default_url(buf, sizeof(buf)))
		return 0;
	if (pick_backend(url ? url : buf, &target) != &store_sqlite_ops)
		return 1;
	return stat(target, &sb) == 0;
}

/* Open st at url: connect, then create or migrate the schema. */
static int connect_and_migrate(struct store *st, const char *url, char *err,
			       size_t errlen)
{
	const char *target = NULL;
	char why[1024] = "";
	int rc;

	st->ops = pick_backend(url, &target);
	if (!st->ops)
		rc = hb_errorf(why, sizeof(why), -EINVAL,
			       "not a store URL (sqlite:PATH or "
			       "postgresql://...)");
	else if (!*target)
		rc = hb_errorf(why, sizeof(why), -EINVAL, "no path");
	else
		rc = st->ops->open(st, target, why, sizeof(why));
	if (!rc)
		rc = store_schema_migrate(st, why, sizeof(why));
	if (rc)
		hb_error_fill(err, errlen, "store %s: %s", st->where, why);
	return rc;
}

int store_open(struct store **out, const char *url,
	       const volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	char buf[4096];
	struct store *st;
	int rc;

	*out = NULL;
	if (!url) {
		rc = default_url(buf, sizeof(buf));
		if (rc)
			return hb_errorf(err, errlen, rc,
					 "store: no HOSTBENCH_STORE, "
					 "XDG_DATA_HOME or HOME to put it in");
		url = buf;
	}
	st = calloc(1, sizeof(*st));
	if (st)
		st->stop = stop;
	if (!st || set_where(st, url)) {
		store_close(st);
		return hb_errorf(err, errlen, -ENOMEM, "store: out of memory");
	}
	rc = connect_and_migrate(st, url, err, errlen);
	if (rc) {
		store_close(st);
		return rc;
	}
	*out = st;
	return 0;
}

void store_hash_id(const char *prefix, const char *text, size_t len,
		   unsigned hexlen, char *out, size_t outlen)
{
	uint8_t d[32];
	size_t n = (size_t)snprintf(out, outlen, "%s", prefix);

	digest_sha256(text, len, d);
	for (unsigned i = 0; i < hexlen && i < 64 && n + 2 < outlen; i++)
		n += (size_t)snprintf(out + n, outlen - n, "%x",
				      (d[i / 2] >> (i % 2 ? 0 : 4)) & 0xf);
}

char *store_join(const char *a, const char *b, const char *c)
{
	size_t n = strlen(a ? a : "") + strlen(b ? b : "") +
		   strlen(c ? c : "") + 3;
	char *out = malloc(n);

	if (out)
		snprintf(out, n, "%s\n%s\n%s", a ? a : "", b ? b : "",
			 c ? c : "");
	return out;
}

void store_now(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	snprintf(buf, len, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000);
}

const char *store_where(const struct store *st)
{
	return st->where;
}

void store_close(struct store *st)
{
	if (!st)
		return;
	if (st->ops && st->conn)
		st->ops->close(st);
	free(st->where);
	free(st);
}
