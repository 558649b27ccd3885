/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Comparing two reports: matching cases, the Mann-Whitney U test on their
 * samples, the verdict, and the context facts of both hosts.
 */
#define _GNU_SOURCE /* asprintf */
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"
#include "compare/match.h"

/* Above this many values a side, or with ties, U is approximated. */
#define EXACT_MAX 50

double compare_min_p(size_t na, size_t nb)
{
	double c = 1; /* C(na + nb, na), as a double: it only grows */

	for (size_t i = 1; i <= na; i++)
		c = c * (double)(nb + i) / (double)i;
	return c > 0 ? fmin(1, 2 / c) : 1;
}

/*
 * P(U <= u) for na and nb values without ties: the number of orderings
 * with each U is the coefficient of q^U in the Gaussian binomial
 * [na + nb choose na]_q, built one factor (1 - q^(nb+i)) / (1 - q^i) at a
 * time; divided by their sum, C(na + nb, na).
 */
static double exact_cdf(size_t na, size_t nb, double u)
{
	size_t max = na * nb, k;
	double *c = calloc(max + 1, sizeof(*c)), total = 0, below = 0;

	if (!c)
		return NAN;
	c[0] = 1;
	for (size_t i = 1; i <= na; i++) {
		/* multiply by 1 - q^(nb+i): from the top, so c[k - m] is old */
		for (k = max; k >= nb + i; k--)
			c[k] -= c[k - (nb + i)];
		/* divide by 1 - q^i: a running sum with step i */
		for (k = i; k <= max; k++)
			c[k] += c[k - i];
	}
	for (k = 0; k <= max; k++) {
		total += c[k];
		if ((double)k <= u + 1e-9)
			below += c[k];
	}
	free(c);
	return below / total;
}

/* One value of either side, for ranking both together. */
struct ranked {
	double v;
	int from_a;
};

/* qsort order of struct ranked: by value. */
static int ranked_cmp(const void *x, const void *y)
{
	double a = ((const struct ranked *)x)->v;
	double b = ((const struct ranked *)y)->v;

	return (a > b) - (a < b);
}

/*
 * Rank a and b together in O(n log n): *rank_a gets the sum of a's ranks
 * (tied values share their mean rank), *ties the sum of t^3 - t over the
 * groups of t tied values (0 when there is no tie). Returns 0 or -ENOMEM.
 */
static int rank_sum(const double *a, size_t na, const double *b, size_t nb,
		    double *rank_a, double *ties)
{
	size_t n = na + nb, i, j, in_a;
	struct ranked *all = calloc(n, sizeof(*all));

	if (!all)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		all[i] = (struct ranked){ i < na ? a[i] : b[i - na], i < na };
	qsort(all, n, sizeof(*all), ranked_cmp);
	*rank_a = *ties = 0;
	for (i = 0; i < n; i = j) {
		double t, mean_rank;

		for (j = i, in_a = 0; j < n && all[j].v == all[i].v; j++)
			in_a += (size_t)all[j].from_a;
		t = (double)(j - i);
		mean_rank = ((double)i + 1 + (double)j) / 2; /* ranks i+1..j */
		*rank_a += mean_rank * (double)in_a;
		*ties += t * t * t - t;
	}
	free(all);
	return 0;
}

void compare_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb, double *u, double *p)
{
	double n1 = (double)na, n2 = (double)nb, n = n1 + n2, mu, sigma, z;
	double rank_a, ties;

	*u = 0;
	*p = 1;
	if (!na || !nb || rank_sum(a, na, b, nb, &rank_a, &ties))
		return;
	/* the pairs a wins, ties counting one half */
	*u = rank_a - n1 * (n1 + 1) / 2;
	mu = n1 * n2 / 2;
	if (ties == 0 && na <= EXACT_MAX && nb <= EXACT_MAX) {
		/* U's distribution is symmetric about its mean */
		double lo = fmin(*u, n1 * n2 - *u);

		*p = fmin(1, 2 * exact_cdf(na, nb, lo));
		return;
	}
	sigma = sqrt(n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))));
	if (sigma <= 0)
		return;
	z = (fabs(*u - mu) - 0.5) / sigma;
	*p = fmin(1, erfc(fmax(z, 0) / sqrt(2)));
}

