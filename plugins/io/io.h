/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The io plugin's shared pieces: one worker's state, what a target adds to
 * setup and run, and the helpers every target uses (directory checks, safe
 * file creation, page-cache control, size text). Nothing here is visible
 * outside io.so.
 */
#ifndef HB_IO_H
#define HB_IO_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include <hostbench/plugin.h>

/*
 * Alignment of O_DIRECT buffers, offsets and lengths: a multiple of every
 * logical block size in use (512 and 4096), so one value fits all devices.
 */
#define IO_ALIGN 4096

/* A resident share of a file above this after dropping it means "cached". */
#define IO_CACHED_SHARE 0.10

/* When written data is forced to the device. */
enum io_fsync {
	IO_FSYNC_NONE, /* never: the page cache absorbs the writes */
	IO_FSYNC_END,  /* at the end of each file pass and of each run() call */
	IO_FSYNC_EACH, /* after every block */
};

/*
 * A case's parameters, read once in setup. An option the target does not
 * declare keeps its zero value.
 */
struct io_params {
	const char *dir;    /* as the suite gave it */
	uint64_t file_size; /* bytes per file */
	uint64_t size;	    /* bytes per block (one I/O call) */
	uint64_t min_free;  /* fwrite: free space required before writing */
	uint64_t files;	    /* small-files: files per worker */
	enum io_fsync fsync;
	int direct;	 /* O_DIRECT */
	int drop_caches; /* also /proc/sys/vm/drop_caches before reading */
	int cache;	 /* keep the page cache: read what is cached */
	int read;	 /* small-files: mode = read */
};

struct io_ops;

/* A file the plugin created by name, and how to know it is still that file. */
struct io_name {
	unsigned n; /* ".hostbench-PID-WORKER-N" */
	dev_t dev;
	ino_t ino;
};

/*
 * One worker's state. Every resource starts empty (-1 or NULL) so that
 * io_release() can free a state at any point of its setup.
 */
struct io_state {
	const struct hb_case *c;
	const struct io_ops *ops;
	struct io_params p;
	char dir[PATH_MAX]; /* absolute path of p.dir */
	int dirfd;	    /* every file is created relative to it */
	int fd;		    /* the data file, unlinked right after creation */
	FILE *fp;	    /* fwrite/fread: the stdio stream over fd */
	unsigned char *buf; /* one block, IO_ALIGN-aligned, random content */
	uint64_t blocks;    /* blocks per file */
	uint64_t block;	    /* next block of the current pass */
	/* small-files: files named as io_file_named() made them */
	struct io_name *names;
	uint64_t made; /* names[0 .. made-1] exist */
	uint64_t next; /* next file of the current pass */
	/* O_DIRECT taken but served through the page cache (io_direct_check) */
	int paged;
};

/* What a target adds to the common setup and how it runs. */
struct io_ops {
	const char *name; /* target name, "fwrite" */
	/* Create files and buffers; state already holds params and dirfd. */
	int (*setup)(struct io_state *s, char *err, size_t errlen);
	/* Do exactly n units of work, as struct hb_plugin.run. */
	int (*run)(struct io_state *s, uint64_t n, struct hb_done *done,
		   char *err, size_t errlen);
	/* Before the state is released: notes on what the case left; NULL. */
	void (*teardown)(struct io_state *s);
};

extern const struct io_ops io_fwrite_ops;
extern const struct io_ops io_fread_ops;
extern const struct io_ops io_seq_write_ops;
extern const struct io_ops io_seq_read_ops;
extern const struct io_ops io_small_ops;

/* dir.c ------------------------------------------------------------------ */

/*
 * Check, without changing anything, that path exists, is a directory and
 * is writable. Returns 0, or HB_EINVAL with "dir PATH: REASON" in err.
 */
int io_dir_check(const char *path, char *err, size_t errlen);

/*
 * io_dir_check() path, and open it.
 * Fills abs (absolute path, abslen >= PATH_MAX) and *fd. Returns 0, or
 * HB_EINVAL with "dir PATH: REASON" in err.
 */
int io_dir_open(const char *path, char *abs, size_t abslen, int *fd, char *err,
		size_t errlen);

/*
 * a x b, or UINT64_MAX when the product does not fit: sizes that would
 * wrap around must not pass a free-space check.
 */
uint64_t io_mul_sat(uint64_t a, uint64_t b);

/* Bytes available to this user on the filesystem of dirfd, or 0 on error. */
uint64_t io_dir_free(int dirfd);

/*
 * Skip (HB_SKIP) with a reason when the filesystem under s->dir has less
 * than need bytes free, or when s->p.min_free is set and not available.
 * Notes "free_space" on the way. Returns 0 when there is room.
 */
int io_dir_room(struct io_state *s, uint64_t need, char *err, size_t errlen);

/* file.c ----------------------------------------------------------------- */

/*
 * Create a file that did not exist in dirfd, named
 * ".hostbench-PID-WORKER-N" with the first N from *next on that nobody
 * has, with O_CREAT | O_EXCL | O_NOFOLLOW (mode 0600), read-write. The core
 * removes files so named if the process dies before teardown. Fills nm,
 * sets *next past N. Returns the fd, or HB_EIO with err filled.
 */
