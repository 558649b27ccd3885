/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A result's headline figure (store/store_figure.h): a stored median is
 * never a number the result's own samples contradict.
 */
#include "store/store_figure.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "result/stats.h"

/* Is result r an "ops/s" one, its figure ops_rate (not a named one)? */
static int is_ops(const json_t *r)
{
	const char *unit = json_string_value(json_object_get(r, "unit"));

	return unit && strcmp(unit, "ops/s") == 0 &&
	       !json_is_string(json_object_get(r, "figure"));
}

/* Is r "ok" (no status is ok, as reports before the field)? */
static int is_ok(const json_t *r)
{
	const char *status = json_string_value(json_object_get(r, "status"));

	return !status || strcmp(status, "ok") == 0;
}

/* The figure of sample i of r; NAN when it has none. */
static double sample_at(const json_t *r, int ops, size_t i)
{
	const json_t *d, *v;
	double s;

	if (!ops) {
		v = json_array_get(json_object_get(r, "samples"), i);
		return json_is_number(v) ? json_number_value(v) : NAN;
	}
	d = json_array_get(json_object_get(r, "sample_details"), i);
	/* a tool-timed sample's figure is over the tool's time */
	v = json_object_get(d, "tool_seconds");
	if (!json_is_number(v) || !(json_number_value(v) > 0))
		v = json_object_get(d, "seconds");
	s = json_is_number(v) ? json_number_value(v) : NAN;
	v = json_object_get(d, "ops");
	return json_is_number(v) && s > 0 ? json_number_value(v) / s : NAN;
}

/* The number in stats at key, NAN when none. */
static double stat(const json_t *stats, const char *key)
{
	const json_t *v = json_object_get(stats, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* Does r hold a figure: a sample that is a number, or a stats median? */
static int has_figure(const json_t *r)
{
	int ops = is_ops(r);
	size_t n = json_array_size(json_object_get(r, "samples"));

	for (size_t i = 0; i < n; i++)
		if (isfinite(sample_at(r, ops, i)))
			return 1;
	return isfinite(stat(json_object_get(r, ops ? "ops_stats" : "stats"),
			     "median"));
}

/* An imported case's figures (import/): each named, and ok with a figure. */
static int figures_check(const json_t *figs, size_t i, char *err, size_t errlen)
{
	const json_t *fg;
	size_t k;

	json_array_foreach(figs, k, fg) {
		if (!json_is_string(json_object_get(fg, "figure")))
			return hb_errorf(err, errlen, -EINVAL,
					 "results[%zu].figures[%zu]: no figure",
					 i, k);
		if (is_ok(fg) && !has_figure(fg))
			return hb_errorf(err, errlen, -EINVAL,
					 "results[%zu].figures[%zu]: status ok "
					 "but no stats and no samples",
					 i, k);
	}
	return 0;
}

int store_figure_check(const json_t *r, size_t i, char *err, size_t errlen)
{
	const json_t *figs = json_object_get(r, "figures");

	if (!json_is_object(r))
		return hb_errorf(err, errlen, -EINVAL,
				 "results[%zu]: not an object", i);
	if (!json_is_string(json_object_get(r, "target")))
		return hb_errorf(err, errlen, -EINVAL,
				 "results[%zu]: no target", i);
	if (!json_is_object(json_object_get(r, "params")))
		return hb_errorf(err, errlen, -EINVAL,
				 "results[%zu]: no params", i);
	if (json_is_array(figs))
		return figures_check(figs, i, err, errlen);
	if (is_ok(r) && !has_figure(r))
		return hb_errorf(err, errlen, -EINVAL,
				 "results[%zu]: status ok but no stats and "
				 "no samples",
				 i);
	return 0;
}

/* f's median, CI and CV from its samples (the finite ones). */
static int from_samples(struct store_figure *f)
{
	double *v = malloc(f->n * sizeof(*v));
	struct stats st;
	size_t k = 0;
	int rc;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++)
		if (isfinite(f->samples[i]))
			v[k++] = f->samples[i];
	rc = k ? stats_compute(v, k, &st) : 0;
	if (!rc && k) {
		f->median = st.median;
		f->ci_low = st.ci95_low;
		f->ci_high = st.ci95_high;
		f->cv = st.cv;
	}
	free(v);
	return rc;
}

int store_figure_of(const json_t *r, struct store_figure *f)
{
	const json_t *samples = json_object_get(r, "samples");
	const json_t *stats;
	const char *better = json_string_value(json_object_get(r, "better"));

	*f = (struct store_figure){
		.ops = is_ops(r),
		.name = json_string_value(json_object_get(r, "figure")),
		.lower_better = better && strcmp(better, "lower") == 0,
	};
	stats = json_object_get(r, f->ops ? "ops_stats" : "stats");
	f->median = stat(stats, "median");
	f->ci_low = stat(stats, "ci95_low");
	f->ci_high = stat(stats, "ci95_high");
	f->cv = stat(stats, "cv");
	f->has_samples = json_is_array(samples);
	f->n = json_array_size(samples);
	if (!f->n)
		return 0;
	f->samples = malloc(f->n * sizeof(*f->samples));
	if (!f->samples)
		return -ENOMEM;
	for (size_t i = 0; i < f->n; i++)
		f->samples[i] = sample_at(r, f->ops, i);
	return from_samples(f);
}

void store_figure_free(struct store_figure *f)
{
	free(f->samples);
	f->samples = NULL;
}
