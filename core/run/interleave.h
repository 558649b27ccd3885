/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Interleaved rounds (order = interleaved): the cases of one job measured
 * sample by sample in turn, each in its own case helper, all set up at
 * once. Every case's buffers live together for the job's whole time, so a
 * job is the unit (never a whole suite): its memory is the sum of its
 * cases'.
 */
#ifndef HB_CORE_RUN_INTERLEAVE_H
#define HB_CORE_RUN_INTERLEAVE_H

#include <signal.h>
#include <stddef.h>

#include "result/result.h"
#include "suite/suite.h"

/*
 * Run cases[0..n) into results[0..n) (zeroed by the caller), interleaved:
 * every case that can take turns (isolate_takes_turns()) in its own
 * helper; the others first, one by one, as isolate_run_case() would. Each
 * case says when it has samples enough; the rounds go on until all have,
 * so every case takes as many samples. Then each finishes alone (composite
 * parts, teardown). A case that fails leaves the rounds; the others go on.
 * When the turns' FIFOs or threads cannot be made, the cases left are
 * failed with that reason (err). Returns 0, or -ENOMEM.
 */
int interleave_run_job(const struct bench_case *cases, struct result *results,
		       size_t n, const volatile sig_atomic_t *stop, char *err,
		       size_t errlen);

#endif
