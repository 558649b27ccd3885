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
 * Check the measurement of an ok result r and of its parts: at least one
 * sample; every sample's seconds finite and above 0, its bytes, ops and
 * CPU seconds finite and not negative, and some work done; every
 * statistic and the CPU ratio finite and not negative. Failed and skipped
 * results carry no figures and pass. Returns 0, or -EINVAL with the first
 * impossible value named in err ("sample 2: seconds is -1").
 */
int result_check(const struct result *r, char *err, size_t errlen);

#endif
