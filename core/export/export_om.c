/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenMetrics text (github.com/prometheus/OpenMetrics, text format
 * 1.0.0): for each kind, a gauge family of the median and one of each
 * 95% CI bound, in base units; labels escaped as the format says; the
 * exposition ends with "# EOF".
 */
#include "export/export.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/util.h"

/* The three families of a kind: the median and its CI bounds. */
enum bound { BOUND_VALUE, BOUND_LOW, BOUND_HIGH, BOUNDS };

static const char *const bound_suffix[BOUNDS] = { "", "_ci95_low",
						  "_ci95_high" };
static const char *const bound_help[BOUNDS] = {
	"", " (lower bound of its 95% confidence interval)",
	" (upper bound of its 95% confidence interval)"
};

/* p's figure for bound b. */
static double figure(const struct export_point *p, enum bound b)
{
	return b == BOUND_VALUE ? p->value : b == BOUND_LOW ? p->lo : p->hi;
}

/* s as a label value: backslash, double quote and line feed escaped. */
static void put_value(const char *s, FILE *out)
{
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', out);
		if (*s == '\n')
			fputs("\\n", out);
		else
			fputc(*s, out);
	}
}

/* One label, name="value", with a comma before all but the first. */
static void put_label(const char *name, const char *value, int first, FILE *out)
{
	fprintf(out, "%s%s=\"", first ? "" : ",", name);
	put_value(value, out);
	fputc('"', out);
}

/* The family name of kind k for bound b, as a printf argument. */
static void put_name(const struct export_kind *k, enum bound b, FILE *out)
{
	fprintf(out, "%s%s%s%s", k->stem, bound_suffix[b],
		k->unit[0] ? "_" : "", k->unit);
}

/* The sample of p for bound b: the family name, labels and value. */
static void put_sample(const struct export_kind *k, enum bound b,
		       const struct export_point *p, FILE *out)
{
	char num[32];

	put_name(k, b, out);
	fputc('{', out);
	put_label("host", p->host, 1, out);
	put_label("case", p->cases, 0, out);
	put_label("target", p->target, 0, out);
	put_label("backend", p->backend, 0, out);
	if (p->size >= 0) {
		snprintf(num, sizeof(num), "%.0f", p->size);
		put_label("size", num, 0, out);
	}
	if (p->parallel >= 0) {
		snprintf(num, sizeof(num), "%.0f", p->parallel);
		put_label("parallel", num, 0, out);
	}
	put_label("better", p->lower ? "lower" : "higher", 0, out);
	fprintf(out, "} %.17g\n", figure(p, b));
}

/* The family of kind k's points [from, to) for bound b, if any. */
static void put_family(const struct export_set *set, size_t k, enum bound b,
		       size_t from, size_t to, FILE *out)
{
	const struct export_kind *kind = &set->kinds[k];
	int head = 0;

	for (size_t i = from; i < to; i++) {
		const struct export_point *p = &set->points[i];

		if (!isfinite(figure(p, b)) ||
		    (i > from && export_same(&set->points[i - 1], p)))
			continue;
		if (!head) {
			fputs("# TYPE ", out);
			put_name(kind, b, out);
			fputs(" gauge\n", out);
			if (kind->unit[0]) {
				fputs("# UNIT ", out);
				put_name(kind, b, out);
				fprintf(out, " %s\n", kind->unit);
			}
			fputs("# HELP ", out);
			put_name(kind, b, out);
			fprintf(out, " %s%s\n", kind->help, bound_help[b]);
			head = 1;
		}
		put_sample(kind, b, p, out);
	}
}

int export_openmetrics(const struct export_set *set, FILE *out, char *err,
		       size_t errlen)
{
	size_t from = 0;

	while (from < set->n) {
		size_t k = set->points[from].kind, to = from;

		while (to < set->n && set->points[to].kind == k)
			to++;
		for (int b = 0; b < BOUNDS; b++)
			put_family(set, k, (enum bound)b, from, to, out);
		from = to;
	}
	fputs("# EOF\n", out);
	if (ferror(out))
		return hb_errorf(err, errlen, -EIO, "writing: %s",
				 strerror(EIO));
	return 0;
}
