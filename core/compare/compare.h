/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hostbench compare BASE.json NEW.json: the cases of two reports matched by
 * job, target, backend and parameters, each with base, new, % difference
 * and a verdict from the raw samples; and the two hosts' context side by
 * side with what differs called out. docs/compare.md says how the verdict
 * is reached.
 */
#ifndef HB_CORE_COMPARE_COMPARE_H
#define HB_CORE_COMPARE_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "compare/compare_by.h"
#include "compare/report_read.h"
#include "report/writer.h"

/* The default noise threshold: a median must move more than 5%. */
#define COMPARE_THRESHOLD 0.05
/* The significance level of the Mann-Whitney U test. */
#define COMPARE_ALPHA 0.05
/*
 * A sample that got less CPU time than this (seconds, all workers) while
 * starved measures its neighbours' caches as much as its own code: on the
 * shared 2-CPU VM the same suite's figures per CPU-second moved up to 30%
 * between runs of such samples. A flagged pair with a starved side whose
 * samples mostly got less must move more than COMPARE_STARVED_FLOOR.
 */
#define COMPARE_LITTLE_CPU    0.1
#define COMPARE_STARVED_FLOOR 0.35
/*
 * The most a noise floor asks: a figure four times slower or faster is a
 * change whatever its neighbours did (the worst a CPU hog did to the same
 * build's figure per CPU-second on the 2-CPU VM was half).
 */
#define COMPARE_FLOOR_MOST 0.75

/* What became of one case between base and new. */
enum cmp_verdict {
	CMP_SAME,	  /* within noise */
	CMP_IMPROVED,	  /* faster beyond the threshold, and the test agrees */
	CMP_REGRESSED,	  /* slower beyond the threshold, and the test agrees */
	CMP_INCONCLUSIVE, /* a side starved or imprecise, and the move
			     does not hold per CPU-second or is within
			     the pair's noise floor */
	CMP_NOT_OK,	  /* failed or skipped on one side: no figures */
	CMP_ONLY_BASE,	  /* the case is not in new */
	CMP_ONLY_NEW,	  /* the case is not in base */
};

/* One case of either report. */
struct cmp_row {
	const struct doc_result *base, *new; /* NULL when not in that file */
	double base_value, new_value;	     /* wall medians, base's unit */
	double base_cpu, new_cpu; /* medians per CPU-second; 0: unknown */
	double diff;		  /* of the judged figure: new / base - 1 */
	double diff_wall;	  /* of the wall figure */
	double diff_cpu;	  /* of the figure per CPU-second; 0: unknown */
	double p;    /* two-sided Mann-Whitney p; 1 when not tested */
	int tested;  /* both sides had samples enough for the test */
	int flagged; /* a side was starved or imprecise */
	enum result_figure judged; /* the figure the verdict reads */
	enum cmp_verdict verdict;
	size_t history_runs;  /* runs of the host's history: 0 for none */
	double history_floor; /* their largest move back to back */
	int by_history;	      /* the history made a move within noise */
};

/* How a comparison judges: the threshold and the figure asked for. */
struct compare_rule {
	double threshold;	   /* a fraction: 0.05 */
	enum result_figure figure; /* --figure: wall (default) or cpu */
};

/* One fact of the context: what base and new say, and whether it differs. */
struct cmp_fact {
	char *name; /* "Kernel", "Library openssl: OpenSSL" */
	char *base, *new;
	int differs;
};

/* A whole comparison. */
struct comparison {
	const struct doc_report *base, *new;
	struct compare_by by;
	char *base_label, *new_label; /* "PATH", or "PATH [KEY=VALUE]" */
	double threshold;
	enum result_figure figure; /* the figure asked for */
	struct cmp_row *rows;	   /* base order, then the cases only in new */
	size_t nrows, rows_cap;
	struct cmp_fact *facts;
	size_t nfacts, facts_cap;
	size_t nmatched, nimproved, nregressed, ninconclusive, nnot_ok,
		nonly_base, nonly_new;
	int new_failed;	 /* a case ok in base failed in new */
	char *history;	 /* the store the history came from, or NULL */
	size_t nhistory; /* the rows judged by it */
};

/*
 * Compare base with new at threshold (a fraction: 0.05). Returns 0,
 * -EINVAL with "no case in common" in err when the reports share no case,
 * or -ENOMEM. Free with compare_free().
 */
