/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Points for export (export.h) from a saved report, its headline figure
 * as the store keeps it, or from the store's history document, the
 * newest point of each series.
 */
#include "export/export.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "base/util.h"
#include "store/store_figure.h"

/* The number at key of o, or NAN. */
static double num_at(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* The text at key of o, or NULL. */
static const char *text_at(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* A case's size and parallel from its params, -1 where it has none. */
static void params_of(const json_t *params, struct export_point *p)
{
	double v = num_at(params, "size");

	p->size = isfinite(v) && v >= 0 ? v : -1;
	v = num_at(params, "parallel");
	p->parallel = isfinite(v) && v >= 0 ? v : -1;
}

/* Result r of doc as a point of its headline figure; -ENOMEM. */
static int add_result(struct export_set *set, const struct doc_report *doc,
		      const struct doc_result *r)
{
	struct store_figure f;
	struct export_point p = {
		.host = doc->sys.hostname,
		.cases = r->title ? r->title : r->job,
		.target = r->target,
		.backend = r->backend,
		.time = doc->run.started,
	};
	int rc = store_figure_of(r->json, &f);

	if (!rc && isfinite(f.median)) {
		params_of(r->params, &p);
		if (r->parallel)
			p.parallel = r->parallel;
		p.value = f.median;
		p.lo = f.ci_low;
		p.hi = f.ci_high;
		rc = export_add(set, f.ops ? "ops_rate" : "rate", NULL, &p);
	}
	store_figure_free(&f);
	return rc;
}

int export_add_report(struct export_set *set, const struct doc_report *doc,
		      char *err, size_t errlen)
{
	for (size_t i = 0; i < doc->nresults; i++) {
		const struct doc_result *r = &doc->results[i];

		if (r->res.status != RESULT_OK)
			continue;
		if (add_result(set, doc, r))
			return hb_errorf(err, errlen, -ENOMEM,
					 "%s: out of memory", doc->path);
	}
	return 0;
}

/* The name of host id in doc's hosts, else the id itself. */
static const char *host_name(const json_t *doc, const char *id)
{
	const json_t *h;
	size_t i;

	json_array_foreach(json_object_get(doc, "hosts"), i, h) {
		const char *name = text_at(h, "name"), *hid = text_at(h, "id");

		if (id && hid && name && *name && strcmp(hid, id) == 0)
			return name;
	}
	return id;
}

/* Series s's newest point; -ENOMEM. */
static int add_series(struct export_set *set, const json_t *doc,
		      const json_t *s)
{
	const json_t *points = json_object_get(s, "points");
	const json_t *pt = json_array_get(points, json_array_size(points) - 1);
	const json_t *kase = json_object_get(s, "case");
	const char *better = text_at(s, "better");
	struct export_point p = {
		.host = host_name(doc, text_at(s, "host")),
		.cases = text_at(kase, "title") ? text_at(kase, "title")
						: text_at(kase, "job"),
		.target = text_at(kase, "target"),
		.backend = text_at(kase, "backend"),
		.time = text_at(pt, "time"),
		.lower = better && strcmp(better, "lower") == 0,
		.value = num_at(pt, "median"),
		.lo = num_at(pt, "ci_low"),
		.hi = num_at(pt, "ci_high"),
	};

	if (!pt || !isfinite(p.value))
		return 0;
	params_of(json_object_get(kase, "params"), &p);
	return export_add(set, text_at(s, "figure"), text_at(s, "unit"), &p);
}

int export_add_history(struct export_set *set, const json_t *doc, char *err,
		       size_t errlen)
{
	const json_t *s;
	size_t i;

	json_array_foreach(json_object_get(doc, "series"), i, s) {
		if (add_series(set, doc, s))
			return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	}
	return 0;
}
