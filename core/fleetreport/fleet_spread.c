/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One case across the hosts: the spread of its figures (min, median, max,
 * the fleet total, the odd host out) and of its start times, alone and as
 * the table every fleet report shows. No MPI here.
 */
#include "fleetreport/fleetreport.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/figure.h"
#include "render/table.h"
#include "result/result_json.h"

int fleet_outlier(const double *v, size_t n, double *median)
{
	double *sorted, far = -1;
	int best = -1;

	if (!n || !(sorted = malloc(n * sizeof(*sorted))))
		return -1;
	memcpy(sorted, v, n * sizeof(*sorted));
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			double t = sorted[j];

			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	*median =
		n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
	for (size_t i = 0; i < n; i++) {
		double d = fabs(v[i] - *median);
		/* of two hosts both are equally far, but for rounding */
		int tie = best >= 0 && fabs(d - far) <= 1e-9 * fabs(*median);

		if ((d > far && !tie) || (tie && v[i] < v[best])) {
			far = d;
			best = (int)i;
		}
	}
	return best;
}

const struct result *fleet_rank_results(const struct fleet *f, int r,
					const struct report *own)
{
	return r == 0 ? own->results : f->st->ranks[r].res;
}

int fleet_span_of(const struct fleet *f, int r, size_t i, double *start,
		  double *end)
{
	const struct fleet_rank *fr = &f->st->ranks[r];

	if (!fr->at || fr->at[i].start <= 0 || (r > 0 && fr->rtt < 0))
		return -ENOENT;
	*start = fr->at[i].start - fr->offset;
	*end = fr->at[i].end - fr->offset;
	return 0;
}

/* Latest start of case i minus the earliest, on rank 0's clock; -1. */
static double start_spread(const struct fleet *f, size_t i)
{
	double first = 0, last = 0, start, end;
	int n = 0;

	for (int r = 0; r < f->size; r++) {
		if (fleet_span_of(f, r, i, &start, &end))
			continue;
		if (!n++ || start < first)
			first = start;
		if (n == 1 || start > last)
			last = start;
	}
	return n > 1 ? last - first : -1;
}

int fleet_spread_of(const struct fleet *f, const struct report *own, size_t i,
		    struct fleet_spread *sp)
{
	double *v = calloc((size_t)f->size, sizeof(*v));
	int *who = calloc((size_t)f->size, sizeof(*who));
	double median = 0;
	int at;

	*sp = (struct fleet_spread){ .outlier = -1 };
	if (!v || !who) {
		free(v);
		free(who);
		return -ENOMEM;
	}
	for (int r = 0; r < f->size; r++) {
		const struct result *res = &fleet_rank_results(f, r, own)[i];

		if (res->status != RESULT_OK)
			continue;
		v[sp->ok] = result_headline(res)->median;
		who[sp->ok++] = r;
	}
	sp->start_spread = start_spread(f, i);
	for (size_t k = 0; k < sp->ok; k++) {
		sp->total += v[k];
		if (k == 0 || v[k] < sp->min)
			sp->min = v[k], sp->min_rank = who[k];
		if (k == 0 || v[k] > sp->max)
			sp->max = v[k], sp->max_rank = who[k];
	}
	at = fleet_outlier(v, sp->ok, &median);
	sp->median = median;
	if (at >= 0 && sp->ok > 1) {
		sp->outlier = who[at];
		sp->deviation = median > 0 ? v[at] / median - 1 : 0;
	}
	free(v);
	free(who);
	return 0;
}

/*
 * The median over the hosts that ran case i ok of its figure per
 * CPU-second, in unit; 0 when no host has one.
 */
static double cpu_median(const struct fleet *f, const struct report *own,
			 size_t i, const char *unit)
{
	double *v = calloc((size_t)f->size + 1, sizeof(*v)), median = 0;
	size_t n = 0;

	for (int r = 0; v && r < f->size; r++) {
		double x = report_cpu_value(&fleet_rank_results(f, r, own)[i],
					    unit);

		if (x > 0)
			v[n++] = x;
	}
	if (n)
		fleet_outlier(v, n, &median);
	free(v);
	return median;
}

/*
 * Where a spread row puts min, median, max, total, outlier, start spread
 * and the median per CPU-second; above FLEET_WIDE ranks the hosts of min
 * and max get columns of their own (after each).
 */
static const size_t narrow_cols[] = { 2, 3, 5, 6, 7, 8, 4 };
static const size_t wide_cols[] = { 2, 4, 6, 8, 9, 10, 5 };

/* A note for each pair of rank who's ok case c that failed. */
static int pair_notes(const struct bench_case *c, const char *who,
		      const struct result *res, struct table *t)
{
	char note[REPORT_LINE];
	int rc = 0;

	for (size_t k = 0; !rc && k < res->warnings.n; k++) {
		if (!fleet_pair_warning(res->warnings.items[k]))
			continue;
		snprintf(note, sizeof(note), "%s (%s): %s: %s", c->title,
			 c->backend, who, res->warnings.items[k]);
		rc = strlist_push(&t->notes, note);
	}
	return rc;
}

