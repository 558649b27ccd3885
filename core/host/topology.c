/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CPUs, cores, NUMA nodes and caches from sysfs (Documentation/ABI of
 * /sys/devices/system/cpu and /sys/devices/system/node). A file that is
 * missing leaves its default: containers and old kernels hide some.
 */
#include "host/topology.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "host/sysfs.h"
#include "base/util.h"

#define CPU_DIR	 "sys/devices/system/cpu"
#define NODE_DIR "sys/devices/system/node"

/* root/rel into path (PATH_MAX bytes); -ENAMETOOLONG when it does not fit. */
static int join(char *path, const char *root, const char *rel)
{
	int w = snprintf(path, PATH_MAX, "%s/%s", root, rel);

	return w < 0 || w >= PATH_MAX ? -ENAMETOOLONG : 0;
}

/* The list in the file at root/rel, appended to l; -ENOENT if unreadable. */
static int read_list(const char *root, const char *rel, struct cpulist *l)
{
	char path[PATH_MAX], line[4096];

	if (join(path, root, rel) ||
	    sysfs_read_line(path, line, sizeof(line)) || !line[0])
		return -ENOENT;
	return cpulist_parse(line, l, NULL, 0) == -ENOMEM ? -ENOMEM : 0;
}

/* The number in the file at root/rel, or def. */
static long read_number(const char *root, const char *rel, long def)
{
	char path[PATH_MAX], line[64], *end;
	long v;

	if (join(path, root, rel) || sysfs_read_line(path, line, sizeof(line)))
		return def;
	v = strtol(line, &end, 10);
	return end == line ? def : v;
}

/* The numbers N of the entries "prefixN" of directory root/rel, ascending. */
static int list_numbered(const char *root, const char *rel, const char *prefix,
			 struct cpulist *l)
{
	char path[PATH_MAX];
	size_t plen = strlen(prefix);
	struct dirent *e;
	DIR *d;
	int rc = 0;

	d = join(path, root, rel) ? NULL : opendir(path);
	if (!d)
		return 0;
	while (!rc && (e = readdir(d))) {
		const char *p = e->d_name + plen;
		long v;

		if (strncmp(e->d_name, prefix, plen) != 0 || !*p)
			continue;
		v = cpulist_number(&p);
		if (v >= 0 && !*p)
			rc = cpulist_push(l, (int)v);
	}
	closedir(d);
	for (size_t i = 1; i < l->n; i++) /* insertion sort: short lists */
		for (size_t j = i; j > 0 && l->cpus[j - 1] > l->cpus[j]; j--) {
			int tmp = l->cpus[j];

			l->cpus[j] = l->cpus[j - 1];
			l->cpus[j - 1] = tmp;
		}
	return rc;
}

/* Core, thread rank and package of CPU c from its topology directory. */
static int read_cpu(const char *root, struct topology_cpu *c)
{
	struct cpulist sib = { 0 };
	char rel[128];
	int rc;

	c->core = c->cpu;
	snprintf(rel, sizeof(rel),
		 CPU_DIR "/cpu%d/topology/thread_siblings_list", c->cpu);
	rc = read_list(root, rel, &sib);
	if (rc == -ENOMEM)
		return rc;
	for (size_t i = 0; i < sib.n; i++) {
		if (sib.cpus[i] < c->core)
			c->core = sib.cpus[i];
		if (sib.cpus[i] < c->cpu)
			c->thread++;
	}
	cpulist_free(&sib);
	snprintf(rel, sizeof(rel),
		 CPU_DIR "/cpu%d/topology/physical_package_id", c->cpu);
	c->package = (int)read_number(root, rel, 0);
	return 0;
}

/* The CPUs of cpu/present, else of the cpuN directories. */
static int read_cpus(struct topology *t, const char *root)
{
	struct cpulist ids = { 0 };
	int rc = read_list(root, CPU_DIR "/present", &ids);

	if (rc == -ENOENT)
		rc = list_numbered(root, CPU_DIR, "cpu", &ids);
	if (!rc && ids.n == 0)
		rc = -ENOENT;
	if (!rc)
		t->cpus = calloc(ids.n, sizeof(*t->cpus));
	if (!rc && !t->cpus)
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < ids.n; i++) {
		t->cpus[i].cpu = ids.cpus[i];
		t->ncpus++;
		rc = read_cpu(root, &t->cpus[i]);
	}
	cpulist_free(&ids);
	return rc;
}

/* MemTotal in kB of a meminfo text ("Node 0 MemTotal: 1024 kB" too). */
static unsigned long long mem_total(const char *path)
{
	char *text = sysfs_read_text(path), *p;
	unsigned long long kb = 0;

	p = text ? strstr(text, "MemTotal:") : NULL;
	if (p)
		kb = strtoull(p + strlen("MemTotal:"), NULL, 10);
	free(text);
	return kb;
}

