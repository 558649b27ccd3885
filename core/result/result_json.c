/* SPDX-License-Identifier: Apache-2.0 */
/* A result's measurement to and from JSON (jansson). */
#include "result/result_json.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/util.h"

const char *result_status_name(enum result_status s)
{
	switch (s) {
	case RESULT_OK:
		return "ok";
	case RESULT_SKIPPED:
		return "skipped";
	case RESULT_FAILED:
		break;
	}
	return "failed";
}

/* The summary of a set of rates. */
static json_t *json_stats_put(const struct stats *s, int *bad)
{
	json_t *o = json_object();

	jsonw_set(o, "median", jsonw_number(s->median), bad);
	jsonw_set(o, "min", jsonw_number(s->min), bad);
	jsonw_set(o, "max", jsonw_number(s->max), bad);
	jsonw_set(o, "mean", jsonw_number(s->mean), bad);
	jsonw_set(o, "stddev", jsonw_number(s->stddev), bad);
	jsonw_set(o, "cv", jsonw_number(s->cv), bad);
	jsonw_set(o, "p25", jsonw_number(s->p25), bad);
	jsonw_set(o, "p75", jsonw_number(s->p75), bad);
	jsonw_set(o, "ci95_low", jsonw_number(s->ci95_low), bad);
	jsonw_set(o, "ci95_high", jsonw_number(s->ci95_high), bad);
	return o;
}

/* A strlist as an array of strings. */
static json_t *strings_put(const struct strlist *l, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < l->n; i++)
		jsonw_push(a, jsonw_text(l->items[i]), bad);
	return a;
}

/* A kvlist as an object of strings. */
static json_t *kv_put(const struct kvlist *l, int *bad)
{
	json_t *o = json_object();

	for (size_t i = 0; i < l->n; i++)
		jsonw_set(o, l->items[i].key, jsonw_text(l->items[i].value),
			  bad);
	return o;
}

/* Each kept sample as measured. */
static json_t *details_put(const struct result *r, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->nsamples; i++) {
		const struct sample *s = &r->samples[i];
		json_t *o = json_object();

		jsonw_set(o, "seconds", jsonw_number(s->seconds), bad);
		jsonw_set(o, "bytes", jsonw_number(s->bytes), bad);
		jsonw_set(o, "ops", jsonw_number(s->ops), bad);
		jsonw_set(o, "cpu_seconds", jsonw_number(s->cpu_seconds), bad);
		jsonw_set(o, "start", jsonw_number(s->start), bad);
		if (s->cycles > 0)
			jsonw_set(o, "cycles", jsonw_number(s->cycles), bad);
		if (s->tool_seconds > 0)
			jsonw_set(o, "tool_seconds",
				  jsonw_number(s->tool_seconds), bad);
		jsonw_push(a, o, bad);
	}
	return a;
}

/* Bytes per second of each kept sample. */
static json_t *rates_put(const struct result *r, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < r->nsamples; i++) {
		const struct sample *s = &r->samples[i];
		double t = result_sample_seconds(s);

		jsonw_push(a, jsonw_number(t > 0 ? s->bytes / t : 0), bad);
	}
	return a;
}

/* Latency percentiles in nanoseconds, and the count behind them. */
static json_t *latency_put(const struct latency *l, int *bad)
{
	json_t *o = json_object();

	jsonw_set(o, "count", json_integer((json_int_t)l->count), bad);
	jsonw_set(o, "p50", jsonw_number(l->p50), bad);
	jsonw_set(o, "p90", jsonw_number(l->p90), bad);
	jsonw_set(o, "p99", jsonw_number(l->p99), bad);
	jsonw_set(o, "p99.9", jsonw_number(l->p999), bad);
	jsonw_set(o, "max", jsonw_number(l->max), bad);
	return o;
}

/* Host CPU per byte moved, beside the wall rate (null when not known). */
static void offload_put(json_t *o, const struct result *r, int *bad)
{
	int known = r->status == RESULT_OK && r->bytes_per_cpu_second > 0;

	jsonw_set(o, "bytes_per_cpu_second",
		  known ? jsonw_number(r->bytes_per_cpu_second) : json_null(),
		  bad);
	jsonw_set(o, "cpu_seconds_per_gb",
		  known ? jsonw_number(r->cpu_seconds_per_gb) : json_null(),
		  bad);
}

/* The CPU of each worker, and the cycles per byte with their method. */
static void cpu_put(json_t *o, const struct result *r, int *bad)
{
	json_t *cpus = json_array();
	int known = r->status == RESULT_OK && r->cycles_per_byte > 0;

	for (unsigned i = 0; i < r->ncpus; i++)
		jsonw_push(cpus, json_integer(r->cpus[i]), bad);
	jsonw_set(o, "cpus", cpus, bad);
	jsonw_set(o, "cycles_per_byte",
		  known ? jsonw_number(r->cycles_per_byte) : json_null(), bad);
	jsonw_set(o, "cycles_method",
		  known ? json_string(r->cycles_method) : json_null(), bad);
}

