/* Parameters of saved reports compared by value. */
#include "compare/param.h"

#include <math.h>

/* Largest whole double written as an integer (2^53: exact in both). */
#define PARAM_WHOLE_MAX 9007199254740992.0

int param_equal(const json_t *a, const json_t *b)
{
	if (!a || !b)
		return a == b;
	if (json_is_number(a) && json_is_number(b))
		return json_number_value(a) == json_number_value(b);
	return json_equal(a, b);
}

/* v as param_canonical() keeps it: a whole number as an integer. */
static json_t *canonical_value(json_t *v)
{
	double d = json_number_value(v);

	if (json_is_real(v) && d == floor(d) && fabs(d) <= PARAM_WHOLE_MAX)
		return json_integer((json_int_t)d);
	return json_incref(v);
}

json_t *param_canonical(const json_t *params)
{
	json_t *out = json_object(), *v;
	const char *key;

	if (!out || !json_is_object(params))
		return out;
	json_object_foreach((json_t *)params, key, v) {
		if (json_object_set_new(out, key, canonical_value(v))) {
			json_decref(out);
			return NULL;
		}
	}
	return out;
}
