/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The topology reader on fake sysfs trees made here (two nodes of two
 * cores with two threads each; a host without node directories), the
 * `cpus` value from it to each worker's CPU, and the note on workers that
 * span nodes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "host/cpuspec.h"
#include "host/placement.h"
#include "host/topology.h"
#include "run/pin.h"

/* Write text to root/rel, making the directories on the way. */
static int put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *p = path + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(path, 0700) && errno != EEXIST)
			return -1;
		*p = '/';
	}
	f = fopen(path, "w");
	if (!f)
		return -1;
	fputs(text, f);
	return fclose(f);
}

/* The siblings of each CPU of the two-node host: core c holds c and c+4. */
static const char *const siblings[] = { "0,4", "1,5", "2,6", "3,7",
					"0,4", "1,5", "2,6", "3,7" };

/* Node 0: cores 0 and 1; node 1: cores 2 and 3 (CPUs c and c+4 each). */
static int make_two_nodes(char *root, int with_nodes)
{
	char rel[128];

	strcpy(root, "/tmp/hb-topology-XXXXXX");
	if (!mkdtemp(root) ||
	    put(root, "sys/devices/system/cpu/present", "0-7\n") ||
	    put(root, "proc/meminfo", "MemTotal:       8000 kB\n"))
		return -1;
	for (int c = 0; c < 8; c++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu%d/topology/"
			 "thread_siblings_list",
			 c);
		if (put(root, rel, siblings[c]))
			return -1;
	}
	if (!with_nodes)
		return 0;
	return put(root, "sys/devices/system/node/node0/cpulist",
		   "0-1,4-5\n") ||
	       put(root, "sys/devices/system/node/node0/meminfo",
		   "Node 0 MemTotal:       4096 kB\n") ||
	       put(root, "sys/devices/system/node/node1/cpulist",
		   "2-3,6-7\n") ||
	       put(root, "sys/devices/system/node/node1/meminfo",
		   "Node 1 MemTotal:       2048 kB\n");
}

/* The caches of CPU 0: L1 data and instruction, L2, and a shared L3. */
static int make_caches(const char *root)
{
	static const char *const files[][2] = {
		{ "index0/level", "1" },
		{ "index0/type", "Data" },
		{ "index0/size", "32K" },
		{ "index0/shared_cpu_list", "0,4" },
		{ "index1/level", "1" },
		{ "index1/type", "Instruction" },
		{ "index1/size", "32K" },
		{ "index2/level", "2" },
		{ "index2/type", "Unified" },
		{ "index2/size", "1024K" },
		{ "index3/level", "3" },
		{ "index3/type", "Unified" },
		{ "index3/size", "32768K" },
		{ "index3/shared_cpu_list", "0-7" },
	};
	char rel[128];

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(rel, sizeof(rel),
			 "sys/devices/system/cpu/cpu0/cache/%s", files[i][0]);
		if (put(root, rel, files[i][1]))
			return -1;
	}
	return 0;
}

