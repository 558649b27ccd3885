/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Google Benchmark's --benchmark_format=json (docs/interop.md): each
 * benchmark (its run_name) a case, its real and CPU time per iteration
 * (ns, whatever its time_unit), bytes and items per second; repetitions
 * are the samples, and without them (aggregates only) the median
 * aggregate, else the mean, is the figure; bare NaN and Infinity (the
 * library writes them) read as none. A benchmark that reported an error
 * is a failed case.
 */
#include "import/import_formats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"

static int gbench_sniff(const char *text, size_t len)
{
	return import_has(text, len, "\"benchmarks\"") &&
	       import_has(text, len, "\"context\"") &&
	       (import_has(text, len, "\"time_unit\"") ||
		import_has(text, len, "\"real_time\""));
}

/* The figures read: the entry's key, unit, direction, scaled by time_unit. */
static const struct {
	struct import_figure f;
	int time; /* in the entry's time_unit: to ns */
} figures[] = {
	{ { "real_time", "ns", 1 }, 1 },
	{ { "cpu_time", "ns", 1 }, 1 },
	{ { "bytes_per_second", "MiB/s", 0 }, 0 },
	{ { "items_per_second", "ops/s", 0 }, 0 },
};

#define GB_FIGURES (sizeof(figures) / sizeof(*figures))

/* Nanoseconds in one time_unit; NAN for one the library never writes. */
static double ns_per(const char *unit)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = { { "ns", 1 }, { "us", 1e3 }, { "ms", 1e6 }, { "s", 1e9 } };

	for (size_t i = 0; i < sizeof(units) / sizeof(*units); i++)
		if (unit && strcmp(unit, units[i].name) == 0)
			return units[i].ns;
	return unit ? NAN : 1;
}

/* One benchmark (a run_name): its repetitions and aggregates. */
struct gb_bench {
	const json_t *first;   /* its first entry */
	double *v[GB_FIGURES]; /* each repetition's figures */
	size_t n;	       /* repetitions */
	double median[GB_FIGURES], mean[GB_FIGURES];
	const char *error; /* the library's error message */
};

/* Entry e's figure i in its unit (ns for times); NAN when it has none. */
static double entry_figure(const json_t *e, size_t i, char *err, size_t errlen,
			   int *bad)
{
	double v = import_num(e, figures[i].f.name), scale = 1;

	if (figures[i].time) {
		scale = ns_per(
			json_string_value(json_object_get(e, "time_unit")));
		if (isnan(scale) && !*bad)
			*bad = hb_errorf(
				err, errlen, -EINVAL,
				"%s: time_unit \"%.16s\" is none of "
				"ns, us, ms, s",
				json_string_value(json_object_get(e, "name")),
				json_string_value(
					json_object_get(e, "time_unit")));
	}
	return v * scale;
}

/* Add entry e (iteration or aggregate) to b. */
static int bench_add(struct gb_bench *b, const json_t *e, char *err,
		     size_t errlen)
{
	const char *type = json_string_value(json_object_get(e, "run_type"));
	const char *agg =
		json_string_value(json_object_get(e, "aggregate_name"));
	int bad = 0;

	if (json_is_true(json_object_get(e, "error_occurred")) && !b->error)
		b->error =
			json_string_value(json_object_get(e, "error_message"));
	for (size_t i = 0; i < GB_FIGURES && !bad; i++) {
		double v = entry_figure(e, i, err, errlen, &bad);
		double *grown;

		if (type && strcmp(type, "aggregate") == 0) {
			if (agg && strcmp(agg, "median") == 0)
				b->median[i] = v;
			else if (agg && strcmp(agg, "mean") == 0)
				b->mean[i] = v;
			continue;
		}
		grown = realloc(b->v[i], (b->n + 1) * sizeof(double));
		if (!grown)
			return -ENOMEM;
		b->v[i] = grown;
		b->v[i][b->n] = v;
	}
	if (bad)
		return bad;
	b->n += !(type && strcmp(type, "aggregate") == 0);
	return 0;
}

/* What one file's benchmarks are gathered into. */
struct gb_file {
	struct gb_bench *b;
	size_t n, cap;
	json_t *by_name; /* name -> index in b */
};

/* Entry e's benchmark: its run_name, else its name less "_mean"... */
static int bench_name(const json_t *e, char *name, size_t len)
{
	const char *run = json_string_value(json_object_get(e, "run_name"));
	const char *own = json_string_value(json_object_get(e, "name"));
	const char *agg =
		json_string_value(json_object_get(e, "aggregate_name"));
	size_t n;

	if (run) {
		snprintf(name, len, "%s", run);
		return 0;
	}
	if (!own)
		return -EINVAL;
	n = strlen(own);
	if (agg && n > strlen(agg) + 1 &&
	    strcmp(own + n - strlen(agg), agg) == 0 &&
	    own[n - strlen(agg) - 1] == '_')
		n -= strlen(agg) + 1;
	snprintf(name, len, "%.*s", (int)n, own);
	return 0;
}

/* The benchmark of entry e in f (made on first sight). */
static struct gb_bench *bench_of(struct gb_file *f, const json_t *e,
				 const char *name)
{
	json_t *at = json_object_get(f->by_name, name);
	struct gb_bench *b;

	if (at)
		return &f->b[json_integer_value(at)];
	if (array_grow((void **)&f->b, f->n, &f->cap, sizeof(*f->b)) ||
	    json_object_set_new(f->by_name, name,
				json_integer((json_int_t)f->n)))
		return NULL;
	b = &f->b[f->n++];
	*b = (struct gb_bench){ .first = e };
	for (size_t i = 0; i < GB_FIGURES; i++)
		b->median[i] = b->mean[i] = NAN;
	return b;
}

