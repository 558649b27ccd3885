/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The helper tasks that run plugin code for a case (docs/reliability.md):
 * in a helper process started by exec, with the plugin file on descriptor
 * 3 (proc/helper.h), never in the core.
 */
#ifndef HB_CORE_RUN_TASK_H
#define HB_CORE_RUN_TASK_H

/*
 * Task "case": the request is {"path": ..., "case": ...} (run/case_json.h).
 * Apply the case's CPU limit, load the plugin, run the case,
 * and answer its result as result_json_put() writes it; a plugin that
 * cannot be loaded gives a failed result with the reason.
 */
int task_case(const char *request, int answer_fd);

/*
 * Task "validate": the request is {"path": ..., "cases": [...]}. Load the
 * plugin and call its validate() for each case; answer {"checks":
 * [{"rc": N, "reason": "..."}, ...]} in the same order, or {"refused":
 * "..."} when the plugin cannot be loaded.
 */
int task_validate(const char *request, int answer_fd);

#endif
