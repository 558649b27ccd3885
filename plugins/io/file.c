/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Files the plugin makes: always new (O_CREAT | O_EXCL | O_NOFOLLOW),
 * always inside the case's directory, under a name no other file had, and
 * only ever reopened or removed while they are still the same file; and
 * the full-length reads and writes the targets do on them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io.h"

/* Enough attempts to step over any leftovers of earlier runs of this pid. */
#define IO_NAME_TRIES 1000

void io_file_name(char *buf, size_t len, unsigned worker, unsigned n)
{
	snprintf(buf, len, ".hostbench-%ld-%u-%u", (long)getpid(), worker, n);
}

int io_file_named(int dirfd, const char *dir, unsigned worker, unsigned *next,
		  struct io_name *nm, char *err, size_t errlen)
{
	unsigned last = *next + IO_NAME_TRIES;
	struct stat st;
	char name[64] = "";
	int fd = -1;

	for (nm->n = *next; nm->n < last; nm->n++) {
		io_file_name(name, sizeof(name), worker, nm->n);
		fd = openat(dirfd, name,
			    O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		snprintf(err, errlen, "create %s/%s: %s", dir, name,
			 strerror(errno));
		return HB_EIO;
	}
	if (fstat(fd, &st) != 0) {
		snprintf(err, errlen, "stat %s/%s: %s", dir, name,
			 strerror(errno));
		unlinkat(dirfd, name, 0);
		close(fd);
		return HB_EIO;
	}
	nm->dev = st.st_dev;
	nm->ino = st.st_ino;
	*next = nm->n + 1;
	return fd;
}

int io_file_anonymous(int dirfd, const char *dir, unsigned worker, char *err,
		      size_t errlen)
{
	struct io_name nm;
	unsigned next = 0;
	char name[64];
	int fd;

	fd = io_file_named(dirfd, dir, worker, &next, &nm, err, errlen);
	if (fd < 0)
		return fd;
	io_file_name(name, sizeof(name), worker, nm.n);
	if (unlinkat(dirfd, name, 0) != 0) {
		snprintf(err, errlen, "unlink %s/%s: %s", dir, name,
			 strerror(errno));
		close(fd);
		return HB_EIO;
	}
	return fd;
}

int io_file_reopen(int dirfd, unsigned worker, const struct io_name *nm,
		   int flags)
{
	struct stat st;
	char name[64];
	int fd;

	io_file_name(name, sizeof(name), worker, nm->n);
	/* non-blocking until checked: a FIFO put there must not wait */
	fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0) /* ENXIO: a FIFO without a reader, not our file */
		return errno == ENXIO ? -ESTALE : -errno;
	if (fstat(fd, &st) != 0 || st.st_dev != nm->dev ||
	    st.st_ino != nm->ino || !S_ISREG(st.st_mode)) {
		close(fd);
		return -ESTALE;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

void io_file_remove(int dirfd, unsigned worker, const struct io_name *nm)
{
	struct stat st;
	char name[64];

	io_file_name(name, sizeof(name), worker, nm->n);
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    st.st_dev == nm->dev && st.st_ino == nm->ino)
		unlinkat(dirfd, name, 0);
}

int io_direct_on(int fd, const char *dir, char *err, size_t errlen)
{
	int flags = fcntl(fd, F_GETFL);

	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_DIRECT) != 0) {
		/* EINVAL is how Linux says "this filesystem has no O_DIRECT" */
		snprintf(err, errlen,
			 "O_DIRECT not supported by the filesystem at %s: %s",
			 dir, strerror(errno));
		return errno == EINVAL ? HB_SKIP : HB_EIO;
	}
	return 0;
}

unsigned char *io_buffer(size_t len, uint64_t seed)
{
	uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
	unsigned char *p;
	void *mem;

	if (posix_memalign(&mem, IO_ALIGN, len ? len : 1))
		return NULL;
	p = mem;
	/* xorshift: incompressible, so compressing filesystems cannot cheat */
	for (size_t i = 0; i < len; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		p[i] = (unsigned char)(x >> 32);
	}
	return p;
}

int io_pwrite_full(int fd, const void *buf, size_t len, uint64_t off)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t w = pwrite(fd, p, len, (off_t)off);

		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		p += w;
		len -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

int io_pread_full(int fd, void *buf, size_t len, uint64_t off)
{
	unsigned char *p = buf;

	while (len) {
		ssize_t r = pread(fd, p, len, (off_t)off);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			return -EIO;
		p += r;
		len -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

int io_fill(int fd, const void *buf, size_t len, uint64_t blocks)
{
	for (uint64_t b = 0; b < blocks; b++) {
		int rc = io_pwrite_full(fd, buf, len, b * len);

		if (rc)
			return rc;
	}
	return fdatasync(fd) ? -errno : 0;
}
