/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Bencher Metric Format JSON (bencher.dev/docs/reference/
 * bencher-metric-format): { "benchmark": { "measure": { "value",
 * "lower_value", "upper_value" } } }, one benchmark per case, the 95% CI
 * as its bounds.
 */
#include "export/export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/util.h"

/* Whether set's points come from more than one host. */
static int many_hosts(const struct export_set *set)
{
	for (size_t i = 1; i < set->n; i++)
		if (strcmp(set->points[i].host, set->points[0].host) != 0)
			return 1;
	return 0;
}

/*
 * p's benchmark name: "case (target, backend, size N, parallel N)",
 * "host: " before it when the set holds several hosts.
 */
static void bench_name(const struct export_point *p, int host, char *buf,
		       size_t len)
{
	size_t n = 0;

	if (host)
		n += (size_t)snprintf(buf, len, "%s: ", p->host);
	n += (size_t)snprintf(buf + n, len - n, "%s (%s, %s", p->cases,
			      p->target, p->backend);
	if (p->size >= 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", size %.0f", p->size);
	if (p->parallel >= 0 && n < len)
		n += (size_t)snprintf(buf + n, len - n, ", parallel %.0f",
				      p->parallel);
	if (n < len)
		snprintf(buf + n, len - n, ")");
}

/* The metric of p in its measure's unit: value, and the CI when it holds
 * the value. NULL when out of memory. */
static json_t *metric(const struct export_kind *k, const struct export_point *p)
{
	double v = p->value * k->bmf_scale, lo = p->lo * k->bmf_scale,
	       hi = p->hi * k->bmf_scale;
	json_t *m = json_object();

	if (!m || json_object_set_new(m, "value", json_real(v)))
		goto fail_metric;
	if (isfinite(lo) && isfinite(hi) && lo <= v && v <= hi &&
	    (json_object_set_new(m, "lower_value", json_real(lo)) ||
	     json_object_set_new(m, "upper_value", json_real(hi))))
		goto fail_metric;
	return m;
fail_metric:
	json_decref(m);
	return NULL;
}

/* Add point p to doc, unless its benchmark holds its measure already. */
static int add_point(json_t *doc, const struct export_set *set,
		     const struct export_point *p, int host)
{
	const struct export_kind *k = &set->kinds[p->kind];
	char name[4 * EXPORT_TEXT_MAX + 128];
	json_t *bench, *m;

	bench_name(p, host, name, sizeof(name));
	bench = json_object_get(doc, name);
	if (!bench) {
		bench = json_object();
		if (!bench || json_object_set_new(doc, name, bench))
			return -ENOMEM;
	}
	if (json_object_get(bench, k->slug))
		return 0;
	m = metric(k, p);
	return m && !json_object_set_new(bench, k->slug, m) ? 0 : -ENOMEM;
}

int export_bmf(const struct export_set *set, FILE *out, char *err,
	       size_t errlen)
{
	json_t *doc = json_object();
	int host = many_hosts(set), rc = doc ? 0 : -ENOMEM;

	for (size_t i = 0; !rc && i < set->n; i++)
		if (isfinite(set->points[i].value))
			rc = add_point(doc, set, &set->points[i], host);
	if (!rc &&
	    (json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER) ||
	     fputc('\n', out) == EOF || ferror(out)))
		rc = -EIO;
	json_decref(doc);
	if (rc)
		return hb_errorf(err, errlen, rc, "writing BMF: %s",
				 strerror(-rc));
	return 0;
}
