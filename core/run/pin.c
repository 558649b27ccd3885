/* SPDX-License-Identifier: Apache-2.0 */
/* Workers on the CPUs of the `cpus` key: the plan and the affinity calls. */
#define _GNU_SOURCE /* sched_getcpu, pthread_setaffinity_np */
#include "run/pin.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/cpuspec.h"
#include "host/topology.h"

/* The CPUs set allows, ascending (a cpu_set_t holds CPUs 0..1023). */
static int allowed_list(const cpu_set_t *set, struct cpulist *l)
{
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, set) && cpulist_push(l, c))
			return -ENOMEM;
	return 0;
}

int pin_plan(struct pin_plan *p, const struct bench_case *c, char *why,
	     size_t len)
{
	struct cpulist allowed = { 0 };
	struct topology t;
	int rc;

	memset(p, 0, sizeof(*p));
	if (!c->cpus)
		return 0;
	p->saved = calloc(1, sizeof(cpu_set_t));
	if (!p->saved)
		return -ENOMEM;
	if (sched_getaffinity(0, sizeof(cpu_set_t), p->saved))
		rc = hb_errorf(why, len, -EINVAL, "sched_getaffinity: %s",
			       strerror(errno));
	else
		rc = topology_read(&t, "");
	if (rc == -ENOENT)
		rc = hb_errorf(why, len, -EINVAL, "no CPU found under /sys");
	if (rc) {
		pin_free(p);
		return rc;
	}
	p->n = c->parallel;
	p->cpus = calloc(p->n, sizeof(*p->cpus));
	rc = p->cpus ? allowed_list(p->saved, &allowed) : -ENOMEM;
	if (!rc)
		rc = cpuspec_assign(c->cpus, &t, &allowed, p->n, p->cpus, why,
				    len);
	cpulist_free(&allowed);
	topology_free(&t);
	if (rc)
		pin_free(p);
	return rc;
}

int pin_self(const struct pin_plan *p, unsigned worker, char *err, size_t len)
{
	cpu_set_t set;
	int rc;

	if (!p->cpus)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(p->cpus[worker], &set);
	rc = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	if (rc)
		return hb_errorf(err, len, HB_EIO,
				 "cannot pin worker %u to CPU %d: %s", worker,
				 p->cpus[worker], strerror(rc));
	return 0;
}

void pin_restore(const struct pin_plan *p)
{
	if (p->cpus)
		pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t),
				       p->saved);
}

int pin_attr(const struct pin_plan *p, unsigned worker, pthread_attr_t *attr)
{
	cpu_set_t set;

	if (!p->cpus)
		return 0;
	CPU_ZERO(&set);
	CPU_SET(p->cpus[worker], &set);
	return pthread_attr_setaffinity_np(attr, sizeof(set), &set);
}

/* The distinct nodes of cpus on t, as a list text, into buf; their count. */
static size_t nodes_of(const struct topology *t, const int *cpus, unsigned n,
		       char *buf, size_t len)
{
	struct cpulist nodes = { 0 };
	size_t count;

	for (size_t i = 0; i < t->nnodes; i++)
		for (unsigned w = 0; w < n; w++)
			if (cpulist_has(&t->nodes[i].cpus, cpus[w]) &&
			    !cpulist_has(&nodes, t->nodes[i].id) &&
			    cpulist_push(&nodes, t->nodes[i].id))
				return 0;
	cpulist_format(&nodes, buf, len);
	count = nodes.n;
	cpulist_free(&nodes);
	return count;
}

int pin_note_nodes(const struct topology *t, struct result *r)
{
	char nodes[128], note[160];

	if (nodes_of(t, r->cpus, r->ncpus, nodes, sizeof(nodes)) < 2)
		return 0;
	snprintf(note, sizeof(note), "workers span NUMA nodes %s", nodes);
	return strlist_push(&r->warnings, note);
}

int pin_record(struct result *r)
{
	struct topology t;
	int rc;

	if (topology_read(&t, ""))
		return 0; /* no topology, no note: never fatal */
	rc = pin_note_nodes(&t, r);
	topology_free(&t);
	return rc;
}

int pin_cpu_now(void)
{
	return sched_getcpu();
}

void pin_free(struct pin_plan *p)
{
	free(p->cpus);
	free(p->saved);
	p->cpus = NULL;
	p->saved = NULL;
}
