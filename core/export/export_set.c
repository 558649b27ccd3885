/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The set of points to export (export.h): each text sanitized and
 * bounded as it comes in, then sorted so a writer meets each family's
 * points together and the newest point of a series first.
 */
#include "export/export.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"

/* The texts of a point, in the order of struct export_point. */
#define TEXTS 5

/* The text fields of p, to copy or free them in one loop. */
static void texts(struct export_point *p, const char **at[TEXTS])
{
	at[0] = &p->host;
	at[1] = &p->cases;
	at[2] = &p->target;
	at[3] = &p->backend;
	at[4] = &p->time;
}

/* Free the texts of a point of the set (its own copies). */
static void point_free(struct export_point *p)
{
	const char **at[TEXTS];

	texts(p, at);
	for (int i = 0; i < TEXTS; i++)
		free((void *)*at[i]);
}

/* Copies of p's texts into q, sanitized and bounded; -ENOMEM. */
static int point_copy(const struct export_point *p, struct export_point *q)
{
	const char **at[TEXTS];
	int rc = 0;

	*q = *p;
	texts(q, at);
	for (int i = 0; i < TEXTS; i++) {
		*at[i] = sanitize_copy(*at[i] ? *at[i] : "", EXPORT_TEXT_MAX);
		rc = *at[i] ? rc : -ENOMEM;
	}
	if (rc)
		point_free(q);
	return rc;
}

int export_add(struct export_set *set, const char *fig, const char *unit,
	       const struct export_point *p)
{
	struct export_point q;
	double scale;
	size_t kind;

	if (export_kind_of(set, fig, unit, &kind, &scale))
		return -ENOMEM;
	if (set->n == set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 64;
		struct export_point *grown =
			realloc(set->points, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		set->points = grown;
		set->cap = cap;
	}
	if (point_copy(p, &q))
		return -ENOMEM;
	q.kind = kind;
	q.value = p->value * scale;
	q.lo = p->lo * scale;
	q.hi = p->hi * scale;
	set->points[set->n++] = q;
	return 0;
}

/* -1, 0 or 1 as a is below, equal to or above b. */
static int num_cmp(double a, double b)
{
	return (a > b) - (a < b);
}

/* The order of two points' series: kind, then each label. */
static int series_cmp(const struct export_point *a,
		      const struct export_point *b)
{
	int c = num_cmp((double)a->kind, (double)b->kind);

	if (!c)
		c = strcmp(a->host, b->host);
	if (!c)
		c = strcmp(a->cases, b->cases);
	if (!c)
		c = strcmp(a->target, b->target);
	if (!c)
		c = strcmp(a->backend, b->backend);
	if (!c)
		c = num_cmp(a->size, b->size);
	if (!c)
		c = num_cmp(a->parallel, b->parallel);
	return c ? c : a->lower - b->lower;
}

/* qsort's order: by series, the newest first within one. */
static int point_cmp(const void *x, const void *y)
{
	const struct export_point *a = x, *b = y;
	int c = series_cmp(a, b);

	return c ? c : strcmp(b->time, a->time);
}

int export_same(const struct export_point *a, const struct export_point *b)
{
	return series_cmp(a, b) == 0;
}

void export_sort(struct export_set *set)
{
	if (set->n)
		qsort(set->points, set->n, sizeof(*set->points), point_cmp);
	set->repeated = 0;
	for (size_t i = 1; i < set->n; i++)
		set->repeated += (size_t)export_same(&set->points[i - 1],
						     &set->points[i]);
}

void export_free(struct export_set *set)
{
	for (size_t i = 0; i < set->n; i++)
		point_free(&set->points[i]);
	free(set->points);
	free(set->kinds);
	*set = (struct export_set){ 0 };
}
