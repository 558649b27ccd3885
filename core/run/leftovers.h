/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Temporary files plugins leave behind. Plugins name them
 * ".hostbench-<pid>-..." (docs/plugins.md) in a case's dir or file_dir,
 * $TMPDIR or /tmp; when the process that made them dies they are removed:
 * at once when a case's helper dies, and at the next run's start when
 * hostbench itself was killed (kill -9 gives nobody a chance to clean).
 */
#ifndef HB_CORE_RUN_LEFTOVERS_H
#define HB_CORE_RUN_LEFTOVERS_H

#include <sys/types.h>

#include "suite/suite.h"

/*
 * Remove the files process pid left where case c keeps temporary files:
 * c's dir and file_dir, $TMPDIR and /tmp.
 */
void leftovers_remove(const struct bench_case *c, pid_t pid);

/*
 * In the same places for every case of s, remove the regular files of this
 * user whose process no longer runs on this host. Files of a live process
 * (another hostbench, or a pid reused since) stay.
 */
void leftovers_sweep(const struct suite *s);

#endif
