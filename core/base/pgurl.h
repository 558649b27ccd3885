/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A PostgreSQL connection URL ("postgresql://..." or "postgres://...")
 * read the way libpq reads it (conninfo_uri_parse_options() and
 * conninfo_uri_parse_params() in libpq's fe-connect.c), so that what is
 * shown of it hides what libpq would take as a password:
 * - the user info runs to the first '@' before any '/', and its password
 *   from its first ':' to that '@': a password may hold '?' or '#', which
 *   libpq does not treat as a query or a fragment;
 * - a query parameter's key is percent-decoded before libpq looks it up:
 *   "pass%77ord=" is a password as much as "password=".
 * Pure (no I/O), so it is unit tested and fuzzed.
 */
#ifndef HB_CORE_BASE_PGURL_H
#define HB_CORE_BASE_PGURL_H

#include <stddef.h>

/*
 * The length of url's scheme ("postgresql://" or "postgres://", as libpq
 * spells them), 0 when url is not a libpq URL.
 */
size_t pgurl_prefix(const char *url);

/*
 * url into out (len bytes, cut short when too small; out may be NULL
 * with len 0) with the value of every secret field replaced by stand_in:
 * the password of the user info, and the value of every query parameter
 * whose decoded key is not a keyword libpq shows in clear ("password",
 * "sslpassword", and any key libpq does not know or cannot decode, which
 * it refuses). The rest is copied as written. Returns the length of the
 * whole masked text (as snprintf does).
 */
size_t pgurl_mask(const char *url, const char *stand_in, char *out, size_t len);

/*
 * Where the first libpq URL in text starts ("--store=postgresql://..."),
 * or NULL when there is none.
 */
const char *pgurl_find(const char *text);

/*
 * url without any query parameter whose decoded key is key, into *rest,
 * and the decoded value of the last of them into *value (NULL when there
 * is none), as libpq keeps the last: both malloc'd, the caller's. Returns
 * 0, -EINVAL when that value is not valid percent-encoding (*rest and
 * *value NULL), or -ENOMEM.
 */
int pgurl_take(const char *url, const char *key, char **rest, char **value);

#endif
