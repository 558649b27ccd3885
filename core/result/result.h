/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The outcome of one case: samples, statistics, status and context. The
 * runner fills results; reports only read them.
 */
#ifndef HB_CORE_RUN_RESULT_H
#define HB_CORE_RUN_RESULT_H

#include <stddef.h>

#include "result/latency.h"
#include "result/stats.h"
#include "suite/suite.h"
#include "base/util.h"

/* Thresholds above/below which a result is flagged noisy. */
#define RESULT_NOISY_CV	   0.05
#define RESULT_STARVED_CPU 0.9

/*
 * Which figure of a result a view judges: the wall rate (work over the
 * time the sample took) or the rate per CPU-second (work over the CPU time
 * the process used in it), which a neighbour taking CPUs cannot move.
 */
enum result_figure {
	RESULT_FIGURE_WALL,
	RESULT_FIGURE_CPU,
};

enum result_status {
	RESULT_OK,
	RESULT_FAILED,
	RESULT_SKIPPED,
};

/* One kept sample: the measurement before any unit is applied. */
struct sample {
	double seconds;	    /* wall time, common start to last worker's end */
	double bytes;	    /* all workers */
	double ops;	    /* all workers */
	double cpu_seconds; /* process CPU time (user + system) in the sample */
	double start;	    /* CLOCK_MONOTONIC seconds at the sample's start,
			       one clock for every process of the host */
	double cycles;	    /* counted CPU cycles of all workers, 0: none */
	double tool_seconds; /* the tool's own time of the work (ssh's session,
				plugin.h tool_time), 0: none; <= seconds */
};

/* A measured case, or one that failed or was skipped. */
struct result {
	const struct bench_case *c; /* NULL for a part once measured */
	const char *part;	    /* parts: "group/name" (plugin's table) */
	enum result_status status;
	char *reason;		/* failed/skipped: one line; else NULL */
	struct sample *samples; /* kept samples only */
	size_t nsamples;
	struct stats rate;	   /* bytes per second over samples */
	struct stats ops_rate;	   /* operations per second over samples */
	struct stats cpu_rate;	   /* bytes per CPU-second over samples */
	struct stats cpu_ops_rate; /* operations per CPU-second */
	double cpu_ratio;	   /* sum cpu / (sum wall * usable CPUs) */
	int noisy;		   /* headline cv above RESULT_NOISY_CV */
	int starved;		   /* cpu_ratio below RESULT_STARVED_CPU */
	int resumed;		 /* taken from the journal of an earlier run */
	struct strlist warnings; /* plugin warnings and core flags */
	struct kvlist info;	 /* plugin notes: "provider" -> "default" */
	struct latency latency;	 /* per unit, asynchronous targets only */
	double bytes_per_cpu_second; /* host CPU per byte moved (0: none) */
	double cpu_seconds_per_gb;   /* the same, seconds per 10^9 bytes */
	int offload;		     /* the target's work is a device's */
	struct result *parts;	     /* composite halves (hb_target.parts) */
	size_t nparts;

	/* Sampling to a precision (docs/suites.md). */
	int imprecise;	  /* sampled to a precision and did not reach it */
	double precision; /* the precision asked for (0: fixed count) */
	unsigned warmup_samples; /* warm-up samples dropped */
	int *cpus;		 /* the CPU each worker last ran on */
	unsigned ncpus;		 /* 0: not recorded */
	double cycles_per_byte;	 /* 0: not measured (run/cycles.h) */
	char cycles_method[12];	 /* "perf", "calibrated", "" */

	/* report --figure cpu (report/figure.h): 1 the rates hold the figures
	 * per CPU-second and the cpu rates the wall ones; -1 asked, but no
	 * CPU time was recorded: the wall figures, said so; 0 as measured */
	int shown_per_cpu;
};

/*
 * Fill rate, ops_rate, cpu_ratio, noisy, starved and their warnings, with
 * the number of CPUs online now. Needs r->c (parallel, group); the runner
 * calls it while c is alive, for the result and for each part (parts are
 * not visited from their parent). Calling it again replaces the flags and
 * their warnings rather than adding to them. Returns 0 or -ENOMEM.
 */
