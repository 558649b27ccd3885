/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every statement of a store goes through: its backend's exec and
 * the transactions. Messages are the database's own, left as they are:
 * neither libpq nor SQLite puts a password in one.
 */
#include "store/store_int.h"

int store_query(struct store *st, const char *sql, const struct store_val *args,
		size_t nargs, store_row_fn row, void *arg, char *err,
		size_t errlen)
{
	return st->ops->exec(st, sql, args, nargs, row, arg, err, errlen);
}

int store_exec(struct store *st, const char *sql, const struct store_val *args,
	       size_t nargs, char *err, size_t errlen)
{
	return store_query(st, sql, args, nargs, NULL, NULL, err, errlen);
}

int store_begin(struct store *st, char *err, size_t errlen)
{
	return store_exec(st, st->ops->begin, NULL, 0, err, errlen);
}

int store_end(struct store *st, int rc, char *err, size_t errlen)
{
	char ignored[256];

	if (rc) {
		store_exec(st, "ROLLBACK", NULL, 0, ignored, sizeof(ignored));
		return rc;
	}
	return store_exec(st, "COMMIT", NULL, 0, err, errlen);
}
