/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The journal: each finished result appended as one JSON line the moment
 * it completes, so a run that dies (even kill -9 of the core) loses nothing
 * already measured; `run --resume FILE` skips the cases already in it.
 */
#ifndef HB_CORE_RUN_JOURNAL_H
#define HB_CORE_RUN_JOURNAL_H

#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "base/siphash.h"
#include "result/result.h"
#include "result/runinfo.h"
#include "suite/suite.h"

/* The warning every resumed result carries, so each format shows it. */
#define JOURNAL_RESUMED_WARNING                                                \
	"resumed: taken from the journal of an earlier run, not measured now"

/*
 * A journal open for appending, and the results it already held. Secret
 * values (HB_OPT_SECRET) appear in case keys only as a SipHash under
 * hash_key, a random key the journal keeps on a line of its own
 * ({"journal_key": HEX}, written before the first line that needs it).
 */
struct journal {
	FILE *fp;
	json_t *done; /* case key -> journal line, from an earlier run */
	unsigned char hash_key[SIPHASH_KEY];
	int have_key;		   /* hash_key is set: read back or made */
	int key_written;	   /* the journal holds hash_key's line */
	const struct runinfo *run; /* the run appending; NULL: none named */
};

/*
 * Open path for appending: a regular file of the caller's that nobody
 * else may write, never a symbolic link itself (O_NOFOLLOW) and reached
 * through links only under the protected_symlinks rule (base/fspath.h);
 * created 0600, and an older one readable by others made so, since its
 * hash key is a secret. With resume, the file must exist and the lines
 * already there are read first (a torn last line from a crash is
 * ignored; every string is sanitized). run (the caller's, outliving j;
 * NULL: none) is named on each result line ("run": its uuid, start,
 * label and fleet place), with the time the line was written
 * ("journaled"), so the journal read as a report has its run's uuid and
 * times. Returns 0, or a negative errno with "--journal PATH:
 * reason" (or "--resume PATH: ...") in err.
 */
int journal_open(struct journal *j, const char *path, int resume,
		 const struct runinfo *run, char *err, size_t errlen);

/*
 * If case c of s was finished in the earlier run, read its result into r
 * (zeroed by the caller) and return 1; 0 when it must run; <0 on error.
 * A line is trusted no further than it can be checked: impossible figures
 * (result_check()) make the case run again, the statistics and flags are
 * recomputed from the samples, and r is marked resumed (r->resumed and
 * JOURNAL_RESUMED_WARNING) for every report format to show.
 */
int journal_recall(const struct journal *j, const struct suite *s,
		   const struct bench_case *c, struct result *r);

/* Append r as one line and flush it to disk. Returns 0 or -errno. */
int journal_append(struct journal *j, const struct suite *s,
		   const struct result *r);

void journal_close(struct journal *j);

#endif
