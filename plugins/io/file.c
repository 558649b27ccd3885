/*
 * Files the plugin makes: always new (O_CREAT | O_EXCL | O_NOFOLLOW, or
 * mkdir), always inside the case's directory, under a name no other file
 * had; and the full-length reads and writes the targets do on them.
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

/* ".hostbench-PID-WORKER-N" into name. */
static void io_name(char *name, size_t len, unsigned worker, unsigned n)
{
	snprintf(name, len, ".hostbench-%ld-%u-%u", (long)getpid(), worker, n);
}

int io_file_anonymous(int dirfd, const char *dir, unsigned worker, char *err,
		      size_t errlen)
{
	char name[64];
	int fd = -1;

	for (unsigned n = 0; n < IO_NAME_TRIES; n++) {
		io_name(name, sizeof(name), worker, n);
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
	if (unlinkat(dirfd, name, 0) != 0) {
		snprintf(err, errlen, "unlink %s/%s: %s", dir, name,
			 strerror(errno));
		close(fd);
		return HB_EIO;
	}
	return fd;
}

int io_subdir_create(int dirfd, const char *dir, unsigned worker, char *name,
		     size_t namelen, char *err, size_t errlen)
{
	int rc = -1, fd;

	for (unsigned n = 0; n < IO_NAME_TRIES; n++) {
		io_name(name, namelen, worker, n);
		rc = mkdirat(dirfd, name, 0700);
		if (rc == 0 || errno != EEXIST)
			break;
	}
	if (rc != 0) {
		snprintf(err, errlen, "mkdir %s/%s: %s", dir, name,
			 strerror(errno));
		name[0] = '\0';
		return HB_EIO;
	}
	fd = openat(dirfd, name,
		    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, errlen, "open %s/%s: %s", dir, name,
			 strerror(errno));
		unlinkat(dirfd, name, AT_REMOVEDIR);
		name[0] = '\0';
		return HB_EIO;
	}
	return fd;
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