/* The fields a result and a part share. */
static void measurement_put(json_t *o, const struct result *r, int *bad)
{
	int ok = r->status == RESULT_OK;
	json_t *flags = json_object(), *parts = json_array();

	jsonw_set(o, "status", json_string(result_status_name(r->status)), bad);
	jsonw_set(o, "reason", jsonw_text(ok ? NULL : r->reason), bad);
	jsonw_set(o, "stats", ok ? json_stats_put(&r->rate, bad) : json_null(),
		  bad);
	jsonw_set(o, "ops_stats",
		  ok ? json_stats_put(&r->ops_rate, bad) : json_null(), bad);
	jsonw_set(o, "samples", ok ? rates_put(r, bad) : json_array(), bad);
	jsonw_set(o, "sample_details", ok ? details_put(r, bad) : json_array(),
		  bad);
	jsonw_set(o, "cpu_ratio", ok ? jsonw_number(r->cpu_ratio) : json_null(),
		  bad);
	offload_put(o, r, bad);
	cpu_put(o, r, bad);
	if (ok && r->latency.count)
		jsonw_set(o, "latency", latency_put(&r->latency, bad), bad);
	jsonw_set(o, "precision",
		  r->precision > 0 ? jsonw_number(r->precision) : json_null(),
		  bad);
	jsonw_set(o, "warmup_samples", json_integer(r->warmup_samples), bad);
	jsonw_set(flags, "noisy", json_boolean(r->noisy), bad);
	jsonw_set(flags, "imprecise", json_boolean(r->imprecise), bad);
	jsonw_set(flags, "starved", json_boolean(r->starved), bad);
	jsonw_set(flags, "offload", json_boolean(r->offload), bad);
	jsonw_set(o, "flags", flags, bad);
	if (r->resumed)
		jsonw_set(o, "resumed", json_true(), bad);
	jsonw_set(o, "warnings", strings_put(&r->warnings, bad), bad);
	jsonw_set(o, "info", kv_put(&r->info, bad), bad);
	for (size_t i = 0; i < r->nparts; i++) {
		json_t *p = json_object();

		jsonw_set(p, "target",
			  json_string(r->parts[i].part ? r->parts[i].part : ""),
			  bad);
		measurement_put(p, &r->parts[i], bad);
		jsonw_push(parts, p, bad);
	}
	jsonw_set(o, "parts", parts, bad);
}

int result_json_put(json_t *o, const struct result *r)
{
	int bad = 0;

	measurement_put(o, r, &bad);
	return bad ? -ENOMEM : 0;
}