/* The row's notes: the case's peer mode and every rank that did not end ok. */
static int spread_notes(const struct fleet *f, const struct report *own,
			size_t i, struct table *t)
{
	const struct bench_case *c = &own->suite->cases[i];
	char cell[REPORT_LINE], who[FLEET_HOST_MAX + 32];
	int rc = 0;

	if (fleet_peer_mode(c)) {
		snprintf(cell, sizeof(cell), "%s (%s): peer = %s: %s", c->title,
			 c->backend, fleet_peer_mode(c),
			 fleet_peer_mode_text(fleet_peer_mode(c)));
		rc = strlist_push(&t->notes, cell);
	}
	for (int r = 0; !rc && r < f->size; r++) {
		const struct result *res = &fleet_rank_results(f, r, own)[i];

		fleet_rank_name(f, r, who, sizeof(who));
		if (res->status == RESULT_OK) {
			rc = pair_notes(c, who, res, t);
			continue;
		}
		snprintf(cell, sizeof(cell), "%s (%s): %s: %s: %s", c->title,
			 c->backend, who, result_status_name(res->status),
			 res->reason ? res->reason : "");
		rc = strlist_push(&t->notes, cell);
	}
	return rc;
}

/*
 * Row i + 1 of the spread table: case, hosts ok, min, median, median per
 * CPU-second, max, total, outlier, start spread.
 */
static int spread_row(const struct fleet *f, const struct report *own, size_t i,
		      struct table *t)
{
	const struct bench_case *c = &own->suite->cases[i];
	const size_t *col = f->size > FLEET_WIDE ? wide_cols : narrow_cols;
	char cell[REPORT_LINE], who[FLEET_HOST_MAX + 32];
	double scale = 0;
	struct fleet_spread sp;
	size_t row = i + 1;
	int rc = fleet_spread_of(f, own, i, &sp);

	for (int r = 0; !rc && r < f->size && scale == 0; r++) {
		const struct result *res = &fleet_rank_results(f, r, own)[i];

		if (res->status == RESULT_OK &&
		    result_headline(res)->median > 0)
			scale = report_value(res, c->unit) /
				result_headline(res)->median;
	}
	snprintf(cell, sizeof(cell), "%s (%s)", c->title, c->backend);
	rc = rc ? rc : table_set(t, row, 0, cell);
	snprintf(cell, sizeof(cell), "%zu/%d", sp.ok, f->size);
	rc = rc ? rc : table_set(t, row, 1, cell);
	for (int k = 0; !rc && sp.ok && k < 4; k++) {
		double v = k == 0   ? sp.min
			   : k == 1 ? sp.median
			   : k == 2 ? sp.max
				    : sp.total;

		report_format_value(v * scale, c->unit, cell, sizeof(cell));
		rc = table_set(t, row, col[k], cell);
	}
	if (!rc && cpu_median(f, own, i, c->unit) > 0) {
		report_format_value(cpu_median(f, own, i, c->unit), c->unit,
				    cell, sizeof(cell));
		rc = table_set(t, row, col[6], cell);
	}
	if (!rc && sp.ok && col == wide_cols)
		rc = table_set(
			t, row, 3,
			fleet_rank_name(f, sp.min_rank, who, sizeof(who)));
	if (!rc && sp.ok && col == wide_cols)
		rc = table_set(
			t, row, 7,
			fleet_rank_name(f, sp.max_rank, who, sizeof(who)));
	if (!rc && sp.outlier >= 0) {
		fleet_rank_name(f, sp.outlier, who, sizeof(who));
		snprintf(cell, sizeof(cell), "%s %+.1f%%", who,
			 100 * sp.deviation);
		rc = table_set(t, row, col[4], cell);
	}
	if (!rc && sp.start_spread >= 0) {
		snprintf(cell, sizeof(cell), "%.1f ms", 1000 * sp.start_spread);
		rc = table_set(t, row, col[5], cell);
	}
	return rc ? rc : spread_notes(f, own, i, t);
}

int fleet_spread_table(const struct fleet *f, const struct report *own,
		       struct table *t)
{
	static const char *const narrow[] = {
		"Case",	  "Hosts ok",	      "Min",
		"Median", "Median per CPU-s", "Max",
		"Total",  "Outlier",	      "Start spread"
	};
	static const char *const wide[] = {
		"Case",	  "Hosts ok",	      "Min",	     "Min host",
		"Median", "Median per CPU-s", "Max",	     "Max host",
		"Total",  "Outlier",	      "Start spread"
	};
	int is_wide = f->size > FLEET_WIDE;
	const char *const *head = is_wide ? wide : narrow;
	size_t cols = is_wide ? sizeof(wide) / sizeof(wide[0])
			      : sizeof(narrow) / sizeof(narrow[0]);
	int rc = table_init(t, own->suite->ncases + 1, cols);

	for (size_t c = 0; !rc && c < cols; c++)
		rc = table_set(t, 0, c, head[c]);
	for (size_t i = 0; !rc && i < own->suite->ncases; i++)
		rc = spread_row(f, own, i, t);
	return rc;
}
