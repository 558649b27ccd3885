/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing JSON with jansson the same way everywhere: text that is not
 * UTF-8 is cleaned instead of failing, numbers that are not finite become
 * null, and a failed allocation marks the whole document bad once.
 */
#ifndef HB_CORE_BASE_JSONW_H
#define HB_CORE_BASE_JSONW_H

#include <jansson.h>

/*
 * s as JSON text, or null for NULL; bytes of a string that is not UTF-8
 * show as '?'. NULL only when out of memory.
 */
json_t *jsonw_text(const char *s);

/* A number, or null when it is not finite (JSON has no NaN). */
json_t *jsonw_number(double v);

/* obj[key] = value (key cleaned like jsonw_text); any failure sets *bad. */
void jsonw_set(json_t *obj, const char *key, json_t *value, int *bad);

/* Append value to arr; any failure sets *bad. */
void jsonw_push(json_t *arr, json_t *value, int *bad);

#endif