/* A number field of o, 0 when absent or null. */
static double num_get(const json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

static void json_stats_get(const json_t *o, struct stats *s, size_t n)
{
	s->n = n;
	s->median = num_get(o, "median");
	s->min = num_get(o, "min");
	s->max = num_get(o, "max");
	s->mean = num_get(o, "mean");
	s->stddev = num_get(o, "stddev");
	s->cv = num_get(o, "cv");
	s->p25 = num_get(o, "p25");
	s->p75 = num_get(o, "p75");
	/* reports before the interval: the median is all that is known */
	s->ci95_low = json_is_number(json_object_get(o, "ci95_low"))
			      ? num_get(o, "ci95_low")
			      : s->median;
	s->ci95_high = json_is_number(json_object_get(o, "ci95_high"))
			       ? num_get(o, "ci95_high")
			       : s->median;
}

static int status_get(const json_t *o, struct result *r, char *err,
		      size_t errlen)
{
	const char *st = json_string_value(json_object_get(o, "status"));
	const char *reason = json_string_value(json_object_get(o, "reason"));

	if (!st)
		return hb_errorf(err, errlen, -EINVAL,
				 "result without a status");
	if (strcmp(st, "ok") == 0)
		r->status = RESULT_OK;
	else if (strcmp(st, "failed") == 0)
		r->status = RESULT_FAILED;
	else if (strcmp(st, "skipped") == 0)
		r->status = RESULT_SKIPPED;
	else
		return hb_errorf(err, errlen, -EINVAL,
				 "status \"%s\" is not ok, failed or skipped",
				 st);
	if (reason && !(r->reason = strdup(reason)))
		return -ENOMEM;
	return 0;
}

static int samples_get(const json_t *a, struct result *r, char *err,
		       size_t errlen)
{
	size_t i;
	json_t *s;

	if (!json_is_array(a))
		return hb_errorf(err, errlen, -EINVAL,
				 "sample_details missing");
	r->samples = calloc(json_array_size(a) + 1, sizeof(*r->samples));
	if (!r->samples)
		return -ENOMEM;
	json_array_foreach(a, i, s) {
		r->samples[i].seconds = num_get(s, "seconds");
		r->samples[i].bytes = num_get(s, "bytes");
		r->samples[i].ops = num_get(s, "ops");
		r->samples[i].cpu_seconds = num_get(s, "cpu_seconds");
		r->samples[i].start = num_get(s, "start");
		r->samples[i].cycles = num_get(s, "cycles");
		r->samples[i].tool_seconds = num_get(s, "tool_seconds");
	}
	r->nsamples = json_array_size(a);
	return 0;
}

static int texts_get(const json_t *o, struct result *r)
{
	const char *key;
	size_t i;
	json_t *v;

	json_array_foreach(json_object_get(o, "warnings"), i, v) {
		if (json_is_string(v) &&
		    strlist_push(&r->warnings, json_string_value(v)))
			return -ENOMEM;
	}
	json_object_foreach((json_t *)json_object_get(o, "info"), key, v) {
		if (json_is_string(v) &&
		    kvlist_set(&r->info, key, json_string_value(v)))
			return -ENOMEM;
	}
	return 0;
}

/* What cpu_put() wrote. */
static int cpu_get(const json_t *o, struct result *r)
{
	const json_t *a = json_object_get(o, "cpus");
	const char *method =
		json_string_value(json_object_get(o, "cycles_method"));
	size_t i;
	json_t *v;

	r->cycles_per_byte = num_get(o, "cycles_per_byte");
	snprintf(r->cycles_method, sizeof(r->cycles_method), "%s",
		 method ? method : "");
	if (!json_array_size(a))
		return 0;
	r->cpus = calloc(json_array_size(a), sizeof(*r->cpus));
	if (!r->cpus)
		return -ENOMEM;
	json_array_foreach(a, i, v) {
		r->cpus[r->ncpus++] = (int)json_integer_value(v);
	}
	return 0;
}

/* The plugin's own string for part name, or NULL. */
static const char *part_name(const char *const *parts, const char *name)
{
	for (size_t i = 0; parts && name && parts[i]; i++)
		if (strcmp(parts[i], name) == 0)
			return parts[i];
	return NULL;
}

static int parts_get(const json_t *a, const char *const *parts,
		     struct result *r, char *err, size_t errlen)
{
	size_t i;
	json_t *p;
	int rc;

	if (!json_array_size(a))
		return 0;
	r->parts = calloc(json_array_size(a), sizeof(*r->parts));
	if (!r->parts)
		return -ENOMEM;
	json_array_foreach(a, i, p) {
		struct result *pr = &r->parts[r->nparts++];

		pr->part = part_name(
			parts, json_string_value(json_object_get(p, "target")));
		rc = result_json_get(p, NULL, pr, err, errlen);
		if (rc)
			return rc;
	}
	return 0;
}

/* Latency percentiles written by latency_put(); none when absent. */
static void latency_get(const json_t *o, struct latency *l)
{
	json_int_t count = json_integer_value(json_object_get(o, "count"));

	memset(l, 0, sizeof(*l));
	if (!json_is_object(o) || count <= 0)
		return;
	l->count = (uint64_t)count;
	l->p50 = num_get(o, "p50");
	l->p90 = num_get(o, "p90");
	l->p99 = num_get(o, "p99");
	l->p999 = num_get(o, "p99.9");
	l->max = num_get(o, "max");
}

int result_json_get(const json_t *o, const char *const *parts, struct result *r,
		    char *err, size_t errlen)
{
	const json_t *flags = json_object_get(o, "flags");
	int rc;

	if (!json_is_object(o))
		return hb_errorf(err, errlen, -EINVAL,
				 "result is not an object");
	rc = status_get(o, r, err, errlen);
	if (!rc && r->status == RESULT_OK)
		rc = samples_get(json_object_get(o, "sample_details"), r, err,
				 errlen);
	if (rc)
		return rc;
	json_stats_get(json_object_get(o, "stats"), &r->rate, r->nsamples);
	json_stats_get(json_object_get(o, "ops_stats"), &r->ops_rate,
		       r->nsamples);
	if (result_cpu_rates(r))
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	r->cpu_ratio = num_get(o, "cpu_ratio");
	r->noisy = json_is_true(json_object_get(flags, "noisy"));
	r->imprecise = json_is_true(json_object_get(flags, "imprecise"));
	r->precision = num_get(o, "precision");
	r->warmup_samples = (unsigned)json_integer_value(
		json_object_get(o, "warmup_samples"));
	r->starved = json_is_true(json_object_get(flags, "starved"));
	r->offload = json_is_true(json_object_get(flags, "offload"));
	r->bytes_per_cpu_second = num_get(o, "bytes_per_cpu_second");
	r->cpu_seconds_per_gb = num_get(o, "cpu_seconds_per_gb");
	latency_get(json_object_get(o, "latency"), &r->latency);
	r->resumed = json_is_true(json_object_get(o, "resumed"));
	rc = texts_get(o, r);
	if (!rc)
		rc = cpu_get(o, r);
	if (!rc)
		rc = parts_get(json_object_get(o, "parts"), parts, r, err,
			       errlen);
	return rc;
}
