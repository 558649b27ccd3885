/* SPDX-License-Identifier: Apache-2.0 */
/* A helper's processes in control groups of their own, bounded and killed. */
#define _GNU_SOURCE /* prlimit */
#include "proc/container.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "host/sysfs.h"

/*
 * An AddressSanitizer build maps terabytes of shadow memory, which
 * RLIMIT_DATA counts: its helpers get no data limit (a memory group still
 * bounds them).
 */
#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED_BUILD 1
#else
#define SANITIZED_BUILD 0
#endif
/* Seconds the core keeps killing a container that is not yet empty. */
#define CONTAINER_KILL_FOR 2.0

/* The decimal number at s with *end after it, or -1 when there is none. */
static long long number(const char *s, const char **end)
{
	char *stop;
	long long v;

	while (*s == ' ' || *s == '\t')
		s++;
	errno = 0;
	v = *s >= '0' && *s <= '9' ? strtoll(s, &stop, 10) : -1;
	if (v < 0 || errno) {
		*end = s;
		return -1;
	}
	*end = stop;
	return v;
}

/* Whether the comma-separated list has word. */
static int has_word(const char *list, const char *word, size_t len)
{
	size_t wl = strlen(word);

	for (const char *at = list; at < list + len;) {
		const char *comma = memchr(at, ',', (size_t)(list + len - at));
		size_t n = comma ? (size_t)(comma - at)
				 : (size_t)(list + len - at);

		if (n == wl && memcmp(at, word, wl) == 0)
			return 1;
		at += n + 1;
	}
	return 0;
}

/*
 * This process's group in the hierarchy of controller (NULL: cgroup v2),
 * as a path in /proc/self/cgroup; 0, or -1 when it has none.
 */
static int own_group(const char *controller, char *path, size_t len)
{
	char *text = sysfs_read_text("/proc/self/cgroup"), *line, *save = NULL;
	int rc = -1;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && rc;
	     line = strtok_r(NULL, "\n", &save)) {
		char *ctrls = strchr(line, ':'), *grp;

		grp = ctrls ? strchr(ctrls + 1, ':') : NULL;
		if (!grp)
			continue;
		ctrls++;
		if (controller
			    ? has_word(ctrls, controller, (size_t)(grp - ctrls))
			    : strncmp(line, "0::", 3) == 0)
			rc = snprintf(path, len, "%s", grp + 1) < (int)len ? 0
									   : -1;
	}
	free(text);
	return rc;
}

/*
 * The mount of the hierarchy of controller (NULL: cgroup v2) from one
 * line of /proc/self/mountinfo: 0 with mount and its root filled.
 */
static int mount_line(char *line, const char *controller, char *mount,
		      char *root, size_t len)
{
	char *f[5] = { 0 }, *save = NULL, *dash = strstr(line, " - "), *type,
	     *opts;

	if (!dash)
		return -1;
	*dash = '\0';
	type = strtok_r(dash + 3, " ", &save);
	strtok_r(NULL, " ", &save); /* the source */
	opts = strtok_r(NULL, " ", &save);
	if (!type || !opts)
		return -1;
	if (controller ? strcmp(type, "cgroup") != 0 ||
				 !has_word(opts, controller, strlen(opts))
		       : strcmp(type, "cgroup2") != 0)
		return -1;
	save = NULL;
	f[0] = strtok_r(line, " ", &save);
	for (int i = 1; i < 5 && f[i - 1]; i++)
		f[i] = strtok_r(NULL, " ", &save);
	if (!f[0] || !f[4] || snprintf(root, len, "%s", f[3]) >= (int)len ||
	    snprintf(mount, len, "%s", f[4]) >= (int)len)
		return -1;
	return 0;
}

/*
 * The directory of this process's own group in the hierarchy of
 * controller (NULL: cgroup v2) into dir, and its mount point into mount;
 * 0, or -1 when the host has no such hierarchy mounted here.
 */
static int group_dir(const char *controller, char *dir, char *mount, size_t len)
{
	char *text = sysfs_read_text("/proc/self/mountinfo"), *line;
	char *save = NULL, root[PATH_MAX], own[PATH_MAX];
	int rc = -1;

	if (!text || own_group(controller, own, sizeof(own))) {
		free(text);
		return -1;
	}
	for (line = strtok_r(text, "\n", &save); line && rc;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t rl;

		if (mount_line(line, controller, mount, root, len))
			continue;
		/* a mount of a subtree (a container's) shows its own root */
		rl = strcmp(root, "/") == 0 ? 0 : strlen(root);
		if (strncmp(own, root, rl) != 0)
			continue;
		rc = snprintf(dir, len, "%s%s", mount, own + rl) < (int)len
			     ? 0
			     : -1;
	}
	free(text);
	return rc;
}

