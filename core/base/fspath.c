/* SPDX-License-Identifier: Apache-2.0 */
/* Paths walked a component at a time, links followed as the kernel's
 * protected_symlinks would. */
#define _GNU_SOURCE /* O_PATH */
#include "base/fspath.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include <hostbench/plugin.h>

/* Links followed in one walk before it is a loop, as the kernel's 40. */
#define FSPATH_MAX_LINKS 40
/* Names tried for a temporary file before giving up. */
#define FSPATH_TEMP_TRIES 100

/* The state of one walk: what is left of the path to go. */
struct walk {
	char *rest; /* components still to walk, '/'-separated */
	int links;  /* links followed so far */
	int follow; /* FSPATH_FOLLOW was asked */
	int mkdir;  /* FSPATH_MKDIR was asked */
	uid_t me;   /* the effective user, whose walk this is */
	char *why;  /* the caller's message buffer */
	size_t len; /* its size */
};

int fspath_link_allowed(const struct stat *dir, uid_t link_uid, uid_t me)
{
	return !fspath_shared(dir) || link_uid == me || link_uid == dir->st_uid;
}

/* Room for a passwd or group entry's strings: more is a lookup error. */
#define FSPATH_NSS_BUF 16384

int fspath_private_group(gid_t gid)
{
	char pwbuf[FSPATH_NSS_BUF], grbuf[FSPATH_NSS_BUF];
	struct passwd pw, *me = NULL;
	struct group gr, *g = NULL;

	if (gid != getegid() ||
	    getpwuid_r(geteuid(), &pw, pwbuf, sizeof(pwbuf), &me) || !me ||
	    getgrgid_r(gid, &gr, grbuf, sizeof(grbuf), &g) || !g ||
	    strcmp(g->gr_name, me->pw_name) != 0)
		return 0;
	/* a user private group lists no one, or only its user */
	for (char **m = g->gr_mem; m && *m; m++)
		if (strcmp(*m, me->pw_name) != 0)
			return 0;
	return 1;
}

int fspath_others_write(const struct stat *st)
{
	return (st->st_mode & S_IWOTH) ||
	       ((st->st_mode & S_IWGRP) && !fspath_private_group(st->st_gid));
}

int fspath_shared(const struct stat *dir)
{
	return (dir->st_mode & S_ISVTX) || fspath_others_write(dir);
}

int fspath_check_owner(const struct fspath *p, uid_t me, char *why, size_t len)
{
	if (!p->st.st_mode || !fspath_shared(&p->dst) || p->st.st_uid == me)
		return 0;
	return hb_errorf(why, len, -EPERM,
			 "%s belongs to user %u, in the shared directory %s "
			 "(give a name of your own)",
			 p->name, (unsigned)p->st.st_uid, p->dir);
}

char *fspath_join(const struct fspath *p, const char *name)
{
	char *path;
	int slash = strcmp(p->dir, "/") != 0;

	if (asprintf(&path, "%s%s%s", p->dir, slash ? "/" : "", name) < 0)
		return NULL;
	return path;
}

/* Make p's directory the one at fd (owned by p from now on), dir its path. */
static int enter(struct fspath *p, int fd, char *dir)
{
	if (fd < 0 || !dir || fstat(fd, &p->dst)) {
		int rc = fd < 0 || dir ? -errno : -ENOMEM;

		if (fd >= 0)
			close(fd);
		free(dir);
		return rc;
	}
	if (p->dirfd >= 0)
		close(p->dirfd);
	free(p->dir);
	p->dirfd = fd;
	p->dir = dir;
	return 0;
}

/* Start at / or at the current directory. */
static int start(struct fspath *p, int absolute)
{
	char *dir = absolute ? strdup("/") : getcwd(NULL, 0);

	return enter(
		p, open(absolute ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC),
		dir);
}

/* Step into the subdirectory name, or up for "..". */
static int descend(struct fspath *p, const char *name)
{
	char *dir, *slash;

	if (strcmp(name, "..") == 0) {
		dir = strdup(p->dir);
		slash = dir ? strrchr(dir, '/') : NULL;
		if (slash)
			slash[slash == dir] = '\0'; /* "/a" -> "/", "/" stays */
	} else {
		dir = fspath_join(p, name);
	}
	return enter(p,
		     openat(p->dirfd, name,
			    O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC),
		     dir);
}

/* The next component of w->rest, skipping empty ones and ".", or NULL. */
static char *next_name(struct walk *w, char **after)
{
	char *at = w->rest, *name;

	for (;;) {
		name = strsep(&at, "/");
		if (!name)
			break;
		if (*name && strcmp(name, ".") != 0)
			break;
	}
	*after = at;
	return name;
}