enum cmp_verdict compare_verdict(double diff, double threshold, int tested,
				 double p, double cv_base, double cv_new)
{
	int real;

	if (fabs(diff) <= threshold)
		return CMP_SAME;
	if (tested)
		real = p < COMPARE_ALPHA;
	else
		real = fabs(diff) > 3 * fmax(cv_base, cv_new);
	if (!real)
		return CMP_SAME;
	return diff > 0 ? CMP_IMPROVED : CMP_REGRESSED;
}

double compare_intervals_apart(const struct stats *base,
			       const struct stats *new)
{
	if (base->median <= 0)
		return 0;
	if (new->ci95_low > base->ci95_high)
		return (new->ci95_low - base->ci95_high) / base->median;
	if (new->ci95_high < base->ci95_low)
		return (new->ci95_high - base->ci95_low) / base->median;
	return 0;
}

const char *compare_verdict_name(const struct cmp_row *row)
{
	switch (row->verdict) {
	case CMP_SAME:
		return "within noise";
	case CMP_IMPROVED:
		return "improved";
	case CMP_REGRESSED:
		return "regressed";
	case CMP_ONLY_BASE:
		return "only in base";
	case CMP_ONLY_NEW:
		return "only in new";
	case CMP_INCONCLUSIVE:
		return "inconclusive";
	case CMP_NOT_OK:
		break;
	}
	if (row->new->res.status != RESULT_OK)
		return row->new->res.status == RESULT_FAILED ? "failed in new"
							     : "skipped in new";
	return row->base->res.status == RESULT_FAILED ? "failed in base"
						      : "skipped in base";
}

/* The median of d's figure in unit (base's unit, so both sides read alike). */
static double value_in(const struct doc_result *d, const char *unit,
		       enum result_figure figure)
{
	const struct stats *bytes =
		figure == RESULT_FIGURE_CPU ? &d->res.cpu_rate : &d->res.rate;
	const struct stats *ops = figure == RESULT_FIGURE_CPU
					  ? &d->res.cpu_ops_rate
					  : &d->res.ops_rate;

	return unit_scale(unit, bytes->median, ops->median);
}

/* One figure of a pair judged alone: its move, its test, its verdict. */
struct judgement {
	double diff, p;
	int tested;
	enum cmp_verdict verdict;
};

/* The Mann-Whitney test of the samples of b and n in figure into *j. */
static int judge_test(const struct doc_result *b, const struct doc_result *n,
		      enum result_figure figure, struct judgement *j)
{
	size_t nb = b->res.nsamples, nn = n->res.nsamples;
	double *rb = calloc(nb + 1, sizeof(*rb)),
	       *rn = calloc(nn + 1, sizeof(*rn));
	double u;

	if (!rb || !rn) {
		free(rb);
		free(rn);
		return -ENOMEM;
	}
	report_read_sample_rates(b, figure, rb);
	report_read_sample_rates(n, figure, rn);
	compare_mann_whitney(rb, nb, rn, nn, &u, &j->p);
	free(rb);
	free(rn);
	j->tested = nb && nn && compare_min_p(nb, nn) < COMPARE_ALPHA;
	return 0;
}

/* The verdict of the pair b, n on figure alone, at threshold. */
static int judge(const struct doc_result *b, const struct doc_result *n,
		 enum result_figure figure, double threshold,
		 struct judgement *j)
{
	const struct stats *sb = report_read_stats(b, figure);
	const struct stats *sn = report_read_stats(n, figure);
	int err;

