/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The progress line of a run, for whoever watches a terminal:
 * "[3/17] AES256/CBC [4 parallels] (openssl)  0:42 left", rewritten in
 * place as each case starts and once a second while it runs, and never
 * written when stderr is not a terminal (a log or a pipe gets no carriage
 * returns). The estimate and the line are pure functions, so they are
 * unit tested.
 */
#ifndef HB_CORE_UI_PROGRESS_H
#define HB_CORE_UI_PROGRESS_H

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

#include "suite/suite.h"

/* A run's progress: what was planned, what is done, where it is shown. */
struct progress {
	FILE *out;	     /* NULL: nobody watches, nothing is written */
	double start;	     /* hb_now() when the run began */
	double planned;	     /* seconds all cases should take */
	double planned_done; /* seconds the cases started so far should */
	int shown;	     /* a line is on the terminal */
	/* What the ticker rewrites, under lock, while a case runs. */
	char head[480]; /* the line without its time left; "" none */
	double since;	/* hb_now() when the case shown started */
	double left;	/* seconds left then */
	double floor;	/* seconds left once it ends, at the pace so far */
	int ticking;	/* the ticker thread runs */
	int stopping;	/* asks the ticker to end */
	pthread_t ticker;
	pthread_mutex_t lock;
	pthread_cond_t wake;
};

/*
 * The plan of a run before its first case, as the host-benchmark report
 * prints it: "hostbench: benchmarking the following N cases (about
 * M:SS):", then each case's title and backend on a line of its own.
 */
void progress_plan(FILE *out, const struct suite *s);

/*
 * Begin the progress of suite s at time now, on out when is_tty (else
 * nothing is ever written); on a terminal a thread ticks the line once a
 * second until progress_end().
 */
void progress_begin(struct progress *p, const struct suite *s, FILE *out,
		    int is_tty, double now);

/* Show that case i of n, c, starts at time now; count it as started. */
void progress_case(struct progress *p, size_t i, size_t n,
		   const struct bench_case *c, double now);

/*
 * Show that cases [i, end) of suite s, one job's, start taking turns at
 * time now; count them all as started.
 */
void progress_turns(struct progress *p, const struct suite *s, size_t i,
		    size_t end, double now);

/* Case c needs no time: it was taken from the journal of an earlier run. */
void progress_skip(struct progress *p, const struct bench_case *c);

/* Stop the ticker and clear the line, so what follows starts clean. */
void progress_end(struct progress *p);

/*
 * Seconds case c should take: suite_case_plan(), the suite's own budget
 * (setup, calibration, warm-up, samples or max_time), once for the case
 * and once for each part of a composite target, which the runner
 * measures in turn with the same budget.
 */
double progress_planned(const struct bench_case *c);

/*
 * Seconds left when elapsed seconds went by for planned_done of the
 * planned seconds: the plan left, scaled by how the run kept to it so far
 * (the plan itself before anything is done).
 */
double progress_left(double elapsed, double planned_done, double planned);

/*
 * Seconds left since seconds into a case that began with left seconds to
 * go: counted down, but never below floor, what the cases after it need.
 */
double progress_ticked(double left, double since, double floor);

/* "[i+1/n] TITLE (BACKEND)  M:SS left" (H:MM:SS from an hour) into buf. */
void progress_line(char *buf, size_t len, size_t i, size_t n,
		   const struct bench_case *c, double left);

/* "[i+1-end/n] JOB: K cases in turns  M:SS left" into buf. */
void progress_turns_line(char *buf, size_t len, size_t i, size_t end, size_t n,
			 const char *job, double left);

#endif
