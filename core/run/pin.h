/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pinning a case's workers to CPUs (the `cpus` key): which CPU each worker
 * takes on this host, checked against the CPUs the process may use, and
 * the affinity calls. The runner pins the thread that calls a worker's
 * setup() to that worker's CPU, so the buffers setup touches first sit on
 * the worker's NUMA node, and starts the worker's thread already pinned.
 */
#ifndef HB_CORE_RUN_PIN_H
#define HB_CORE_RUN_PIN_H

#include <pthread.h>

#include "result/result.h"
#include "suite/suite.h"

struct topology;

/* The CPU of each worker, and the calling thread's affinity before. */
struct pin_plan {
	int *cpus; /* c->parallel of them; NULL: the case is not pinned */
	unsigned n;
	void *saved; /* the cpu_set_t of the thread that planned */
};

/*
 * Plan c's workers from c->cpus on this host (its topology, and the CPUs
 * sched_getaffinity allows: cgroup cpusets, taskset). Returns 0 (p->cpus
 * NULL when c sets no cpus), 1 with the reason in why when a CPU c names
 * is not allowed here (the case is skipped), -EINVAL with why for a value
 * this host does not have, or -ENOMEM. Free p with pin_free().
 */
int pin_plan(struct pin_plan *p, const struct bench_case *c, char *why,
	     size_t len);

/*
 * Pin the calling thread to worker's CPU (nothing when p is not pinned).
 * Returns 0 or a negative HB_E* code with "cannot pin worker W to CPU C:
 * why" in err.
 */
int pin_self(const struct pin_plan *p, unsigned worker, char *err, size_t len);

/* Give the calling thread back the affinity it had at pin_plan(). */
void pin_restore(const struct pin_plan *p);

/* Set attr so worker's thread starts on its CPU. Returns 0 or an errno. */
int pin_attr(const struct pin_plan *p, unsigned worker, pthread_attr_t *attr);

/*
 * A warning in r when the CPUs its workers ran on (r->cpus) span NUMA
 * nodes of t: "workers span NUMA nodes 0-1". Returns 0 or -ENOMEM.
 */
int pin_note_nodes(const struct topology *t, struct result *r);

/* pin_note_nodes() with this host's topology (none: no note). */
int pin_record(struct result *r);

/* The CPU the calling thread runs on now, -1 when unknown. */
int pin_cpu_now(void);

/* Free what p owns. */
void pin_free(struct pin_plan *p);

#endif
