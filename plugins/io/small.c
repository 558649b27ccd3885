/* SPDX-License-Identifier: Apache-2.0 */
/*
 * small-files: fio's open-io-close profile. Each worker owns `files` files
 * of file_size bytes in dir, made in setup (as fio lays out its files
 * before the clock starts). One unit of work is one whole file: open,
 * write (mode = write) or read (mode = read) it in `size` blocks, close.
 * Figures are bytes/s and files/s. The files keep the plugin's temporary
 * names, so the core can remove them if the case's process is killed.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

/* "what DIR/NAME: REASON" for file i into err; returns HB_EIO. */
static int small_fail(struct io_state *s, const char *what, uint64_t i,
		      int code, char *err, size_t errlen)
{
	char name[64];

	io_file_name(name, sizeof(name), s->c->worker, s->names[i].n);
	snprintf(err, errlen, "%s %s/%s: %s", what, s->dir, name,
		 code == ESTALE ? "replaced by another file"
				: strerror(code ? code : EIO));
	return HB_EIO;
}

/*
 * Make file i: reserved for writing, or written and dropped from the cache
 * for reading. *resident gets what stayed cached.
 */
static int small_make(struct io_state *s, uint64_t i, unsigned *next,
		      uint64_t *resident, char *err, size_t errlen)
{
	uint64_t bytes = s->blocks * s->p.size;
	int fd, rc = 0;

	fd = io_file_named(s->dirfd, s->dir, s->c->worker, next, &s->names[i],
			   err, errlen);
	if (fd < 0)
		return fd;
	s->made++;
	if (s->p.direct && i == 0 &&
	    (rc = io_direct_on(fd, s->dir, err, errlen)))
		goto out_close;
	if (s->p.direct && i == 0 && (rc = io_direct_check(s, fd))) {
		rc = small_fail(s, "write", i, -rc, err, errlen);
		goto out_close;
	}
	if (!s->p.read)
		rc = posix_fallocate(fd, 0, (off_t)bytes);
	else
		rc = -io_fill(fd, s->buf, (size_t)s->p.size, s->blocks);
	if (rc && rc != EOPNOTSUPP) {
		rc = small_fail(s, "write", i, rc, err, errlen);
		goto out_close;
	}
	rc = 0;
	if (s->p.read && !s->p.cache && (rc = io_cache_drop(fd)))
		rc = small_fail(s, "drop cached pages of", i, -rc, err, errlen);
	if (s->p.read)
		*resident += io_cache_resident(fd, bytes);
out_close:
	close(fd);
	return rc;
}

static int small_setup(struct io_state *s, char *err, size_t errlen)
{
	uint64_t bytes = s->blocks * s->p.size, resident = 0;
	char text[PATH_MAX + 64], size[32];
	unsigned next = 0;
	int rc;

	rc = io_dir_room(s,
			 io_mul_sat(io_mul_sat(s->p.files, bytes),
				    s->c->workers - s->c->worker),
			 err, errlen);
	if (rc)
		return rc;
	s->names = calloc(s->p.files, sizeof(*s->names));
	if (!s->names) {
		snprintf(err, errlen, "%s", strerror(ENOMEM));
		return HB_ENOMEM;
	}
	for (uint64_t i = 0; i < s->p.files; i++)
		if ((rc = small_make(s, i, &next, &resident, err, errlen)))
			return rc;
	if (s->p.read) {
		io_cache_system(s);
		io_cache_check(s, resident, s->p.files * bytes);
	}
	io_fmt_size(bytes, size, sizeof(size));
	snprintf(text, sizeof(text), "%" PRIu64 " files of %s%s%s", s->p.files,
		 size, io_direct_text(s), s->p.read ? "" : io_write_text(s));
	s->c->host->note(s->c, "text", text);
	io_note_u64(s, "file_size", bytes);
	io_note_u64(s, "files", s->p.files);
	return 0;
}

/* Write or read the open file fd whole. Returns 0 or -errno. */
static int small_io(struct io_state *s, int fd)
{
	size_t size = (size_t)s->p.size;
	int rc = 0;

	for (uint64_t b = 0; b < s->blocks && !rc; b++) {
		if (!s->p.read) {
			rc = io_pwrite_full(fd, s->buf, size, b * size);
			if (!rc && s->p.fsync == IO_FSYNC_EACH && fdatasync(fd))
				rc = -errno;
		} else {
			rc = io_pread_full(fd, s->buf, size, b * size);
		}
	}
	if (rc)
		return rc;
	if (!s->p.read && s->p.fsync == IO_FSYNC_END && fdatasync(fd))
		return -errno;
	/* the next pass over this file must come from the device again */
	if (s->p.read && !s->p.cache && !s->p.direct)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

static int small_run(struct io_state *s, uint64_t n, struct hb_done *done,
		     char *err, size_t errlen)
{
	int flags = (s->p.read ? O_RDONLY : O_WRONLY) |
		    (s->p.direct ? O_DIRECT : 0);
	int fd, rc;

	for (uint64_t i = 0; i < n; i++) {
		fd = io_file_reopen(s->dirfd, s->c->worker, &s->names[s->next],
				    flags);
		if (fd < 0)
			return small_fail(s, "open", s->next, -fd, err, errlen);
		rc = small_io(s, fd);
		if (close(fd) != 0 && !rc)
			rc = -errno;
		if (rc)
			return small_fail(s, s->p.read ? "read" : "write",
					  s->next, -rc, err, errlen);
		done->bytes += s->blocks * s->p.size;
		done->ops++;
		if (++s->next == s->p.files)
			s->next = 0;
	}
	return 0;
}

const struct io_ops io_small_ops = {
	.name = "small-files",
	.setup = small_setup,
	.run = small_run,
};
