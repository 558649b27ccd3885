/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The mem plugin's last-level cache lookup over fake sysfs trees: the
 * highest data or unified level wins, and a tree that describes no cache
 * (a virtual machine's) falls back to CPUID or sysconf, never to nothing
 * on a host whose CPU or C library knows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "llc.h"

/* A fresh directory; its path in dir (PATH_MAX). */
static int fake_root(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/hb-llc-XXXXXX");
	return mkdtemp(dir) ? 0 : -1;
}

/* dir/indexN/{level,type,size}, as the kernel lays them out. */
static int fake_cache(const char *dir, int n, const char *level,
		      const char *type, const char *size)
{
	const char *names[] = { "level", "type", "size" };
	const char *values[] = { level, type, size };
	char path[512];

	snprintf(path, sizeof(path), "%s/index%d", dir, n);
	if (mkdir(path, 0700))
		return -1;
	for (int i = 0; i < 3; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/index%d/%s", dir, n, names[i]);
		f = fopen(path, "w");
		if (!f)
			return -1;
		fprintf(f, "%s\n", values[i]);
		fclose(f);
	}
	return 0;
}

/* Remove the tree fake_root and fake_cache made. */
static void fake_remove(const char *dir)
{
	char cmd[600];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "could not remove %s\n", dir);
}

static int sysfs_highest_level_wins(void)
{
	char dir[64];
	const char *source = NULL;
	uint64_t got;

	CHECK(fake_root(dir, sizeof(dir)) == 0);
	CHECK(fake_cache(dir, 0, "1", "Data", "48K") == 0);
	CHECK(fake_cache(dir, 1, "1", "Instruction", "32K") == 0);
	CHECK(fake_cache(dir, 2, "3", "Unified", "96M") == 0);
	CHECK(fake_cache(dir, 3, "2", "Unified", "2048K") == 0);
	got = llc_bytes(dir, &source);
	fake_remove(dir);
	CHECK_INT(got, 96ull << 20);
	CHECK_STR(source, "sysfs");
	return 0;
}

static int sysfs_instruction_cache_is_no_llc(void)
{
	char dir[64];
	uint64_t got;

	CHECK(fake_root(dir, sizeof(dir)) == 0);
	CHECK(fake_cache(dir, 0, "4", "Instruction", "64M") == 0);
	CHECK(fake_cache(dir, 1, "2", "Unified", "1024K") == 0);
	got = llc_sysfs(dir);
	fake_remove(dir);
	CHECK_INT(got, 1ull << 20);
	return 0;
}

/* A VM's sysfs: the directory is there, the caches are not. */
static int empty_sysfs_falls_back_to_the_cpu(void)
{
	char dir[64];
	const char *source = NULL;
	uint64_t got, cpu = llc_cpuid(), libc = llc_sysconf();

	if (!cpu && !libc) {
		fprintf(stderr, "neither CPUID nor sysconf knows the cache\n");
		exit(77);
	}
	CHECK(fake_root(dir, sizeof(dir)) == 0);
	got = llc_bytes(dir, &source);
	fake_remove(dir);
	CHECK_INT(got, cpu ? cpu : libc);
	CHECK_STR(source, cpu ? "cpuid" : "sysconf");
	CHECK(got >= (64u << 10));
	return 0;
}

/* CPUID agrees with the host's own sysfs where both describe the cache. */
static int cpuid_agrees_with_sysfs(void)
{
	uint64_t sys = llc_sysfs(LLC_SYSFS_DIR), cpu = llc_cpuid();

	if (!sys || !cpu) {
		fprintf(stderr, "sysfs or CPUID describes no cache here\n");
		exit(77);
	}
	CHECK_INT(cpu, sys);
	return 0;
}

static const struct test tests[] = {
	{ "sysfs_highest_level_wins", sysfs_highest_level_wins },
	{ "sysfs_instruction_cache_is_no_llc",
	  sysfs_instruction_cache_is_no_llc },
	{ "empty_sysfs_falls_back_to_the_cpu",
	  empty_sysfs_falls_back_to_the_cpu },
	{ "cpuid_agrees_with_sysfs", cpuid_agrees_with_sysfs },
};

TEST_MAIN(tests)
