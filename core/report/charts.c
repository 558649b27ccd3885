/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The charts of a report, as inline SVG: per job, throughput against block
 * size (a line per backend, or per whatever else varies), throughput
 * against parallelism with ideal scaling drawn, and the latency
 * percentiles of one unit where the results have them; per section, a bar
 * per line. The html writer and merge's page draw them alike.
 */
#include "report/charts.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "report/figure.h"
#include "render/html.h"
#include "report/layout.h"
#include "render/svg.h"

/*
 * The results one chart draws: those of a job, with every later job of
 * the section that has its label and target (the default suite measures
 * "AES256/CTR" at 1 worker and again at 4 and 8).
 */
struct chart_set {
	size_t *idx;
	size_t n;
};

/* A series of a chart being gathered. */
struct series_buf {
	char *name;
	double *x, *y, *lo, *hi; /* lo, hi: each point's 95% interval */
	size_t n;
};

/* The label of the job of res: its section name in the suite. */
static const char *job_label(const struct report *r, const struct result *res)
{
	if (r->suite && res->c->job < r->suite->njobs)
		return r->suite->jobs[res->c->job].label;
	return res->c->title ? res->c->title : "";
}

/* Nonzero when key has more than one value over the set. */
static int set_varies(const struct report *r, const struct chart_set *cs,
		      const char *key)
{
	char b1[32], b2[32];
	const char *first;

	first = report_case_value(r->results[cs->idx[0]].c, key, b1,
				  sizeof(b1));
	for (size_t i = 1; i < cs->n; i++)
		if (strcmp(first, report_case_value(r->results[cs->idx[i]].c,
						    key, b2, sizeof(b2))) != 0)
			return 1;
	return 0;
}

/*
 * The values of every key that varies over the set, but skip, into buf
 * ("gcrypt, size 4K"); returns how many characters it wrote.
 */
static size_t varying_values(const struct report *r, const struct chart_set *cs,
			     const struct result *res, const char *skip,
			     char *buf, size_t len)
{
	const struct bench_case *c = res->c;
	char num[32];
	size_t used = 0;

	buf[0] = '\0';
	for (size_t k = 0; k < c->params.n + 2; k++) {
		const char *key = k == 0   ? "backend"
				  : k == 1 ? "parallel"
					   : c->params.items[k - 2].key;
		const char *v = report_case_value(c, key, num, sizeof(num));

		if (strcmp(key, skip) == 0 || !set_varies(r, cs, key))
			continue;
		if (k == 1)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s parallel%s",
						 used ? ", " : "", v,
						 c->parallel == 1 ? "" : "s");
		else if (k == 0)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? ", " : "", v);
		else
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s %s", used ? ", " : "",
						 key, v);
		if (used >= len)
			return len;
	}
	return used;
}

/*
 * The series name of res: the values of every varying key but xkey, or
 * the job's label when nothing else varies.
 */
static void series_name(const struct report *r, const struct chart_set *cs,
			const struct result *res, const char *xkey, char *buf,
			size_t len)
{
	if (!varying_values(r, cs, res, xkey, buf, len))
		snprintf(buf, len, "%s", job_label(r, res));
}

/* x of res for xkey: parallel, or the size parameter in bytes. */
static double x_of(const struct result *res, const char *xkey)
{
	const char *text = kvlist_get(&res->c->params, xkey);
	char why[64];
	uint64_t size;

	if (strcmp(xkey, "parallel") == 0)
		return res->c->parallel;
	if (!text || parse_size(text, &size, why, sizeof(why)))
		return NAN;
	return (double)size;
}

/* Sort a series by x (few points: insertion sort). */
static void series_sort(struct series_buf *s)
{
	for (size_t i = 1; i < s->n; i++)
		for (size_t j = i; j > 0 && s->x[j - 1] > s->x[j]; j--) {
			double tx = s->x[j], ty = s->y[j], tl = s->lo[j];
			double th = s->hi[j];

			s->x[j] = s->x[j - 1];
			s->y[j] = s->y[j - 1];
			s->lo[j] = s->lo[j - 1];
			s->hi[j] = s->hi[j - 1];
			s->x[j - 1] = tx;
			s->y[j - 1] = ty;
			s->lo[j - 1] = tl;
			s->hi[j - 1] = th;
		}
}

