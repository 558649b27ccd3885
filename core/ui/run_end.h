/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The end of a run on stderr: one closing line that says how the cases
 * went, how long the run took and where its report and store went, and
 * after an interruption the command that resumes it. Pure text builders,
 * so they are unit tested.
 */
#ifndef HB_CORE_UI_RUN_END_H
#define HB_CORE_UI_RUN_END_H

#include <stddef.h>

#include "base/util.h"
#include "result/result.h"

/* How the cases of a run ended. */
struct run_tally {
	size_t ok, failed, skipped;
};

/* Count results[0..n) by status. */
struct run_tally run_end_tally(const struct result *results, size_t n);

/*
 * "N cases: A ok, B failed, C skipped in WALL; report in FILE" into buf,
 * with "; stored in WHERE (run UUID)" when store is not NULL. report NULL
 * means stdout. WALL is "12.3 s", or "M:SS" from a minute.
 */
void run_end_summary(char *buf, size_t len, struct run_tally t, double seconds,
		     const char *report, const char *store, const char *uuid);

/*
 * What continues an interrupted run, into buf: "continue with: COMMAND",
 * cmd (the masked command line, runinfo's) with its "--journal FILE"
 * turned into "--resume FILE", when journal (the file) is not NULL; else
 * how to get one. A command with a masked secret says to put it back.
 */
void run_end_resume(char *buf, size_t len, const struct strlist *cmd,
		    const char *journal);

#endif
