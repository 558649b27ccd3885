/* SPDX-License-Identifier: Apache-2.0 */
/*
 * pyperf's JSON (docs/interop.md; format version 1.0): each benchmark a
 * case named by its metadata, the values of every run its samples
 * (warm-ups and calibration runs left out), in its metadata's unit
 * (second, byte, integer), lower is better as pyperf judges; the host,
 * the dates and pyperf's and Python's versions from the metadata (a
 * benchmark's own over the file's common one).
 */
#include "import/import_formats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"

static int pyperf_sniff(const char *text, size_t len)
{
	return import_has(text, len, "\"benchmarks\"") &&
	       import_has(text, len, "\"runs\"") &&
	       !import_has(text, len, "\"run_type\"");
}

/* meta[key], the benchmark's own over the file's common metadata. */
static const json_t *meta(const json_t *bench, const json_t *common,
			  const char *key)
{
	const json_t *v =
		json_object_get(json_object_get(bench, "metadata"), key);

	return v ? v : json_object_get(common, key);
}

/* The figure of pyperf's unit; NULL for one it does not write. */
static const struct import_figure *figure_of(const char *unit)
{
	static const struct {
		const char *unit;
		struct import_figure f;
	} units[] = {
		{ "second", { "time", "s", 1 } },
		{ "byte", { "memory", "bytes", 1 } },
		{ "integer", { "value", "count", 1 } },
	};

	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (strcmp(unit ? unit : "second", units[i].unit) == 0)
			return &units[i].f;
	return NULL;
}

/* The values of every run of bench (a run without any is calibration). */
static double *values_of(const json_t *bench, size_t k, size_t *n, char *err,
			 size_t errlen, int *rc)
{
	const json_t *runs = json_object_get(bench, "runs"), *r, *v;
	size_t cap = 0, i, j;
	double *out = NULL;

	*n = 0;
	*rc = 0;
	json_array_foreach(runs, i, r) {
		json_array_foreach(json_object_get(r, "values"), j, v) {
			if (!json_is_number(v)) {
				*rc = hb_errorf(err, errlen, -EINVAL,
						"benchmarks[%zu].runs[%zu]."
						"values[%zu]: not a number",
						k, i, j);
				return out;
			}
			if (array_grow((void **)&out, *n, &cap, sizeof(*out))) {
				*rc = hb_errorf(err, errlen, -ENOMEM,
						"out of memory");
				return out;
			}
			out[(*n)++] = json_number_value(v);
		}
	}
	return out;
}

/* The first and last run dates of bench into first and last. */
static void dates_of(const json_t *bench, char *first, char *last, size_t len)
{
	const json_t *r;
	char t[TIMETEXT_LEN];
	size_t i;

	json_array_foreach(json_object_get(bench, "runs"), i, r) {
		const char *d = json_string_value(json_object_get(
			json_object_get(r, "metadata"), "date"));

		if (!d || timetext_parse(d, 0, t, sizeof(t)))
			continue;
		if (!first[0] || strcmp(t, first) < 0)
			snprintf(first, len, "%s", t);
		if (strcmp(t, last) > 0)
			snprintf(last, len, "%s", t);
	}
}

/* benchmarks[k] into run. */
static int bench_read(struct import_run *run, const json_t *bench,
		      const json_t *common, size_t k, char *err, size_t errlen)
{
	const char *name = json_string_value(meta(bench, common, "name"));
	const char *unit = json_string_value(meta(bench, common, "unit"));
	const struct import_figure *f = figure_of(unit);
	const struct import_case c = { .job = name,
				       .title = name,
				       .target = "pyperf/benchmark",
				       .backend = "pyperf",
				       .params = NULL };
	size_t n = 0;
	double *v;
	int rc;

	if (!json_is_object(bench) || !name)
		return hb_errorf(err, errlen, -EINVAL,
				 "benchmarks[%zu]: no \"name\" in its metadata",
				 k);
	if (!f)
		return hb_errorf(err, errlen, -EINVAL,
				 "benchmarks[%zu]: unit \"%.32s\" is none of "
				 "second, byte, integer",
				 k, unit);
	v = values_of(bench, k, &n, err, errlen, &rc);
	if (!rc && !n)
		rc = hb_errorf(err, errlen, -EINVAL,
			       "benchmarks[%zu] (%.200s): no run has values", k,
			       name);
	if (!rc)
		import_figure(run, &c, f, n == 1 ? v[0] : NAN, v, n);
	free(v);
	return rc;
}

/* The run: host, versions and times from the first benchmark's metadata. */
static int run_new(struct import_run *run, const struct import_in *in,
		   struct import_out *out, const json_t *all,
		   const json_t *common)
{
	const json_t *b0 = json_array_get(all, 0), *b;
	const char *python =
		json_string_value(meta(b0, common, "python_version"));
	char first[TIMETEXT_LEN] = "", last[TIMETEXT_LEN] = "";
	json_t *libs;
	size_t i;
	int rc = import_run_new(
		run, in, out, "pyperf",
		json_string_value(meta(b0, common, "perf_version")),
		json_string_value(meta(b0, common, "hostname")));

	if (rc)
		return rc;
	json_array_foreach(all, i, b) {
		dates_of(b, first, last, sizeof(first));
	}
	if (first[0])
		import_run_times(run, first, last, NAN);
	if (python) { /* what the benchmarks ran on: an upgrade is a context */
		libs = json_pack("{s:{s:s}}", "pyperf", "Python", python);
		jsonw_set(run->doc, "libraries", libs, &run->bad);
	}
	return run->bad ? -ENOMEM : 0;
}

static int pyperf_read(const struct import_in *in, struct import_out *out,
		       char *err, size_t errlen)
{
	struct import_run run;
	const json_t *all, *common;
	const char *version;
	json_t *root;
	size_t after;
	int rc = import_json(in->text, in->len, NULL, &root, &after, err,
			     errlen);

	if (rc)
		return rc;
	all = json_object_get(root, "benchmarks");
	common = json_object_get(root, "metadata");
	if (!json_is_array(all) || !json_array_size(all))
		rc = hb_errorf(err, errlen, -EINVAL,
			       "no benchmark in a \"benchmarks\" array");
	version = json_string_value(json_object_get(root, "version"));
	if (!rc && (!version || strncmp(version, "1.", 2) != 0))
		rc = hb_errorf(err, errlen, -EINVAL,
			       "\"version\" is not 1.x (pyperf's JSON format)");
	if (!rc)
		rc = run_new(&run, in, out, all, common);
	for (size_t k = 0; !rc && k < json_array_size(all); k++)
		rc = bench_read(&run, json_array_get(all, k), common, k, err,
				errlen);
	if (!rc && run.bad)
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	json_decref(root);
	return rc;
}

const struct import_format import_pyperf = {
	.name = "pyperf",
	.summary = "pyperf's JSON (a file of pyperf run -o, version 1.0)",
	.sniff = pyperf_sniff,
	.read = pyperf_read,
};
