/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compare --by KEY=BASE,NEW: which cases of the reports stand against
 * which, and the option's text taken apart.
 */
#ifndef HB_CORE_COMPARE_COMPARE_BY_H
#define HB_CORE_COMPARE_COMPARE_BY_H

#include <stddef.h>

/*
 * The cases whose KEY ("backend" or a parameter) is BASE against those
 * whose KEY is NEW, alike in everything else.
 */
struct compare_by {
	const char *key; /* NULL: every key counts, as without --by */
	const char *base, *new;
};

/* A --by text taken apart: by points into text, a copy it owns. */
struct compare_by_arg {
	struct compare_by by;
	char *text;
};

/*
 * Split "KEY=A,B" into out (NULL: only check it). Returns 0, -EINVAL with
 * "--by TEXT: expected KEY=A,B" in err, or -ENOMEM; free with
 * compare_by_free().
 */
int compare_by_parse(const char *text, struct compare_by_arg *out, char *err,
		     size_t errlen);

/* Free what compare_by_parse() filled in; leaves arg empty. */
void compare_by_free(struct compare_by_arg *arg);

#endif
