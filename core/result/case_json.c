/* SPDX-License-Identifier: Apache-2.0 */
/* A case to JSON for a helper, and back in the helper. */
#include "result/case_json.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/parse.h"
#include "suite/suite_value.h"

/*
 * c as JSON, its texts made by text: json_string (a text that is not UTF-8
 * fails the whole case) or jsonw_text (it is cleaned).
 */
static json_t *case_put(const struct bench_case *c,
			json_t *(*text)(const char *))
{
	json_t *params = json_object();

	for (size_t i = 0; params && i < c->params.n; i++)
		if (json_object_set_new(params, c->params.items[i].key,
					text(c->params.items[i].value))) {
			json_decref(params);
			return NULL;
		}
	/* "o" takes the reference, even when packing fails */
	return json_pack(
		"{s:o, s:o, s:o, s:o?, s:o, s:i, s:f, s:i, s:i, s:f,"
		" s:I, s:f, s:i, s:i, s:f, s:i, s:f, s:b, s:b, s:b, s:o*}",
		"title", text(c->title), "target", text(c->target), "backend",
		text(c->backend), "unit", c->unit ? text(c->unit) : NULL,
		"params", params, "parallel", (int)c->parallel, "duration",
		c->duration, "repetitions", (int)c->repetitions, "warmup",
		(int)c->warmup, "timeout", c->timeout, "memory_limit",
		(json_int_t)c->memory_limit, "cpu_limit", c->cpu_limit,
		"isolate", c->isolate, "queue_depth", (int)c->queue_depth,
		"precision", c->precision, "min_repetitions",
		(int)c->min_repetitions, "max_time", c->max_time, "warmup_auto",
		c->warmup_auto, "interleaved", c->interleaved, "depth_given",
		c->depth_given, "cpus", c->cpus ? text(c->cpus) : NULL);
}

json_t *case_json_put(const struct bench_case *c)
{
	return case_put(c, json_string);
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
	const char *title = NULL, *target = NULL, *backend = NULL, *unit = NULL,
		   *cpus = NULL;
	json_t *params = NULL;
	json_int_t memory = 0;
	int parallel = 0, reps = 0, warmup = 0, depth = 0, min_reps = 1, rc;

	if (json_unpack(
		    (json_t *)o,
		    "{s:s, s:s, s:s, s?s, s:o, s:i, s:F, s:i, s:i, s:F,"
		    " s:I, s:F, s:i, s:i, s?F, s?i, s?F, s?b, s?b, s?b, s?s}",
		    "title", &title, "target", &target, "backend", &backend,
		    "unit", &unit, "params", &params, "parallel", &parallel,
		    "duration", &c->duration, "repetitions", &reps, "warmup",
		    &warmup, "timeout", &c->timeout, "memory_limit", &memory,
		    "cpu_limit", &c->cpu_limit, "isolate", &c->isolate,
		    "queue_depth", &depth, "precision", &c->precision,
		    "min_repetitions", &min_reps, "max_time", &c->max_time,
		    "warmup_auto", &c->warmup_auto, "interleaved",
		    &c->interleaved, "depth_given", &c->depth_given, "cpus",
		    &cpus) ||
	    parallel < 1 || reps < 1 || warmup < 0 || memory < 0 || depth < 1 ||
	    min_reps < 1 || c->precision < 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "the case sent to the helper is malformed");
	c->parallel = (unsigned)parallel;
	c->queue_depth = (unsigned)depth;
	c->repetitions = (unsigned)reps;
	c->min_repetitions = (unsigned)min_reps;
	c->warmup = (unsigned)warmup;
	c->memory_limit = (uint64_t)memory;
	c->title = strdup(title);
	c->target = strdup(target);
	c->backend = strdup(backend);
	c->unit = unit ? strdup(unit) : NULL;
	c->cpus = cpus ? strdup(cpus) : NULL;
	if (!c->title || !c->target || !c->backend || (unit && !c->unit) ||
	    (cpus && !c->cpus))
		return -ENOMEM;
	rc = params_get(params, c);
	if (rc == -EINVAL)
		return hb_errorf(err, errlen, rc,
				 "a parameter sent to the helper is not text");
	return rc;
}