int compare_build(struct comparison *cmp, const struct doc_report *base,
		  const struct doc_report *new, double threshold, char *err,
		  size_t errlen);

/*
 * compare_build() of the cases of base whose by->key is by->base against
 * those of new (base again, to compare within one report) whose by->key is
 * by->new, matched on everything else (compare/match.h), judged by rule;
 * by NULL compares every case. "no case in common" names the key.
 */
int compare_build_by(struct comparison *cmp, const struct doc_report *base,
		     const struct doc_report *new, const struct compare_by *by,
		     const struct compare_rule *rule, char *err, size_t errlen);

void compare_free(struct comparison *cmp);

/*
 * Judge row again by its host's history in the store where: runs earlier
 * runs of the same context as both sides moved at most floor (a fraction)
 * from one run to the next. A move row claims within floor is within
 * noise: the host moves that much with nothing changed.
 */
void compare_history(struct comparison *cmp, struct cmp_row *row,
		     const char *where, size_t runs, double floor);

/*
 * The two-sided Mann-Whitney U test of samples a[0..na) against b[0..nb):
 * *u is U of a (the pairs where a wins, ties counting one half) and *p the
 * p-value: exact (the distribution of U by counting) when there are no
 * ties and each side has at most 50 values, otherwise the normal
 * approximation with tie and continuity corrections, as scipy's
 * mannwhitneyu computes them. p is 1 when either side is empty (or
 * memory ran out). Both sides are ranked together by sorting: O(n log n).
 */
void compare_mann_whitney(const double *a, size_t na, const double *b,
			  size_t nb, double *u, double *p);

/*
 * The smallest two-sided p-value the exact test can reach with na and nb
 * values: 2 / C(na + nb, na). Below COMPARE_ALPHA the test can decide.
 */
double compare_min_p(size_t na, size_t nb);

/*
 * The verdict for medians that moved by diff (new / base - 1), at
 * threshold, given the test (tested, p) or, when the samples are too few
 * for it, the CVs of both sides: the move must also exceed three times the
 * larger CV. Pure, for tests.
 */
enum cmp_verdict compare_verdict(double diff, double threshold, int tested,
				 double p, double cv_base, double cv_new);

/*
 * The verdict of a pair where a side was starved or imprecise, from the
 * verdict its wall figures got and the one its figures per CPU-second got
 * (have_cpu: both sides have them). A CPU-bound target (cpu_bound) with a
 * starved side takes the verdict per CPU-second; otherwise a move stands
 * only when it holds per CPU-second, in the same direction, and is
 * inconclusive when it does not. *judged_cpu says which figure decided.
 * Pure, for tests.
 */
enum cmp_verdict compare_flagged_verdict(enum cmp_verdict wall,
					 enum cmp_verdict cpu, int have_cpu,
					 int cpu_bound, int starved,
					 int *judged_cpu);

/*
 * The least move a flagged pair (a side starved or imprecise) must make
 * for its verdict to stand: three times the larger CV (compare.c gives
 * each side's larger of its wall and per CPU-second CVs: wall figures that
 * scatter say the neighbours came and went, which moves the figure per
 * CPU-second too, through caches and the vector units a virtual CPU's
 * sibling thread shares), as with few samples, and at least
 * COMPARE_STARVED_FLOOR when
 * little_cpu (a starved side whose samples mostly got less CPU time than
 * COMPARE_LITTLE_CPU); never more than COMPARE_FLOOR_MOST. A smaller
 * move is inconclusive. Pure, for tests.
 */
double compare_noise_floor(double cv_base, double cv_new, int little_cpu);

/*
 * How far apart the 95% confidence intervals of two medians are, over the
 * base median: (new low - base high) / base median when new is above,
 * (new high - base low) / base median (negative) when below, 0 when the
 * intervals overlap or the base median is 0. Pure, for tests.
 */
double compare_intervals_apart(const struct stats *base,
			       const struct stats *new);

/* "improved", "regressed", "within noise", "failed", "only in base", ... */
const char *compare_verdict_name(const struct cmp_row *row);

/*
 * Write cmp as text, md, csv, json or html to out. Returns 0 or a negative
 * code with err filled.
 */
int compare_write(const struct comparison *cmp, enum report_format f, FILE *out,
		  char *err, size_t errlen);

#endif