/*
 * The figure of res in its unit and the 95% interval of its median, in
 * the same unit (lo = hi = the figure when the interval is unknown).
 */
static void interval_of(const struct result *res, double *v, double *lo,
			double *hi)
{
	const struct stats *st = result_headline(res);
	double scale;

	*v = report_value(res, report_unit(res));
	scale = st->median > 0 ? *v / st->median : 0;
	*lo = st->ci95_low > 0 ? st->ci95_low * scale : *v;
	*hi = st->ci95_high > 0 ? st->ci95_high * scale : *v;
}

/* Gather the set's ok results into series along xkey. */
static int gather(const struct report *r, const struct chart_set *cs,
		  const char *xkey, struct series_buf *bufs, size_t *nbufs)
{
	char name[REPORT_LINE];

	for (size_t i = 0; i < cs->n; i++) {
		const struct result *res = &r->results[cs->idx[i]];
		size_t k = 0;

		if (res->status != RESULT_OK || !isfinite(x_of(res, xkey)))
			continue;
		series_name(r, cs, res, xkey, name, sizeof(name));
		while (k < *nbufs && strcmp(bufs[k].name, name) != 0)
			k++;
		if (k == *nbufs) {
			bufs[k].name = strdup(name);
			bufs[k].x = calloc(cs->n, sizeof(double));
			bufs[k].y = calloc(cs->n, sizeof(double));
			bufs[k].lo = calloc(cs->n, sizeof(double));
			bufs[k].hi = calloc(cs->n, sizeof(double));
			(*nbufs)++;
			if (!bufs[k].name || !bufs[k].x || !bufs[k].y ||
			    !bufs[k].lo || !bufs[k].hi)
				return -ENOMEM;
		}
		bufs[k].x[bufs[k].n] = x_of(res, xkey);
		interval_of(res, &bufs[k].y[bufs[k].n], &bufs[k].lo[bufs[k].n],
			    &bufs[k].hi[bufs[k].n]);
		bufs[k].n++;
	}
	for (size_t k = 0; k < *nbufs; k++)
		series_sort(&bufs[k]);
	return 0;
}

/*
 * Ideal scaling of a measured series: its first point times the workers'
 * ratio, flat beyond the CPUs the host has (cpus, 0 = unknown).
 */
static void ideal_of(const struct series_buf *s, unsigned cpus, double *y)
{
	double x0 = s->x[0], cap = cpus ? (double)cpus : INFINITY;

	for (size_t i = 0; i < s->n; i++)
		y[i] = s->y[0] * fmin(s->x[i], fmax(cap, x0)) / x0;
}

/* Free what gather() made. */
static void series_free(struct series_buf *bufs, size_t n)
{
	for (size_t k = 0; bufs && k < n; k++) {
		free(bufs[k].name);
		free(bufs[k].x);
		free(bufs[k].y);
		free(bufs[k].lo);
		free(bufs[k].hi);
	}
	free(bufs);
}

