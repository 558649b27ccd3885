/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The `cpus` key: which CPU each worker of a case runs on. The value is a
 * CPU list ("0-3,8"), "numa:N" (the CPUs of node N), or a policy over the
 * whole host: "spread" (one worker per physical core first, cores taken
 * round-robin over the nodes, then the second SMT threads, ...) or
 * "compact" (fill a core's threads, then the next core of the same node).
 * Worker i takes the i-th CPU of the resulting order; a case with more
 * workers than CPUs wraps around (as fio's cpus_allowed_policy=split).
 * Pure functions over a topology, so tests give them fake hosts.
 */
#ifndef HB_CORE_HOST_CPUSPEC_H
#define HB_CORE_HOST_CPUSPEC_H

#include <stddef.h>

#include "host/topology.h"

/*
 * The CPUs value names on host t, in the order workers take them, into l
 * (empty on entry). Returns 0; -EINVAL with err "what is wrong" for text
 * that is not a CPU list, numa:N or a policy, a CPU t does not have ("CPU
 * 9 does not exist here (CPUs 0-3)") or a node t does not have or that has
 * no CPU; or -ENOMEM.
 */
int cpuspec_order(const char *value, const struct topology *t,
		  struct cpulist *l, char *err, size_t errlen);

/*
 * The CPU of each of n workers into cpus[n], from value on host t where
 * the process may run on allowed only (sched_getaffinity: cgroup cpusets,
 * taskset). A policy chooses among the allowed CPUs; a list or node naming
 * a CPU that is not allowed gives 1 with the reason in err ("CPU 3 is not
 * allowed here (allowed: 0-1)"): the case is skipped, not failed. Returns
 * 0, 1, or cpuspec_order()'s errors.
 */
int cpuspec_assign(const char *value, const struct topology *t,
		   const struct cpulist *allowed, unsigned n, int *cpus,
		   char *err, size_t errlen);

/*
 * Check value against the live host (its topology under "/"), for the
 * suite check before anything runs. Returns 0, -EINVAL with err, or
 * -ENOMEM. A host whose topology cannot be read accepts any CPU list.
 */
int cpuspec_check(const char *value, char *err, size_t errlen);

#endif
