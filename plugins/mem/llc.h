/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The size of the host's last-level cache, from wherever the host tells
 * it: sysfs first, then the CPU itself (CPUID leaf 4, or 0x8000001D on
 * AMD), then the C library (sysconf), since a virtual machine's sysfs may
 * describe no cache at all.
 */
#ifndef HB_MEM_LLC_H
#define HB_MEM_LLC_H

#include <stdint.h>

/* Where the kernel describes CPU 0's caches (index0, index1, ...). */
#define LLC_SYSFS_DIR "/sys/devices/system/cpu/cpu0/cache"

/*
 * Bytes of the last-level data or unified cache (the one of the highest
 * level) described under cache_dir, a directory laid out as
 * LLC_SYSFS_DIR; 0 when it describes none.
 */
uint64_t llc_sysfs(const char *cache_dir);

/* Bytes of the last-level cache as CPUID describes it; 0 off x86. */
uint64_t llc_cpuid(void);

/* Bytes of the last-level cache as sysconf(_SC_LEVEL*_CACHE_SIZE) says. */
uint64_t llc_sysconf(void);

/*
 * The last-level cache in bytes from the first source that knows it
 * (llc_sysfs(cache_dir), llc_cpuid(), llc_sysconf()), and in *source that
 * source's name ("sysfs", "cpuid", "sysconf"); 0 and "unknown" when none.
 */
uint64_t llc_bytes(const char *cache_dir, const char **source);

#endif
