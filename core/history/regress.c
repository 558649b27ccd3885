/* SPDX-License-Identifier: Apache-2.0 */
/* Change points and the newest run's verdict for every series. */
#include "history/regress.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/siphash.h"
#include "history/changepoint.h"

/* Fewest points of a segment inside a context. */
#define REGRESS_MIN_SIZE CHANGEPOINT_MIN_SIZE
/* Fewest earlier points the newest can be judged against. */
#define REGRESS_MIN_WINDOW 5
/* MAD of a normal sample is 0.6745 sigma. */
#define REGRESS_MAD_SIGMA 1.4826
/* A spread below this fraction of the median is counted as this much. */
#define REGRESS_MIN_SPREAD 1e-3

/* One point of a series, as the detector needs it. */
struct point {
	double median;
	double half; /* CI half-width over the median; NAN when unknown */
	double cpu;  /* per CPU-second figure; NAN when absent */
	const char *run, *time, *context;
	int starved, imprecise, noisy;
	size_t at; /* its index in the series' points */
};

/* What a series is judged with: options resolved, direction, its id. */
struct judge {
	struct regress_opts o;
	int lower_better;
	int by_cpu; /* the search reads the per-CPU-second figures */
	const char *series_id;
	const json_t *contexts; /* the series' contexts, their facts */
};

static double number_or_nan(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static int has_flag(const json_t *flags, const char *name)
{
	for (size_t i = 0; i < json_array_size(flags); i++) {
		const char *f = json_string_value(json_array_get(flags, i));

		if (f && !strcmp(f, name))
			return 1;
	}
	return 0;
}

/* Point j (index i) into p; 0, or 1 when it has no usable median. */
static int point_read(const json_t *j, size_t i, struct point *p)
{
	double lo = number_or_nan(json_object_get(j, "ci_low"));
	double hi = number_or_nan(json_object_get(j, "ci_high"));
	const json_t *flags = json_object_get(j, "flags");

	p->median = number_or_nan(json_object_get(j, "median"));
	if (!isfinite(p->median))
		return 1;
	p->at = i;
	p->half = p->median != 0 ? fmax(p->median - lo, hi - p->median) /
					   fabs(p->median)
				 : NAN;
	p->cpu = number_or_nan(json_object_get(j, "cpu_median"));
	p->run = json_string_value(json_object_get(j, "run"));
	p->time = json_string_value(json_object_get(j, "time"));
	p->context = json_string_value(json_object_get(j, "context"));
	p->starved = has_flag(flags, "starved");
	p->imprecise = has_flag(flags, "imprecise");
	p->noisy = has_flag(flags, "noisy");
	return 0;
}

static int same_context(const struct point *a, const struct point *b)
{
	if (!a->context || !b->context)
		return a->context == b->context;
	return !strcmp(a->context, b->context);
}

static int compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_of(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), compare_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * Weights of pts[a..b) for the t-test, 1 / CI half-width as asv weighs its
 * points; a half-width below half the stretch's median one counts as that,
 * so one lucky narrow interval cannot outvote the rest. NULL in w's place
 * (equal weights) when no point has an interval.
 */
static const double *weights(const struct point *pts, size_t a, size_t b,
			     double *w, double *scratch)
{
	size_t k = 0;
	double floor;

	for (size_t i = a; i < b; i++)
		if (pts[i].half > 0)
			scratch[k++] = pts[i].half;
	if (!k)
		return NULL;
	floor = median_of(scratch, k);
	for (size_t i = a; i < b; i++)
		w[i] = 1 /
		       fmax(pts[i].half > 0 ? pts[i].half : floor, floor / 2);
	return w;
}

static const char *direction(double change, int lower_better)
{
	return (change < 0) != lower_better ? "regression" : "improvement";
}

static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/*
 * Whether the step cp of pts[a..b) was judged by its wall figure next to
 * a starved point (within a segment's fewest points either side).
 */
static int starved_near(const struct judge *j, const struct point *pts,
			size_t a, size_t b, const struct changepoint *cp)
{
	size_t from = cp->index > a + REGRESS_MIN_SIZE
			      ? cp->index - REGRESS_MIN_SIZE
			      : a;

	if (j->by_cpu || cp->kind != CHANGEPOINT_STEP)
		return 0;
	for (size_t i = from; i < b && i < cp->index + REGRESS_MIN_SIZE; i++)
		if (pts[i].starved)
			return 1;
	return 0;
}

/* The id of a change: its series, its first run and (a drift) its kind. */
static void change_id(const struct judge *j, const struct point *p,
		      const struct changepoint *cp, char *id, size_t len)
{
	static const unsigned char key[SIPHASH_KEY] = "hostbench-change";
	char buf[512];
	int n = snprintf(buf, sizeof(buf), "%s%c%s%s", j->series_id, 0,
			 p->run ? p->run : "",
			 cp->kind == CHANGEPOINT_DRIFT ? "\001drift" : "");

	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(buf))
		n = (int)sizeof(buf) - 1;
	snprintf(id, len, "ch-%016" PRIx64, siphash(key, buf, (size_t)n));
}