	*j = (struct judgement){ .p = 1, .verdict = CMP_SAME };
	if (!(sb->median > 0) || !(sn->median > 0))
		return 0;
	j->diff = sn->median / sb->median - 1;
	err = judge_test(b, n, figure, j);
	if (err)
		return err;
	j->verdict = compare_verdict(j->diff, threshold, j->tested, j->p,
				     sb->cv, sn->cv);
	/* a move the two medians' intervals may hide is no change */
	if (fabs(compare_intervals_apart(sb, sn)) <= threshold)
		j->verdict = CMP_SAME;
	return 0;
}

/* Nonzero when v claims a change. */
static int moved(enum cmp_verdict v)
{
	return v == CMP_IMPROVED || v == CMP_REGRESSED;
}

enum cmp_verdict compare_flagged_verdict(enum cmp_verdict wall,
					 enum cmp_verdict cpu, int have_cpu,
					 int cpu_bound, int starved,
					 int *judged_cpu)
{
	*judged_cpu = 0;
	if (have_cpu && cpu_bound && starved) {
		*judged_cpu = 1;
		return cpu;
	}
	if (!moved(wall))
		return wall;
	if (have_cpu && cpu == wall) {
		*judged_cpu = 1;
		return cpu;
	}
	return CMP_INCONCLUSIVE;
}

double compare_noise_floor(double cv_base, double cv_new, int little_cpu)
{
	double floor = 3 * fmax(cv_base, cv_new);

	if (little_cpu)
		floor = fmax(floor, COMPARE_STARVED_FLOOR);
	return fmin(floor, COMPARE_FLOOR_MOST);
}

/* Nonzero when d is starved and most of its samples got little CPU. */
static int starved_of_cpu(const struct doc_result *d)
{
	size_t little = 0;

	if (!d->res.starved)
		return 0;
	for (size_t i = 0; i < d->res.nsamples; i++)
		little += d->res.samples[i].cpu_seconds < COMPARE_LITTLE_CPU;
	return 2 * little > d->res.nsamples;
}

/* The larger of d's CVs, wall and per CPU-second. */
static double side_cv(const struct doc_result *d)
{
	return fmax(report_read_stats(d, RESULT_FIGURE_WALL)->cv,
		    report_read_stats(d, RESULT_FIGURE_CPU)->cv);
}

/* A flagged row's move within its noise floor is inconclusive. */
static void row_floor(struct cmp_row *row)
{
	int little = starved_of_cpu(row->base) || starved_of_cpu(row->new);

	if (moved(row->verdict) &&
	    fabs(row->diff) <= compare_noise_floor(side_cv(row->base),
						   side_cv(row->new), little))
		row->verdict = CMP_INCONCLUSIVE;
}

/* Fill row's figures, test and verdict from the two judgements. */
static void row_verdict(const struct comparison *cmp, struct cmp_row *row,
			const struct judgement *wall,
			const struct judgement *cpu, int have_cpu)
{
	const struct result *b = &row->base->res, *n = &row->new->res;
	int judged_cpu = have_cpu && cmp->figure == RESULT_FIGURE_CPU;
	const struct judgement *j;

	row->flagged = b->starved || n->starved || b->imprecise || n->imprecise;
	row->verdict = judged_cpu ? cpu->verdict : wall->verdict;
	if (row->flagged && !judged_cpu)
		row->verdict = compare_flagged_verdict(
			wall->verdict, cpu->verdict, have_cpu,
			result_cpu_bound(row->base->target),
			b->starved || n->starved, &judged_cpu);
	row->judged = judged_cpu ? RESULT_FIGURE_CPU : RESULT_FIGURE_WALL;
	j = judged_cpu ? cpu : wall;
	row->diff = j->diff;
	row->p = j->p;
	row->tested = j->tested;
	row->diff_wall = wall->diff;
	row->diff_cpu = have_cpu ? cpu->diff : 0;
	if (row->flagged)
		row_floor(row);
}

