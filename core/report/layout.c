/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The layout every format shares: which section a result belongs to,
 * which results read as a line, a table or a grid, and how a case and its
 * parameters are named. docs/reports.md describes it.
 */
#include "report/layout.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "result/case_json.h"
#include "suite/suite_value.h"

const struct job *report_job_of(const struct report *r,
				const struct result *res)
{
	if (!r->suite || !res->c || res->c->job >= r->suite->njobs)
		return NULL;
	return &r->suite->jobs[res->c->job];
}

/* Nonzero when a and b come from the same job. */
static int same_job(const struct result *a, const struct result *b)
{
	return a->c && b->c && a->c->job == b->c->job;
}

size_t report_job_end(const struct report *r, size_t i)
{
	size_t j = i + 1;

	while (j < r->nresults && same_job(&r->results[i], &r->results[j]))
		j++;
	return j;
}

const char *report_section_of(const struct report *r, const struct result *res)
{
	static const struct {
		const char *group, *title;
	} sections[] = {
		{ "crypto", "Secure Communication Performance" },
		{ "mac", "Secure Communication Performance" },
		{ "hash", "File Integrity Validation Performance" },
		{ "mem", "Base Performance" },
		{ "io", "Base Performance" },
		{ "transfer", "Network Transfer Performance" },
		{ "pk", "Public Key Performance" },
	};
	const struct job *job = report_job_of(r, res);
	const char *group = NULL;

	if (job && job->section)
		return job->section;
	if (job && job->group)
		group = job->group;
	else if (res->c && res->c->tdesc)
		group = res->c->tdesc->group;
	if (!group)
		return "Other";
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		if (strcmp(group, sections[i].group) == 0)
			return sections[i].title;
	return group;
}

const char *report_case_value(const struct bench_case *c, const char *key,
			      char *buf, size_t len)
{
	const char *v;

	if (strcmp(key, "backend") == 0)
		return c->backend ? c->backend : "";
	if (strcmp(key, "parallel") == 0) {
		snprintf(buf, len, "%u", c->parallel);
		return buf;
	}
	if (strcmp(key, "queue_depth") == 0 && report_shows_depth(c)) {
		snprintf(buf, len, "%u", c->queue_depth);
		return buf;
	}
	v = kvlist_get(&c->params, key);
	return v ? suite_value_shown(c->tdesc, key, v) : "";
}

int report_shows_depth(const struct bench_case *c)
{
	return case_json_shows_depth(c);
}

/* Whether case c has key at all (a backend's own option may be absent). */
static int case_has(const struct bench_case *c, const char *key)
{
	return strcmp(key, "backend") == 0 || strcmp(key, "parallel") == 0 ||
	       (strcmp(key, "queue_depth") == 0 && report_shows_depth(c)) ||
	       kvlist_get(&c->params, key) != NULL;
}

/* Nonzero when key has more than one value over results[a..b). */
static int report_key_varies(const struct report *r, size_t a, size_t b,
			     const char *key)
{
	char b1[32], b2[32];
	const char *first = NULL;

	/* only cases that have the key count: openssl's provider is not a
	 * column of a job that also runs gcrypt */
	for (size_t i = a; i < b; i++) {
		const struct bench_case *c = r->results[i].c;

		if (!case_has(c, key))
			continue;
		if (!first)
			first = report_case_value(c, key, b1, sizeof(b1));
		else if (strcmp(first,
				report_case_value(c, key, b2, sizeof(b2))) != 0)
			return 1;
	}
	return 0;
}

/* The position of key in the job's varying keys (file order), else n. */
static size_t varying_rank(const struct report *r, size_t a, const char *key)
{
	const struct job *job = report_job_of(r, &r->results[a]);

	for (size_t i = 0; job && i < job->varying.n; i++)
		if (strcmp(job->varying.items[i], key) == 0)
			return i;
	return job ? job->varying.n : 0;
}

/* The core keys a job can vary besides its parameters. */
static const char *const core_dims[] = { "parallel", "queue_depth" };
#define NCORE_DIMS (sizeof(core_dims) / sizeof(core_dims[0]))

/* Nonzero when key is one of core_dims. */
static int is_core_dim(const char *key)
{
	for (size_t i = 0; i < NCORE_DIMS; i++)
		if (strcmp(key, core_dims[i]) == 0)
			return 1;
	return 0;
}

/*
 * How results[a..b) (one job) read: as a table when the only parameter
 * other than backend whose value changes is not parallel or queue_depth
 * (*key set), as a grid when exactly two change and the backend does not
 * (*rows_key and *key set, the one written first in the suite down the
 * rows), else as lines (both NULL).
 */
