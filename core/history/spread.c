/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spread of a series between runs back to back (history/spread.h).
 * The largest move among the last 20 is the threshold a new pair must
 * pass: under runs that change nothing, a 21st move exceeds the 20 before
 * it with a chance of 1 in 21, whatever their distribution.
 */
#include "history/spread.h"

#include <math.h>
#include <string.h>

#include "history/view.h"

/* The point of s's points for run, NULL when none. */
static const json_t *point_of(const json_t *points, const char *run)
{
	const char *r;
	size_t i;
	json_t *p;

	json_array_foreach(points, i, p) {
		r = view_str(p, "run");
		if (r && strcmp(r, run) == 0)
			return p;
	}
	return NULL;
}

/* Nonzero when point p is of context ctx. */
static int of_context(const json_t *p, const char *ctx)
{
	return view_same_context(view_str(p, "context"), ctx);
}

int history_spread(const json_t *s, const char *base_run, const char *new_run,
		   int cpu, struct history_spread *out)
{
	const json_t *points = json_object_get(s, "points");
	const json_t *b = point_of(points, base_run),
		     *n = point_of(points, new_run), *p;
	double moves[HISTORY_SPREAD_RUNS - 1] = { 0 }, prev = 0, v;
	const char *ctx = b ? view_str(b, "context") : NULL;
	size_t i, used = 0;

	if (!b || !n || b == n || !ctx || !of_context(n, ctx))
		return 0;
	json_array_foreach(points, i, p) {
		v = view_num(p, cpu ? "cpu_median" : "median");
		if (p == b || p == n || !of_context(p, ctx) || !(v > 0))
			continue;
		if (used)
			moves[(used - 1) % (HISTORY_SPREAD_RUNS - 1)] =
				fabs(v / prev - 1);
		prev = v;
		used++;
	}
	if (used < HISTORY_SPREAD_MIN_RUNS)
		return 0;
	*out = (struct history_spread){
		.runs = used < HISTORY_SPREAD_RUNS ? used : HISTORY_SPREAD_RUNS,
	};
	for (i = 0; i < HISTORY_SPREAD_RUNS - 1; i++)
		out->floor = fmax(out->floor, moves[i]);
	return 1;
}
