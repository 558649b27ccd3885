/* SPDX-License-Identifier: Apache-2.0 */
/* Where this process may run: its CPUs, their NUMA nodes and sockets. */
#define _GNU_SOURCE /* sched_getaffinity */
#include "host/placement.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

/* The NUMA node (or package) of each CPU of cpus into out, once each. */
static int ids_of(const struct topology *t, const struct cpulist *cpus,
		  int package, struct cpulist *out)
{
	for (size_t i = 0; i < cpus->n; i++) {
		const struct topology_cpu *c = topology_cpu(t, cpus->cpus[i]);
		int id = c ? (package ? c->package : c->node) : 0;

		if (!cpulist_has(out, id) && cpulist_push(out, id))
			return -ENOMEM;
	}
	return 0;
}

/* qsort() order of ids: ascending, so cpulist_format() makes ranges. */
static int by_number(const void *a, const void *b)
{
	return (*(const int *)a > *(const int *)b) -
	       (*(const int *)a < *(const int *)b);
}

int placement_text(const struct topology *t, const struct cpulist *cpus,
		   char *buf, size_t len)
{
	struct cpulist nodes = { 0 }, packages = { 0 };
	char c[128], n[64], p[64];
	int rc = ids_of(t, cpus, 0, &nodes);

	if (!rc)
		rc = ids_of(t, cpus, 1, &packages);
	buf[0] = '\0';
	if (!rc) {
		if (nodes.n)
			qsort(nodes.cpus, nodes.n, sizeof(*nodes.cpus),
			      by_number);
		if (packages.n)
			qsort(packages.cpus, packages.n, sizeof(*packages.cpus),
			      by_number);
		cpulist_format(cpus, c, sizeof(c));
		cpulist_format(&nodes, n, sizeof(n));
		cpulist_format(&packages, p, sizeof(p));
		snprintf(buf, len, "cpus %s, NUMA node%s %s, socket%s %s", c,
			 nodes.n > 1 ? "s" : "", n, packages.n > 1 ? "s" : "",
			 p);
	}
	cpulist_free(&nodes);
	cpulist_free(&packages);
	return rc;
}

int placement_read(char *buf, size_t len)
{
	struct topology t = { 0 };
	struct cpulist cpus = { 0 };
	cpu_set_t set;
	int rc = 0;

	buf[0] = '\0';
	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (int cpu = 0; !rc && cpu < CPU_SETSIZE; cpu++)
		if (CPU_ISSET(cpu, &set))
			rc = cpulist_push(&cpus, cpu);
	if (!rc)
		rc = topology_read(&t, "");
	if (!rc)
		rc = placement_text(&t, &cpus, buf, len);
	topology_free(&t);
	cpulist_free(&cpus);
	return rc;
}
