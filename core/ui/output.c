/* SPDX-License-Identifier: Apache-2.0 */
/* Report output: a temporary file renamed into place, or a direct write. */
#include "ui/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "base/exit.h"
#include "base/fspath.h"
#include "base/util.h"

/* The process umask, read without changing it for long. */
static mode_t output_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

/*
 * The descriptor a path names by itself (/dev/stdout, /dev/fd/1,
 * /proc/self/fd/1, ...), or -1. Opening such a path would start a new
 * file description (and lose an O_APPEND of the shell's >>).
 */
static int named_fd(const char *path)
{
	static const char *const prefixes[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long n;

	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(*prefixes); i++) {
		size_t len = strlen(prefixes[i]);

		if (strncmp(path, prefixes[i], len) != 0 || !path[len])
			continue;
		errno = 0;
		n = strtol(path + len, &end, 10);
		if (!*end && !errno && n >= 0 && n <= INT_MAX)
			return (int)n;
	}
	return -1;
}

/* o->fp over a copy of descriptor fd, written directly. 0 or -errno. */
static int open_fd(struct output *o, int fd)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);

	if (copy < 0)
		return -errno;
	o->fp = fdopen(copy, "w");
	if (!o->fp) {
		close(copy);
		return -errno;
	}
	return 0;
}

/* Whether st is the null device, the one device a report may go to. */
static int is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && st->st_rdev == makedev(1, 3);
}

/* The null device at o->at, opened as it is. 0 or -errno. */
static int open_null(struct output *o)
{
	int fd = openat(o->at.dirfd, o->at.name,
			O_WRONLY | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW |
				O_CLOEXEC),
	    rc;
	struct stat st;

	if (fd < 0)
		return -errno;
	/* what was opened is what was judged, not a FIFO put there since */
	rc = fstat(fd, &st) ? -errno
	     : is_null_device(&st) && st.st_ino == o->at.st.st_ino
		     ? open_fd(o, fd)
		     : -EAGAIN;
	close(fd);
	return rc;
}

/* Give the copy fd the owner of old; only root may give a file away. */
static void keep_owner(int fd, const struct stat *old)
{
	int rc = 0;

	if (old->st_uid != geteuid() || old->st_gid != getegid())
		rc = fchown(fd, old->st_uid, old->st_gid);
	(void)rc; /* not root: the new file is the writer's own */
}

/*
 * A temporary file beside the final name, with the mode and owner of old
 * (the file it replaces), or those a plain fopen would give when old is
 * NULL.
 */
static int open_temporary(struct output *o, const struct stat *old)
{
	int fd = fspath_temporary(&o->at, 0600, &o->tmp), rc;

	if (fd < 0)
		return fd;
	/* the owner first: chown clears the set-id bits of the mode */
	if (old)
		keep_owner(fd, old);
	fchmod(fd, old ? old->st_mode & 07777 : 0666 & ~output_umask());
	o->fp = fdopen(fd, "w");
	if (o->fp)
		return 0;
	rc = -errno;
	close(fd);
	unlinkat(o->at.dirfd, o->tmp, 0);
	free(o->tmp);
	o->tmp = NULL;
	return rc;
}

/*
 * What the walked o->at is, links followed under the protected_symlinks
 * rule: OUTPUT_NEW for a new name, OUTPUT_FILE for a regular file that
 * may be replaced, OUTPUT_NULL for the null device, or a negative errno
 * for anything else (why filled when the errno's words are not enough).
 */
enum { OUTPUT_NEW, OUTPUT_FILE, OUTPUT_NULL };

static int judge_path(struct output *o, const char *path, char *why, size_t len)
{
	const struct stat *st = &o->at.st;
	int rc = fspath_walk(&o->at, path, FSPATH_FOLLOW, why, len);

	if (rc)
		return rc;
	if (!st->st_mode)
		return OUTPUT_NEW;
	if (S_ISDIR(st->st_mode))
		return -EISDIR;
	if (S_ISREG(st->st_mode))
		return (rc = fspath_check_owner(&o->at, geteuid(), why, len))
			       ? rc
			       : OUTPUT_FILE;
	if (is_null_device(st))
		return OUTPUT_NULL;
	return hb_errorf(why, len, -EINVAL,
			 "not a regular file (a device, FIFO or socket is "
			 "never written)");
}

/*
 * Open what judge_path() found: a regular file or a new name gets a
 * temporary file, the null device is written directly.
 */
