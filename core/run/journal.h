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

#include "run/result.h"
#include "suite/suite.h"

/* A journal open for appending, and the results it already held. */
struct journal {
	FILE *fp;
	json_t *done; /* case key -> journal line, from an earlier run */
};

/*
 * Open path for appending. With resume, first read the lines already there
 * (a torn last line from a crash is ignored). Returns 0, or a negative
 * errno with "--journal PATH: reason" in err.
 */
int journal_open(struct journal *j, const char *path, int resume, char *err,
		 size_t errlen);

/*
 * If case c of s was finished in the earlier run, read its result into r
 * (zeroed by the caller) and return 1; 0 when it must run; <0 on error.
 */
int journal_recall(const struct journal *j, const struct suite *s,
		   const struct bench_case *c, struct result *r);

/* Append r as one line and flush it to disk. Returns 0 or -errno. */
int journal_append(struct journal *j, const struct suite *s,
		   const struct result *r);

void journal_close(struct journal *j);

#endif