static int remove_entry(const char *path, const struct stat *st, int flag,
			struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* Remove the fake tree. */
static void unmake(const char *root)
{
	nftw(root, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static int reads_two_nodes_with_their_cpus_and_memory(void)
{
	char root[64];
	struct topology t;

	CHECK_INT(make_two_nodes(root, 1), 0);
	CHECK_INT(topology_read(&t, root), 0);
	unmake(root);
	CHECK_INT(t.ncpus, 8);
	CHECK_INT(t.nnodes, 2);
	CHECK_INT(t.nodes[1].id, 1);
	CHECK_INT(t.nodes[1].cpus.n, 4);
	CHECK_INT(t.nodes[0].mem_kb, 4096);
	CHECK_INT(t.nodes[1].mem_kb, 2048);
	CHECK_INT(topology_cpu(&t, 6)->node, 1);
	CHECK_INT(topology_cpu(&t, 5)->node, 0);
	topology_free(&t);
	return 0;
}

static int smt_siblings_share_a_core(void)
{
	char root[64];
	struct topology t;

	CHECK_INT(make_two_nodes(root, 1), 0);
	CHECK_INT(topology_read(&t, root), 0);
	unmake(root);
	CHECK_INT(topology_cpu(&t, 4)->core, 0);
	CHECK_INT(topology_cpu(&t, 4)->thread, 1);
	CHECK_INT(topology_cpu(&t, 3)->core, 3);
	CHECK_INT(topology_cpu(&t, 3)->thread, 0);
	topology_free(&t);
	return 0;
}

static int missing_node_dir_is_one_node(void)
{
	char root[64];
	struct topology t;

	CHECK_INT(make_two_nodes(root, 0), 0);
	CHECK_INT(topology_read(&t, root), 0);
	unmake(root);
	CHECK_INT(t.nnodes, 1);
	CHECK_INT(t.nodes[0].id, 0);
	CHECK_INT(t.nodes[0].cpus.n, 8);
	CHECK_INT(t.nodes[0].mem_kb, 8000);
	CHECK_INT(topology_cpu(&t, 7)->node, 0);
	topology_free(&t);
	return 0;
}

static int reads_cache_levels_and_sizes(void)
{
	char root[64];
	struct topology t;

	CHECK_INT(make_two_nodes(root, 1), 0);
	CHECK_INT(make_caches(root), 0);
	CHECK_INT(topology_read(&t, root), 0);
	unmake(root);
	CHECK_INT(t.ncaches, 4);
	CHECK_INT(topology_last_level(&t), 3);
	CHECK_STR(t.caches[1].type, "Instruction");
	CHECK_INT(t.caches[0].size, 32768);
	CHECK_INT(t.caches[3].size, 32ULL << 20);
	CHECK_STR(t.caches[3].shared, "0-7");
	topology_free(&t);
	return 0;
}

static int no_cpu_is_enoent(void)
{
	struct topology t;

	CHECK_INT(topology_read(&t, "/nonexistent-hb-root"), -ENOENT);
	return 0;
}

static int cpulist_parses_and_formats_ranges(void)
{
	struct cpulist l = { 0 };
	char text[64];

	CHECK_INT(cpulist_parse("0-3,8, 10-11", &l, NULL, 0), 0);
	CHECK_INT(l.n, 7);
	CHECK_INT(l.cpus[4], 8);
	cpulist_format(&l, text, sizeof(text));
	CHECK_STR(text, "0-3,8,10-11");
	cpulist_free(&l);
	return 0;
}

static int cpulist_rejects_what_is_not_a_list(void)
{
	struct cpulist l = { 0 };
	char err[128];

	CHECK_INT(cpulist_parse("3-1", &l, err, sizeof(err)), -EINVAL);
	CHECK_INT(cpulist_parse("0,,1", &l, err, sizeof(err)), -EINVAL);
	CHECK_INT(cpulist_parse("x", &l, err, sizeof(err)), -EINVAL);
	CHECK_CONTAINS(err, "\"x\" is not a CPU list");
	cpulist_free(&l);
	return 0;
}

/* cpuspec_assign() of value for n workers on the two-node host. */
static int assign(const char *value, unsigned n, int *cpus, char *err,
		  const char *allowed_text)
{
	struct cpulist allowed = { 0 };
	char root[64];
	struct topology t;
	int rc;

	if (make_two_nodes(root, 1) || topology_read(&t, root))
		return -100;
	unmake(root);
	cpulist_parse(allowed_text, &allowed, NULL, 0);
	rc = cpuspec_assign(value, &t, &allowed, n, cpus, err, 128);
	cpulist_free(&allowed);
	topology_free(&t);
	return rc;
}

static int spread_takes_cores_round_robin_over_nodes_then_siblings(void)
{
	static const int want[] = { 0, 2, 1, 3, 4, 6, 5, 7 };
	int cpus[8];
	char err[128];

	CHECK_INT(assign("spread", 8, cpus, err, "0-7"), 0);
	for (int i = 0; i < 8; i++)
		CHECK_INT(cpus[i], want[i]);
	return 0;
}

static int compact_fills_a_core_then_the_next(void)
{
	static const int want[] = { 0, 4, 1, 5, 2, 6, 3, 7 };
	int cpus[8];
	char err[128];

	CHECK_INT(assign("compact", 8, cpus, err, "0-7"), 0);
	for (int i = 0; i < 8; i++)
		CHECK_INT(cpus[i], want[i]);
	return 0;
}

static int policy_keeps_to_allowed_cpus(void)
{
	int cpus[3];
	char err[128];

	CHECK_INT(assign("spread", 3, cpus, err, "4-7"), 0);
	CHECK_INT(cpus[0], 4);
	CHECK_INT(cpus[1], 6);
	CHECK_INT(cpus[2], 5);
	return 0;
}

static int numa_node_gives_its_cpus(void)
{
	int cpus[4];
	char err[128];

	CHECK_INT(assign("numa:1", 4, cpus, err, "0-7"), 0);
	CHECK_INT(cpus[0], 2);
	CHECK_INT(cpus[1], 3);
	CHECK_INT(cpus[2], 6);
	CHECK_INT(cpus[3], 7);
	CHECK_INT(assign("numa:2", 1, cpus, err, "0-7"), -EINVAL);
	CHECK_STR(err, "node 2 does not exist here (nodes with CPUs: 0, 1)");
	return 0;
}

static int short_list_wraps_around_the_workers(void)
{
	int cpus[3];
	char err[128];

	CHECK_INT(assign("0,5", 3, cpus, err, "0-7"), 0);
	CHECK_INT(cpus[0], 0);
	CHECK_INT(cpus[1], 5);
	CHECK_INT(cpus[2], 0);
	return 0;
}

static int cpu_not_on_the_host_is_bad_input(void)
{
	int cpus[1];
	char err[128];

	CHECK_INT(assign("0,9", 1, cpus, err, "0-7"), -EINVAL);
	CHECK_STR(err, "CPU 9 does not exist here (CPUs 0-7)");
	CHECK_INT(assign("fast", 1, cpus, err, "0-7"), -EINVAL);
	CHECK_CONTAINS(err, "numa:N, spread or compact");
	return 0;
}

static int cpu_not_allowed_skips(void)
{
	int cpus[2];
	char err[128];

	CHECK_INT(assign("1-2", 2, cpus, err, "0-1,4-5"), 1);
	CHECK_STR(err, "CPU 2 is not allowed here (allowed: 0-1,4-5)");
	return 0;
}

/* clang-format off */
/* Workers on CPUs of two nodes get a note naming both; on one, none. */
static int workers_on_two_nodes_get_a_note(void)
{
	char root[64];
	struct topology t;
	int one_node[] = { 0, 4 }, two_nodes[] = { 1, 6 };
	struct result r = { .cpus = one_node, .ncpus = 2 };

	CHECK_INT(make_two_nodes(root, 1), 0);
	CHECK_INT(topology_read(&t, root), 0);
	unmake(root);
	CHECK_INT(pin_note_nodes(&t, &r), 0);
	CHECK_INT(r.warnings.n, 0);
	r.cpus = two_nodes;
	CHECK_INT(pin_note_nodes(&t, &r), 0);
	CHECK_INT(r.warnings.n, 1);
	CHECK_STR(r.warnings.items[0], "workers span NUMA nodes 0-1");
	strlist_free(&r.warnings);
	topology_free(&t);
	return 0;
}

/* cpus of the two-node host as placement_text() writes them. */
static int placement_of(const char *cpus, char *buf, size_t len)
{
	char root[64];
	struct topology t;
	struct cpulist l = { 0 };
	int rc;

	if (make_two_nodes(root, 1) || topology_read(&t, root))
		return -1;
	unmake(root);
	rc = cpulist_parse(cpus, &l, NULL, 0);
	if (!rc)
		rc = placement_text(&t, &l, buf, len);
	cpulist_free(&l);
	topology_free(&t);
	return rc;
}

static int placement_names_cpus_node_and_socket(void)
{
	char buf[PLACEMENT_LEN];

	CHECK_INT(placement_of("0,4", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "cpus 0,4, NUMA node 0, socket 0");
	CHECK_INT(placement_of("2-3", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "cpus 2-3, NUMA node 1, socket 0");
	return 0;
}

static int placement_across_nodes_names_each_once(void)
{
	char buf[PLACEMENT_LEN];

	CHECK_INT(placement_of("6,1,5", buf, sizeof(buf)), 0);
	CHECK_STR(buf, "cpus 6,1,5, NUMA nodes 0-1, socket 0");
	return 0;
}

static const struct test tests[] = {
	{"reads_two_nodes_with_their_cpus_and_memory", reads_two_nodes_with_their_cpus_and_memory},
	{"smt_siblings_share_a_core", smt_siblings_share_a_core},
	{"missing_node_dir_is_one_node", missing_node_dir_is_one_node},
	{"reads_cache_levels_and_sizes", reads_cache_levels_and_sizes},
	{"workers_on_two_nodes_get_a_note", workers_on_two_nodes_get_a_note},
	{"no_cpu_is_enoent", no_cpu_is_enoent},
	{"cpulist_parses_and_formats_ranges", cpulist_parses_and_formats_ranges},
	{"cpulist_rejects_what_is_not_a_list", cpulist_rejects_what_is_not_a_list},
	{"spread_takes_cores_round_robin_over_nodes_then_siblings", spread_takes_cores_round_robin_over_nodes_then_siblings},
	{"compact_fills_a_core_then_the_next", compact_fills_a_core_then_the_next},
	{"policy_keeps_to_allowed_cpus", policy_keeps_to_allowed_cpus},
	{"numa_node_gives_its_cpus", numa_node_gives_its_cpus},
	{"short_list_wraps_around_the_workers", short_list_wraps_around_the_workers},
	{"cpu_not_on_the_host_is_bad_input", cpu_not_on_the_host_is_bad_input},
	{"cpu_not_allowed_skips", cpu_not_allowed_skips},
	{"placement_names_cpus_node_and_socket", placement_names_cpus_node_and_socket},
	{"placement_across_nodes_names_each_once", placement_across_nodes_names_each_once},
};
/* clang-format on */

TEST_MAIN(tests)
