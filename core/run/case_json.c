/* A case to JSON for a helper, and back in the helper. */
#include "run/case_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

json_t *case_json_put(const struct bench_case *c)
{
	json_t *params = json_object();

	for (size_t i = 0; params && i < c->params.n; i++)
		if (json_object_set_new(
			    params, c->params.items[i].key,
			    json_string(c->params.items[i].value))) {
			json_decref(params);
			return NULL;
		}
	return json_pack("{s:s, s:s, s:s, s:s?, s:o, s:i, s:f, s:i, s:i, s:f,"
			 " s:I, s:f, s:i, s:i}",
			 "title", c->title, "target", c->target, "backend",
			 c->backend, "unit", c->unit, "params", params,
			 "parallel", (int)c->parallel, "duration", c->duration,
			 "repetitions", (int)c->repetitions, "warmup",
			 (int)c->warmup, "timeout", c->timeout, "memory_limit",
			 (json_int_t)c->memory_limit, "cpu_limit", c->cpu_limit,
			 "isolate", c->isolate, "queue_depth",
			 (int)c->queue_depth);
}

/* params {"key": "value", ...} into c->params. */
static int params_get(const json_t *o, struct bench_case *c)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)o, key, v) {
		if (!json_is_string(v))
			return -EINVAL;
		if (kvlist_set(&c->params, key, json_string_value(v)))
			return -ENOMEM;
	}
	return 0;
}

int case_json_get(const json_t *o, struct bench_case *c, char *err,
		  size_t errlen)
{
	const char *title = NULL, *target = NULL, *backend = NULL, *unit = NULL;
	json_t *params = NULL;
	json_int_t memory = 0;
	int parallel = 0, reps = 0, warmup = 0, depth = 0, rc;

	if (json_unpack((json_t *)o,
			"{s:s, s:s, s:s, s?s, s:o, s:i, s:F, s:i, s:i, s:F,"
			" s:I, s:F, s:i, s:i}",
			"title", &title, "target", &target, "backend", &backend,
			"unit", &unit, "params", &params, "parallel", &parallel,
			"duration", &c->duration, "repetitions", &reps,
			"warmup", &warmup, "timeout", &c->timeout,
			"memory_limit", &memory, "cpu_limit", &c->cpu_limit,
			"isolate", &c->isolate, "queue_depth", &depth) ||
	    parallel < 1 || reps < 1 || warmup < 0 || memory < 0 || depth < 1)
		return hb_errorf(err, errlen, -EINVAL,
				 "the case sent to the helper is malformed");
	c->parallel = (unsigned)parallel;
	c->queue_depth = (unsigned)depth;
	c->repetitions = (unsigned)reps;
	c->warmup = (unsigned)warmup;
	c->memory_limit = (uint64_t)memory;
	c->title = strdup(title);
	c->target = strdup(target);
	c->backend = strdup(backend);
	c->unit = unit ? strdup(unit) : NULL;
	if (!c->title || !c->target || !c->backend || (unit && !c->unit))
		return -ENOMEM;
	rc = params_get(params, c);
	if (rc == -EINVAL)
		return hb_errorf(err, errlen, rc,
				 "a parameter sent to the helper is not text");
	return rc;
}