/* One chart of the set along xkey. */
static int set_chart(const struct report *r, const struct chart_set *cs,
		     const char *xkey, FILE *out)
{
	const struct result *first = &r->results[cs->idx[0]];
	int parallel = strcmp(xkey, "parallel") == 0;
	struct series_buf *bufs = calloc(cs->n, sizeof(*bufs));
	struct svg_series *series = calloc(2 * cs->n, sizeof(*series));
	double *ideal = calloc(cs->n * cs->n, sizeof(*ideal));
	char title[REPORT_LINE], xlabel[64];
	size_t nbufs = 0, n = 0;
	int err = bufs && series && ideal ? 0 : -ENOMEM;

	err = err ? err : gather(r, cs, xkey, bufs, &nbufs);
	for (size_t k = 0; k < nbufs && !err; k++) {
		series[n] = (struct svg_series){ .name = bufs[k].name,
						 .x = bufs[k].x,
						 .y = bufs[k].y,
						 .lo = bufs[k].lo,
						 .hi = bufs[k].hi,
						 .n = bufs[k].n,
						 .color = k };
		n++;
		if (!parallel || bufs[k].n < 2)
			continue;
		ideal_of(&bufs[k], r->sys ? r->sys->logical_cpus : 0,
			 &ideal[k * cs->n]);
		series[n] = (struct svg_series){ .name = "ideal scaling",
						 .x = bufs[k].x,
						 .y = &ideal[k * cs->n],
						 .n = bufs[k].n,
						 .dashed = 1,
						 .color = k };
		n++;
	}
	snprintf(title, sizeof(title), "%s: throughput against %s",
		 job_label(r, first), parallel ? "parallelism" : xkey);
	snprintf(xlabel, sizeof(xlabel), "%s%s", parallel ? "workers" : xkey,
		 parallel ? "" : " (bytes)");
	if (!err && n)
		svg_line_chart(
			out,
			&(struct svg_line_chart){
				.title = title,
				.xlabel = xlabel,
				.ylabel = report_unit(first),
				.kind = parallel ? "parallel" : "size",
				.xformat = parallel ? SVG_X_PLAIN : SVG_X_BYTES,
				.series = series,
				.nseries = n });
	series_free(bufs, nbufs);
	free(series);
	free(ideal);
	return err;
}

/* The size parameter that varies over the set, or NULL. */
static const char *size_key(const struct report *r, const struct chart_set *cs)
{
	const struct bench_case *c = r->results[cs->idx[0]].c;
	const struct hb_option *o = c->tdesc ? c->tdesc->options : NULL;

	for (; o && o->name; o++)
		if (o->type == HB_OPT_SIZE && kvlist_get(&c->params, o->name) &&
		    set_varies(r, cs, o->name))
			return o->name;
	return NULL;
}

/* ns as a chart label: report_nanoseconds, with the micro sign. */
static void ns_label(double ns, char *buf, size_t len)
{
	size_t n;

	report_nanoseconds(ns, buf, len);
	n = strlen(buf);
	if (n >= 2 && strcmp(buf + n - 2, "us") == 0 && n + 2 < len)
		strcpy(buf + n - 2, "\u00b5s");
}

/*
 * The name of a latency row: backend and queue depth, then whatever else
 * varies over the set ("ipsec-mb, queue_depth 16, size 4K").
 */
static void latency_name(const struct report *r, const struct chart_set *cs,
			 const struct result *res, char *buf, size_t len)
{
	int used = snprintf(buf, len, "%s, queue_depth %u",
			    res->c->backend ? res->c->backend : "",
			    res->c->queue_depth ? res->c->queue_depth : 1);
	char rest[REPORT_LINE / 2];

	if (varying_values(r, cs, res, "backend", rest, sizeof(rest)) &&
	    used > 0 && (size_t)used < len)
		snprintf(buf + used, len - (size_t)used, ", %s", rest);
}

/* The latency chart of a set: a row per ok result with unit latencies. */
static int latency_chart(const struct report *r, const struct chart_set *cs,
			 FILE *out)
{
	struct svg_latency_row *rows = calloc(cs->n, sizeof(*rows));
	char(*names)[REPORT_LINE] = calloc(cs->n, REPORT_LINE);
	char title[REPORT_LINE];
	size_t n = 0;

	if (!rows || !names) {
		free(rows);
		free(names);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cs->n; i++) {
		const struct result *res = &r->results[cs->idx[i]];
		const struct latency *l = &res->latency;

		if (res->status != RESULT_OK || !l->count)
			continue;
		latency_name(r, cs, res, names[n], REPORT_LINE);
		rows[n] = (struct svg_latency_row){
			.name = names[n],
			.ns = { l->p50, l->p90, l->p99, l->p999, l->max }
		};
		n++;
	}
	snprintf(title, sizeof(title), "%s: latency of one unit",
		 job_label(r, &r->results[cs->idx[0]]));
	if (n)
		svg_latency_chart(
			out, &(struct svg_latency_chart){ .title = title,
							  .rows = rows,
							  .nrows = n,
							  .format = ns_label });
	free(rows);
	free(names);
	return 0;
}

