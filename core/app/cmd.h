/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The commands of hostbench, one function each, as git's builtin.h
 * (cmd: command). Each gets what main() hands it in struct command_env
 * and returns an exit status (base/exit.h); app/command.c names them in
 * its table, one file each (cmd_reports.c: report, compare and merge).
 */
#ifndef HB_CORE_APP_CMD_H
#define HB_CORE_APP_CMD_H

#include "app/command.h"

/*
 * run [SUITE.ini...]: load the suites (the shipped default or extended
 * suite without any), agree on them across a fleet, describe the host,
 * run every case (or take it from --resume's journal) and write the
 * report. Returns the worst case's status, 128 + the stop signal, or
 * EXIT_BAD_INPUT / EXIT_INTERNAL.
 */
int cmd_run(const struct command_env *env);

/* list: every plugin, target and refusal. */
int cmd_list(const struct command_env *env);

/* presets: each shipped preset's name and the line it opens with. */
int cmd_presets(const struct command_env *env);

/* describe TARGET: the target's options; an unknown one is bad input. */
int cmd_describe(const struct command_env *env);

/* sysinfo: the report of no cases, the system information alone. */
int cmd_sysinfo(const struct command_env *env);

/*
 * compare BASE.json NEW.json: the cases of two reports side by side;
 * EXIT_CASE_FAILED with --fail-on-regression when a case got slower or
 * now fails.
 */
int cmd_compare(const struct command_env *env);

/*
 * report FILE...: saved JSON reports (or journals) rendered again in any
 * format, as the run would have written them.
 */
int cmd_report(const struct command_env *env);

/* merge A.json B.json...: one table of hosts (or runs) by cases. */
int cmd_merge(const struct command_env *env);

/*
 * check BACKEND [--reference BACKEND]: a conformance run of BACKEND
 * against the reference (openssl by default) on every target both offer,
 * through the transform slot (ABI 1.2) in a helper. One row per target
 * and check; EXIT_ALL_OK when all pass, EXIT_CASE_FAILED when a check
 * failed, EXIT_BAD_INPUT for an unknown backend, one without the slot
 * (not checkable, never passing), or no target in common.
 */
int cmd_check(const struct command_env *env);

/* What `hostbench check --help` says beyond its options: rows, statuses. */
extern const char cmd_check_about[];

/*
 * store import FILE...: saved reports and journals into the store, each
 * run once. EXIT_BAD_INPUT for a file that is not a report, EXIT_STORE
 * when the store cannot be opened or written.
 */
int cmd_store(const struct command_env *env);

/*
 * export [REPORT.json|UUID...]: OpenMetrics text or Bencher Metric Format
 * JSON of the reports' results, or of the newest point of each series
 * of the store (--host, --case, --since, --until, --label select).
 * EXIT_BAD_INPUT for a report that does not read, EXIT_STORE when the
 * store fails.
 */
int cmd_export(const struct command_env *env);

/* history: the store's series as text, json, csv, md or html. */
int cmd_history(const struct command_env *env);

/*
 * regressions: change points of every series (kept with their state) and
 * the newest run judged; --ack/--ignore ID decide on one. With --fail,
 * EXIT_CASE_FAILED while a regression is neither acknowledged nor ignored.
 */
int cmd_regressions(const struct command_env *env);

/* dashboard -o DIR: the static site of the store's history. */
int cmd_dashboard(const struct command_env *env);

/*
 * serve ARGS...: exec the transfer plugin's server program with ARGS.
 * Returns only when it cannot: EXIT_BAD_INPUT, it is not installed.
 */
int cmd_serve(const struct command_env *env);

#endif
