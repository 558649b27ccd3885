/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The host's CPU topology from sysfs, without libnuma: which CPUs exist,
 * the core and package of each, the NUMA nodes with their CPUs and memory,
 * and the caches of CPU 0. sysinfo reports it; the pinning of workers
 * (the `cpus` key) chooses CPUs from it. The sysfs root is an argument, so
 * tests read fake trees.
 */
#ifndef HB_CORE_HOST_TOPOLOGY_H
#define HB_CORE_HOST_TOPOLOGY_H

#include <stddef.h>

#include "host/cpulist.h"

/* One CPU that exists on the host. */
struct topology_cpu {
	int cpu;
	int core;    /* lowest CPU of its thread siblings: one per core */
	int thread;  /* its rank among those siblings: 0 = first thread */
	int package; /* physical_package_id, 0 when unknown */
	int node;    /* NUMA node, 0 when the host shows none */
};

/* One NUMA node. */
struct topology_node {
	int id;
	struct cpulist cpus;	   /* ascending; may be empty (memory only) */
	unsigned long long mem_kb; /* MemTotal, 0 when unknown */
};

/* One cache of CPU 0. */
struct topology_cache {
	unsigned level;		 /* 1, 2, 3 */
	char type[16];		 /* "Data", "Instruction", "Unified" */
	unsigned long long size; /* bytes, 0 when unknown */
	char shared[64];	 /* shared_cpu_list: "0-1" */
};

/* What topology_read() found; free it with topology_free(). */
struct topology {
	struct topology_cpu *cpus; /* ascending by number */
	size_t ncpus;
	struct topology_node *nodes; /* ascending by id; at least one */
	size_t nnodes;
	struct topology_cache *caches; /* by level, then index */
	size_t ncaches;
};

/*
 * Read the topology under root ("" for the live host, else a directory
 * holding sys/devices/system/... and proc/meminfo). The CPUs are those of
 * cpu/present, else the cpuN directories; without node directories the
 * host is one node 0 holding every CPU and MemTotal of proc/meminfo. A
 * missing file leaves its figure at its default, never an error. Returns 0,
 * -ENOENT when no CPU is found (t empty), or -ENOMEM (t freed).
 */
int topology_read(struct topology *t, const char *root);

/* Free what t owns and zero it. */
void topology_free(struct topology *t);

/* The entry of CPU cpu, or NULL when it does not exist. */
const struct topology_cpu *topology_cpu(const struct topology *t, int cpu);

/* The node of id, or NULL. */
const struct topology_node *topology_node(const struct topology *t, int id);

/* The largest cache level, of the caches read (0 when none). */
unsigned topology_last_level(const struct topology *t);

#endif
