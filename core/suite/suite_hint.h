/* SPDX-License-Identifier: Apache-2.0 */
/*
 * "Did you mean": the nearest candidate to a mistyped word (a key, a
 * target, a backend, a job) for the messages of a suite being loaded.
 */
#ifndef HB_CORE_SUITE_SUITE_HINT_H
#define HB_CORE_SUITE_SUITE_HINT_H

#include <stddef.h>

#include "suite/suite_draft.h"

/* The nearest candidate to a mistyped word, for "did you mean". */
struct suite_hint {
	const char *typed;
	char best[128];
	size_t dist; /* of best; meaningless while best is "" */
};

/* Consider candidate c for h->typed. */
void suite_hint_try(struct suite_hint *h, const char *c);

/*
 * " (did you mean "X"?)" into buf when the best candidate is close enough
 * to be what was meant (at most 2 edits, or a third of the word), else "".
 */
const char *suite_hint_text(const struct suite_hint *h, char *buf, size_t len);

/* Offer every key job d takes to h. */
void suite_hint_keys(struct suite_hint *h, const struct draft *d);

/*
 * Offer every loaded target to h; a bare name ("aes-256-gcm") matches its
 * "group/name" exactly.
 */
void suite_hint_targets(struct suite_hint *h, const struct registry *reg);

#endif
