/*
 * Parameters of saved reports compared by value: a report that went
 * through jq has 10.0 written as 10 (and the other way round), and the
 * same case must still match.
 */
#ifndef HB_CORE_COMPARE_PARAM_H
#define HB_CORE_COMPARE_PARAM_H

#include <jansson.h>

/*
 * Nonzero when a and b are the same parameter value: two numbers when
 * their values are equal (10 == 10.0), anything else when json_equal()
 * says so ("10" is not 10). NULL equals only NULL. Pure.
 */
int param_equal(const json_t *a, const json_t *b);

/*
 * A copy of params (an object, or NULL for {}) where every number with a
 * whole value is an integer, so that two copies are equal as JSON (and
 * print the same) exactly when param_equal() holds for every key. A new
 * reference, or NULL when out of memory.
 */
json_t *param_canonical(const json_t *params);

#endif