/* Write text to the file dir/name; 0 or -errno. */
static int put(const char *dir, const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	ssize_t n;
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, text, strlen(text));
	if (n != (ssize_t)strlen(text))
		rc = n < 0 ? -errno : -EIO;
	close(fd);
	return rc;
}

/* The number in the file dir/name; UINT64_MAX for "max" or none. */
static uint64_t get(const char *dir, const char *name)
{
	char path[PATH_MAX + 64], line[64];
	const char *end;
	long long v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (sysfs_read_line(path, line, sizeof(line)))
		return UINT64_MAX;
	v = number(line, &end);
	return v < 0 ? UINT64_MAX : (uint64_t)v;
}

/* The value of "key N" among the lines of the file dir/name, or 0. */
static uint64_t get_keyed(const char *dir, const char *name, const char *key)
{
	char path[PATH_MAX + 64], *text, *at;
	uint64_t v = 0;
	const char *end;
	size_t kl = strlen(key);

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	text = sysfs_read_text(path);
	for (at = text; at && *at;
	     at = strchr(at, '\n') ? strchr(at, '\n') + 1 : NULL)
		if (strncmp(at, key, kl) == 0 && at[kl] == ' ') {
			long long n = number(at + kl, &end);

			v = n > 0 ? (uint64_t)n : 0;
			break;
		}
	free(text);
	return v;
}

/*
 * The least room, limit less use, of the group at dir and every group
 * above it up to mount; UINT64_MAX where none is limited.
 */
static uint64_t room_up(const char *dir, const char *mount, const char *limit,
			const char *use)
{
	char at[PATH_MAX];
	uint64_t least = UINT64_MAX;
	size_t ml = strlen(mount);

	snprintf(at, sizeof(at), "%s", dir);
	for (;;) {
		uint64_t lim = get(at, limit), used = get(at, use);
		char *slash = strrchr(at, '/');

		if (lim != UINT64_MAX && used != UINT64_MAX)
			least = lim > used ? (lim - used < least ? lim - used
								 : least)
					   : 0;
		if (strlen(at) <= ml || !slash)
			return least;
		*slash = '\0';
	}
}

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

/* The bytes of /proc/meminfo's line key ("MemAvailable:"), or UINT64_MAX. */
static uint64_t meminfo_bytes(const char *key)
{
	uint64_t kb = get_keyed("/proc", "meminfo", key);

	return kb ? kb * 1024 : UINT64_MAX;
}

uint64_t container_shared(void)
{
	return meminfo_bytes("Shmem:");
}

void container_room(uint64_t *memory, uint64_t *processes)
{
	char dir[PATH_MAX], mount[PATH_MAX];

	*memory = meminfo_bytes("MemAvailable:");
	*processes = UINT64_MAX;
	if (group_dir(NULL, dir, mount, sizeof(dir)) == 0) {
		*memory = min_u64(*memory, room_up(dir, mount, "memory.max",
						   "memory.current"));
		*processes = room_up(dir, mount, "pids.max", "pids.current");
	}
	if (group_dir("memory", dir, mount, sizeof(dir)) == 0)
		*memory = min_u64(*memory,
				  room_up(dir, mount, "memory.limit_in_bytes",
					  "memory.usage_in_bytes"));
	if (group_dir("pids", dir, mount, sizeof(dir)) == 0)
		*processes = min_u64(*processes, room_up(dir, mount, "pids.max",
							 "pids.current"));
}

/* Three quarters of room, split share ways (at least 1). */
static uint64_t quarter_share(uint64_t room, unsigned share)
{
	uint64_t v = room / 4 * 3 / (share ? share : 1);

	return v ? v : 1;
}

uint64_t container_temp_free(void)
{
	const char *dir = getenv("TMPDIR");
	struct statvfs fs;

	if (!dir || !*dir || statvfs(dir, &fs))
		dir = "/tmp";
	if (statvfs(dir, &fs))
		return UINT64_MAX;
	return (uint64_t)fs.f_bavail * fs.f_frsize;
}

