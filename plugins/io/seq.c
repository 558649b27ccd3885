/* SPDX-License-Identifier: Apache-2.0 */
/*
 * seq-write and seq-read: one large file per worker, written or read in
 * order with pwrite/pread of `size` bytes, as fio's sync engine does; with
 * direct, through O_DIRECT from an aligned buffer. One unit of work is one
 * block; a pass that reaches the end of the file starts again at 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

/* "what at DIR: REASON" into err; returns HB_EIO. */
static int seq_fail(struct io_state *s, const char *what, int code, char *err,
		    size_t errlen)
{
	snprintf(err, errlen, "%s at %s: %s", what, s->dir,
		 strerror(code ? code : EIO));
	return HB_EIO;
}

/*
 * The worker's file, its room reserved up front (as fio lays files out),
 * so running out of space shows in setup, not half-way through a sample.
 */
static int seq_create(struct io_state *s, char *err, size_t errlen)
{
	uint64_t bytes = s->blocks * s->p.size;
	int rc;

	rc = io_dir_room(s, io_mul_sat(bytes, s->c->workers - s->c->worker),
			 err, errlen);
	if (rc)
		return rc;
	s->fd = io_file_anonymous(s->dirfd, s->dir, s->c->worker, err, errlen);
	if (s->fd < 0)
		return s->fd;
	rc = posix_fallocate(s->fd, 0, (off_t)bytes);
	if (rc == ENOSPC) {
		snprintf(err, errlen, "no room for %llu bytes at %s: %s",
			 (unsigned long long)bytes, s->dir, strerror(rc));
		return HB_SKIP;
	}
	if (rc && rc != EOPNOTSUPP)
		return seq_fail(s, "fallocate", rc, err, errlen);
	return 0;
}

/*
 * The worker's file, O_DIRECT when asked for and checked to be honoured;
 * then the note of its size, with what more the text should say.
 */
static int seq_open(struct io_state *s, const char *more, char *err,
		    size_t errlen)
{
	uint64_t bytes = s->blocks * s->p.size;
	char text[64], size[32];
	int rc = seq_create(s, err, errlen);

	if (!rc && s->p.direct)
		rc = io_direct_on(s->fd, s->dir, err, errlen);
	if (!rc && s->p.direct && (rc = io_direct_check(s, s->fd)))
		return seq_fail(s, "write", -rc, err, errlen);
	if (rc)
		return rc;
	io_fmt_size(bytes, size, sizeof(size));
	snprintf(text, sizeof(text), "file size %s%s%s", size,
		 io_direct_text(s), more);
	s->c->host->note(s->c, "text", text);
	io_note_u64(s, "file_size", bytes);
	return 0;
}

static int seq_write_setup(struct io_state *s, char *err, size_t errlen)
{
	int rc = seq_open(s, io_write_text(s), err, errlen);

	if (!rc && (rc = io_write_start(s, s->fd)))
		return seq_fail(s, "drop cached pages", -rc, err, errlen);
	return rc;
}

static void seq_write_teardown(struct io_state *s)
{
	io_write_note_cached(s, s->fd, s->blocks * s->p.size);
}

static int seq_write_run(struct io_state *s, uint64_t n, struct hb_done *done,
			 char *err, size_t errlen)
{
	size_t size = (size_t)s->p.size;
	int rc;

	for (uint64_t i = 0; i < n; i++) {
		rc = io_pwrite_full(s->fd, s->buf, size, s->block * size);
		if (rc)
			return seq_fail(s, "write", -rc, err, errlen);
		if (s->p.fsync == IO_FSYNC_EACH && fdatasync(s->fd) != 0)
			return seq_fail(s, "fdatasync", errno, err, errlen);
		done->bytes += size;
		done->ops++;
		if (++s->block < s->blocks)
			continue;
		/* the next pass starts from a dropped cache too, as fio's */
		s->block = 0;
		if ((rc = io_write_end(s, s->fd)))
			return seq_fail(s, "fdatasync", -rc, err, errlen);
	}
	if ((rc = io_write_end(s, s->fd)))
		return seq_fail(s, "fdatasync", -rc, err, errlen);
	return 0;
}

static int seq_read_setup(struct io_state *s, char *err, size_t errlen)
{
	uint64_t bytes = s->blocks * s->p.size;
	int rc = seq_open(s, "", err, errlen);

	if (rc)
		return rc;
	rc = io_fill(s->fd, s->buf, (size_t)s->p.size, s->blocks);
	if (rc)
		return seq_fail(s, "write the file to read", -rc, err, errlen);
	if (!s->p.cache && (rc = io_cache_drop(s->fd)))
		return seq_fail(s, "drop cached pages", -rc, err, errlen);
	io_cache_system(s);
	io_cache_check(s, io_cache_resident(s->fd, bytes), bytes);
	return 0;
}

static int seq_read_run(struct io_state *s, uint64_t n, struct hb_done *done,
			char *err, size_t errlen)
{
	size_t size = (size_t)s->p.size;
	int rc;

	for (uint64_t i = 0; i < n; i++) {
		rc = io_pread_full(s->fd, s->buf, size, s->block * size);
		if (rc)
			return seq_fail(s, "read", -rc, err, errlen);
		done->bytes += size;
		done->ops++;
		if (++s->block < s->blocks)
			continue;
		/* the next pass must come from the device again */
		s->block = 0;
		if (!s->p.cache && !s->p.direct)
			posix_fadvise(s->fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	return 0;
}

const struct io_ops io_seq_write_ops = {
	.name = "seq-write",
	.setup = seq_write_setup,
	.run = seq_write_run,
	.teardown = seq_write_teardown,
};

const struct io_ops io_seq_read_ops = {
	.name = "seq-read",
	.setup = seq_read_setup,
	.run = seq_read_run,
};
