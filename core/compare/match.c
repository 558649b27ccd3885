/* SPDX-License-Identifier: Apache-2.0 */
/* Matching the results of saved reports: by case, by value. */
#include "compare/match.h"

#include <stdlib.h>
#include <string.h>

#include "base/parse.h"

int match_param_equal(const json_t *a, const json_t *b)
{
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	if (!a || !b)
		return a == b;
	return json_equal(a, b);
}

/* Nonzero when every parameter of a has its equal in b, but for by. */
static int params_in(const struct doc_result *a, const struct doc_result *b,
		     const char *by, int same_backend)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)a->params, key, v) {
		const json_t *w = json_object_get(b->params, key);

		if (by && strcmp(key, by) == 0)
			continue;
		if (!w && !same_backend)
			continue; /* a backend's own option */
		if (!match_param_equal(v, w))
			return 0;
	}
	return 1;
}

int match_case(const struct doc_result *a, const struct doc_result *b,
	       const char *by)
{
	int same_backend = strcmp(a->backend, b->backend) == 0;

	if (strcmp(a->job, b->job) != 0 || strcmp(a->target, b->target) != 0)
		return 0;
	if (!same_backend && !(by && strcmp(by, "backend") == 0))
		return 0;
	return params_in(a, b, by, same_backend) &&
	       params_in(b, a, by, same_backend);
}

/* Nonzero when the number v is what text says: a size, else a number. */
static int number_is(const json_t *v, const char *text)
{
	char why[128], *end;
	uint64_t size;
	double d;

	if (!parse_size(text, &size, why, sizeof(why)))
		return json_number_value(v) == (double)size;
	d = strtod(text, &end);
	return end != text && !*end && json_number_value(v) == d;
}

int match_value_is(const struct doc_result *d, const char *key,
		   const char *text)
{
	const json_t *v;
	char why[128];
	int b;

	if (strcmp(key, "backend") == 0)
		return strcmp(d->backend, text) == 0;
	v = json_object_get(d->params, key);
	if (json_is_string(v))
		return strcmp(json_string_value(v), text) == 0;
	if (json_is_number(v))
		return number_is(v, text);
	if (json_is_boolean(v))
		return !parse_bool(text, &b, why, sizeof(why)) &&
		       b == json_is_true(v);
	return 0;
}
