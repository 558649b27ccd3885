/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which results of saved reports are the same case: what compare pairs and
 * merge puts on one row. Parameters are matched by value (5 and 5.0 are the
 * same size), and with compare --by the cases may differ in one key.
 */
#ifndef HB_CORE_COMPARE_MATCH_H
#define HB_CORE_COMPARE_MATCH_H

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

#endif