/* Figures, tests and verdict of a matched row. */
static int row_judge(struct comparison *cmp, struct cmp_row *row)
{
	const struct doc_result *b = row->base, *n = row->new;
	struct judgement wall, cpu;
	int have_cpu, err;

	if (b->res.status != RESULT_OK || n->res.status != RESULT_OK) {
		row->verdict = CMP_NOT_OK;
		cmp->nnot_ok++;
		cmp->new_failed |= b->res.status == RESULT_OK &&
				   n->res.status == RESULT_FAILED;
		return 0;
	}
	row->base_value = value_in(b, b->unit, RESULT_FIGURE_WALL);
	row->new_value = value_in(n, b->unit, RESULT_FIGURE_WALL);
	row->base_cpu = value_in(b, b->unit, RESULT_FIGURE_CPU);
	row->new_cpu = value_in(n, b->unit, RESULT_FIGURE_CPU);
	have_cpu = row->base_cpu > 0 && row->new_cpu > 0;
	err = judge(b, n, RESULT_FIGURE_WALL, cmp->threshold, &wall);
	err = err ? err : judge(b, n, RESULT_FIGURE_CPU, cmp->threshold, &cpu);
	if (err)
		return err;
	row_verdict(cmp, row, &wall, &cpu, have_cpu);
	cmp->nimproved += row->verdict == CMP_IMPROVED;
	cmp->nregressed += row->verdict == CMP_REGRESSED;
	cmp->ninconclusive += row->verdict == CMP_INCONCLUSIVE;
	return 0;
}

void compare_history(struct comparison *cmp, struct cmp_row *row,
		     const char *where, size_t runs, double floor)
{
	if (!cmp->history)
		cmp->history = strdup(where);
	cmp->nhistory++;
	row->history_runs = runs;
	row->history_floor = floor;
	if (!moved(row->verdict) || fabs(row->diff) > floor)
		return;
	cmp->nimproved -= row->verdict == CMP_IMPROVED;
	cmp->nregressed -= row->verdict == CMP_REGRESSED;
	row->verdict = CMP_SAME;
	row->by_history = 1;
}

/* Nonzero when d is on the side of value (the --by value, if any). */
static int on_side(const struct comparison *cmp, const struct doc_result *d,
		   const char *value)
{
	return !cmp->by.key || match_value_is(d, cmp->by.key, value);
}

/*
 * Set *found to the first result of doc (indexed in ix) on the side of
 * value that is the case of d, or NULL. Returns 0 or -ENOMEM.
 */
static int find(const struct comparison *cmp, const struct doc_report *doc,
		const struct match_index *ix, const char *value,
		const struct doc_result *d, const struct doc_result **found)
{
	const json_t *candidates, *i;
	size_t k;

	*found = NULL;
	if (match_index_get(ix, d, &candidates))
		return -ENOMEM;
	json_array_foreach(candidates, k, i) {
		const struct doc_result *c =
			&doc->results[json_integer_value(i)];

		if (on_side(cmp, c, value) && match_case(d, c, cmp->by.key)) {
			*found = c;
			break;
		}
	}
	return 0;
}

/* An index of doc's results for find(). Returns 0 or -ENOMEM. */
static int index_doc(const struct comparison *cmp, const struct doc_report *doc,
		     struct match_index *ix)
{
	int err = match_index_init(ix, cmp->by.key);

	for (size_t i = 0; i < doc->nresults && !err; i++)
		err = match_index_add(ix, &doc->results[i], i);
	return err;
}

/* Append a fact; base or new may be NULL ("-"). */
static int add_fact(struct comparison *cmp, const char *name, const char *b,
		    const char *n)
{
	struct cmp_fact *f;

	if (array_grow((void **)&cmp->facts, cmp->nfacts, &cmp->facts_cap,
		       sizeof(*cmp->facts)))
		return -ENOMEM;
	f = &cmp->facts[cmp->nfacts++];
	f->name = strdup(name);
	f->base = strdup(b ? b : "-");
	f->new = strdup(n ? n : "-");
	f->differs = !b || !n || strcmp(b, n) != 0;
	return f->name && f->base && f->new ? 0 : -ENOMEM;
}

