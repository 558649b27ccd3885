/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The identity of one run, measured by the core: its UUID, when it started
 * and ended, how long it took, the command line (secrets masked), the
 * suite files and their SHA-256, and its place in a fleet. Written as the
 * "run" object of the JSON report (docs/json-schema.md) and read back from
 * it, one codec for both.
 */
#ifndef HB_CORE_RESULT_RUNINFO_H
#define HB_CORE_RESULT_RUNINFO_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "base/digest.h"
#include "base/timetext.h"
#include "base/util.h"
#include "base/uuid.h"

/* The longest label, in bytes: --label refuses more, an imported run's
   label is cut to it. */
#define RUNINFO_LABEL_MAX 128

/* One suite file: its path as given and the SHA-256 of its bytes. */
struct runinfo_suite {
	char *path;
	char sha256[DIGEST_SHA256_HEX]; /* "" when it could not be read */
};

/* A run; zeroed, it is a run nothing is known about (an older report). */
struct runinfo {
	int known; /* runinfo_begin() or a "run" object filled it */
	char uuid[UUID_TEXT];
	char started[TIMETEXT_LEN];  /* RFC 3339, UTC, milliseconds */
	char ended[TIMETEXT_LEN];    /* "" until runinfo_end() */
	double duration;	     /* wall seconds, CLOCK_MONOTONIC */
	struct strlist command_line; /* masked (base/argmask.h) */
	struct runinfo_suite *suites;
	size_t nsuites;
	char *label;	 /* NULL: none */
	char *fleet_job; /* the batch job's id, NULL when unknown */
	int fleet_rank;
	int fleet_size;	      /* 0: not a fleet (the "fleet" object is null) */
	char *fleet_place;    /* host/placement.h, NULL when unknown */
	struct timespec mono; /* CLOCK_MONOTONIC at the start */
};

/*
 * Start ri (zeroed): a new UUID, the start time and the command line
 * (already masked; copied). Returns 0 or a negative code with err filled.
 */
int runinfo_begin(struct runinfo *ri, const struct strlist *command_line,
		  char *err, size_t errlen);

/*
 * The suite files paths[0..n) and the SHA-256 of each file's bytes; a file
 * that cannot be read keeps an empty digest (it did not load either).
 * Returns 0 or -ENOMEM.
 */
int runinfo_suites(struct runinfo *ri, const char *const *paths, size_t n);

/*
 * ri's place in a fleet of size ranks (size 1: none); the job id from
 * SLURM_JOB_ID, else Open MPI's job id, else none; and where this rank
 * may run (host/placement.h: its CPUs, NUMA nodes and sockets). Returns 0
 * or -ENOMEM.
 */
int runinfo_fleet(struct runinfo *ri, int rank, int size);

/* The end time and the wall duration since runinfo_begin(). */
void runinfo_end(struct runinfo *ri);

/* ri as the "run" object; NULL for a run nothing is known about. */
json_t *runinfo_json(const struct runinfo *ri, int *bad);

/*
 * The "run" object o (NULL or not an object: an older report, ri stays
 * unknown) into a zeroed ri. Returns 0 or -ENOMEM.
 */
int runinfo_from_json(struct runinfo *ri, const json_t *o);

/* Free what ri owns and zero it. */
void runinfo_free(struct runinfo *ri);

#endif