static int open_path(struct output *o, const char *path, char *why, size_t len)
{
	int rc = judge_path(o, path, why, len);

	if (rc == OUTPUT_NEW)
		return open_temporary(o, NULL);
	if (rc == OUTPUT_FILE)
		return open_temporary(o, &o->at.st);
	return rc == OUTPUT_NULL ? open_null(o) : rc;
}

/* The error of output_open() and output_check(): "--output PATH: why". */
static void output_error(struct output *o, int rc, const char *why, char *err,
			 size_t errlen)
{
	hb_error_fill(err, errlen, "--output %s: %s", o->path,
		      *why ? why : strerror(-rc));
	fspath_free(&o->at);
	memset(o, 0, sizeof(*o));
}

int output_check(const char *path, char *err, size_t errlen)
{
	struct output o = { .path = path, .at = { .dirfd = -1 } };
	char why[512] = "";
	int rc;

	if (!path || named_fd(path) >= 0)
		return 0;
	rc = judge_path(&o, path, why, sizeof(why));
	if (rc < 0) {
		output_error(&o, rc, why, err, errlen);
		return rc;
	}
	fspath_free(&o.at);
	return 0;
}

int output_open(struct output *o, const char *path, char *err, size_t errlen)
{
	char why[512] = "";
	int fd, rc;

	memset(o, 0, sizeof(*o));
	o->at.dirfd = -1;
	if (!path) {
		o->fp = stdout;
		return 0;
	}
	o->path = path;
	fd = named_fd(path);
	rc = fd >= 0 ? open_fd(o, fd) : open_path(o, path, why, sizeof(why));
	if (!rc)
		return 0;
	output_error(o, rc, why, err, errlen);
	return rc;
}

/*
 * The finished report at o->tmp could not take the final name (another
 * user's file came there in a shared directory): it stays where it is,
 * and err says where.
 */
static void keep_temporary(struct output *o, int rc, char *err, size_t errlen)
{
	char *kept = fspath_join(&o->at, o->tmp);

	hb_error_fill(err, errlen, "--output %s: %s; the report is kept in %s",
		      o->path, strerror(-rc), kept ? kept : o->tmp);
	free(kept);
	free(o->tmp);
	o->tmp = NULL;
}

int output_commit(struct output *o, char *err, size_t errlen)
{
	int rc = 0;

	if (!o->path)
		return fflush(stdout) ? -errno : 0;
	/* fsync fails with EINVAL on pipes and terminals: nothing to keep */
	if (fflush(o->fp) || (o->tmp && fsync(fileno(o->fp))))
		rc = -errno;
	if (fclose(o->fp) && !rc)
		rc = -errno;
	o->fp = NULL;
	if (rc)
		hb_error_fill(err, errlen, "--output %s: %s", o->path,
			      strerror(-rc));
	else if (o->tmp &&
		 renameat(o->at.dirfd, o->tmp, o->at.dirfd, o->at.name))
		keep_temporary(o, rc = -errno, err, errlen);
	else
		free(o->tmp);
	if (!rc)
		o->tmp = NULL;
	output_abort(o);
	return rc;
}

void output_abort(struct output *o)
{
	if (!o->path)
		return;
	if (o->fp)
		fclose(o->fp);
	if (o->tmp)
		unlinkat(o->at.dirfd, o->tmp, 0);
	free(o->tmp);
	fspath_free(&o->at);
	memset(o, 0, sizeof(*o));
}

int output_finish(struct output *o, enum report_format f, output_writer *write,
		  const void *doc)
{
	char err[1024];
	int rc = write(doc, f, o->fp, err, sizeof(err));

	if (!rc)
		rc = output_commit(o, err, sizeof(err));
	else
		output_abort(o);
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	return rc;
}

int output_write(const char *path, enum report_format f, output_writer *write,
		 const void *doc, int *opened)
{
	char err[1024];
	struct output out;
	int rc = output_open(&out, path, err, sizeof(err));

	if (opened)
		*opened = rc == 0;
	if (rc) {
		fprintf(stderr, "hostbench: %s\n", err);
		return rc;
	}
	return output_finish(&out, f, write, doc);
}

int output_write_status(const char *path, enum report_format f,
			output_writer *write, const void *doc)
{
	int opened;
	int rc = output_write(path, f, write, doc, &opened);

	if (!rc)
		return EXIT_ALL_OK;
	return opened || rc == -ENOMEM ? EXIT_INTERNAL : EXIT_BAD_INPUT;
}
