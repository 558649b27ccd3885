/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Draft jobs: a suite job as read from its file, with [global] keys and
 * --set overrides merged in file order, before and after validation. The
 * loader (suite.c) builds and checks drafts with suite_draft.c;
 * suite_expand.c turns a checked draft into its job and cases. The order is
 * one-way: suite_draft.c < suite_expand.c < suite.c.
 */
#ifndef HB_CORE_SUITE_SUITE_DRAFT_H
#define HB_CORE_SUITE_SUITE_DRAFT_H

#include <stddef.h>

#include "suite/suite.h"

/* One key of a draft job, with where its value was set. */
struct setting {
	char *key;
	char *value;
	char *origin;  /* "FILE:LINE" or "--set TEXT", for messages */
	long global;   /* the [global] key it shadows or inherits, or -1 */
	int inherited; /* the value is the [global] one */
	int ignored;   /* inherited, and the job's target does not take it */
	struct strlist items; /* the value as cases see it, once validated */
};

/* A job as read, before it is validated and expanded. */
struct draft {
	char *label;
	char *file;
	unsigned line;
	struct setting *set;
	size_t n;
	size_t cap;
	char *target;
	struct strlist backends;
	const struct plugin **plugins;	 /* per backend; NULL: not loaded */
	const struct hb_target **tdescs; /* per backend; NULL with plugin */
	int open; /* a backend is not loaded: its keys are taken as given */
	int unoffered; /* no plugin here offers target (a fleet): no case */
};

/* The setting called key in d, or NULL. */
struct setting *suite_draft_get(const struct draft *d, const char *key);

/*
 * Set key in d, keeping the position of an existing key (file order
 * decides expansion). global is the [global] key this value comes from,
 * or -1 for the job's own value or a --set. Returns 0 or -ENOMEM.
 */
int suite_draft_set(struct draft *d, const char *key, const char *value,
		    const char *origin, long global);

/* Free what d owns (d itself belongs to its caller). */
void suite_draft_free(struct draft *d);

/* The option table entry for key in the first of d's tables declaring it. */
const struct hb_option *suite_draft_option(const struct draft *d,
					   const char *key);

/* Nonzero when job d takes key: a core key, or one its targets declare. */
int suite_draft_accepts(const struct draft *d, const char *key);

/* "FILE:LINE" of d's section header into buf; returns buf. */
const char *suite_draft_origin(const struct draft *d, char *buf, size_t len);

/* Allocated room in a suite's jobs and cases arrays while it grows. */
struct suite_room {
	size_t jobs;
	size_t cases;
};

/*
 * Append checked draft d to s as job s->njobs and its cases: the cartesian
 * product of its settings' items, the first setting outermost. reg names
 * refused plugins in the reason of cases that cannot run. Returns 0, or
 * -EINVAL (too many cases) / -ENOMEM with the message in err; what was
 * appended is freed by suite_free().
 */
int suite_draft_expand(const struct draft *d, const struct registry *reg,
		       struct suite *s, struct suite_room *room, char *err,
		       size_t errlen);

#endif
