/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fleet runs: the same suite on every rank of an MPI job (mpirun, srun),
 * each case started on all ranks together or on one rank at a time, host
 * pairs resolved for transfers, and every rank's results gathered to rank
 * 0, which writes one report. docs/fleet.md describes what users see.
 *
 * The MPI implementation is built with -DHOSTBENCH_MPI=ON only, one file
 * per phase: fleet_init() and fleet_end() in fleet.c, the steps before the
 * first case in fleet_setup.c, the cases in fleet_case.c, over the files
 * they share (fleet_int.h); the report, in every build, is
 * fleetreport/'s (fleetreport/fleetreport.h). Without it
 * fleet_solo.c implements the same calls for a fleet of one rank, so
 * app/cmd_run.c reads the same in both builds and nothing about MPI is
 * compiled.
 *
 * Rank 0 coordinates with point-to-point messages, never a collective,
 * so a rank that dies or hangs at any moment costs the others a deadline,
 * not the run: before the first case fleet_timeout (docs/suites.md), for
 * a case its own time plus fleet_timeout (fleet_case_wait()). A rank that
 * hears nothing from rank 0 within its own deadline ends the job.
 */
#ifndef HB_CORE_FLEET_FLEET_H
#define HB_CORE_FLEET_FLEET_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "compare/report_doc.h"
#include "report/report.h"
#include "result/result.h"
#include "suite/suite.h"

struct fleet_state;

/* This process's place in the job; rank 0 of 1 without MPI. */
struct fleet {
	int rank;
	int size;
	struct fleet_state *st; /* NULL without MPI */
};

/*
 * Seconds each step before the first case may wait for a rank: the
 * largest fleet_timeout of s's cases, or the default when s did not load
 * (loaded nonzero) or has none. Pure.
 */
double fleet_setup_wait(const struct suite *s, int loaded);

/*
 * Join the MPI job (MPI_Init) and learn rank, size and host name. A
 * process started without mpirun is a fleet of one (MPI singleton). wait
 * (fleet_setup_wait()) bounds every step before the first case, MPI_Init
 * included: a rank that died before it joined makes every rank exit with
 * status 1 after wait. fmt is the report format asked for (every format
 * has a fleet report; the argument keeps the call the same should one
 * not). On failure the job is already left. Returns 0, or -ENOMEM / -EIO
 * with err filled.
 */
int fleet_init(struct fleet *f, enum report_format fmt, double wait, char *err,
	       size_t errlen);

/*
 * Nonzero when a launcher started this process as one rank of several
 * (its environment says so: Open MPI's, Slurm's or PMI's size above 1),
 * before fleet_init(); 0 in a build without MPI.
 */
int fleet_launched(void);

/*
 * Called by every rank with what suite_load() returned there (loaded: 0
 * or its negative code, s valid only when 0; err then holds its message,
 * which this rank prints). The ranks compare a hash of the expanded
 * matrix (every case's title, target, backend, parameters and core
 * settings) through rank 0; a rank whose suite did not load or differs
 * makes every rank return -EINVAL with the same message in err, naming
 * that rank and its host. A rank that says nothing within the wait is
 * lost and the others go on. Then cases with a peer mode (`rank-pairs`,
 * `ring`, `all-to-one`) are resolved: every rank starts serve
 * ("hostbench-serve" path) on a free port with a fresh token, the ranks
 * exchange host, port and token, and *resolved is set to a copy of s whose
 * such cases send to their partner (peer = HOST:PORT, token = ...); such
 * a case of a rank with no partner (the odd rank out of rank-pairs, a
 * lost partner) fails with the reason, and rank 0's all-to-one case is
 * skipped (it receives). Otherwise *resolved is s. In a fleet of one rank (no
 * MPI, or an MPI build started without mpirun) a case with a peer mode
 * is refused (-EINVAL, naming file, line and section). Ranks whose
 * cases differ only where a host has no plugin (reg: this rank's) for a
 * case's backend run the union: s takes every rank's cases, and a case
 * this rank lacks is skipped here with the reason. Returns 0,
 * -EINVAL, -ECANCELED (rank 0 counted this rank lost: it only stops),
 * -ETIMEDOUT (no word from rank 0), -ENOMEM or -EIO.
 */
struct registry;
int fleet_prepare(struct fleet *f, struct suite *s, const struct registry *reg,
		  int loaded, const char *serve, const struct suite **resolved,
		  char *err, size_t errlen);

/*
 * Every rank: rc is this rank's verdict on the prepared suite (precheck).
 * Returns rc when nonzero, -EINVAL with "rank N (HOST) refused the suite"
 * in err when only another rank's was, else 0 (or a code of
 * fleet_prepare()'s for a rank that is out). Nothing runs anywhere unless
 * every rank returns 0.
 */
int fleet_agree(struct fleet *f, int rc, char *err, size_t errlen);

/*
 * Ship this rank's context (ctx: system, libraries, no results) to rank 0,
 * which keeps every rank's for the report, then let rank 0 read every
 * rank's clock against its own. Returns 0 or a negative code.
 */
int fleet_start(struct fleet *f, const struct report *ctx);

/*
 * Before case i: wait until rank 0 lets this rank start it (together:
 * every rank at once; sequential: one rank after the other). Returns 1
 * to run the case, 0 when rank 0 gave up on this rank (it was too late
 * with an earlier result) and it must stop.
 */
int fleet_case_begin(struct fleet *f, size_t i);

/*
 * After case i: point r->c back at the suite's own case (not the resolved
 * copy, so every rank reports the same parameters) and ship r to rank 0,
 * with when this rank started and ended it. Returns 0 or -ENOMEM.
 */
int fleet_case_end(struct fleet *f, size_t i, struct result *r);

/*
 * After this rank measured a case, before it journals it: 1 when rank 0
 * still counts the result, 0 when rank 0 counted this rank lost (its word
 * to stop is there, or rank 0's wait for the result, fleet_case_wait()
 * from the start signal, is over: this rank was stopped or hung past it;
 * it then sends rank 0 nothing more), so the journal never says ok what
 * the report says lost. Rank 0 and a fleet of one: always 1.
 */
int fleet_case_counted(struct fleet *f);

/*
 * After the last case (or a stop): rank 0 collects what is still due and
 * marks the ranks it never heard from. Returns the exit status of the
 * whole fleet on rank 0 (own: this rank's), own elsewhere.
 */
int fleet_finish(struct fleet *f, int own);

/* Nonzero when this rank writes the fleet report instead of its own. */
int fleet_writes_report(const struct fleet *f);

/* Nonzero when this rank writes no report at all (ranks above 0). */
int fleet_silent(const struct fleet *f);

/*
 * Stop the transfer receivers, free everything and leave the job. Rank 0
 * first tells every rank the run is over (after its report is written:
 * under mpirun's defaults a rank that exits kills the others), then
 * leaves with MPI_Finalize, or with MPI_Abort when a rank was lost, so a
 * hung rank cannot keep the job alive. A rank above 0 waits for that
 * word (bounded), and ends the job with MPI_Abort when it gave up on rank
 * 0. Returns the status this process exits with: status on rank 0; on
 * the others 0 (rank 0's status is the fleet's, and under mpirun's
 * defaults the first non-zero status is the job's), or status when a
 * signal stopped the run.
 */
int fleet_end(struct fleet *f, int status);

#endif
