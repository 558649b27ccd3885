/* SPDX-License-Identifier: Apache-2.0 */
/* From a `cpus` value and a topology to the CPU of each worker. */
#include "host/cpuspec.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/util.h"

/* The rank of c's core among the cores of its node (by lowest CPU). */
static int core_rank(const struct topology *t, const struct topology_cpu *c)
{
	int rank = 0;

	for (size_t i = 0; i < t->ncpus; i++)
		if (t->cpus[i].node == c->node && t->cpus[i].thread == 0 &&
		    t->cpus[i].core < c->core)
			rank++;
	return rank;
}

/* The rank of c's node among the nodes. */
static int node_rank(const struct topology *t, const struct topology_cpu *c)
{
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == c->node)
			return (int)i;
	return 0;
}

/*
 * The sort key of c for policy: spread takes thread rank first, then
 * core rank, then node (round-robin over nodes); compact node, core,
 * thread. Each field stays below 2^16 on any real host.
 */
static long long policy_key(const struct topology *t,
			    const struct topology_cpu *c, int spread)
{
	long long th = c->thread, core = core_rank(t, c),
		  node = node_rank(t, c);

	return spread ? (th << 32) | (core << 16) | node
		      : (node << 32) | (core << 16) | th;
}

/* A CPU and its place in a policy's order. */
struct ranked {
	long long key;
	int cpu;
};

static int ranked_cmp(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	return (x->key > y->key) - (x->key < y->key);
}

/* Every CPU of t in the order of policy spread (1) or compact (0). */
static int policy_order(const struct topology *t, int spread, struct cpulist *l)
{
	struct ranked *r = calloc(t->ncpus, sizeof(*r));
	int rc = 0;

	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < t->ncpus; i++)
		r[i] = (struct ranked){ policy_key(t, &t->cpus[i], spread),
					t->cpus[i].cpu };
	qsort(r, t->ncpus, sizeof(*r), ranked_cmp);
	for (size_t i = 0; i < t->ncpus && !rc; i++)
		rc = cpulist_push(l, r[i].cpu);
	free(r);
	return rc;
}

/* The CPUs of node "numa:N". */
static int node_order(const char *value, const struct topology *t,
		      struct cpulist *l, char *err, size_t errlen)
{
	const struct topology_node *node;
	int64_t id;
	char have[256];

	if (parse_int(value + strlen("numa:"), &id, NULL, 0) || id < 0 ||
	    id > 65535)
		return hb_errorf(err, errlen, -EINVAL,
				 "\"%s\" is not a node (numa:N, e.g. numa:0)",
				 value);
	node = topology_node(t, (int)id);
	if (!node || node->cpus.n == 0) {
		have[0] = '\0';
		for (size_t i = 0; i < t->nnodes; i++)
			if (t->nodes[i].cpus.n)
				snprintf(have + strlen(have),
					 sizeof(have) - strlen(have), "%s%d",
					 have[0] ? ", " : "", t->nodes[i].id);
		return hb_errorf(err, errlen, -EINVAL,
				 "node %lld %s here (nodes with CPUs: %s)",
				 (long long)id,
				 node ? "has no CPU" : "does not exist", have);
	}
	for (size_t i = 0; i < node->cpus.n; i++)
		if (cpulist_push(l, node->cpus.cpus[i]))
			return -ENOMEM;
	return 0;
}

/* Every CPU of list exists on t. */
static int list_check(const struct cpulist *l, const struct topology *t,
		      char *err, size_t errlen)
{
	struct cpulist all = { 0 };
	char have[256];

	for (size_t i = 0; i < l->n; i++) {
		if (topology_cpu(t, l->cpus[i]))
			continue;
		for (size_t c = 0; c < t->ncpus; c++)
			if (cpulist_push(&all, t->cpus[c].cpu)) {
				cpulist_free(&all);
				return -ENOMEM;
			}
		cpulist_format(&all, have, sizeof(have));
		cpulist_free(&all);
		return hb_errorf(err, errlen, -EINVAL,
				 "CPU %d does not exist here (CPUs %s)",
				 l->cpus[i], have);
	}
	return 0;
}

/* Nonzero for the policies, which choose among every CPU of the host. */
static int is_policy(const char *value)
{
	return strcmp(value, "spread") == 0 || strcmp(value, "compact") == 0;
}

int cpuspec_order(const char *value, const struct topology *t,
		  struct cpulist *l, char *err, size_t errlen)
{
	int rc;

	if (is_policy(value))
		return policy_order(t, strcmp(value, "spread") == 0, l);
	if (strncmp(value, "numa:", 5) == 0)
		return node_order(value, t, l, err, errlen);
	rc = cpulist_parse(value, l, err, errlen);
	if (rc == -EINVAL)
		return hb_errorf(err, errlen, -EINVAL,
				 "\"%s\" is not a CPU list (e.g. 0-3,8), "
				 "numa:N, spread or compact",
				 value);
	return rc ? rc : list_check(l, t, err, errlen);
}

/* Keep only the CPUs of l that allowed holds. */
static void keep_allowed(struct cpulist *l, const struct cpulist *allowed)
{
	size_t kept = 0;

	for (size_t i = 0; i < l->n; i++)
		if (cpulist_has(allowed, l->cpus[i]))
			l->cpus[kept++] = l->cpus[i];
	l->n = kept;
}

/* The first CPU of l that allowed does not hold, with the reason: 1. */
static int not_allowed(const struct cpulist *l, const struct cpulist *allowed,
		       char *err, size_t errlen)
{
	char have[256];

	for (size_t i = 0; i < l->n; i++) {
		if (cpulist_has(allowed, l->cpus[i]))
			continue;
		cpulist_format(allowed, have, sizeof(have));
		return hb_errorf(err, errlen, 1,
				 "CPU %d is not allowed here (allowed: %s)",
				 l->cpus[i], have);
	}
	return 0;
}

int cpuspec_assign(const char *value, const struct topology *t,
		   const struct cpulist *allowed, unsigned n, int *cpus,
		   char *err, size_t errlen)
{
	struct cpulist l = { 0 };
	int policy = is_policy(value);
	int rc = cpuspec_order(value, t, &l, err, errlen);

	if (!rc && policy)
		keep_allowed(&l, allowed);
	else if (!rc)
		rc = not_allowed(&l, allowed, err, errlen);
	if (!rc && l.n == 0)
		rc = hb_errorf(err, errlen, 1,
			       "no CPU of \"%s\" is allowed here", value);
	for (unsigned i = 0; !rc && i < n; i++)
		cpus[i] = l.cpus[i % l.n];
	cpulist_free(&l);
	return rc;
}

int cpuspec_check(const char *value, char *err, size_t errlen)
{
	struct cpulist l = { 0 };
	struct topology t;
	int rc = topology_read(&t, "");

	if (rc == -ENOENT) /* no sysfs: the syntax alone */
		t = (struct topology){ 0 };
	else if (rc)
		return rc;
	if (t.ncpus)
		rc = cpuspec_order(value, &t, &l, err, errlen);
	else if (!is_policy(value) && strncmp(value, "numa:", 5) != 0)
		rc = cpulist_parse(value, &l, err, errlen);
	cpulist_free(&l);
	topology_free(&t);
	return rc;
}
