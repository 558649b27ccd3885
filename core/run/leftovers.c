/* SPDX-License-Identifier: Apache-2.0 */
/* Removing the ".hostbench-<pid>-*" files of processes that are gone. */
#include "run/leftovers.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PREFIX "hostbench-"

/*
 * The pid in a temporary file's name ".hostbench-<pid>-...", or 0 when
 * name is not one.
 */
static pid_t name_pid(const char *name)
{
	char *end;
	long pid;

	if (name[0] != '.' || strncmp(name + 1, PREFIX, strlen(PREFIX)) != 0)
		return 0;
	name += 1 + strlen(PREFIX);
	if (*name < '1' || *name > '9')
		return 0;
	errno = 0;
	pid = strtol(name, &end, 10);
	return *end == '-' && !errno && pid > 0 && pid <= INT32_MAX ? (pid_t)pid
								    : 0;
}

/* Nonzero when no process pid runs here (EPERM: it runs, not ours). */
static int gone(pid_t pid)
{
	return kill(pid, 0) != 0 && errno == ESRCH;
}

/*
 * Remove the temporary files in dir of process pid, or (pid 0) the
 * regular files of this user of every process that is gone.
 */
static void remove_in(const char *dir, pid_t pid)
{
	DIR *d = dir && *dir ? opendir(dir) : NULL;
	struct dirent *e;
	struct stat st;

	if (!d)
		return;
	while ((e = readdir(d))) {
		pid_t owner = name_pid(e->d_name);

		if (!owner || (pid ? owner != pid : owner == getpid()))
			continue;
		if (!pid && (fstatat(dirfd(d), e->d_name, &st,
				     AT_SYMLINK_NOFOLLOW) != 0 ||
			     !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
			     !gone(owner)))
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}

/* Every place c keeps temporary files, for the files of pid (0: gone). */
static void remove_all(const struct bench_case *c, pid_t pid)
{
	remove_in(kvlist_get(&c->params, "dir"), pid);
	remove_in(kvlist_get(&c->params, "file_dir"), pid);
}

void leftovers_remove(const struct bench_case *c, pid_t pid)
{
	remove_all(c, pid);
	remove_in(getenv("TMPDIR"), pid);
	remove_in("/tmp", pid);
}

void leftovers_sweep(const struct suite *s)
{
	for (size_t i = 0; i < s->ncases; i++)
		remove_all(&s->cases[i], 0);
	remove_in(getenv("TMPDIR"), 0);
	remove_in("/tmp", 0);
}
