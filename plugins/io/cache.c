/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Page-cache control before and between read passes, and the check that a
 * drop worked: a read measured against the page cache says nothing about
 * the device, so it must never pass silently.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "io.h"

#define IO_DROP_CACHES "/proc/sys/vm/drop_caches"

int io_cache_drop(int fd)
{
	/* DONTNEED skips dirty pages: they must reach the device first */
	if (fdatasync(fd) != 0)
		return -errno;
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

uint64_t io_cache_resident(int fd, uint64_t len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), pages;
	unsigned char *vec;
	uint64_t resident = 0;
	void *map;

	if (len == 0 || len > SIZE_MAX)
		return 0;
	pages = ((size_t)len + page - 1) / page;
	map = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return 0;
	vec = malloc(pages);
	if (vec && mincore(map, (size_t)len, vec) == 0)
		for (size_t i = 0; i < pages; i++)
			resident += vec[i] & 1;
	free(vec);
	munmap(map, (size_t)len);
	resident *= page;
	return resident < len ? resident : len;
}

/* Write "1" (page cache only) to drop_caches. Returns 0 or -errno. */
static int io_drop_system(void)
{
	int fd, rc = 0;

	sync();
	fd = open(IO_DROP_CACHES, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "1", 1) != 1)
		rc = -errno;
	close(fd);
	return rc;
}

void io_cache_system(struct io_state *s)
{
	char how[160];
	int rc;

	/*
	 * Settle the filesystem first: writeback and discards left by earlier
	 * cases (or this case's own setup) must not compete with the reads.
	 */
	syncfs(s->dirfd);
	if (s->p.cache) {
		s->c->host->note(s->c, "cache", "kept (cache = true)");
		return;
	}
	if (s->p.direct) {
		s->c->host->note(s->c, "cache", "none (direct)");
		return;
	}
	if (!s->p.drop_caches) {
		s->c->host->note(s->c, "cache", "fadvise");
		return;
	}
	rc = geteuid() == 0 ? io_drop_system() : -EPERM;
	if (rc == 0)
		snprintf(how, sizeof(how), "fadvise, drop_caches");
	else
		snprintf(how, sizeof(how), "fadvise (drop_caches refused: %s)",
			 strerror(-rc));
	s->c->host->note(s->c, "cache", how);
	if (rc)
		s->c->host->log(s->c, "%s: %s", IO_DROP_CACHES, strerror(-rc));
}

void io_cache_check(struct io_state *s, uint64_t resident, uint64_t total)
{
	double share = total ? (double)resident / (double)total : 0;

	if (s->p.cache || s->p.direct || share <= IO_CACHED_SHARE)
		return;
	s->c->host->warn(s->c,
			 "%.0f%% of the data stayed in the page cache after "
			 "dropping it (a memory filesystem?): reads at %s are "
			 "served from memory, not the device",
			 share * 100, s->dir);
}

int io_write_start(struct io_state *s, int fd)
{
	const char *how = s->p.fsync == IO_FSYNC_NONE
				  ? "none: page cache only (fsync = none)"
			  : s->p.fsync == IO_FSYNC_EACH
				  ? "fdatasync after every block"
				  : "fdatasync at the end of every sample "
				    "(end_fsync), file cache dropped before it";

	if (s->c->worker == 0)
		s->c->host->note(s->c, "flush", s->p.direct ? "O_DIRECT" : how);
	if (s->p.direct)
		return 0;
	return io_cache_drop(fd);
}

int io_write_end(struct io_state *s, int fd)
{
	if (s->p.fsync != IO_FSYNC_END)
		return 0;
	if (fdatasync(fd) != 0)
		return -errno;
	if (s->p.direct)
		return 0;
	return -posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

void io_write_note_cached(struct io_state *s, int fd, uint64_t len)
{
	if (s->c->worker == 0 && fd >= 0)
		io_note_u64(s, "cached_after", io_cache_resident(fd, len));
}

/*
 * The name of the loop device fd's file system is on when that device
 * writes its backing file without direct I/O (its loop/dio reads 0), into
 * name; 0 when it is one, -1 otherwise. O_DIRECT then bypasses this file
 * system's page cache only to land in the backing file's.
 */
static int loop_without_dio(int fd, char *name, size_t len)
{
	char path[96], text[16];
	struct stat st;
	ssize_t n;
	int dio;

	if (fstat(fd, &st))
		return -1;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/loop/dio",
		 major(st.st_dev), minor(st.st_dev));
	dio = open(path, O_RDONLY | O_CLOEXEC);
	if (dio < 0)
		return -1;
	n = read(dio, text, sizeof(text) - 1);
	close(dio);
	if (n <= 0 || text[0] != '0')
		return -1;
	snprintf(name, len, "loop%u", minor(st.st_dev));
	return 0;
}

/* Flag the case's figures as the page cache's: notes and a warning. */
static void direct_paged(struct io_state *s, const char *why)
{
	s->paged = 1;
	if (s->c->worker != 0)
		return;
	s->c->host->note(s->c, "direct", "not honoured: page-cache figures");
	s->c->host->warn(s->c, "O_DIRECT not honoured: page-cache figures (%s)",
			 why);
}

int io_direct_check(struct io_state *s, int fd)
{
	size_t len = (size_t)s->p.size;
	char why[PATH_MAX + 256], loop[32];
	uint64_t resident;
	int rc;

	/* nothing of the file may be cached before the direct write */
	if ((rc = io_cache_drop(fd)) ||
	    (rc = io_pwrite_full(fd, s->buf, len, 0)))
		return rc;
	if (fdatasync(fd) != 0)
		return -errno;
	resident = io_cache_resident(fd, len);
	if ((double)resident > IO_CACHED_SHARE * (double)len) {
		snprintf(why, sizeof(why),
			 "the filesystem at %s took O_DIRECT but kept %llu of "
			 "%zu bytes a direct write made in the page cache: "
			 "fscrypt, FUSE or a network filesystem?",
			 s->dir, (unsigned long long)resident, len);
		direct_paged(s, why);
	} else if (loop_without_dio(fd, loop, sizeof(loop)) == 0) {
		snprintf(why, sizeof(why),
			 "%s is on %s, a loop device without direct I/O: its "
			 "writes and reads go through the backing file's page "
			 "cache (losetup --direct-io=on)",
			 s->dir, loop);
		direct_paged(s, why);
	} else if (s->c->worker == 0) {
		s->c->host->note(s->c, "direct", "honoured");
	}
	return 0;
}

const char *io_direct_text(const struct io_state *s)
{
	return s->p.direct && !s->paged ? ", O_DIRECT" : "";
}

const char *io_write_text(const struct io_state *s)
{
	return s->p.fsync == IO_FSYNC_NONE && !s->p.direct ? ", page cache only"
							   : "";
}
