/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fleet as one HTML page: what a lab reads first (which ranks were
 * lost and why, the spread and the fleet total of each case, the odd
 * host out on a chart), then every host's figures as `hostbench merge`
 * shows them.
 */
#define _GNU_SOURCE /* asprintf */
#include "fleetreport/fleetreport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "render/html.h"
#include "render/svg.h"

/* The ranks: rank, host, status, reason, clock offset. */
static int ranks_table(const struct fleet *f, struct table *t)
{
	static const char *const head[] = { "Rank", "Host", "Status", "Reason",
					    "Clock offset" };
	char cell[64];
	int rc = table_init(t, (size_t)f->size + 1, 5);

	for (size_t c = 0; !rc && c < 5; c++)
		rc = table_set(t, 0, c, head[c]);
	for (int r = 0; !rc && r < f->size; r++) {
		const struct fleet_rank *fr = &f->st->ranks[r];
		size_t row = (size_t)r + 1;

		rc = fleet_rank_cells(f, r, t, row);
		rc = rc ? rc
			: table_set(t, row, 3,
				    fr->lost_why ? fr->lost_why : "");
		snprintf(cell, sizeof(cell), "%+.3f ms", 1000 * fr->offset);
		if (!rc && (r == 0 || fr->rtt >= 0))
			rc = table_set(t, row, 4, cell);
	}
	return rc;
}

/* The class of each ranks row: lost ones stand out. */
static const char **rank_classes(const struct fleet *f)
{
	const char **cls = calloc((size_t)f->size + 1, sizeof(*cls));

	for (int r = 0; cls && r < f->size; r++)
		if (f->st->ranks[r].lost || f->st->ranks[r].late)
			cls[r + 1] = "verdict-regressed";
	return cls;
}

/* Case i's chart: every host that ran it ok, against the median. */
static int case_chart(const struct fleet *f, const struct report *own, size_t i,
		      FILE *out)
{
	const struct bench_case *c = &own->suite->cases[i];
	struct svg_bar *bars = calloc((size_t)f->size, sizeof(*bars));
	char **labels = calloc((size_t)f->size, sizeof(*labels));
	char title[512];
	struct fleet_spread sp;
	size_t n = 0;
	int rc = bars && labels ? fleet_spread_of(f, own, i, &sp) : -ENOMEM;

	for (int r = 0; !rc && r < f->size && sp.median > 0; r++) {
		const struct result *res = &fleet_rank_results(f, r, own)[i];

		if (res->status != RESULT_OK)
			continue;
		if (asprintf(&labels[n], "rank %d (%s)%s", r,
			     f->st->ranks[r].host,
			     r == sp.outlier ? " outlier" : "") < 0) {
			labels[n] = NULL;
			rc = -ENOMEM;
			break;
		}
		bars[n] = (struct svg_bar){
			.label = labels[n],
			.value = 100 *
				 (result_headline(res)->median / sp.median - 1),
			.verdict = r == sp.outlier ? "outlier" : "host",
		};
		n++;
	}
	snprintf(title, sizeof(title), "%s (%s)", c->title, c->backend);
	if (!rc && n)
		svg_bar_chart(out,
			      &(struct svg_bar_chart){
				      .title = title,
				      .caption = "% from the median of the "
						 "hosts (shaded: 5%)",
				      .band = 5,
				      .bars = bars,
				      .nbars = n });
	for (size_t k = 0; labels && k < n; k++)
		free(labels[k]);
	free(labels);
	free(bars);
	return rc;
}

/* The ranks, the spread and the charts, each a section. */
static int write_sections(const struct fleet *f, const struct report *own,
			  FILE *out)
{
	struct table t = { 0 };
	const char **cls = rank_classes(f);
	int rc = cls ? ranks_table(f, &t) : -ENOMEM;

	html_section(out, "Ranks");
	if (!rc)
		html_table(out, &t, "ranks", cls);
	html_section_end(out);
	table_free(&t);
	free(cls);
	if (!rc)
		rc = fleet_spread_table(f, own, &t);
	html_section(out, "Spread across hosts");
	if (!rc)
		html_table(out, &t, "spread", NULL);
	html_section_end(out);
	table_free(&t);
	html_section(out, "Hosts by case");
	for (size_t i = 0; !rc && i < own->suite->ncases; i++)
		rc = case_chart(f, own, i, out);
	html_section_end(out);
	return rc;
}

int fleet_html(const struct fleet *f, const struct report *own, FILE *out,
	       char *err, size_t errlen)
{
	char title[64];
	int rc;

	snprintf(title, sizeof(title), "hostbench fleet: %d ranks", f->size);
	html_begin(out, title);
	rc = write_sections(f, own, out);
	if (rc) {
		html_end(out);
		return hb_errorf(err, errlen, rc,
				 "fleet report: out of memory");
	}
	rc = fleet_merge_write(f, own, REPORT_HTML, out, err, errlen);
	html_end(out);
	if (!rc && ferror(out))
		rc = report_io_error(out, err, errlen);
	return rc;
}
