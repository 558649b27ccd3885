/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What each stored figure becomes once exported (export.h): a metric
 * stem in base units and a Bencher measure, from the figure's name and
 * the unit it was stored in.
 */
#include "export/export.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/units.h"

/* A unit as stored, and what it is in base units. */
struct unit_map {
	const char *unit; /* as a store row or an importer names it */
	const char *base; /* OpenMetrics base unit */
	double scale;	  /* one unit in base units */
};

/* clang-format off */
static const struct unit_map units[] = {
	{ .unit = "B/s", .base = "bytes_per_second", .scale = 1 },
	{ .unit = "bytes/s", .base = "bytes_per_second", .scale = 1 },
	{ .unit = "bit/s", .base = "bytes_per_second", .scale = 0.125 },
	{ .unit = "bits/s", .base = "bytes_per_second", .scale = 0.125 },
	{ .unit = "ops/s", .base = "operations_per_second", .scale = 1 },
	{ .unit = "op/s", .base = "operations_per_second", .scale = 1 },
	{ .unit = "s", .base = "seconds", .scale = 1 },
	{ .unit = "ms", .base = "seconds", .scale = 1e-3 },
	{ .unit = "us", .base = "seconds", .scale = 1e-6 },
	{ .unit = "ns", .base = "seconds", .scale = 1e-9 },
	{ .unit = "%", .base = "ratio", .scale = 0.01 },
	{ .unit = "B", .base = "bytes", .scale = 1 },
};
/* clang-format on */

/* hostbench's own figures: their stored unit is only the display's. */
static const struct export_kind own[] = {
	{ .stem = "hostbench_throughput",
	  .unit = "bytes_per_second",
	  .slug = "bytes-per-second",
	  .help = "Median throughput of a hostbench case, its newest run",
	  .bmf_scale = 1 },
	{ .stem = "hostbench_throughput",
	  .unit = "operations_per_second",
	  .slug = "throughput",
	  .help = "Median operations per second of a hostbench case, its "
		  "newest run",
	  .bmf_scale = 1 },
};

/* s as a metric name part into out: [a-z0-9_], others '_', bounded. */
static void name_part(const char *s, char *out, size_t len, char sep)
{
	size_t k = 0;

	for (; s && *s && k + 1 < len; s++) {
		char c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			c = sep;
		out[k++] = c;
	}
	out[k] = '\0';
}

/*
 * A display unit of hostbench's (base/units.h: Gbps, MB/s, MiB/s, ...): a
 * store row in one holds bytes per second underneath, as an importer
 * stores another tool's rates.
 */
static const struct unit_map display_rate = { .unit = "",
					      .base = "bytes_per_second",
					      .scale = 1 };

/* The unit_map of unit, or NULL. */
static const struct unit_map *unit_find(const char *unit)
{
	for (size_t i = 0; unit && i < sizeof(units) / sizeof(units[0]); i++)
		if (strcmp(units[i].unit, unit) == 0)
			return &units[i];
	return unit && unit_valid(unit) ? &display_rate : NULL;
}

/* The kind of another tool's figure fig, stored in unit, into k; the
 * factor from unit to the base unit. */
static double kind_other(const char *fig, const char *unit,
			 struct export_kind *k)
{
	const struct unit_map *m = unit_find(unit);
	char f[64], u[48];

	name_part(fig, f, sizeof(f), '_');
	name_part(m ? m->base : unit, u, sizeof(u), '_');
	snprintf(k->stem, sizeof(k->stem), "hostbench_%s", f[0] ? f : "figure");
	snprintf(k->unit, sizeof(k->unit), "%s", u);
	snprintf(k->help, sizeof(k->help),
		 "Newest %s of a series of the hostbench store", f);
	k->bmf_scale = 1;
	if (m && strcmp(m->base, "seconds") == 0) {
		snprintf(k->slug, sizeof(k->slug), "latency");
		k->bmf_scale = 1e9; /* Bencher's latency: nanoseconds */
	} else {
		name_part(fig, k->slug, sizeof(k->slug), '-');
	}
	return m ? m->scale : 1;
}

int export_kind_of(struct export_set *set, const char *fig, const char *unit,
		   size_t *at, double *scale)
{
	struct export_kind k = { .bmf_scale = 1 }, *grown;

	*scale = 1;
	if (fig && strcmp(fig, "rate") == 0)
		k = own[0];
	else if (fig && strcmp(fig, "ops_rate") == 0)
		k = own[1];
	else
		*scale = kind_other(fig, unit, &k);
	for (size_t i = 0; i < set->nkinds; i++)
		if (strcmp(set->kinds[i].stem, k.stem) == 0 &&
		    strcmp(set->kinds[i].unit, k.unit) == 0) {
			*at = i;
			return 0;
		}
	grown = realloc(set->kinds, (set->nkinds + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	set->kinds = grown;
	set->kinds[set->nkinds] = k;
	*at = set->nkinds++;
	return 0;
}
