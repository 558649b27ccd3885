/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Suites: INI files read into jobs, validated against the loaded plugins'
 * option tables, and expanded into cases. Nothing runs until
 * suite_load() accepted every file.
 */
#ifndef HB_CORE_SUITE_SUITE_H
#define HB_CORE_SUITE_SUITE_H

#include <stddef.h>
#include <stdint.h>

#include "plugin/registry.h"
#include "base/util.h"

/* Seconds a fleet waits for a rank beyond a case's own time, by default. */
#define SUITE_FLEET_TIMEOUT 30.0

/* Seconds per sample when sampling to a precision, by default. */
#define SUITE_PRECISE_DURATION 0.2

/* Seconds a case may sample to reach its precision, by default. */
#define SUITE_MAX_TIME 10.0

/* One point of a job's matrix: every parameter fixed. */
struct bench_case {
	size_t job;	    /* index into suite.jobs */
	char *title;	    /* "AES256/CTR [64KB, 4 parallels]" */
	char *target;	    /* "crypto/aes-256-ctr" */
	char *backend;	    /* plugin name */
	int backend_chosen; /* the job names no backend: hostbench chose it */
	const struct plugin *plugin; /* NULL: backend not loaded (see reason) */
	const struct hb_target *tdesc; /* NULL with plugin */
	/* the backend whose transform verifies a sample of the timed path's
	 * units after each sample (openssl), or NULL: none */
	const struct plugin *reference;
	char *reason;	      /* why it cannot run, or NULL */
	struct kvlist params; /* every target option, defaults filled */
	unsigned parallel;
	unsigned queue_depth;	/* units in flight per worker (async targets) */
	int depth_given;	/* the suite set queue_depth (even to 1) */
	double duration;	/* seconds per sample */
	unsigned repetitions;	/* kept samples (precision 0) */
	unsigned warmup;	/* dropped samples (warmup_auto 0) */
	double timeout;		/* seconds per case, 0 = derived */
	uint64_t memory_limit;	/* bytes of memory, 0 = the default bound */
	uint64_t process_limit; /* processes and threads, 0 = default */
	uint64_t open_files_limit; /* descriptors per process, 0 = default */
	uint64_t file_size_limit;  /* bytes per file written, 0 = default */
	uint64_t temp_space_limit; /* bytes of $TMPDIR's space, 0 = default */
	double cpu_limit;	   /* CPU seconds of the case, 0 = no limit */
	int isolate;		   /* run in a child process (default 1) */
	int store;	      /* store = no keeps the run out of the store */
	int fleet_sequential; /* fleet = sequential: one rank at a time */
	double fleet_timeout; /* seconds a fleet waits for a rank beyond
				 the case's own time (fleet_timeout) */
	char *unit;	      /* display unit: "Gbps", "GB/s", ... */

	/* Sampling to a precision and interleaved rounds (docs/suites.md). */
	double precision;	  /* relative half-width of the median's CI95 to
				     reach (0.01 for 1%); 0 = fixed repetitions */
	unsigned min_repetitions; /* kept samples before precision counts */
	double max_time; /* seconds of kept samples for precision, at most */
	int warmup_auto; /* warm up until two samples agree */
	int interleaved; /* order = interleaved: the job's cases take turns
			    sample by sample */
	char *cpus;	 /* the cpus value (host/cpuspec.h), NULL =
			    workers not pinned */
};

/* One section of a suite file. */
struct job {
	char *label; /* the section name */
	char *file;  /* where it was defined */
	unsigned line;
	char *group;   /* the target's group, for report sections */
	char *section; /* report section title, NULL = from the group */
	char *note;    /* the job's note for the report's reader, or NULL */
	struct strlist varying; /* keys whose lists expanded, in file order */
	struct kvlist origins;	/* each key's "FILE:LINE" or "--set TEXT" */
	char *unoffered; /* a fleet: the target no plugin here offers (the
			    job has no case here), else NULL */
};

/* A whole, valid, expanded suite. */
struct suite {
	struct job *jobs;
	size_t njobs;
	struct bench_case *cases;
	size_t ncases;
};

/*
 * Read, validate and expand the suite files in order (their jobs
 * concatenate; a [global] applies to the jobs after it in its own file, and
 * a repeated [section] is a new job). overrides are "[SECTION.]KEY=VALUE"
 * texts from --set, applied on top of every file: "KEY=VALUE" sets KEY in
 * every job whose target takes it (every job for a core key), SECTION is
 * split at the last '.'. Every key is checked against the target's option
 * table, then each job expands its comma lists into cases, the first key
 * written outermost (docs/suites.md). Returns 0 with s filled (free it with
 * suite_free()), or -EINVAL / -ENOMEM with s empty and a one-line message
 * in err: "FILE:LINE: [SECTION] KEY: what was wrong and what was
 * expected". An unknown key suggests the nearest known one. When the
 * registry has refused plugins, a target or backend no loaded plugin offers
 * gives cases with plugin NULL and the reason instead of an error; when
 * the registry's open_targets is set (a rank of a fleet), a target no
 * loaded plugin offers gives its job no case and job.unoffered.
 */
int suite_load(struct suite *s, const char *const *files, size_t nfiles,
	       const struct strlist *overrides, const struct registry *reg,
	       char *err, size_t errlen);

/* How suite_load_as() reads its files. */
enum suite_load_flags {
	/* Every file is a fio job file (suite_fio.h), whatever its name. */
	SUITE_FIO = 1 << 0,
};

/*
 * suite_load(), each file read as flags say; suite_load() itself reads a
 * file whose name or text says it is a fio job file (suite_fio_is()) as
 * one, every other as a suite.
 */
int suite_load_as(struct suite *s, const char *const *files, size_t nfiles,
		  const struct strlist *overrides, const struct registry *reg,
		  unsigned flags, char *err, size_t errlen);

/*
 * suite_load() from memory: text (len bytes, no NUL needed) is one suite
 * file named name in messages. The same checks and the same results; for
 * tests and fuzzing.
 */
int suite_load_buffer(struct suite *s, const char *name, const char *text,
		      size_t len, const struct strlist *overrides,
		      const struct registry *reg, char *err, size_t errlen);

/* Free a suite (also a zeroed one); s is left zeroed. */
void suite_free(struct suite *s);

/* Free what a case owns (suite_free() does it for every case). */
void suite_case_free(struct bench_case *c);

#endif
