/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every statement of a store goes through: its backend's exec, the
 * transactions, and the password masked in every message.
 */
#include "store/store_int.h"

#include <string.h>

void store_mask(const struct store *st, char *err)
{
	size_t n = st->secret ? strlen(st->secret) : 0;
	size_t stars = n < 3 ? n : 3;
	char *at = err;

	if (!n || !err)
		return;
	while ((at = strstr(at, st->secret)) != NULL) {
		memmove(at + stars, at + n, strlen(at + n) + 1);
		memset(at, '*', stars);
		at += stars;
	}
}

int store_query(struct store *st, const char *sql, const struct store_val *args,
		size_t nargs, store_row_fn row, void *arg, char *err,
		size_t errlen)
{
	int rc = st->ops->exec(st, sql, args, nargs, row, arg, err, errlen);

	if (rc)
		store_mask(st, err);
	return rc;
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