/* The CPU features of si as one line: "aes avx2 sha_ni". */
static char *flags_text(const struct sysinfo *si)
{
	size_t len = 1;
	char *s;

	for (size_t i = 0; i < si->cpu_flags.n; i++)
		len += strlen(si->cpu_flags.items[i]) + 1;
	s = calloc(1, len);
	for (size_t i = 0; s && i < si->cpu_flags.n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, si->cpu_flags.items[i]);
	}
	return s;
}

/* A field of doc's run, NULL when the report has no "run" (older). */
static const char *run_field(const struct doc_report *doc, const char *field)
{
	return doc->run.known ? field : NULL;
}

/* The runs' uuids and times, where either report has them. */
static int run_facts(struct comparison *cmp)
{
	const struct doc_report *b = cmp->base, *n = cmp->new;
	int err = 0;

	if (!b->run.known && !n->run.known)
		return 0;
	err = add_fact(cmp, "Run", run_field(b, b->run.uuid),
		       run_field(n, n->run.uuid));
	err = err ? err
		  : add_fact(cmp, "Started", run_field(b, b->run.started),
			     run_field(n, n->run.started));
	return err;
}

/* Host facts of both files, in report order. */
static int host_facts(struct comparison *cmp)
{
	const struct sysinfo *b = &cmp->base->sys, *n = &cmp->new->sys;
	char bb[64], nb[64], *bf = flags_text(b), *nf = flags_text(n);
	int err = !bf || !nf ? -ENOMEM : 0;

	err = err ? err : add_fact(cmp, "hostbench", b->version, n->version);
	err = err ? err : add_fact(cmp, "Build", b->build_type, n->build_type);
	err = err ? err : add_fact(cmp, "CPU", b->cpu_model, n->cpu_model);
	snprintf(bb, sizeof(bb), "%u / %u", b->physical_cores, b->logical_cpus);
	snprintf(nb, sizeof(nb), "%u / %u", n->physical_cores, n->logical_cpus);
	err = err ? err : add_fact(cmp, "Cores (physical / logical)", bb, nb);
	err = err ? err : add_fact(cmp, "CPU features", bf, nf);
	snprintf(bb, sizeof(bb), "%llu kB", b->ram_kb);
	snprintf(nb, sizeof(nb), "%llu kB", n->ram_kb);
	err = err ? err : add_fact(cmp, "RAM", bb, nb);
	err = err ? err : add_fact(cmp, "Kernel", b->kernel, n->kernel);
	err = err ? err : add_fact(cmp, "OS", b->os, n->os);
	err = err ? err : add_fact(cmp, "Host", b->hostname, n->hostname);
	free(bf);
	free(nf);
	return err;
}

/* The libraries of plugin name in doc, or NULL. */
static const struct kvlist *libs_of(const struct doc_report *doc,
				    const char *name)
{
	for (size_t i = 0; i < doc->nplugins; i++)
		if (strcmp(doc->plugins[i].name, name) == 0)
			return &doc->plugins[i].libraries;
	return NULL;
}

/* One fact per library of every plugin of either file. */
static int plugin_facts(struct comparison *cmp, const struct doc_report *a,
			const struct doc_report *b, int a_is_base)
{
	char name[256];
	int err = 0;

	for (size_t p = 0; p < a->nplugins && !err; p++) {
		const struct kvlist *mine = &a->plugins[p].libraries;
		const struct kvlist *theirs = libs_of(b, a->plugins[p].name);

		for (size_t i = 0; i < mine->n && !err; i++) {
			const char *v = mine->items[i].value;
			const char *w =
				theirs ? kvlist_get(theirs, mine->items[i].key)
				       : NULL;

			/* the base pass already listed what both have */
			if (!a_is_base && w)
				continue;
			snprintf(name, sizeof(name), "Library %s (%s)",
				 mine->items[i].key, a->plugins[p].name);
			err = add_fact(cmp, name, a_is_base ? v : w,
				       a_is_base ? w : v);
		}
	}
	return err;
}

