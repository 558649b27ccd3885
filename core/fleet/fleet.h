/*
 * Fleet runs: the same suite on every rank of an MPI job (mpirun, srun),
 * each case started on all ranks together or on one rank at a time, host
 * pairs resolved for transfers, and every rank's results gathered to rank
 * 0, which writes one report. docs/fleet.md describes what users see.
 *
 * The MPI implementation (fleet.c, fleet_peer.c, fleet_report.c) is built
 * with -DHOSTBENCH_MPI=ON only. Without it fleet_solo.c implements the
 * same calls for a fleet of one rank, so app/cmd_run.c reads the same in
 * both builds and nothing about MPI is compiled.
 *
 * Rank 0 coordinates with point-to-point messages rather than collectives
 * once cases run, so a rank that dies or hangs costs the others a deadline
 * (the case's timeout plus FLEET_SLACK seconds), not the run.
 */
#ifndef HB_CORE_FLEET_FLEET_H
#define HB_CORE_FLEET_FLEET_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"
#include "run/result.h"
#include "suite/suite.h"

/* Seconds a rank's result may come after its case's own timeout. */
#define FLEET_SLACK 20.0

struct fleet_state;

/* This process's place in the job; rank 0 of 1 without MPI. */
struct fleet {
	int rank;
	int size;
	struct fleet_state *st; /* NULL without MPI */
};

/*
 * Join the MPI job (MPI_Init) and learn rank, size and host name. A
 * process started without mpirun is a fleet of one (MPI singleton). fmt
 * is the report format asked for (every format has a fleet report; the
 * argument keeps the call the same should one not). On failure the job is
 * already left. Returns 0, or -ENOMEM / -EIO with err filled.
 */
int fleet_init(struct fleet *f, enum report_format fmt, char *err,
	       size_t errlen);

/*
 * Collective, called by every rank with what suite_load() returned there
 * (loaded: 0 or its negative code, s valid only when 0). The ranks
 * compare a hash of the expanded matrix (every case's title, target,
 * backend, parameters and core settings); a rank whose suite did not load
 * or differs makes every rank return -EINVAL, with the ranks and hosts
 * named in err on rank 0. Then cases with `peer = rank-pairs` or `peer =
 * ring` are resolved: every rank starts serve ("hostbench-serve" path)
 * on a free port with a fresh token, the ranks exchange host, port and
 * token, and *run is set to a copy of s whose such cases send to their
 * partner (peer = HOST:PORT, token = ...); a rank-pairs case of the odd
 * rank out is skipped with the reason. Otherwise *run is s. When loaded
 * is nonzero err is left as the caller filled it. Without MPI a case
 * with such a peer is refused (-EINVAL, naming file, line and section).
 * Returns 0, -EINVAL, -ENOMEM or -EIO.
 */
int fleet_prepare(struct fleet *f, const struct suite *s, int loaded,
		  const char *serve, const struct suite **run, char *err,
		  size_t errlen);

/*
 * Collective: rc is this rank's verdict on the prepared suite (precheck).
 * Returns rc when nonzero, -EINVAL with "rank N (HOST) refused the suite"
 * in err when only another rank's was, else 0. Nothing runs anywhere
 * unless every rank returns 0.
 */
int fleet_agree(struct fleet *f, int rc, char *err, size_t errlen);

/*
 * Ship this rank's context (ctx: system, libraries, no results) to rank 0,
 * which keeps every rank's for the report. Returns 0 or a negative code.
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
 * copy, so every rank reports the same parameters) and ship r to rank 0.
 * Returns 0 or -ENOMEM.
 */
int fleet_case_end(struct fleet *f, size_t i, struct result *r);

/*
 * After the last case (or a stop): rank 0 collects what is still due and
 * marks the ranks it never heard from. Returns the exit status of the
 * whole fleet on rank 0 (own: this rank's), own elsewhere.
 */
int fleet_finish(struct fleet *f, int own);

/* Nonzero when this rank writes the fleet report instead of its own. */
int fleet_reports(const struct fleet *f);

/* Nonzero when this rank writes no report at all (ranks above 0). */
int fleet_silent(const struct fleet *f);

/*
 * The fleet report on rank 0. json: every rank's results with rank and
 * host, the spread across hosts per case, and each rank's whole report as
 * its own JSON document (fleet.hosts[].report). text and md: the ranks and
 * their state, the table of hosts by cases of `hostbench merge`, then the
 * spread. csv and html: merge's table. own is rank 0's report; the other
 * ranks' results are read against own->suite. Returns 0 or a negative
 * code with err filled.
 */
int fleet_report(const struct fleet *f, enum report_format fmt,
		 const struct report *own, FILE *out, char *err, size_t errlen);

/*
 * Stop the transfer receivers, free everything and leave the job: a
 * normal MPI_Finalize, or, on rank 0 when a rank was lost, MPI_Abort with
 * status so a hung rank cannot keep the job alive. Returns status.
 */
int fleet_end(struct fleet *f, int status);

#endif
