/*
 * The outcome of one case: samples, statistics, status and context. The
 * runner fills results; reports only read them.
 */
#ifndef HB_CORE_RESULT_H
#define HB_CORE_RESULT_H

#include <stddef.h>

#include "stats.h"
#include "suite.h"
#include "util.h"

/* Thresholds above/below which a result is flagged noisy. */
#define RESULT_NOISY_CV 0.05
#define RESULT_STARVED_CPU 0.9

enum result_status {
	RESULT_OK,
	RESULT_FAILED,
	RESULT_SKIPPED,
};

/* One kept sample: the measurement before any unit is applied. */
struct sample {
	double seconds;     /* wall time, common start to last worker's end */
	double bytes;       /* all workers */
	double ops;         /* all workers */
	double cpu_seconds; /* process CPU time (user + system) in the sample */
};

/* A measured case, or one that failed or was skipped. */
struct result {
	const struct bench_case *c;  /* NULL for a part once measured */
	const char *part;            /* parts: "group/name" (plugin's table) */
	enum result_status status;
	char *reason;                /* failed/skipped: one line; else NULL */
	struct sample *samples;      /* kept samples only */
	size_t nsamples;
	struct stats rate;           /* bytes per second over samples */
	struct stats ops_rate;       /* operations per second over samples */
	double cpu_ratio;            /* sum cpu / (sum wall * parallel) */
	int noisy;                   /* cv above RESULT_NOISY_CV */
	int starved;                 /* cpu_ratio below RESULT_STARVED_CPU */
	struct strlist warnings;     /* plugin warnings and core flags */
	struct kvlist info;          /* plugin notes: "provider" -> "default" */
	struct result *parts;        /* composite halves (hb_target.parts) */
	size_t nparts;
};

/*
 * Fill rate, ops_rate, cpu_ratio, noisy, starved and their warnings.
 * Needs r->c (parallel, group); the runner calls it while c is alive.
 */
int result_finish(struct result *r);

/* Free what a result owns (not r itself). */
void result_free(struct result *r);

#endif