/* The option type of each parameter of c that c's target declares. */
static json_t *types_put(const struct bench_case *c)
{
	json_t *o = json_object();

	for (size_t i = 0; o && i < c->params.n; i++) {
		const struct hb_option *opt =
			plugin_option_find(c->tdesc, c->params.items[i].key);

		if (opt && json_object_set_new(
				   o, c->params.items[i].key,
				   json_string(plugin_type_name(opt->type)))) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* The strings of l as a JSON array. */
static json_t *strings_put(const struct strlist *l)
{
	json_t *a = json_array();

	for (size_t i = 0; a && l && i < l->n; i++)
		if (json_array_append_new(a, json_string(l->items[i]))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

/* A secret option's value (a transfer token) never reaches a report. */
static void mask_secrets(const struct bench_case *c, json_t *params)
{
	const char *key;
	json_t *v;

	json_object_foreach(params, key, v) {
		if (suite_value_is_secret(c->tdesc, key))
			json_object_set_new(params, key,
					    json_string("(secret)"));
	}
}

int case_json_shows_depth(const struct bench_case *c)
{
	return c->queue_depth > 1 || c->depth_given ||
	       (c->tdesc && (c->tdesc->flags & HB_TARGET_OFFLOAD));
}

json_t *case_json_report_put(const struct suite *s, const struct bench_case *c)
{
	const struct job *job =
		s && c->job < s->njobs ? &s->jobs[c->job] : NULL;
	const char *group = job && job->group ? job->group
			    : c->tdesc	      ? c->tdesc->group
					      : NULL;
	enum hb_work work = c->tdesc ? c->tdesc->work : HB_WORK_BYTES;
	json_t *o = case_put(c, jsonw_text);
	/* "o" takes the reference, even when packing fails */
	json_t *extra = json_pack(
		"{s:I, s:b, s:b, s:o, s:s?, s:s?, s:s?, s:s, s:o}", "job_index",
		(json_int_t)c->job, "backend_chosen", c->backend_chosen,
		"depth_shown", case_json_shows_depth(c), "varying",
		strings_put(job ? &job->varying : NULL), "section",
		job ? job->section : NULL, "note", job ? job->note : NULL,
		"group", group, "work", plugin_work_name(work), "types",
		types_put(c));

	if (!o || !extra || json_object_update(o, extra)) {
		json_decref(o);
		o = NULL;
	}
	json_decref(extra);
	mask_secrets(c, json_object_get(o, "params"));
	return o;
}

/*
 * A parameter's suite text typed by its option type (type: a
 * plugin_type_name(), or NULL): sizes in bytes and integers as numbers,
 * booleans as true/false, durations in seconds, the rest (and anything
 * that does not parse) as the text.
 */
static json_t *param_typed(const char *type, const char *value)
{
	enum hb_opt_type t = HB_OPT_STRING;
	char why[128];
	uint64_t size;
	int64_t i;
	double d;
	int b;

	if (type && plugin_type_parse(type, &t))
		t = HB_OPT_STRING;
	switch (t) {
	case HB_OPT_SECRET:
		return json_string(SUITE_VALUE_SECRET);
	case HB_OPT_SIZE:
		if (!parse_size(value, &size, why, sizeof(why)) &&
		    size <= INT64_MAX)
			return json_integer((json_int_t)size);
		break;
	case HB_OPT_INT:
		if (!parse_int(value, &i, why, sizeof(why)))
			return json_integer(i);
		break;
	case HB_OPT_BOOL:
		if (!parse_bool(value, &b, why, sizeof(why)))
			return json_boolean(b);
		break;
	case HB_OPT_DURATION:
		if (!parse_duration(value, &d, why, sizeof(why)))
			return jsonw_number(d);
		break;
	default:
		break;
	}
	return jsonw_text(value);
}

/* Nonzero when the case o shows its queue depth among its parameters. */
static int depth_shown(const json_t *o)
{
	const json_t *shown = json_object_get(o, "depth_shown");

	if (json_is_boolean(shown))
		return json_is_true(shown);
	/* a journal of an older hostbench: what its case says */
	return json_integer_value(json_object_get(o, "queue_depth")) > 1 ||
	       json_is_true(json_object_get(o, "depth_given"));
}

json_t *case_json_params(const json_t *o)
{
	const json_t *types = json_object_get(o, "types");
	const json_t *cpus = json_object_get(o, "cpus");
	json_t *params = json_object(), *v;
	const char *key;
	int bad = !params;

	json_object_foreach(json_object_get(o, "params"), key, v) {
		jsonw_set(
			params, key,
			param_typed(
				json_string_value(json_object_get(types, key)),
				json_string_value(v) ? json_string_value(v)
						     : ""),
			&bad);
	}
	jsonw_set(params, "parallel",
		  json_integer(
			  json_integer_value(json_object_get(o, "parallel"))),
		  &bad);
	if (depth_shown(o))
		jsonw_set(params, "queue_depth",
			  json_integer(json_integer_value(
				  json_object_get(o, "queue_depth"))),
			  &bad);
	if (json_is_string(cpus))
		jsonw_set(params, "cpus", json_copy((json_t *)cpus), &bad);
	if (bad) {
		json_decref(params);
		return NULL;
	}
	return params;
}
