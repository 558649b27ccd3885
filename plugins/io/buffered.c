/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fwrite and fread: what an ordinary program does with stdio, as the
 * classic host benchmark measures it. One unit of work is one block of
 * `size` bytes; a worker's file holds file_size / size blocks and a pass
 * that reaches its end starts again at offset 0.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "io.h"

/* Flush the stream and, when fsync asks for it at this point, the file. */
static int io_flush(struct io_state *s, int sync)
{
	if (fflush(s->fp) != 0)
		return -errno;
	if (sync && fdatasync(fileno(s->fp)) != 0)
		return -errno;
	return 0;
}

/* "what to DIR: REASON" into err; returns HB_EIO. */
static int io_fail(struct io_state *s, const char *what, int code, char *err,
		   size_t errlen)
{
	snprintf(err, errlen, "%s at %s: %s", what, s->dir,
		 strerror(code ? code : EIO));
	return HB_EIO;
}

/* The worker's unlinked file as a stdio stream. */
static int io_open_stream(struct io_state *s, const char *mode, char *err,
			  size_t errlen)
{
	s->fd = io_file_anonymous(s->dirfd, s->dir, s->c->worker, err, errlen);
	if (s->fd < 0)
		return s->fd;
	s->fp = fdopen(s->fd, mode);
	if (!s->fp)
		return io_fail(s, "fdopen", errno, err, errlen);
	s->fd = -1; /* the stream owns it now */
	return 0;
}

static int fwrite_setup(struct io_state *s, char *err, size_t errlen)
{
	uint64_t bytes = s->blocks * s->p.size;
	char text[PATH_MAX + 64], have[32];
	int rc;

	rc = io_dir_room(s, io_mul_sat(bytes, s->c->workers - s->c->worker),
			 err, errlen);
	if (rc)
		return rc;
	if (s->c->worker == 0) {
		io_fmt_size(io_dir_free(s->dirfd), have, sizeof(have));
		snprintf(text, sizeof(text), "free space %s at %s%s", have,
			 s->dir, io_write_text(s));
		s->c->host->note(s->c, "text", text);
		io_note_u64(s, "file_size", bytes);
	}
	rc = io_open_stream(s, "w", err, errlen);
	if (!rc && (rc = io_write_start(s, fileno(s->fp))))
		return io_fail(s, "drop cached pages", -rc, err, errlen);
	return rc;
}

static void fwrite_teardown(struct io_state *s)
{
	io_write_note_cached(s, fileno(s->fp), s->blocks * s->p.size);
}

static int fwrite_run(struct io_state *s, uint64_t n, struct hb_done *done,
		      char *err, size_t errlen)
{
	size_t size = (size_t)s->p.size;
	int rc;

	for (uint64_t i = 0; i < n; i++) {
		if (fwrite(s->buf, 1, size, s->fp) != size)
			return io_fail(s, "fwrite", errno, err, errlen);
		if (s->p.fsync == IO_FSYNC_EACH && (rc = io_flush(s, 1)))
			return io_fail(s, "fdatasync", -rc, err, errlen);
		done->bytes += size;
		done->ops++;
		if (++s->block < s->blocks)
			continue;
		/* the file is complete: write it again from the start, from a
		   dropped cache as fio's next pass */
		s->block = 0;
		rc = io_flush(s, 0);
		if (!rc)
			rc = io_write_end(s, fileno(s->fp));
		if (!rc && fseeko(s->fp, 0, SEEK_SET) != 0)
			rc = -errno;
		if (rc)
			return io_fail(s, "fwrite", -rc, err, errlen);
	}
	if (s->p.fsync == IO_FSYNC_END &&
	    ((rc = io_flush(s, 0)) || (rc = io_write_end(s, fileno(s->fp)))))
		return io_fail(s, "fdatasync", -rc, err, errlen);
	return 0;
}

static int fread_setup(struct io_state *s, char *err, size_t errlen)
{
	uint64_t bytes = s->blocks * s->p.size;
	char text[PATH_MAX + 64], size[32];
	int fd, rc;

	rc = io_dir_room(s, io_mul_sat(bytes, s->c->workers - s->c->worker),
			 err, errlen);
	if (rc)
		return rc;
	rc = io_open_stream(s, "r", err, errlen);
	if (rc)
		return rc;
	/* written here, untimed, through the descriptor under the stream */
	fd = fileno(s->fp);
	rc = io_fill(fd, s->buf, (size_t)s->p.size, s->blocks);
	if (rc)
		return io_fail(s, "write the file to read", -rc, err, errlen);
	if (!s->p.cache && (rc = io_cache_drop(fd)))
		return io_fail(s, "drop cached pages", -rc, err, errlen);
	io_cache_system(s);
	io_cache_check(s, io_cache_resident(fd, bytes), bytes);
	io_fmt_size(bytes, size, sizeof(size));
	snprintf(text, sizeof(text), "file size %s", size);
	s->c->host->note(s->c, "text", text);
	io_note_u64(s, "file_size", bytes);
	return 0;
}

static int fread_run(struct io_state *s, uint64_t n, struct hb_done *done,
		     char *err, size_t errlen)
{
	size_t size = (size_t)s->p.size;

	for (uint64_t i = 0; i < n; i++) {
		if (fread(s->buf, 1, size, s->fp) != size)
			return io_fail(s, "fread", ferror(s->fp) ? errno : EIO,
				       err, errlen);
		done->bytes += size;
		done->ops++;
		if (++s->block < s->blocks)
			continue;
		/* the next pass must come from the device again */
		s->block = 0;
		if (!s->p.cache)
			posix_fadvise(fileno(s->fp), 0, 0, POSIX_FADV_DONTNEED);
		if (fseeko(s->fp, 0, SEEK_SET) != 0)
			return io_fail(s, "fread", errno, err, errlen);
	}
	return 0;
}

const struct io_ops io_fwrite_ops = {
	.name = "fwrite",
	.setup = fwrite_setup,
	.run = fwrite_run,
	.teardown = fwrite_teardown,
};

const struct io_ops io_fread_ops = {
	.name = "fread",
	.setup = fread_setup,
	.run = fread_run,
};