/* Whether s holds another component than "." or empty ones. */
static int more_names(const char *s)
{
	while (s && *s) {
		size_t n = strcspn(s, "/");

		if (n && !(n == 1 && *s == '.'))
			return 1;
		s += n + (s[n] == '/');
	}
	return 0;
}

/* Follow the link name in p's directory: its target goes before after. */
static int follow(struct fspath *p, struct walk *w, const char *name,
		  const char *after)
{
	char target[PATH_MAX], *rest;
	ssize_t n;

	if (!fspath_link_allowed(&p->dst, p->st.st_uid, w->me))
		return hb_errorf(w->why, w->len, -EACCES,
				 "not following %s, a symbolic link of user "
				 "%u in the shared directory %s",
				 name, (unsigned)p->st.st_uid, p->dir);
	if (++w->links > FSPATH_MAX_LINKS)
		return -ELOOP;
	n = readlinkat(p->dirfd, name, target, sizeof(target) - 1);
	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	target[n] = '\0';
	if (asprintf(&rest, "%s/%s", target, after ? after : "") < 0)
		return -ENOMEM;
	free(w->rest);
	w->rest = rest;
	return target[0] == '/' ? start(p, 1) : 0;
}

/*
 * One step: the next component of w. Returns 1 when the walk is over
 * (p->name set), 0 to go on, or a negative errno.
 */
static int step(struct fspath *p, struct walk *w)
{
	char *after, *name = next_name(w, &after);
	int last = !more_names(after), rc;

	if (!name) /* the path names a directory itself */
		return (p->name = strdup(".")) ? (p->st = p->dst, 1) : -ENOMEM;
	if (strcmp(name, "..") != 0 &&
	    fstatat(p->dirfd, name, &p->st, AT_SYMLINK_NOFOLLOW)) {
		if (errno != ENOENT || (!last && !w->mkdir))
			return -errno;
		memset(&p->st, 0, sizeof(p->st));
		if (last)
			return (p->name = strdup(name)) ? 1 : -ENOMEM;
		/* in the directory judged so far, never through a link */
		if (mkdirat(p->dirfd, name, 0700) && errno != EEXIST)
			return -errno;
	}
	if (strcmp(name, "..") != 0 && S_ISLNK(p->st.st_mode) &&
	    (!last || w->follow)) {
		p->via_link = last;
		/* name and after point into w->rest, which follow() replaces
		   only after its last use of them: nothing is lost */
		// NOLINTNEXTLINE(clang-analyzer-unix.Malloc)
		return follow(p, w, name, after);
	}
	if (last && strcmp(name, "..") != 0)
		return (p->name = strdup(name)) ? 1 : -ENOMEM;
	rc = descend(p, name);
	/* the rest moves to the front: after points into w->rest */
	memmove(w->rest, after ? after : "", after ? strlen(after) + 1 : 1);
	return rc;
}

int fspath_walk(struct fspath *p, const char *path, int flags, char *why,
		size_t len)
{
	struct walk w = { .rest = strdup(path),
			  .follow = flags & FSPATH_FOLLOW,
			  .mkdir = flags & FSPATH_MKDIR,
			  .me = geteuid(),
			  .why = why,
			  .len = len };
	int rc;

	memset(p, 0, sizeof(*p));
	p->dirfd = -1;
	if (why && len)
		*why = '\0';
	rc = w.rest ? start(p, path[0] == '/') : -ENOMEM;
	while (!rc)
		rc = step(p, &w);
	free(w.rest);
	if (rc == 1 && p->via_link && !p->st.st_mode)
		rc = -ENOLINK;
	if (rc < 0 && why && len && !*why)
		hb_error_fill(why, len, "%s",
			      rc == -ENOLINK ? "a symbolic link to nothing"
					     : strerror(-rc));
	return rc < 0 ? rc : 0;
}

int fspath_temporary(const struct fspath *p, mode_t mode, char **tmp)
{
	unsigned char r[6];
	char *name;
	int fd;

	for (int i = 0; i < FSPATH_TEMP_TRIES; i++) {
		if (getrandom(r, sizeof(r), 0) != (ssize_t)sizeof(r))
			return -EIO;
		if (asprintf(&name, "%s.tmp-%02x%02x%02x%02x%02x%02x", p->name,
			     r[0], r[1], r[2], r[3], r[4], r[5]) < 0)
			return -ENOMEM;
		fd = openat(p->dirfd, name,
			    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    mode);
		if (fd >= 0) {
			*tmp = name;
			return fd;
		}
		free(name);
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

void fspath_free(struct fspath *p)
{
	if (p->dirfd >= 0)
		close(p->dirfd);
	free(p->dir);
	free(p->name);
	memset(p, 0, sizeof(*p));
	p->dirfd = -1;
}
