/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A result's measurement as JSON, both ways: the report writes it, and the
 * isolated child, the journal, resume and compare read it back. One codec,
 * so every reader sees exactly what the report wrote.
 */
#ifndef HB_CORE_RUN_RESULT_JSON_H
#define HB_CORE_RUN_RESULT_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "result/result.h"

/* "ok", "failed", "skipped". */
const char *result_status_name(enum result_status s);

/*
 * Add the measurement of r to object o: status, reason, stats, ops_stats,
 * samples, sample_details, cpu_ratio, flags, warnings, info and parts.
 * Returns 0, or -ENOMEM when jansson ran out of memory.
 */
int result_json_put(json_t *o, const struct result *r);

/*
 * Read a measurement written by result_json_put() from o into r (zeroed by
 * the caller). Part names are looked up in parts (the target's
 * hb_target.parts, may be NULL) so r->parts[i].part points at the plugin's
 * own string; an unknown part keeps NULL. Returns 0, or -EINVAL with the
 * offending field named in err.
 */
int result_json_get(const json_t *o, const char *const *parts, struct result *r,
		    char *err, size_t errlen);

#endif