int result_finish(struct result *r);

/*
 * The headline rate of sample s of r: operations per second for
 * HB_WORK_OPS targets, bytes per second for the others; 0 for a sample
 * that took no time.
 */
double result_sample_rate(const struct result *r, const struct sample *s);

/*
 * Nonzero when r's samples, at least one of them, put the 95% confidence
 * interval of the headline median within plus or minus precision (0.01 for
 * 1%) of the median. 0 when the statistics cannot be computed.
 */
int result_precise(const struct result *r, double precision);

/*
 * Only rate, ops_rate, cpu_rate and cpu_ops_rate, from the samples, for r and
 * its parts: for results read back, whose statistics are recomputed rather than
 * trusted. Returns 0 or -ENOMEM.
 */
int result_rates(struct result *r);

/*
 * Only cpu_rate and cpu_ops_rate, from the samples, for r alone: for a
 * result read back whose wall statistics are taken as written (the JSON
 * carries no statistics per CPU-second). Returns 0 or -ENOMEM.
 */
int result_cpu_rates(struct result *r);

/*
 * result_finish() with an explicit CPU count, so the arithmetic is testable
 * on any host. usable CPUs = min(parallel, online_cpus, the distinct CPUs
 * of r->cpus when the case pins its workers): eight workers on two CPUs can
 * at best use two, and that is not starvation. starved is never
 * set for groups "io" and "transfer", whose workers wait on devices and
 * sockets by design. noisy looks at ops_rate for HB_WORK_OPS targets and at
 * rate for every other target.
 */
int result_finish_cpus(struct result *r, unsigned online_cpus);

/*
 * The statistics a report headlines: ops_rate for HB_WORK_OPS targets, rate
 * for the others (and for parts, whose case is gone).
 */
const struct stats *result_headline(const struct result *r);

/*
 * The per-CPU-second statistics a report shows beside the headline:
 * cpu_ops_rate for HB_WORK_OPS targets, cpu_rate for the others. Their
 * median is 0 when a sample has no CPU time (a report from before it was
 * recorded).
 */
const struct stats *result_cpu_headline(const struct result *r);

/* result_headline() or result_cpu_headline(), as figure says. */
const struct stats *result_figure_stats(const struct result *r,
					enum result_figure figure);

/*
 * The time sample s's figure is over: the tool's own when the target's
 * tool told one (HB_TARGET_TOOL_TIMED), else the wall time.
 */
double result_sample_seconds(const struct sample *s);

/*
 * Nonzero when r's figure is its tool's (every sample tool-timed): the
 * report names the tool and puts result_command_rate() beside it.
 */
int result_tool_timed(const struct result *r);

/*
 * The median over r's samples of the work (operations when ops, else
 * bytes) over the whole run's wall time: the figure beside a tool's
 * ("whole command"). 0 when unknown.
 */
double result_command_rate(const struct result *r, int ops);

/*
 * The headline rate of sample s per CPU-second (work over s->cpu_seconds);
 * 0 when s has no CPU time.
 */
double result_sample_cpu_rate(const struct result *r, const struct sample *s);

/*
 * Nonzero when r's target is CPU-bound by nature (groups crypto, hash,
 * mac, pk and mem): its figure per CPU-second is what it can do, whatever
 * a neighbour took. target is "group/name".
 */
int result_cpu_bound(const char *target);

/*
 * Nonzero when w is a warning result_finish() wrote (it starts with
 * "noisy: ", "imprecise: ", "starved: " or "offload: "), so a report can show
 * the flag its own way and the plugin's warnings as they are.
 */
int result_is_flag_warning(const char *w);

/*
 * sanitize_text() every text of r that came from a plugin or a file: the
 * reason, warnings, notes (keys and values) and those of its parts.
 */
void result_sanitize(struct result *r);

/* Free what a result owns (not r itself). */
void result_free(struct result *r);

#endif
