/* SPDX-License-Identifier: Apache-2.0 */
/* The keys the core itself reads in every job (docs/suites.md). */
#include "plugin/core_key.h"

#include <string.h>

#include "plugin/registry.h"

/* clang-format off */
const char *const core_key_names[] = {
	"target", "backend", "parallel", "queue_depth", "duration",
	"repetitions", "warmup", "unit", "timeout", "section", "memory_limit",
	"cpu_limit", "isolate", "plugins", "fleet", "fleet_timeout",
	"precision", "min_repetitions", "max_time", "order", "cpus",
	"process_limit", "open_files_limit", "file_size_limit",
	"temp_space_limit", "store", "note", NULL,
};
/* clang-format on */

int core_key(const char *key)
{
	for (const char *const *k = core_key_names; *k; k++)
		if (strcmp(*k, key) == 0)
			return 1;
	return 0;
}

int core_key_single(const char *key)
{
	/* fleet: reports match cases by parameters, and fleet is none;
	   cpus: one CPU list, whose commas do not make cases; note: text */
	return strcmp(key, "target") == 0 || strcmp(key, "unit") == 0 ||
	       strcmp(key, "section") == 0 || strcmp(key, "fleet") == 0 ||
	       strcmp(key, "fleet_timeout") == 0 || strcmp(key, "order") == 0 ||
	       strcmp(key, "cpus") == 0 || strcmp(key, "store") == 0 ||
	       strcmp(key, "note") == 0;
}

int core_key_zero_is_none(const char *key)
{
	return strcmp(key, "timeout") == 0 ||
	       strcmp(key, "memory_limit") == 0 ||
	       strcmp(key, "cpu_limit") == 0;
}

unsigned core_key_since(const char *key)
{
	/* added to the core after plugins could already declare the name */
	if (strcmp(key, "queue_depth") == 0)
		return 2;
	if (strcmp(key, "precision") == 0 ||
	    strcmp(key, "min_repetitions") == 0 ||
	    strcmp(key, "max_time") == 0 || strcmp(key, "order") == 0 ||
	    strcmp(key, "process_limit") == 0 ||
	    strcmp(key, "open_files_limit") == 0 ||
	    strcmp(key, "file_size_limit") == 0 ||
	    strcmp(key, "temp_space_limit") == 0 || strcmp(key, "store") == 0)
		return 3;
	return 0;
}

int core_key_for(const char *key, const struct hb_target *t)
{
	return core_key(key) && !plugin_option_find(t, key);
}

int core_key_readable(const char *key, const struct hb_target *t)
{
	return strcmp(key, "queue_depth") == 0 && core_key_for(key, t);
}
