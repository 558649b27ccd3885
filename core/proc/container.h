/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A helper's container: a control group of its own, made by the core
 * under the core's own group in every hierarchy the host lets it write
 * (cgroup v2; the v1 pids, memory and freezer hierarchies). Everything
 * the helper starts is born inside it and cannot leave it (setsid and a
 * dead guardian change nothing), so the core kills it all at the end
 * whatever the guardian did. The group also carries the helper's memory
 * and process bounds; descriptors and file sizes are bounded by rlimits,
 * and where no group can be made the memory and process bounds fall back
 * to rlimits too (docs/reliability.md says what then holds).
 */
#ifndef HB_CORE_PROC_CONTAINER_H
#define HB_CORE_PROC_CONTAINER_H

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

/* Default bounds of processes and of descriptors (container_default). */
#define CONTAINER_PROCESSES  1024
#define CONTAINER_OPEN_FILES 16384

/* What a helper may use; 0 in a field: no bound on it. */
struct container_bounds {
	uint64_t memory;     /* bytes of memory of all its processes */
	uint64_t processes;  /* processes and threads, all together */
	uint64_t open_files; /* descriptors of each process */
	uint64_t file_size;  /* bytes of any one file it writes */
	uint64_t temp_space; /* bytes of container_temp_free() it may take */
};

/* The bounds a helper reached, as container_hits() found them. */
enum container_hit {
	CONTAINER_HIT_MEMORY = 1,     /* its memory group killed for memory */
	CONTAINER_HIT_PROCESSES = 2,  /* a fork or thread met its bound */
	CONTAINER_HIT_TEMP_SPACE = 4, /* it took its temp_space: killed */
	CONTAINER_HIT_SHARED = 8,     /* no group bounds its memory, and it
				       * took more shared memory than its
				       * memory bound: killed */
};

/* One helper's groups; a path is "" where that hierarchy is not used. */
struct container {
	char v2[PATH_MAX];
	char pids[PATH_MAX];
	char memory[PATH_MAX];
	char freezer[PATH_MAX];
	int memory_grouped; /* a group's limit bounds its memory, shared
			     * memory included (else only RLIMIT_DATA) */
};

/*
 * What the host can still give, for default bounds: the least of the
 * memory available (MemAvailable) and of every enclosing group's memory
 * limit less its use, and the least of every enclosing group's process
 * limit less its use. UINT64_MAX where nothing limits it.
 */
void container_room(uint64_t *memory, uint64_t *processes);

/*
 * Fill the fields of b that are 0 with the default bounds of one of share
 * helpers running at once, each with up to threads threads: three
 * quarters of container_room() (the rest is the core's and the host's)
 * split among them, at most CONTAINER_PROCESSES processes unless threads
 * need more, CONTAINER_OPEN_FILES descriptors, and files up to three
 * quarters of the space free in $TMPDIR (else /tmp), each and all
 * together (temp_space: the free space is one, so it is not split).
 */
void container_default(struct container_bounds *b, unsigned share,
		       unsigned threads);

/*
 * Bytes free to this user where temporary files go ($TMPDIR, else /tmp),
 * or UINT64_MAX when unknown. A helper whose bound is temp_space is
 * killed when the free space falls by more than that while it runs
 * (helper.c watches it: no file system bounds the sum of a process's
 * files without quotas).
 */
uint64_t container_temp_free(void);

/*
 * Bytes of shared memory on the host (Shmem in /proc/meminfo: tmpfs and
 * memfd files, shared anonymous mappings, System V segments), or
 * UINT64_MAX when unknown. RLIMIT_DATA does not count it, so a helper
 * whose memory no group bounds is killed when this grows by more than
 * its memory bound while it runs (proc/watch.h).
 */
uint64_t container_shared(void);

/*
 * Put process pid (a helper just started, which has not yet forked) in a
 * new container bounded by b: groups where the host allows, with their
 * limits set, and rlimits for the rest. A host without usable groups
 * still gets the rlimits: never an error, as the helper must run anyway.
 */
void container_open(struct container *ct, pid_t pid,
		    const struct container_bounds *b);

/* The container_hit bits of what ct's processes ran into so far. */
int container_hits(const struct container *ct);

/*
 * Kill every process in ct (cgroup.kill, or each listed process while
 * the group is frozen) until none is left, then remove the groups.
 */
void container_close(struct container *ct);

#endif