int io_file_named(int dirfd, const char *dir, unsigned worker, unsigned *next,
		  struct io_name *nm, char *err, size_t errlen);

/*
 * As io_file_named(), then unlink the file at once: the returned
 * descriptor is its only reference, so nothing is left behind even if the
 * process dies. Returns the fd, or HB_EIO with err filled.
 */
int io_file_anonymous(int dirfd, const char *dir, unsigned worker, char *err,
		      size_t errlen);

/*
 * Open the file nm of worker again with flags (O_NOFOLLOW added, and
 * O_NONBLOCK until it is checked, so a FIFO put in its place never
 * blocks), and check it is the very file created: anything put in its
 * place is refused. Returns the fd, or -errno (-ESTALE: replaced).
 */
int io_file_reopen(int dirfd, unsigned worker, const struct io_name *nm,
		   int flags);

/* Remove the file nm of worker, unless something else took its name. */
void io_file_remove(int dirfd, unsigned worker, const struct io_name *nm);

/* The name of file nm of worker into buf. */
void io_file_name(char *buf, size_t len, unsigned worker, unsigned n);

/*
 * Turn O_DIRECT on for fd. Returns 0, HB_SKIP with the reason when the
 * filesystem refuses it, or HB_EIO.
 */
int io_direct_on(int fd, const char *dir, char *err, size_t errlen);

/* An IO_ALIGN-aligned buffer of len bytes of pseudo-random data, or NULL. */
unsigned char *io_buffer(size_t len, uint64_t seed);

/* Write all of len bytes at off. Returns 0 or -errno (-EIO on no progress). */
int io_pwrite_full(int fd, const void *buf, size_t len, uint64_t off);

/* Read all of len bytes at off. Returns 0 or -errno (-EIO at end of file). */
int io_pread_full(int fd, void *buf, size_t len, uint64_t off);

/* Write blocks x len bytes of buf from offset 0, then flush to the device. */
int io_fill(int fd, const void *buf, size_t len, uint64_t blocks);

/* cache.c ---------------------------------------------------------------- */

/* Flush fd's dirty pages, then drop its cached pages. Returns 0 or -errno. */
int io_cache_drop(int fd);

/* Bytes of fd's first len bytes resident in the page cache, via mincore. */
uint64_t io_cache_resident(int fd, uint64_t len);

/*
 * Before a read phase, after each file was dropped with io_cache_drop():
 * flush the whole filesystem (syncfs) so earlier writeback does not compete
 * with the reads, also drop the system's page cache when asked and allowed
 * (drop_caches = true, running as root), and note "cache" with what was
 * done.
 */
void io_cache_system(struct io_state *s);

/*
 * Warn when resident of total bytes stayed in the page cache after the
 * drop: reads would be served from memory, not from the device.
 */
void io_cache_check(struct io_state *s, uint64_t resident, uint64_t total);

/*
 * Before a buffered write phase on fd (s->p.direct off): flush and drop
 * the file's cached pages, as fio's invalidate=1 does, so the first
 * sample writes new pages rather than rewriting cached ones; and note
 * "flush" with what each sample includes. Returns 0 or -errno.
 */
int io_write_start(struct io_state *s, int fd);

/*
 * At the end of every run() call of a write target and of every pass over
 * its file, inside the timed region: with fsync = end, fdatasync fd (fio's
 * end_fsync=1), then, for a buffered write, drop the file's pages so the
 * next sample or pass writes new pages, as fio's next file does, rather
 * than rewriting clean cached ones. fsync = none (the page-cache figure)
 * does neither. Returns 0 or -errno.
 */
int io_write_end(struct io_state *s, int fd);

/*
 * In teardown of a write target, worker 0: note "cached_after", the bytes
 * of the file (its first len) still in the page cache after the last
 * sample: 0 when every sample flushed and dropped what it wrote.
 */
void io_write_note_cached(struct io_state *s, int fd, uint64_t len);

/*
 * With direct on: whether the filesystem honours O_DIRECT on fd, which
 * has O_DIRECT set and whose first block is the worker's to write. Some
 * file systems take O_DIRECT and serve it through the page cache anyway
 * (fscrypt without inline encryption, some FUSE and network file
 * systems): one block is written with O_DIRECT and flushed, and mincore()
 * says whether its pages are resident. Sets s->paged; worker 0 notes
 * "direct" (honoured, or not) and, when not, warns "O_DIRECT not
 * honoured: page-cache figures", which every report shows beside the
 * figure. Returns 0, or -errno when the block could not be written.
 */
int io_direct_check(struct io_state *s, int fd);

/* ", O_DIRECT" for the text note of a case with direct on and honoured. */
const char *io_direct_text(const struct io_state *s);

/*
 * ", page cache only" for the text note of a write case whose figure
 * never waits for the device (fsync = none, no direct); "" otherwise.
 */
const char *io_write_text(const struct io_state *s);

/* fmt.c ------------------------------------------------------------------ */

/* bytes as "35.33GiB", "64.00KiB", "512B". */
void io_fmt_size(uint64_t bytes, char *buf, size_t len);

/* A decimal note: key = value. */
void io_note_u64(const struct io_state *s, const char *key, uint64_t value);

#endif
