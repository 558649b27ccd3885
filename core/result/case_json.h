/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A case as JSON, both ways: the core sends a case to the helper that
 * validates it or runs it (run/task.h), and the helper reads it back.
 * Only what the plugin and the runner use travels: the plugin and target
 * are found again where the plugin is loaded.
 */
#ifndef HB_CORE_RUN_CASE_JSON_H
#define HB_CORE_RUN_CASE_JSON_H

#include <stddef.h>

#include <jansson.h>

#include "suite/suite.h"

/* c as a new JSON object, or NULL when out of memory. */
json_t *case_json_put(const struct bench_case *c);

/*
 * Read a case written by case_json_put() into c (zeroed by the caller;
 * free it with suite_case_free()); c->plugin and c->tdesc stay NULL.
 * Returns 0, -EINVAL with the field named in err, or -ENOMEM.
 */
int case_json_get(const json_t *o, struct bench_case *c, char *err,
		  size_t errlen);

/*
 * c as case_json_put() writes it, plus what a report needs to lay the case
 * out again without the suite or the plugin (`hostbench report`):
 * "job_index", "backend_chosen", the job's "varying" keys and explicit
 * "section" (or null), the target's "group" and "work", and "types", the
 * option type of each parameter the target declares. s may be NULL (no
 * job known). NULL when out of memory. docs/json-schema.md, results[].case.
 */
json_t *case_json_report_put(const struct suite *s, const struct bench_case *c);

/*
 * Nonzero when c's queue depth is one of its parameters in a report: an
 * asynchronous (offload) target, or a depth above 1 or given. The case
 * JSON of case_json_report_put() says so as "depth_shown".
 */
int case_json_shows_depth(const struct bench_case *c);

/*
 * The "params" of a report's result, made from the case o as
 * case_json_report_put() wrote it (in a report or a journal line): each
 * parameter typed by "types" (sizes in bytes and integers as numbers,
 * booleans, durations in seconds, a secret as "(secret)", the rest as
 * text), then "parallel", "queue_depth" where it is shown and "cpus"
 * where given. One maker for the report writer and the journal reader, so
 * a case matches itself in both. A new object, or NULL when out of memory.
 */
json_t *case_json_params(const json_t *o);

#endif