/* Append a row. */
static struct cmp_row *add_row(struct comparison *cmp)
{
	if (array_grow((void **)&cmp->rows, cmp->nrows, &cmp->rows_cap,
		       sizeof(*cmp->rows)))
		return NULL;
	memset(&cmp->rows[cmp->nrows], 0, sizeof(*cmp->rows));
	cmp->rows[cmp->nrows].p = 1;
	return &cmp->rows[cmp->nrows++];
}

/* Every case of base against new's index (matched or not). */
static int base_rows(struct comparison *cmp, const struct match_index *in_new)
{
	struct cmp_row *row;

	for (size_t i = 0; i < cmp->base->nresults; i++) {
		const struct doc_result *b = &cmp->base->results[i];

		if (!on_side(cmp, b, cmp->by.base))
			continue;
		if (!(row = add_row(cmp)))
			return -ENOMEM;
		row->base = b;
		if (find(cmp, cmp->new, in_new, cmp->by.new, b, &row->new))
			return -ENOMEM;
		if (!row->new) {
			row->verdict = CMP_ONLY_BASE;
			cmp->nonly_base++;
			continue;
		}
		cmp->nmatched++;
		if (row_judge(cmp, row))
			return -ENOMEM;
	}
	return 0;
}

/* The cases of new that base's index does not hold. */
static int new_rows(struct comparison *cmp, const struct match_index *in_base)
{
	const struct doc_result *b;
	struct cmp_row *row;

	for (size_t i = 0; i < cmp->new->nresults; i++) {
		const struct doc_result *n = &cmp->new->results[i];

		if (!on_side(cmp, n, cmp->by.new))
			continue;
		if (find(cmp, cmp->base, in_base, cmp->by.base, n, &b))
			return -ENOMEM;
		if (b)
			continue;
		if (!(row = add_row(cmp)))
			return -ENOMEM;
		row->new = n;
		row->verdict = CMP_ONLY_NEW;
		cmp->nonly_new++;
	}
	return 0;
}

/* Every case of base (matched or not), then the cases only in new. */
static int match_rows(struct comparison *cmp)
{
	struct match_index in_base = { 0 }, in_new = { 0 };
	int err = index_doc(cmp, cmp->base, &in_base);

	if (!err)
		err = index_doc(cmp, cmp->new, &in_new);
	if (!err)
		err = base_rows(cmp, &in_new);
	if (!err)
		err = new_rows(cmp, &in_base);
	match_index_free(&in_base);
	match_index_free(&in_new);
	return err;
}

/* "PATH" or, with --by, "PATH [KEY=VALUE]" into *label. */
static int side_label(const struct doc_report *doc, const char *key,
		      const char *value, char **label)
{
	int n = key ? asprintf(label, "%s [%s=%s]", doc->path, key, value)
		    : asprintf(label, "%s", doc->path);

	if (n < 0)
		*label = NULL;
	return *label ? 0 : -ENOMEM;
}

int compare_build(struct comparison *cmp, const struct doc_report *base,
		  const struct doc_report *new, double threshold, char *err,
		  size_t errlen)
{
	const struct compare_rule rule = { .threshold = threshold,
					   .figure = RESULT_FIGURE_WALL };

	return compare_build_by(cmp, base, new, NULL, &rule, err, errlen);
}

/* "no case in common", and what matching asked for. */
static int nothing_in_common(struct comparison *cmp, char *err, size_t errlen)
{
	if (cmp->by.key)
		hb_error_fill(err, errlen,
			      "%s and %s have no case in common (same job, "
			      "target and parameters but %s)",
			      cmp->base_label, cmp->new_label, cmp->by.key);
	else
		hb_error_fill(err, errlen,
			      "%s and %s have no case in common (same job, "
			      "target, backend and parameters)",
			      cmp->base_label, cmp->new_label);
	compare_free(cmp);
	return -EINVAL;
}

/*
 * The distinct values doc's results have for key, "64K, 1M", into buf.
 * Returns how many there are.
 */
