/* SPDX-License-Identifier: Apache-2.0 */
/* Display units: names and scale factors. */
#include "base/units.h"

#include <string.h>

struct unit {
	const char *name;
	double bytes_per_unit; /* 0: counts operations, not bytes */
};

static const struct unit units[] = {
	{ "Gbps", 1e9 / 8 },	   { "Mbps", 1e6 / 8 }, { "GB/s", 1e9 },
	{ "GiB/s", 1073741824.0 }, { "MB/s", 1e6 },	{ "MiB/s", 1048576.0 },
	{ "kB/s", 1e3 },	   { "ops/s", 0 },
};

/* The table entry for name, or NULL. */
static const struct unit *unit_find(const char *name)
{
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (name && strcmp(units[i].name, name) == 0)
			return &units[i];
	return NULL;
}

int unit_valid(const char *unit)
{
	return unit_find(unit) != NULL;
}

const char *unit_names(void)
{
	return "Gbps, Mbps, GB/s, GiB/s, MB/s, MiB/s, kB/s, ops/s";
}

double unit_scale(const char *unit, double bytes_per_s, double ops_per_s)
{
	const struct unit *u = unit_find(unit);

	if (!u)
		return bytes_per_s;
	if (u->bytes_per_unit == 0)
		return ops_per_s;
	return bytes_per_s / u->bytes_per_unit;
}
