/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The loader: everything read of a suite so far, until it is complete
 * (suite.c reads the texts, suite_set.c, suite_backend.c and suite_check.c
 * work on the drafts it holds), and its messages.
 */
#ifndef HB_CORE_SUITE_SUITE_LOADER_H
#define HB_CORE_SUITE_SUITE_LOADER_H

#include <stddef.h>

#include "suite/suite_draft.h"

/* Room for "FILE:LINE" with the longest path. */
#define ORIGIN_MAX (4096 + 32)

/* A [global] key; the jobs after it in its file inherit it. */
struct gsetting {
	char *key;
	char *value;
	char *origin; /* "FILE:LINE" */
	int used;     /* some job accepted the key */
};

/* Everything read so far, until the suite is complete. */
struct loader {
	const struct registry *reg;
	struct gsetting *globals;
	size_t nglobals;
	size_t gcap;
	struct draft *drafts;
	size_t ndrafts;
	size_t dcap;
	char *err;
	size_t errlen;
};

/*
 * Fill ld's err with "ORIGIN: [LABEL] KEY: message" (label and key
 * optional) and return -ENOMEM when code is, else -EINVAL: a parser's
 * -ERANGE is still a bad suite.
 */
__attribute__((format(printf, 6, 7))) int
suite_loader_fail(struct loader *ld, int code, const char *origin,
		  const char *label, const char *key, const char *fmt, ...);

/* "out of memory" into ld's err; returns -ENOMEM. */
int suite_loader_nomem(struct loader *ld);

#endif
