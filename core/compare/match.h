/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which results of saved reports are the same case: what compare pairs and
 * merge puts on one row. Parameters are matched by value (5 and 5.0 are the
 * same size), and with compare --by the cases may differ in one key.
 */
#ifndef HB_CORE_COMPARE_MATCH_H
#define HB_CORE_COMPARE_MATCH_H

#include <stdio.h>

#include <jansson.h>

#include "compare/report_read.h"

/*
 * Nonzero when two parameter values as a report wrote them are equal:
 * numbers by value (an integer and a real alike), anything else by type
 * and value (1048576 and "1048576" differ). Two absent values are equal.
 */
int match_param_equal(const json_t *a, const json_t *b);

/*
 * Nonzero when a and b are the same case: the same job and target, and
 * the same backend and parameters but for key by (NULL: every one counts).
 * A parameter only one side has counts only when both sides run the same
 * backend: OpenSSL's provider does not keep it from matching gcrypt.
 */
int match_case(const struct doc_result *a, const struct doc_result *b,
	       const char *by);

/*
 * Nonzero when d's value of key ("backend" or a parameter) is text as the
 * user typed it: "gcrypt", "4", "1M" (sizes by value), "true".
 */
int match_value_is(const struct doc_result *d, const char *key,
		   const char *text);

/*
 * d's value of key as a user would type it for match_value_is() ("gcrypt",
 * "4", "64K" for 65536, "true") into buf. Returns 0, or -ENOENT when d
 * has no such key.
 */
int match_value_text(const struct doc_result *d, const char *key, char *buf,
		     size_t len);

/*
 * An index of results by what match_case() cannot tell apart, so that
 * finding a result's case among n is not a walk over all n: a key of the
 * job, the target, and (unless by is "backend") the backend and every
 * parameter but by. Two results that match_case() pairs have one key;
 * two with one key may still differ, so the caller asks match_case() of
 * each candidate. by is kept by pointer.
 */
struct match_index {
	json_t *buckets; /* key -> [value, ...] in the order added */
	const char *by;
	FILE *keys; /* a memory stream each key is written on, in turn */
	char *text; /* its buffer */
	size_t len;
};

/* An empty index for match_case(., ., by). Returns 0 or -ENOMEM. */
int match_index_init(struct match_index *ix, const char *by);

/* Add value (an index of the caller's) under r's key. 0 or -ENOMEM. */
int match_index_add(struct match_index *ix, const struct doc_result *r,
		    size_t value);

/*
 * Set *values to the values added under r's key, in the order added, as a
 * JSON array of integers (NULL when none). Returns 0 or -ENOMEM.
 */
int match_index_get(const struct match_index *ix, const struct doc_result *r,
		    const json_t **values);

void match_index_free(struct match_index *ix);

#endif