/* The charts of a set: by block size, by parallelism, then latency. */
static int set_charts(const struct report *r, const struct chart_set *cs,
		      FILE *out)
{
	const char *skey = cs->n < 2 ? NULL : size_key(r, cs);
	int err = 0;

	if (skey)
		err = set_chart(r, cs, skey, out);
	if (!err && cs->n >= 2 && set_varies(r, cs, "parallel"))
		err = set_chart(r, cs, "parallel", out);
	return err ? err : latency_chart(r, cs, out);
}

/* Nonzero when results i and j belong in one chart (see chart_set). */
static int same_chart(const struct report *r, size_t i, size_t j)
{
	const struct result *a = &r->results[i], *b = &r->results[j];

	return a->c && b->c && strcmp(job_label(r, a), job_label(r, b)) == 0 &&
	       strcmp(a->c->target, b->c->target) == 0;
}

int charts_section(const struct report *r, const struct report_section *s,
		   FILE *out)
{
	struct chart_set cs = { calloc(r->nresults + 1, sizeof(size_t)), 0 };
	char *done = calloc(r->nresults + 1, 1);
	int err = cs.idx && done ? 0 : -ENOMEM;

	for (size_t i = 0; i < s->nitems && !err; i++)
		for (size_t a = s->items[i].first; a < s->items[i].last; a++) {
			if (done[a] || !r->results[a].c)
				continue;
			cs.n = 0;
			for (size_t t = 0; t < s->nitems; t++)
				for (size_t b = s->items[t].first;
				     b < s->items[t].last; b++)
					if (!done[b] && same_chart(r, a, b)) {
						done[b] = 1;
						cs.idx[cs.n++] = b;
					}
			err = set_charts(r, &cs, out);
		}
	free(cs.idx);
	free(done);
	return err;
}

int charts_lines(const struct report *r, const struct report_section *s,
		 FILE *out)
{
	struct svg_value_bar *bars = calloc(s->nitems + 1, sizeof(*bars));
	char(*labels)[REPORT_LINE] = calloc(s->nitems + 1, REPORT_LINE);
	char title[REPORT_LINE];
	const char *unit = NULL;
	size_t n = 0;

	for (size_t i = 0; bars && labels && i < s->nitems; i++) {
		const struct result *res = &r->results[s->items[i].first];

		if (s->items[i].key || res->status != RESULT_OK ||
		    (unit && strcmp(unit, report_unit(res)) != 0))
			continue;
		unit = report_unit(res);
		report_label(r, res, labels[n], REPORT_LINE);
		bars[n].label = labels[n];
		interval_of(res, &bars[n].value, &bars[n].lo, &bars[n].hi);
		n++;
	}
	snprintf(title, sizeof(title),
		 "%s: every line, with its 95%% "
		 "interval",
		 s->title);
	if (n >= 2)
		svg_value_chart(out, &(struct svg_value_chart){ .title = title,
								.xlabel = unit,
								.bars = bars,
								.nbars = n });
	free(bars);
	free(labels);
	return bars && labels ? 0 : -ENOMEM;
}

int charts_report(const struct report *r, FILE *out)
{
	struct report_layout lay;
	int rc = report_layout_build(r, &lay);

	for (size_t s = 0; s < lay.nsections && !rc; s++) {
		html_section(out, lay.sections[s].title);
		rc = charts_section(r, &lay.sections[s], out);
		html_section_end(out);
	}
	report_layout_free(&lay);
	return rc;
}
