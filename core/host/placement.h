/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where this process may run: the CPUs its affinity allows, and the NUMA
 * nodes and sockets (packages) they belong to. Two ranks of a fleet on
 * one node are told apart by it (the store's series, docs/fleet.md).
 */
#ifndef HB_CORE_HOST_PLACEMENT_H
#define HB_CORE_HOST_PLACEMENT_H

#include <stddef.h>

#include "host/cpulist.h"
#include "host/topology.h"

/* The longest placement text, its NUL included. */
#define PLACEMENT_LEN 256

/*
 * cpus on topology t as "cpus 0-3, NUMA node 0, socket 0" ("NUMA nodes
 * 0-1", "sockets 0-1" for more than one) into buf. Pure. Returns 0, or
 * -ENOMEM (buf "").
 */
int placement_text(const struct topology *t, const struct cpulist *cpus,
		   char *buf, size_t len);

/*
 * This process's placement (sched_getaffinity() on the live host's
 * topology) as placement_text() writes it. Returns 0, or a negative errno
 * (buf "").
 */
int placement_read(char *buf, size_t len);

#endif
