/* SPDX-License-Identifier: Apache-2.0 */
/* A report into the store's rows (store_put(); import/ stores through it). */
#ifndef HB_CORE_STORE_STORE_PUT_H
#define HB_CORE_STORE_STORE_PUT_H

#include "store/store_int.h"

/*
 * Store report in one transaction as store_put() does, uuid and time
 * standing in for a report without "run" (its uuid, its start). text,
 * when not NULL, is report's compact JSON text, stored as it is instead
 * of written out again (one host's report only). t counts the host
 * reports newly stored and names those stored already. Returns 0 or a
 * negative code (-EINVAL: refused, as store_put() says).
 */
int store_put_as(struct store *st, const json_t *report, const char *text,
		 const char *uuid, const char *time, struct store_tally *t,
		 char *err, size_t errlen);

/* A uuid-shaped name (version 8, "custom") of SHA-256(data). */
void store_uuid_of(const void *data, size_t len, char out[37]);

#endif