static size_t side_values(const struct doc_report *doc, const char *key,
			  char *buf, size_t len)
{
	struct strlist seen = { 0 };
	char v[256];
	size_t n;

	buf[0] = '\0';
	for (size_t i = 0; i < doc->nresults; i++) {
		size_t at = seen.n ? strlen(buf) : 0;

		if (match_value_text(&doc->results[i], key, v, sizeof(v)) ||
		    strlist_has(&seen, v) || strlist_push(&seen, v))
			continue;
		if (at < len)
			snprintf(buf + at, len - at, "%s%s", at ? ", " : "", v);
	}
	n = seen.n;
	strlist_free(&seen);
	return n;
}

/* The keys --by can take in doc, "backend, size, parallel", into buf. */
static void side_keys(const struct doc_report *doc, char *buf, size_t len)
{
	struct strlist seen = { 0 };
	const char *key;
	json_t *v;

	snprintf(buf, len, "backend");
	for (size_t i = 0; i < doc->nresults; i++) {
		json_object_foreach((json_t *)doc->results[i].params, key, v) {
			size_t at = strlen(buf);

			if (strlist_has(&seen, key) || strlist_push(&seen, key))
				continue;
			if (at < len)
				snprintf(buf + at, len - at, ", %s", key);
		}
	}
	strlist_free(&seen);
}

/*
 * 0 when a result of doc has value for --by's key, else -EINVAL with the
 * values it has in err: a mistyped value says so, not "no case in common".
 */
static int check_side(const struct comparison *cmp,
		      const struct doc_report *doc, const char *value,
		      char *err, size_t errlen)
{
	char values[1024];

	for (size_t i = 0; i < doc->nresults; i++)
		if (on_side(cmp, &doc->results[i], value))
			return 0;
	if (!side_values(doc, cmp->by.key, values, sizeof(values))) {
		side_keys(doc, values, sizeof(values));
		return hb_errorf(err, errlen, -EINVAL,
				 "--by %s=...: no case of %s has the key %s "
				 "(its keys: %s)",
				 cmp->by.key, doc->path, cmp->by.key, values);
	}
	return hb_errorf(err, errlen, -EINVAL,
			 "--by %s=...: %s has no case with %s %s (its "
			 "values: %s)",
			 cmp->by.key, doc->path, cmp->by.key, value, values);
}

int compare_build_by(struct comparison *cmp, const struct doc_report *base,
		     const struct doc_report *new, const struct compare_by *by,
		     const struct compare_rule *rule, char *err, size_t errlen)
{
	int rc;

	memset(cmp, 0, sizeof(*cmp));
	cmp->base = base;
	cmp->new = new;
	cmp->threshold = rule->threshold;
	cmp->figure = rule->figure;
	if (by)
		cmp->by = *by;
	if (cmp->by.key && (check_side(cmp, base, cmp->by.base, err, errlen) ||
			    check_side(cmp, new, cmp->by.new, err, errlen))) {
		memset(cmp, 0, sizeof(*cmp));
		return -EINVAL;
	}
	rc = side_label(base, cmp->by.key, cmp->by.base, &cmp->base_label);
	if (!rc)
		rc = side_label(new, cmp->by.key, cmp->by.new, &cmp->new_label);
	if (!rc)
		rc = match_rows(cmp);
	if (!rc)
		rc = run_facts(cmp);
	if (!rc)
		rc = host_facts(cmp);
	if (!rc)
		rc = plugin_facts(cmp, base, new, 1);
	if (!rc)
		rc = plugin_facts(cmp, new, base, 0);
	if (rc) {
		compare_free(cmp);
		return hb_errorf(err, errlen, rc, "compare: out of memory");
	}
	if (!cmp->nmatched)
		return nothing_in_common(cmp, err, errlen);
	return 0;
}

void compare_free(struct comparison *cmp)
{
	for (size_t i = 0; i < cmp->nfacts; i++) {
		free(cmp->facts[i].name);
		free(cmp->facts[i].base);
		free(cmp->facts[i].new);
	}
	free(cmp->facts);
	free(cmp->rows);
	free(cmp->base_label);
	free(cmp->new_label);
	free(cmp->history);
	memset(cmp, 0, sizeof(*cmp));
}