static void item_keys(const struct report *r, size_t a, size_t b,
		      const char **key, const char **rows_key)
{
	const struct bench_case *c = r->results[a].c;
	const char *found[2] = { NULL, NULL };
	size_t nvarying = 0;

	*key = *rows_key = NULL;
	if (!c || b - a < 2)
		return;
	for (size_t k = 0; k < NCORE_DIMS + c->params.n; k++) {
		const char *name =
			k < NCORE_DIMS ? core_dims[k]
				       : c->params.items[k - NCORE_DIMS].key;

		if (!report_key_varies(r, a, b, name))
			continue;
		if (nvarying < 2)
			found[nvarying] = name;
		nvarying++;
	}
	if (nvarying == 1 && !is_core_dim(found[0])) {
		*key = found[0];
	} else if (nvarying == 2 && !report_key_varies(r, a, b, "backend")) {
		int swap = varying_rank(r, a, found[1]) <
			   varying_rank(r, a, found[0]);

		*rows_key = found[swap];
		*key = found[!swap];
	}
}

int report_distinct_values(const struct report *r, size_t a, size_t b,
			   const char *key, struct strlist *out)
{
	char buf[32];

	for (size_t i = a; i < b; i++) {
		const char *v = report_case_value(r->results[i].c, key, buf,
						  sizeof(buf));
		size_t k = 0;

		while (k < out->n && strcmp(out->items[k], v) != 0)
			k++;
		if (k == out->n && strlist_push(out, v))
			return -ENOMEM;
	}
	return 0;
}

/* Nonzero when two lists hold the same strings in the same order. */
static int same_list(const struct strlist *a, const struct strlist *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->items[i], b->items[i]) != 0)
			return 0;
	return 1;
}

/*
 * Nonzero when the table job results[a..b) with column key can extend the
 * table item prev: it follows prev directly, with the same columns.
 */
static int extends_table(const struct report *r, const struct report_item *prev,
			 size_t a, size_t b, const char *key)
{
	struct strlist mine = { 0 }, theirs = { 0 };
	int same;

	if (!prev->key || prev->rows_key || prev->last != a ||
	    strcmp(prev->key, key) != 0)
		return 0;
	same = !report_distinct_values(r, a, b, key, &mine) &&
	       !report_distinct_values(r, prev->first,
				       report_job_end(r, prev->first), key,
				       &theirs) &&
	       same_list(&mine, &theirs);
	strlist_free(&mine);
	strlist_free(&theirs);
	return same;
}

/* The section titled title, appended when new; NULL when out of memory. */
static struct report_section *section_for(struct report_layout *lay,
					  const char *title)
{
	struct report_section *grown;

	for (size_t i = 0; i < lay->nsections; i++)
		if (strcmp(lay->sections[i].title, title) == 0)
			return &lay->sections[i];
	grown = realloc(lay->sections,
			(lay->nsections + 1) * sizeof(*lay->sections));
	if (!grown)
		return NULL;
	lay->sections = grown;
	grown = &lay->sections[lay->nsections++];
	memset(grown, 0, sizeof(*grown));
	grown->title = title;
	return grown;
}

/* Append an item to a section. */
static int add_item(struct report_section *s, size_t first, size_t last,
		    const char *key, const char *rows_key)
{
	struct report_item *grown;

	grown = realloc(s->items, (s->nitems + 1) * sizeof(*s->items));
	if (!grown)
		return -ENOMEM;
	s->items = grown;
	s->items[s->nitems++] =
		(struct report_item){ first, last, key, rows_key };
	return 0;
}

/* Lay out one job's results[a..b) into its section. */
static int layout_job(const struct report *r, struct report_layout *lay,
		      size_t a, size_t b)
{
	struct report_section *s =
		section_for(lay, report_section_of(r, &r->results[a]));
	const char *key, *rows_key;
	int err = 0;

	if (!s)
		return -ENOMEM;
	item_keys(r, a, b, &key, &rows_key);
	if (rows_key)
		return add_item(s, a, b, key, rows_key);
	if (key && s->nitems &&
	    extends_table(r, &s->items[s->nitems - 1], a, b, key)) {
		s->items[s->nitems - 1].last = b;
		return 0;
	}
	if (key)
		return add_item(s, a, b, key, NULL);
	for (size_t i = a; i < b && !err; i++)
		err = add_item(s, i, i + 1, NULL, NULL);
	return err;
}

int report_layout_build(const struct report *r, struct report_layout *lay)
{
	memset(lay, 0, sizeof(*lay));
	for (size_t i = 0; i < r->nresults;) {
		size_t end = report_job_end(r, i);

		if (layout_job(r, lay, i, end)) {
			report_layout_free(lay);
			return -ENOMEM;
		}
		i = end;
	}
	return 0;
}

void report_layout_free(struct report_layout *lay)
{
	for (size_t i = 0; i < lay->nsections; i++)
		free(lay->sections[i].items);
	free(lay->sections);
	memset(lay, 0, sizeof(*lay));
}

void report_label(const struct report *r, const struct result *res, char *buf,
		  size_t len)
{
	const char *title = res->c && res->c->title ? res->c->title : res->part;

	snprintf(buf, len, "%s", title ? title : "");
	(void)r;
	if (res->c && res->c->backend)
		report_appendf(buf, len, " (%s)", res->c->backend);
}