/* One node holding every CPU: a host without node directories. */
static int one_node(struct topology *t, const char *root)
{
	char path[PATH_MAX];

	t->nodes = calloc(1, sizeof(*t->nodes));
	if (!t->nodes)
		return -ENOMEM;
	t->nnodes = 1;
	for (size_t i = 0; i < t->ncpus; i++)
		if (cpulist_push(&t->nodes[0].cpus, t->cpus[i].cpu))
			return -ENOMEM;
	if (!join(path, root, "proc/meminfo"))
		t->nodes[0].mem_kb = mem_total(path);
	return 0;
}

/* The nodeN directories: their CPUs and memory, and each CPU's node. */
static int read_nodes(struct topology *t, const char *root)
{
	struct cpulist ids = { 0 };
	char rel[128], path[PATH_MAX];
	int rc = list_numbered(root, NODE_DIR, "node", &ids);

	if (!rc && ids.n == 0)
		rc = one_node(t, root);
	else if (!rc && !(t->nodes = calloc(ids.n, sizeof(*t->nodes))))
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < ids.n; i++) {
		struct topology_node *n = &t->nodes[t->nnodes++];

		n->id = ids.cpus[i];
		snprintf(rel, sizeof(rel), NODE_DIR "/node%d/cpulist", n->id);
		if (read_list(root, rel, &n->cpus) == -ENOMEM)
			rc = -ENOMEM;
		snprintf(rel, sizeof(rel), NODE_DIR "/node%d/meminfo", n->id);
		if (!join(path, root, rel))
			n->mem_kb = mem_total(path);
		for (size_t c = 0; c < t->ncpus; c++)
			if (cpulist_has(&n->cpus, t->cpus[c].cpu))
				t->cpus[c].node = n->id;
	}
	cpulist_free(&ids);
	return rc;
}

/* rel/file into name (200 bytes). */
static const char *cache_file(const char *rel, const char *file, char *name)
{
	snprintf(name, 200, "%s/%s", rel, file);
	return name;
}

/* The first line of root/rel into buf; "" when unreadable. */
static void cache_line(const char *root, const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX];

	buf[0] = '\0';
	if (!join(path, root, rel))
		sysfs_read_line(path, buf, len);
}

/* The caches of CPU 0, by level then index. */
static int read_caches(struct topology *t, const char *root)
{
	struct cpulist ids = { 0 };
	char rel[160], name[200], line[64];
	int rc = list_numbered(root, CPU_DIR "/cpu0/cache", "index", &ids);

	if (!rc && ids.n && !(t->caches = calloc(ids.n, sizeof(*t->caches))))
		rc = -ENOMEM;
	for (size_t i = 0; !rc && i < ids.n; i++) {
		struct topology_cache *c = &t->caches[t->ncaches++];
		uint64_t size = 0;

		snprintf(rel, sizeof(rel), CPU_DIR "/cpu0/cache/index%d",
			 ids.cpus[i]);
		c->level = (unsigned)read_number(
			root, cache_file(rel, "level", name), 0);
		cache_line(root, cache_file(rel, "type", name), c->type,
			   sizeof(c->type));
		cache_line(root, cache_file(rel, "size", name), line,
			   sizeof(line));
		if (line[0] && parse_size(line, &size, NULL, 0) == 0)
			c->size = size;
		cache_line(root, cache_file(rel, "shared_cpu_list", name),
			   c->shared, sizeof(c->shared));
	}
	cpulist_free(&ids);
	/* by level, stable: index order within one (L1d before L1i) */
	for (size_t i = 1; !rc && i < t->ncaches; i++)
		for (size_t j = i;
		     j > 0 && t->caches[j - 1].level > t->caches[j].level;
		     j--) {
			struct topology_cache tmp = t->caches[j];

			t->caches[j] = t->caches[j - 1];
			t->caches[j - 1] = tmp;
		}
	return rc;
}

int topology_read(struct topology *t, const char *root)
{
	int rc;

	memset(t, 0, sizeof(*t));
	rc = read_cpus(t, root);
	if (!rc)
		rc = read_nodes(t, root);
	if (!rc)
		rc = read_caches(t, root);
	if (rc)
		topology_free(t);
	return rc;
}

void topology_free(struct topology *t)
{
	for (size_t i = 0; i < t->nnodes; i++)
		cpulist_free(&t->nodes[i].cpus);
	free(t->nodes);
	free(t->cpus);
	free(t->caches);
	memset(t, 0, sizeof(*t));
}

const struct topology_cpu *topology_cpu(const struct topology *t, int cpu)
{
	for (size_t i = 0; i < t->ncpus; i++)
		if (t->cpus[i].cpu == cpu)
			return &t->cpus[i];
	return NULL;
}

const struct topology_node *topology_node(const struct topology *t, int id)
{
	for (size_t i = 0; i < t->nnodes; i++)
		if (t->nodes[i].id == id)
			return &t->nodes[i];
	return NULL;
}

unsigned topology_last_level(const struct topology *t)
{
	unsigned level = 0;

	for (size_t i = 0; i < t->ncaches; i++)
		if (t->caches[i].level > level)
			level = t->caches[i].level;
	return level;
}