void container_default(struct container_bounds *b, unsigned share,
		       unsigned threads)
{
	uint64_t memory, processes, want = 2 * (uint64_t)threads + 64;
	uint64_t temp = container_temp_free();

	container_room(&memory, &processes);
	/* whole MiB, as a user would write it */
	if (!b->memory && memory != UINT64_MAX)
		b->memory = quarter_share(memory, share) >> 20 << 20;
	if (!b->memory && memory != UINT64_MAX)
		b->memory = 1 << 20;
	if (!b->processes)
		b->processes = min_u64(
			want > CONTAINER_PROCESSES ? want : CONTAINER_PROCESSES,
			processes == UINT64_MAX
				? UINT64_MAX
				: quarter_share(processes, share));
	if (!b->open_files)
		b->open_files = CONTAINER_OPEN_FILES;
	if (!b->file_size && temp != UINT64_MAX)
		b->file_size = quarter_share(temp, share);
	if (!b->temp_space && temp != UINT64_MAX)
		b->temp_space = quarter_share(temp, 1);
}

/*
 * Remove from parent the groups of a hostbench that was killed before it
 * could (hostbench-PID-..., PID no longer running). rmdir refuses a group
 * that still holds a process, so what a dead run left running stays
 * listed, and a live run's groups are never touched.
 */
static void sweep_stale(const char *parent)
{
	char dir[PATH_MAX + 300];
	struct dirent *e;
	const char *end;
	long long pid;
	DIR *d = opendir(parent);

	while (d && (e = readdir(d))) {
		if (strncmp(e->d_name, "hostbench-", 10) != 0)
			continue;
		pid = number(e->d_name + 10, &end);
		if (pid <= 0 || *end != '-' || kill((pid_t)pid, 0) == 0 ||
		    errno != ESRCH)
			continue;
		snprintf(dir, sizeof(dir), "%s/%s", parent, e->d_name);
		rmdir(dir);
	}
	if (d)
		closedir(d);
}

/* A new group named name below this process's own (controller as in
 * group_dir), into path; "" when it cannot be made here. */
static void group_make(const char *controller, const char *name, char *path,
		       size_t len)
{
	char mount[PATH_MAX];

	path[0] = '\0';
	if (group_dir(controller, path, mount, len))
		goto none;
	if (!controller) { /* where v2 has these controllers to hand down */
		put(path, "cgroup.subtree_control", "+pids");
		put(path, "cgroup.subtree_control", "+memory");
	}
	if (strlen(path) + strlen(name) + 2 > len)
		goto none;
	sweep_stale(path);
	strcat(path, "/");
	strcat(path, name);
	if (mkdir(path, 0700) == 0 || errno == EEXIST)
		return;
none:
	path[0] = '\0';
}

/* Each of ct's group directories, in turn; NULL after the last. */
static char *group_at(struct container *ct, int i)
{
	char *dirs[] = { ct->v2, ct->pids, ct->memory, ct->freezer };

	return i < 4 ? dirs[i] : NULL;
}

/* Set bytes as the memory limit where a group has one; whether one did. */
static int bound_memory(const struct container *ct, uint64_t bytes)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)bytes);
	if (ct->v2[0] && put(ct->v2, "memory.max", text) == 0) {
		put(ct->v2, "memory.swap.max", "0");
		return 1;
	}
	if (ct->memory[0] &&
	    put(ct->memory, "memory.limit_in_bytes", text) == 0) {
		put(ct->memory, "memory.memsw.limit_in_bytes", text);
		return 1;
	}
	return 0;
}

/* Set n as the process limit where a group has one; whether one did. */
static int bound_processes(const struct container *ct, uint64_t n)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)n);
	return (ct->v2[0] && put(ct->v2, "pids.max", text) == 0) ||
	       (ct->pids[0] && put(ct->pids, "pids.max", text) == 0);
}

/* Processes and threads of the real user now (RLIMIT_NPROC counts them). */
static uint64_t user_tasks(void)
{
	char dir[300];
	uint64_t n = 0;
	struct dirent *e;
	struct stat st;
	DIR *d = opendir("/proc");

	while (d && (e = readdir(d)))
		if (e->d_name[0] >= '1' && e->d_name[0] <= '9') {
			snprintf(dir, sizeof(dir), "/proc/%s", e->d_name);
			if (stat(dir, &st) == 0 && st.st_uid == getuid())
				n += get_keyed(dir, "status", "Threads:");
		}
	if (d)
		closedir(d);
	return n;
}

/* Lower pid's limit res to at most v, soft and hard. */
static void lower(pid_t pid, int res, uint64_t v)
{
	struct rlimit rl;

	if (!v || prlimit(pid, res, NULL, &rl))
		return;
	if (rl.rlim_max == RLIM_INFINITY || rl.rlim_max > v)
		rl.rlim_max = (rlim_t)v;
	if (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > rl.rlim_max)
		rl.rlim_cur = rl.rlim_max;
	prlimit(pid, res, &rl, NULL);
}

