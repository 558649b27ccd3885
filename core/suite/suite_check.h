/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every key of a job checked against its target's option tables, and
 * every [global] key taken by some job.
 */
#ifndef HB_CORE_SUITE_SUITE_CHECK_H
#define HB_CORE_SUITE_SUITE_CHECK_H

#include "suite/suite_loader.h"

/*
 * Validate every key of d; [global] keys its target does not take are
 * left out. Returns 0, or a negative code with ld's err filled.
 */
int suite_check_draft(struct loader *ld, struct draft *d);

/* A [global] key that no job took is a typo: 0, or -EINVAL with err. */
int suite_check_globals(struct loader *ld);

#endif