/* Figure i of b: its repetitions, else its median, else its mean. */
static void bench_figure(struct import_run *run, const struct import_case *c,
			 const struct gb_bench *b, size_t i)
{
	size_t finite = 0;

	for (size_t k = 0; k < b->n; k++)
		finite += isfinite(b->v[i][k]);
	if (finite)
		import_figure(run, c, &figures[i].f, NAN, b->v[i], b->n);
	else
		import_figure(run, c, &figures[i].f,
			      isfinite(b->median[i]) ? b->median[i]
						     : b->mean[i],
			      NULL, 0);
}

/* Benchmark b into run: its figures, or its error. */
static int bench_emit(struct import_run *run, const struct gb_bench *b,
		      const char *name, const char *exe)
{
	const char *slash = exe ? strrchr(exe, '/') : NULL;
	const json_t *threads = json_object_get(b->first, "threads");
	json_t *params = json_object();
	struct import_case c = { .job = name,
				 .title = name,
				 .target = "gbench/benchmark",
				 .backend = "gbench",
				 .params = params };
	int bad = 0;

	if (exe)
		jsonw_set(params, "executable",
			  jsonw_text(slash ? slash + 1 : exe), &bad);
	if (json_is_integer(threads))
		jsonw_set(params, "threads", json_incref((json_t *)threads),
			  &bad);
	for (size_t i = 0; !bad && i < GB_FIGURES; i++) {
		if (b->error && figures[i].time)
			import_failed(run, &c, &figures[i].f, b->error);
		else if (!b->error)
			bench_figure(run, &c, b, i);
	}
	json_decref(params);
	return bad || run->bad ? -ENOMEM : 0;
}

/* Every entry of benchmarks into f. */
static int entries_read(struct gb_file *f, const json_t *all, char *err,
			size_t errlen)
{
	const json_t *e;
	char name[1024];
	size_t i;
	int rc = 0;

	json_array_foreach(all, i, e) {
		const char *agg =
			json_string_value(json_object_get(e, "aggregate_name"));
		struct gb_bench *b;

		if (!json_is_object(e) || bench_name(e, name, sizeof(name)))
			return hb_errorf(err, errlen, -EINVAL,
					 "benchmarks[%zu]: no \"name\"", i);
		if (agg && strcmp(agg, "median") != 0 &&
		    strcmp(agg, "mean") != 0)
			continue; /* stddev, cv, BigO, RMS: no figure */
		b = bench_of(f, e, name);
		rc = b ? bench_add(b, e, err, errlen) : -ENOMEM;
		if (rc)
			break;
	}
	return rc == -ENOMEM ? hb_errorf(err, errlen, rc, "out of memory") : rc;
}

/* The run of the file's context: host, time, library version. */
static int run_new(struct import_run *run, const struct import_in *in,
		   struct import_out *out, const json_t *ctx)
{
	const char *date = json_string_value(json_object_get(ctx, "date"));
	char when[TIMETEXT_LEN];
	int rc = import_run_new(
		run, in, out, "gbench",
		json_string_value(json_object_get(ctx, "library_version")),
		json_string_value(json_object_get(ctx, "host_name")));

	if (!rc && date && timetext_parse(date, 0, when, sizeof(when)) == 0)
		import_run_times(run, when, NULL, NAN);
	return rc;
}

static int gbench_read(const struct import_in *in, struct import_out *out,
		       char *err, size_t errlen)
{
	struct gb_file f = { .by_name = json_object() };
	struct import_run run;
	const json_t *ctx, *all;
	json_t *root = NULL;
	size_t after;
	int rc = f.by_name ? import_json(in->text, in->len, NULL, &root, &after,
					 err, errlen)
			   : hb_errorf(err, errlen, -ENOMEM, "out of memory");

	ctx = json_object_get(root, "context");
	all = json_object_get(root, "benchmarks");
	if (!rc && (!json_is_object(ctx) || !json_is_array(all)))
		rc = hb_errorf(
			err, errlen, -EINVAL,
			"no \"context\" object and \"benchmarks\" array");
	if (!rc)
		rc = entries_read(&f, all, err, errlen);
	if (!rc && !f.n)
		rc = hb_errorf(err, errlen, -EINVAL,
			       "no benchmark in "
			       "\"benchmarks\"");
	if (!rc)
		rc = run_new(&run, in, out, ctx);
	for (size_t i = 0; !rc && i < f.n; i++) {
		char name[1024];

		bench_name(f.b[i].first, name, sizeof(name));
		rc = bench_emit(
			&run, &f.b[i], name,
			json_string_value(json_object_get(ctx, "executable")));
	}
	if (rc == -ENOMEM)
		hb_error_fill(err, errlen, "out of memory");
	for (size_t i = 0; i < f.n; i++)
		for (size_t k = 0; k < GB_FIGURES; k++)
			free(f.b[i].v[k]);
	free(f.b);
	json_decref(f.by_name);
	json_decref(root);
	return rc;
}

const struct import_format import_gbench = {
	.name = "gbench",
	.summary = "Google Benchmark --benchmark_format=json",
	.sniff = gbench_sniff,
	.read = gbench_read,
};