void container_open(struct container *ct, pid_t pid,
		    const struct container_bounds *b)
{
	const char *ctrl[] = { NULL, "pids", "memory", "freezer" };
	char name[64], text[32];
	int memory = 0, processes = 0;

	snprintf(name, sizeof(name), "hostbench-%ld-%ld", (long)getpid(),
		 (long)pid);
	snprintf(text, sizeof(text), "%ld", (long)pid);
	for (int i = 0; i < 4; i++) {
		char *dir = group_at(ct, i);
		char kill_file[PATH_MAX + 16];

		/* each group costs a migration: no freezer where v2 can kill */
		snprintf(kill_file, sizeof(kill_file), "%s/cgroup.kill",
			 ct->v2);
		dir[0] = '\0';
		if (dir == ct->freezer && ct->v2[0] &&
		    access(kill_file, W_OK) == 0)
			continue;
		group_make(ctrl[i], name, dir, PATH_MAX);
		if (dir[0] && put(dir, "cgroup.procs", text)) {
			rmdir(dir);
			dir[0] = '\0';
		}
	}
	if (b->memory)
		memory = bound_memory(ct, b->memory);
	ct->memory_grouped = memory;
	if (b->processes)
		processes = bound_processes(ct, b->processes);
	lower(pid, RLIMIT_NOFILE, b->open_files);
	lower(pid, RLIMIT_FSIZE, b->file_size);
	if (!memory && !SANITIZED_BUILD)
		lower(pid, RLIMIT_DATA, b->memory);
	/* per user, and root passes it: only what the user has plus b's */
	if (!processes && b->processes && getuid() != 0)
		lower(pid, RLIMIT_NPROC, user_tasks() + b->processes);
}

int container_hits(const struct container *ct)
{
	int hits = 0;

	if (get_keyed(ct->v2, "pids.events", "max") ||
	    get_keyed(ct->pids, "pids.events", "max"))
		hits |= CONTAINER_HIT_PROCESSES;
	if (get_keyed(ct->v2, "memory.events", "oom_kill") ||
	    get_keyed(ct->memory, "memory.oom_control", "oom_kill"))
		hits |= CONTAINER_HIT_MEMORY;
	return hits;
}

/* The directory that lists ct's processes, or NULL without groups. */
static const char *group_listing(const struct container *ct)
{
	const char *dirs[] = { ct->freezer, ct->pids, ct->memory, ct->v2 };

	for (int i = 0; i < 4; i++)
		if (dirs[i][0])
			return dirs[i];
	return NULL;
}

/* SIGKILL every process listed in dir/cgroup.procs; how many there were. */
static int kill_listed(const char *dir)
{
	char path[PATH_MAX + 16], *text, *at;
	const char *end;
	long long pid;
	int n = 0;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	text = sysfs_read_text(path);
	for (at = text; at && (pid = number(at, &end)) > 0;
	     at = (char *)end + (*end != '\0')) {
		kill((pid_t)pid, SIGKILL);
		n++;
	}
	free(text);
	return n;
}

/*
 * One pass of killing ct's processes: cgroup.kill, or each listed one
 * while the group is frozen so none can fork meanwhile; whether any was
 * left to kill.
 */
static int kill_pass(const struct container *ct, const char *listing)
{
	char state[16];
	char path[PATH_MAX + 16];
	int n;

	if (ct->v2[0] && put(ct->v2, "cgroup.kill", "1") == 0)
		return kill_listed(ct->v2) > 0;
	if (ct->freezer[0] &&
	    put(ct->freezer, "freezer.state", "FROZEN") == 0) {
		double until = hb_now() + 0.1;

		snprintf(path, sizeof(path), "%s/freezer.state", ct->freezer);
		while (sysfs_read_line(path, state, sizeof(state)) == 0 &&
		       strcmp(state, "FROZEN") != 0 && hb_now() < until)
			usleep(1000);
	}
	n = kill_listed(listing);
	if (ct->freezer[0])
		put(ct->freezer, "freezer.state", "THAWED");
	return n > 0;
}

void container_close(struct container *ct)
{
	const char *listing = group_listing(ct);
	double until = hb_now() + CONTAINER_KILL_FOR;

	while (listing && kill_pass(ct, listing) && hb_now() < until)
		usleep(1000);
	for (int i = 0; i < 4; i++) {
		char *dir = group_at(ct, i);

		/* the last ones killed may take a moment to leave */
		while (dir[0] && rmdir(dir) && errno == EBUSY &&
		       hb_now() < until)
			usleep(1000);
		dir[0] = '\0';
	}
}
