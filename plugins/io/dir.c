/* SPDX-License-Identifier: Apache-2.0 */
/* The directory a case writes in: checked, opened, and its free space. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "io.h"

int io_dir_check(const char *path, char *err, size_t errlen)
{
	struct stat st;

	/* stat first: realpath would blur "missing" and "not a directory" */
	if (!path[0] || stat(path, &st) != 0) {
		snprintf(err, errlen, "dir %s: %s", path,
			 strerror(path[0] ? errno : ENOENT));
		return HB_EINVAL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "dir %s: %s", path, strerror(ENOTDIR));
		return HB_EINVAL;
	}
	/* access() sees read-only mounts (EROFS) and, for non-root, modes */
	if (access(path, W_OK | X_OK) != 0) {
		snprintf(err, errlen, "dir %s: not writable: %s", path,
			 strerror(errno));
		return HB_EINVAL;
	}
	return 0;
}

int io_dir_open(const char *path, char *abs, size_t abslen, int *fd, char *err,
		size_t errlen)
{
	char real[PATH_MAX];
	int rc = io_dir_check(path, err, errlen);

	if (rc)
		return rc;
	if (!realpath(path, real) || strlen(real) >= abslen) {
		snprintf(err, errlen, "dir %s: %s", path,
			 strerror(errno ? errno : ENAMETOOLONG));
		return HB_EINVAL;
	}
	*fd = open(real, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (*fd < 0) {
		snprintf(err, errlen, "dir %s: %s", path, strerror(errno));
		return HB_EINVAL;
	}
	strcpy(abs, real);
	return 0;
}

uint64_t io_mul_sat(uint64_t a, uint64_t b)
{
	uint64_t p;

	return __builtin_mul_overflow(a, b, &p) ? UINT64_MAX : p;
}

uint64_t io_dir_free(int dirfd)
{
	struct statvfs vfs;

	if (fstatvfs(dirfd, &vfs) != 0)
		return 0;
	return (uint64_t)vfs.f_bavail * vfs.f_frsize;
}

int io_dir_room(struct io_state *s, uint64_t need, char *err, size_t errlen)
{
	uint64_t avail = io_dir_free(s->dirfd);
	char have[32], want[32];

	/* worker 0 sees the filesystem before any worker wrote to it */
	if (s->c->worker == 0)
		io_note_u64(s, "free_space", avail);
	io_fmt_size(avail, have, sizeof(have));
	if (s->p.min_free && avail < s->p.min_free) {
		io_fmt_size(s->p.min_free, want, sizeof(want));
		snprintf(err, errlen,
			 "free space more than %s needed at %s (%s free)", want,
			 s->dir, have);
		return HB_SKIP;
	}
	if (avail < need) {
		io_fmt_size(need, want, sizeof(want));
		snprintf(err, errlen, "free space %s at %s, the case writes %s",
			 have, s->dir, want);
		return HB_SKIP;
	}
	return 0;
}
