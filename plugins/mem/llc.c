/* SPDX-License-Identifier: Apache-2.0 */
/* The last-level cache's size from sysfs, CPUID or sysconf (llc.h). */
#include "llc.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

/* The first line of file dir/index/name into buf; 0 when read. */
static int llc_attr(const char *dir, const char *index, const char *name,
		    char *buf, size_t len)
{
	char path[512];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s/%s", dir, index, name);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return ok ? 0 : -1;
}

/* "32768K" (sysfs writes K, sometimes M) in bytes; 0 when unreadable. */
static uint64_t llc_text_bytes(const char *text)
{
	char *end;
	unsigned long long v = strtoull(text, &end, 10);

	if (*end == 'K')
		return (uint64_t)v << 10;
	if (*end == 'M')
		return (uint64_t)v << 20;
	return *end == '\0' ? (uint64_t)v : 0;
}

uint64_t llc_sysfs(const char *cache_dir)
{
	char level[32], type[32], size[32];
	uint64_t best = 0;
	long best_level = 0;
	struct dirent *e;
	DIR *d = opendir(cache_dir);

	if (!d)
		return 0;
	while ((e = readdir(d)) != NULL) {
		long lv;

		if (strncmp(e->d_name, "index", 5) != 0 ||
		    llc_attr(cache_dir, e->d_name, "level", level,
			     sizeof(level)) ||
		    llc_attr(cache_dir, e->d_name, "type", type,
			     sizeof(type)) ||
		    llc_attr(cache_dir, e->d_name, "size", size,
			     sizeof(size)) ||
		    strcmp(type, "Instruction") == 0)
			continue;
		lv = strtol(level, NULL, 10);
		if (lv > best_level) {
			best_level = lv;
			best = llc_text_bytes(size);
		}
	}
	closedir(d);
	return best;
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * The highest-level data or unified cache of a deterministic cache leaf
 * (4 on Intel, 0x8000001D on AMD: the same layout), one subleaf a cache.
 */
static uint64_t llc_cpuid_leaf(unsigned leaf)
{
	unsigned a, b, c, d, best_level = 0;
	uint64_t best = 0;

	if ((unsigned)__get_cpuid_max(leaf & 0x80000000u, NULL) < leaf)
		return 0;
	for (unsigned sub = 0; sub < 16; sub++) {
		unsigned type, level;

		__cpuid_count(leaf, sub, a, b, c, d);
		type = a & 0x1f; /* 0: no more caches; 2: instruction */
		level = (a >> 5) & 0x7;
		if (type == 0)
			break;
		if (type == 2 || level <= best_level)
			continue;
		best_level = level;
		/* ways x partitions x line size x sets */
		best = (uint64_t)((b >> 22) + 1) * (((b >> 12) & 0x3ff) + 1) *
		       ((b & 0xfff) + 1) * ((uint64_t)c + 1);
	}
	return best;
}

uint64_t llc_cpuid(void)
{
	uint64_t size = llc_cpuid_leaf(4);

	return size ? size : llc_cpuid_leaf(0x8000001du);
}
#else
uint64_t llc_cpuid(void)
{
	return 0;
}
#endif

uint64_t llc_sysconf(void)
{
#ifdef _SC_LEVEL1_DCACHE_SIZE
	static const int names[] = { _SC_LEVEL4_CACHE_SIZE,
				     _SC_LEVEL3_CACHE_SIZE,
				     _SC_LEVEL2_CACHE_SIZE,
				     _SC_LEVEL1_DCACHE_SIZE };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		long v = sysconf(names[i]);

		if (v > 0)
			return (uint64_t)v;
	}
#endif
	return 0;
}

uint64_t llc_bytes(const char *cache_dir, const char **source)
{
	uint64_t size = llc_sysfs(cache_dir);

	*source = "sysfs";
	if (!size) {
		size = llc_cpuid();
		*source = "cpuid";
	}
	if (!size) {
		size = llc_sysconf();
		*source = "sysconf";
	}
	if (!size)
		*source = "unknown";
	return size;
}
