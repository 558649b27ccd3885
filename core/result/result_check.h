/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The figures no measurement can have. A result read back from elsewhere
 * (a journal line, a report file) is checked before anything trusts it:
 * a forged or corrupt line must not become a verdict or a headline.
 */
#ifndef HB_CORE_RUN_RESULT_CHECK_H
#define HB_CORE_RUN_RESULT_CHECK_H

#include <stddef.h>

#include "result/result.h"

/*
 * Rates no host reaches, hundreds of times above the fastest memory of
 * today (bytes per second, operations per second): a sample beyond them
 * is forged or corrupt, whatever its other fields say.
 */
#define RESULT_MAX_BYTE_RATE 1e15
#define RESULT_MAX_OP_RATE   1e13

/*
 * Check the measurement of an ok result r and of its parts: at least one
 * sample; every sample's seconds finite and above 0, its bytes, ops and
 * CPU seconds finite and not negative, some work done, and no faster than
 * RESULT_MAX_BYTE_RATE and RESULT_MAX_OP_RATE; every
 * statistic and the CPU ratio finite and not negative. Failed and skipped
 * results carry no figures and pass. Returns 0, or -EINVAL with the first
 * impossible value named in err ("sample 2: seconds is -1").
 */
int result_check(const struct result *r, char *err, size_t errlen);

#endif
