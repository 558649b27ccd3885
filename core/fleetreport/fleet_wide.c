/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fleet of many ranks in text and Markdown: one row per host (its
 * rank, node, state, cases ok and the case where it stands farthest from
 * the fleet's median), never one column per host. No MPI here.
 */
#include "fleetreport/fleetreport.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/table.h"
#include "result/result_json.h"

/* The median of every case across the hosts into med (ncases). */
static int medians(const struct fleet *f, const struct report *own, double *med)
{
	for (size_t i = 0; i < own->suite->ncases; i++) {
		struct fleet_spread sp;
		int rc = fleet_spread_of(f, own, i, &sp);

		if (rc)
			return rc;
		med[i] = sp.ok > 1 ? sp.median : 0;
	}
	return 0;
}

int fleet_rank_cells(const struct fleet *f, int r, struct table *t, size_t row)
{
	const struct fleet_rank *fr = &f->st->ranks[r];
	char cell[32];
	int rc;

	snprintf(cell, sizeof(cell), "%d", r);
	rc = table_set(t, row, 0, cell);
	rc = rc ? rc : table_set(t, row, 1, fr->host);
	return rc ? rc
		  : table_set(t, row, 2,
			      fr->lost || fr->late ? fleet_rank_name_status(fr)
			      : fr->failed	   ? "ok (a case failed)"
						   : "ok");
}

/* Row r + 1: rank, host, status, cases ok, farthest from the median. */
static int host_row(const struct fleet *f, const struct report *own, int r,
		    const double *med, struct table *t)
{
	const struct result *res = fleet_rank_results(f, r, own);
	size_t n = own->suite->ncases, ok = 0, far = n, row = (size_t)r + 1;
	double dev = 0;
	char cell[REPORT_LINE];
	int rc;

	for (size_t i = 0; i < n; i++) {
		double d;

		if (res[i].status != RESULT_OK)
			continue;
		ok++;
		if (med[i] <= 0)
			continue;
		d = result_headline(&res[i])->median / med[i] - 1;
		if (far == n || fabs(d) > fabs(dev))
			far = i, dev = d;
	}
	rc = fleet_rank_cells(f, r, t, row);
	snprintf(cell, sizeof(cell), "%zu/%zu", ok, n);
	rc = rc ? rc : table_set(t, row, 3, cell);
	if (!rc && far < n) {
		snprintf(cell, sizeof(cell), "%s (%s) %+.1f%%",
			 own->suite->cases[far].title,
			 own->suite->cases[far].backend, 100 * dev);
		rc = table_set(t, row, 4, cell);
	}
	return rc;
}

int fleet_hosts_table(const struct fleet *f, const struct report *own,
		      struct table *t)
{
	static const char *const head[] = { "Rank", "Host", "Status",
					    "Cases ok",
					    "Farthest from the median" };
	double *med = calloc(own->suite->ncases + 1, sizeof(*med));
	int rc = med ? table_init(t, (size_t)f->size + 1, 5) : -ENOMEM;

	for (size_t c = 0; !rc && c < 5; c++)
		rc = table_set(t, 0, c, head[c]);
	rc = rc ? rc : medians(f, own, med);
	for (int r = 0; !rc && r < f->size; r++)
		rc = host_row(f, own, r, med, t);
	for (int r = 0; !rc && r < f->size; r++)
		if (f->st->ranks[r].lost && f->st->ranks[r].lost_why) {
			char note[REPORT_LINE], who[FLEET_HOST_MAX + 32];

			snprintf(note, sizeof(note), "%s: lost: %s",
				 fleet_rank_name(f, r, who, sizeof(who)),
				 f->st->ranks[r].lost_why);
			rc = strlist_push(&t->notes, note);
		}
	free(med);
	return rc;
}
