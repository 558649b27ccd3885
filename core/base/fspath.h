/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Paths hostbench writes to (or loads from), walked one component at a
 * time under the rule of the kernel's fs.protected_symlinks, whatever that
 * setting is: a symbolic link in a shared directory (sticky, or writable
 * by others, a group of others included) is followed only when it belongs to
 * the user hostbench runs as or to the directory's owner. Otherwise another
 * user could plant /tmp/report.txt -> /root/precious.conf and have root's
 * report replace it. The walk ends with the directory that holds the last
 * component open, so what is written there is written with openat() and
 * renameat() in the directory that was judged, not by a name walked again.
 */
#ifndef HB_CORE_BASE_FSPATH_H
#define HB_CORE_BASE_FSPATH_H

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Follow a symbolic link at the last component (under the same rule). */
#define FSPATH_FOLLOW 1
/*
 * Make a missing directory on the way (0700 less the umask), in the
 * directory the walk judged so far: a link is judged before anything is
 * made beyond it, so a refused walk leaves nothing behind.
 */
#define FSPATH_MKDIR 2

/* A walked path: the directory of its last component, and what is there. */
struct fspath {
	int dirfd;	 /* that directory, O_PATH; -1 when not walked */
	char *dir;	 /* its absolute path, links resolved */
	char *name;	 /* the last component in it ("." for a directory) */
	struct stat dst; /* the directory */
	struct stat st;	 /* what name is, not followed; st_mode 0: nothing */
	int via_link;	 /* the last component was reached through a link */
};

/*
 * Whether a symbolic link owned by link_uid in directory dir may be
 * followed by a process of effective user me: always outside a shared
 * directory (sticky, or writable by others), else only when the link is
 * me's or the directory owner's (the kernel's protected_symlinks rule).
 */
int fspath_link_allowed(const struct stat *dir, uid_t link_uid, uid_t me);

/*
 * Whether gid is the caller's own private group (its effective group,
 * named as its user, with no other member listed): group write by it
 * lets no one else in. Any other group is other users, however few.
 */
int fspath_private_group(gid_t gid);

/*
 * Whether users other than st's owner may write to it: o+w, or g+w by a
 * group other than the caller's private group (a lab's shared group
 * counts, as its members are other users).
 */
int fspath_others_write(const struct stat *st);

/*
 * Whether dir lets others place or replace entries in it: sticky, or
 * written by others (fspath_others_write).
 */
int fspath_shared(const struct stat *dir);

/*
 * Whether what p's walk found at its name may be written by user me: in a
 * shared directory, something already there must be me's, since another
 * user may have placed it (root's report would take its owner, root's
 * pages go where that user reads and replaces them). Returns 0, or -EPERM
 * with why ("NAME belongs to user 1001, in the shared directory /tmp
 * (give a name of your own)").
 */
int fspath_check_owner(const struct fspath *p, uid_t me, char *why, size_t len);

/*
 * Walk path (absolute, or relative to the current directory) into p,
 * following links on the way under fspath_link_allowed() and a link at
 * the last component only with FSPATH_FOLLOW. A last component that does
 * not exist is no error (p->st.st_mode is 0). Returns 0, or a negative
 * errno with the reason in why ("not following r.txt, a symbolic link
 * of user 1001 in the shared directory /tmp"; "a symbolic link to
 * nothing", -ENOLINK; else strerror's words). p is freed with fspath_free()
 * either way.
 */
int fspath_walk(struct fspath *p, const char *path, int flags, char *why,
		size_t len);

/*
 * Create a new file beside p's name ("NAME.tmp-XXXXXX", O_EXCL, never
 * through a link) with mode (less the umask), for renameat() over the
 * name. Returns the descriptor with *tmp set to the new name (the
 * caller's to free), or a negative errno.
 */
int fspath_temporary(const struct fspath *p, mode_t mode, char **tmp);

/* "DIR/NAME" of p, or of another name in p's directory; NULL if no memory. */
char *fspath_join(const struct fspath *p, const char *name);

void fspath_free(struct fspath *p);

#endif
