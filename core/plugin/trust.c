/* SPDX-License-Identifier: Apache-2.0 */
/* Plugin files and their directories: who may have changed them. */
#include "plugin/trust.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "base/fspath.h"

/* Whether uid is root or the user hostbench runs as. */
static int trusted_owner(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/*
 * Whether st (a "file" or "directory" at path) may be changed by someone
 * else. below is the entry under a directory on the way (NULL for the
 * file itself): a sticky directory writable by others passes when that
 * entry belongs to root or this user, since nobody else may rename it.
 */
static int judge(const struct stat *st, const char *what, const char *path,
		 const struct stat *below, char *why, size_t len)
{
	const char *who = NULL;

	if (!trusted_owner(st->st_uid))
		return hb_errorf(why, len, -EACCES,
				 "%s %s belongs to user %u, neither you nor "
				 "root (fix: chown root %s)",
				 what, path, (unsigned)st->st_uid, path);
	if (st->st_mode & S_IWOTH)
		who = "others";
	else if (st->st_mode & S_IWGRP)
		who = "group";
	if (!who)
		return 0;
	if (below && (st->st_mode & S_ISVTX) && trusted_owner(below->st_uid))
		return 0;
	return hb_errorf(why, len, -EACCES,
			 "%s %s is writable by %s (mode %04o; fix: chmod "
			 "go-w %s)",
			 what, path, who, (unsigned)(st->st_mode & 07777),
			 path);
}

/*
 * Every directory of the absolute path real, from its parent up to /;
 * below is what real itself is.
 */
static int judge_parents(char *real, const struct stat *below, char *why,
			 size_t len)
{
	struct stat child = *below, st;
	char *slash;

	while ((slash = strrchr(real, '/')) != NULL) {
		int rc;

		if (slash == real)
			slash[1] = '\0'; /* "/" itself, last */
		else
			*slash = '\0';
		if (stat(real, &st) != 0)
			return hb_errorf(why, len, -errno, "directory %s: %s",
					 real, strerror(errno));
		rc = judge(&st, "directory", real, &child, why, len);
		if (rc || strcmp(real, "/") == 0)
			return rc;
		child = st;
	}
	return 0;
}

/*
 * Open path read-only, its links followed only under the protected_symlinks
 * rule: in a sticky plugin directory another user's link is refused
 * whatever it points to. The descriptor, or a negative errno with why.
 */
static int open_walked(const char *path, char *why, size_t len)
{
	struct fspath at;
	char reason[256];
	int fd = fspath_walk(&at, path, FSPATH_FOLLOW, reason, sizeof(reason));

	if (!fd && (fd = openat(at.dirfd, at.name,
				O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK |
					O_NOFOLLOW)) < 0) {
		fd = -errno;
		hb_error_fill(reason, sizeof(reason), "%s", strerror(errno));
	}
	if (fd < 0)
		hb_error_fill(why, len, "cannot be opened: %s", reason);
	fspath_free(&at);
	return fd;
}

int trust_open(const char *path, int *fd, char *why, size_t len)
{
	char link[64], real[PATH_MAX];
	struct stat st;
	ssize_t n;
	int rc;

	*fd = open_walked(path, why, len);
	if (*fd < 0)
		return *fd;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", *fd);
	n = readlink(link, real, sizeof(real) - 1);
	if (fstat(*fd, &st) != 0 || n <= 0 || real[0] != '/') {
		rc = hb_errorf(why, len, -EACCES,
			       "cannot tell where it is (no /proc?)");
		goto fail;
	}
	real[n] = '\0';
	if (!S_ISREG(st.st_mode)) {
		rc = hb_errorf(why, len, -EACCES, "is not a regular file");
		goto fail;
	}
	rc = judge(&st, "file", real, NULL, why, len);
	if (!rc)
		rc = judge_parents(real, &st, why, len);
	if (!rc)
		return 0;
fail:
	close(*fd);
	*fd = -1;
	return rc;
}

int trust_dir(const char *dir, char *why, size_t len)
{
	char real[PATH_MAX];
	struct stat st;
	int rc;

	if (!realpath(dir, real) || stat(real, &st) != 0)
		return 0;
	/* a sticky directory: each file is judged with its owner, as /tmp */
	rc = judge(&st, "directory", real, (st.st_mode & S_ISVTX) ? &st : NULL,
		   why, len);
	if (!rc)
		rc = judge_parents(real, &st, why, len);
	return rc;
}