/*
 * The kind of cp: a drift, a step inconclusive (by starvation, or a
 * change of the tool that measured), or its way.
 */
static const char *kind_of(const struct judge *j, const struct changepoint *cp,
			   int inconclusive)
{
	if (cp->kind == CHANGEPOINT_DRIFT)
		return "drift";
	return inconclusive ? "inconclusive"
			    : direction(cp->change, j->lower_better);
}

static json_t *change_entry(const struct judge *j, const struct point *pts,
			    const struct changepoint *cp, int context_change,
			    int inconclusive)
{
	const struct point *p = &pts[cp->index];
	json_t *e;
	char id[24];

	change_id(j, p, cp, id, sizeof(id));
	e = json_pack("{s:s, s:I, s:o, s:o, s:o, s:o, s:o, s:o, s:s, s:b, "
		      "s:s, s:s}",
		      "id", id, "index", (json_int_t)p->at, "run",
		      p->run ? json_string(p->run) : json_null(), "time",
		      p->time ? json_string(p->time) : json_null(), "before",
		      number(cp->before), "after", number(cp->after), "change",
		      number(cp->change), "p", number(cp->p), "kind",
		      kind_of(j, cp, inconclusive), "context_change",
		      context_change, "state", "new", "figure",
		      j->by_cpu ? "cpu" : "median");
	if (e && cp->kind == CHANGEPOINT_DRIFT &&
	    (json_object_set_new(e, "end", json_integer((json_int_t)cp->end)) ||
	     json_object_set_new(
		     e, "direction",
		     json_string(direction(cp->change, j->lower_better))))) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* Append an entry to changes; -ENOMEM when it could not be built. */
static int changes_add(json_t *changes, json_t *entry, char *err, size_t errlen)
{
	if (!entry || json_array_append_new(changes, entry)) {
		snprintf(err, errlen, "history regressions: out of memory");
		return -ENOMEM;
	}
	return 0;
}

/* The facts of context id among the series' contexts; NULL if none. */
static const json_t *facts_of(const struct judge *j, const char *id)
{
	const json_t *c;
	size_t i;

	json_array_foreach(j->contexts, i, c) {
		const char *cid = json_string_value(json_object_get(c, "id"));

		if (id && cid && strcmp(id, cid) == 0)
			return json_object_get(c, "facts");
	}
	return NULL;
}

/*
 * Whether the tool that measured changed from point a to b (an imported
 * series: "fio 3.33 -> 3.35"): a step there is the instrument's, and says
 * nothing of the host.
 */
static int tool_changed(const struct judge *j, const struct point *a,
			const struct point *b)
{
	const json_t *x = json_object_get(facts_of(j, a->context), "tool");
	const json_t *y = json_object_get(facts_of(j, b->context), "tool");

	return (x || y) && !(x && y && json_equal(x, y));
}

/*
 * The step where a context starts at c: the level before it (from *level
 * to c) against the new context's first level (c to next), by the same
 * test and magnitude as a change point; inconclusive, never a regression,
 * where the tool that measured changed.
 */
static int context_step(const struct judge *j, const struct point *pts,
			const double *x, size_t level, size_t c, size_t next,
			double *scratch, json_t *changes, char *err,
			size_t errlen)
{
	struct changepoint_opts co = { .alpha = j->o.alpha,
				       .min_change = j->o.min_change,
				       .min_size = 1 };
	struct changepoint cp;

	int tool = tool_changed(j, &pts[c - 1], &pts[c]);
	json_t *e;

	if (c - level < 2 ||
	    !changepoint_test(x, NULL, level, c, next, &co, scratch, &cp))
		return 0;
	e = change_entry(j, pts, &cp, 1, tool);
	if (e && tool && json_object_set_new(e, "tool_change", json_true())) {
		json_decref(e);
		e = NULL;
	}
	return changes_add(changes, e, err, errlen);
}

/* Scratch arrays of one series, n entries each. */
struct work {
	double *x, *w, *scratch;
	struct changepoint *cps;
};

/*
 * Change points of pts[a..b), one context, after the step into it;
 * *level gets the start of the stretch since the last change point.
 */
static int context_changes(const struct judge *j, const struct point *pts,
			   size_t a, size_t b, size_t *level, struct work *wk,
			   json_t *changes, char *err, size_t errlen)
{
	struct changepoint_opts co = { .alpha = j->o.alpha,
				       .min_change = j->o.min_change,
				       .min_size = REGRESS_MIN_SIZE,
				       .method = j->o.method,
				       .penalty = j->o.penalty };
	const double *w = weights(pts, a, b, wk->w, wk->scratch);
	size_t ncp, next = b;
	int rc;

	rc = changepoint_find(wk->x + a, w ? w + a : NULL, b - a, &co, wk->cps,
			      &ncp);
	if (rc) {
		snprintf(err, errlen, "history regressions: out of memory");
		return rc;
	}
	for (size_t i = ncp; i-- > 0;)
		if (wk->cps[i].kind == CHANGEPOINT_STEP)
			next = a + wk->cps[i].index;
	if (a > 0) {
		rc = context_step(j, pts, wk->x, *level, a, next, wk->scratch,
				  changes, err, errlen);
		if (rc)
			return rc;
	}
	*level = a;
	for (size_t i = 0; i < ncp; i++) {
		struct changepoint *cp = &wk->cps[i];

		cp->index += a;
		cp->end += a;
		rc = changes_add(changes,
				 change_entry(j, pts, cp, 0,
					      starved_near(j, pts, a, b, cp)),
				 err, errlen);
		if (rc)
			return rc;
		if (cp->kind == CHANGEPOINT_STEP)
			*level = cp->index;
	}
	return 0;
}

/*
 * The figure the newest point is judged by: its median, or its per
 * CPU-second figure when it was starved of CPU and has one (a neighbour's
 * load moves the first, not the second). NAN when it has neither.
 */
static double judged_value(const struct point *p, int by_cpu)
{
	return by_cpu ? p->cpu : p->median;
}

static const char *verdict_of(const struct judge *j, const struct point *p,
			      int by_cpu, size_t count, double z, double change)
{
	double threshold =
		fmax(j->o.min_change, 2 * (p->half > 0 ? p->half : 0));

	if (p->noisy || p->imprecise || (p->starved && !by_cpu) ||
	    count < REGRESS_MIN_WINDOW)
		return "inconclusive";
	if (fabs(z) >= j->o.z && fabs(change) >= threshold)
		return direction(change, j->lower_better);
	return "within noise";
}

/*
 * Robust z (median and MAD) and relative change of the newest of pts[0..n)
 * against at most o.window points before it from level on.
 */
static json_t *newest_entry(const struct judge *j, const struct point *pts,
			    size_t n, size_t level, double *v)
{
	const struct point *p = &pts[n - 1];
	int by_cpu = p->starved && !isnan(p->cpu);
	size_t from = level, count = 0;
	double z = NAN, change = NAN, x = judged_value(p, by_cpu);

	if (n - 1 - from > j->o.window)
		from = n - 1 - j->o.window;
	for (size_t i = from; i + 1 < n; i++)
		if (!isnan(judged_value(&pts[i], by_cpu)))
			v[count++] = judged_value(&pts[i], by_cpu);
	if (count) {
		double med = median_of(v, count);

		change = med != 0 ? x / med - 1 : NAN;
		for (size_t i = 0; i < count; i++)
			v[i] = fabs(v[i] - med);
		z = (x - med) / fmax(REGRESS_MAD_SIGMA * median_of(v, count),
				     REGRESS_MIN_SPREAD * fabs(med));
	}
	if (count < REGRESS_MIN_WINDOW)
		z = NAN;
	return json_pack("{s:o, s:o, s:s, s:I}", "z", number(z), "change",
			 number(change), "verdict",
			 verdict_of(j, p, by_cpu, count, z, change), "window",
			 (json_int_t)count);
}

static void work_free(struct work *wk)
{
	free(wk->x);
	free(wk->cps);
	*wk = (struct work){ 0 };
}

static int work_alloc(struct work *wk, size_t n)
{
	wk->x = malloc(3 * n * sizeof(*wk->x));
	wk->cps = malloc(n * sizeof(*wk->cps));
	if (!wk->x || !wk->cps) {
		work_free(wk);
		return -ENOMEM;
	}
	wk->w = wk->x + n;
	wk->scratch = wk->w + n;
	return 0;
}

/* Every context's change points in order, then the newest's verdict. */
static int series_judge(const struct judge *j, const struct point *pts,
			size_t n, struct work *wk, json_t *series, char *err,
			size_t errlen)
{
	json_t *changes = json_array(), *newest;
	size_t a = 0, level = 0;
	int rc = changes ? 0 : -ENOMEM;

	for (size_t i = 0; i < n; i++)
		wk->x[i] = j->by_cpu ? pts[i].cpu : pts[i].median;
	for (size_t b = 1; !rc && b <= n; b++) {
		if (b < n && same_context(&pts[b - 1], &pts[b]))
			continue;
		rc = context_changes(j, pts, a, b, &level, wk, changes, err,
				     errlen);
		a = b;
	}
	if (rc)
		goto fail_changes;
	newest = n ? newest_entry(j, pts, n, level, wk->scratch) : json_null();
	if (!newest)
		goto fail_oom;
	/* jansson takes both references, even when setting fails */
	rc = json_object_set_new(series, "changes", changes);
	rc |= json_object_set_new(series, "newest", newest);
	if (rc)
		goto fail_oom;
	return 0;
fail_oom:
	rc = -ENOMEM;
	snprintf(err, errlen, "history regressions: out of memory");
	return rc;
fail_changes:
	json_decref(changes);
	return rc;
}

/*
 * Whether pts[0..n) is searched by its per-CPU-second figures: a point is
 * starved, so its wall figure moved with a neighbour's load, and every
 * point has the figure that does not.
 */
static int search_by_cpu(const struct point *pts, size_t n)
{
	int starved = 0;

	for (size_t i = 0; i < n; i++) {
		if (isnan(pts[i].cpu))
			return 0;
		starved |= pts[i].starved;
	}
	return starved;
}

static void judge_init(struct judge *j, const struct regress_opts *o,
		       const json_t *series)
{
	const char *better;

	j->o = o ? *o : (struct regress_opts){ 0 };
	if (!(j->o.alpha > 0))
		j->o.alpha = REGRESS_ALPHA;
	if (!(j->o.min_change > 0))
		j->o.min_change = REGRESS_MIN_CHANGE;
	if (!j->o.window)
		j->o.window = REGRESS_WINDOW;
	if (!(j->o.z > 0))
		j->o.z = REGRESS_Z;
	better = json_string_value(json_object_get(series, "better"));
	j->lower_better = better && !strcmp(better, "lower");
	j->series_id = json_string_value(json_object_get(series, "id"));
	if (!j->series_id)
		j->series_id = "";
	j->contexts = json_object_get(series, "contexts");
}

/*
 * The usable points of series into pts, *n of them; each point without a
 * finite median goes to the series' "skipped" (its index and run) instead,
 * so one bad run never stops a series from being judged.
 */
static int points_read(json_t *series, struct point *pts, size_t *n)
{
	const json_t *points = json_object_get(series, "points"), *p;
	json_t *skipped = json_array();
	size_t i;
	int rc = skipped ? 0 : -ENOMEM;

	*n = 0;
	json_array_foreach(points, i, p) {
		if (rc)
			break;
		if (point_read(p, i, &pts[*n]) == 0)
			(*n)++;
		else if (json_array_append_new(
				 skipped,
				 json_pack("{s:I, s:O, s:s}", "index",
					   (json_int_t)i, "run",
					   json_object_get(p, "run"), "reason",
					   "no numeric median")))
			rc = -ENOMEM;
	}
	if (!rc && json_array_size(skipped))
		return json_object_set_new(series, "skipped", skipped) ? -ENOMEM
								       : 0;
	json_decref(skipped);
	json_object_del(series, "skipped");
	return rc;
}

/* Read the points of one series and judge them. */
static int series_regressions(json_t *series, const struct regress_opts *o,
			      char *err, size_t errlen)
{
	size_t n = json_array_size(json_object_get(series, "points"));
	struct point *pts = calloc(n ? n : 1, sizeof(*pts));
	struct work wk = { 0 };
	struct judge j;
	int rc;

	judge_init(&j, o, series);
	if (!pts || work_alloc(&wk, n ? n : 1) ||
	    points_read(series, pts, &n)) {
		snprintf(err, errlen, "history regressions: out of memory");
		rc = -ENOMEM;
		goto out_work;
	}
	j.by_cpu = search_by_cpu(pts, n);
	rc = series_judge(&j, pts, n, &wk, series, err, errlen);
out_work:
	work_free(&wk);
	free(pts);
	return rc;
}

int history_regressions(json_t *doc, const struct regress_opts *o, char *err,
			size_t errlen)
{
	json_t *all = json_object_get(doc, "series");

	for (size_t i = 0; i < json_array_size(all); i++) {
		int rc = series_regressions(json_array_get(all, i), o, err,
					    errlen);

		if (rc)
			return rc;
	}
	return 0;
}
