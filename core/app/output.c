/* SPDX-License-Identifier: Apache-2.0 */
/* Report output: a temporary file renamed into place, or a direct write. */
#define _GNU_SOURCE /* asprintf */
#include "app/output.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

/* A device, FIFO or socket, opened for writing as it is. 0 or -errno. */
static int open_direct(struct output *o, const char *path)
{
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = open_fd(o, fd);
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
 * A temporary file beside o->final, with the mode and owner of old (the
 * file it replaces), or those a plain fopen would give when old is NULL.
 */
static int open_temporary(struct output *o, const struct stat *old)
{
	char *tmp;
	int fd, rc;

	if (asprintf(&tmp, "%s.tmp-XXXXXX", o->final) < 0)
		return -ENOMEM;
	fd = mkstemp(tmp);
	if (fd < 0) {
		rc = -errno;
		free(tmp);
		return rc;
	}
	o->tmp = tmp;
	/* the owner first: chown clears the set-id bits of the mode */
	if (old)
		keep_owner(fd, old);
	fchmod(fd, old ? old->st_mode & 07777 : 0666 & ~output_umask());
	o->fp = fdopen(fd, "w");
	if (o->fp)
		return 0;
	rc = -errno;
	close(fd);
	unlink(o->tmp);
	free(o->tmp);
	o->tmp = NULL;
	return rc;
}

/* What path is, links followed: then the file, the device or a new name. */
static int open_path(struct output *o, const char *path)
{
	struct stat st;

	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		o->final = realpath(path, NULL);
		if (!o->final)
			return errno == ENOENT ? -ENOLINK : -errno;
		if (stat(o->final, &st))
			return -errno;
	} else {
		o->final = strdup(path);
		if (!o->final)
			return -ENOMEM;
		if (lstat(path, &st))
			return errno == ENOENT ? open_temporary(o, NULL)
					       : -errno;
	}
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (S_ISREG(st.st_mode))
		return open_temporary(o, &st);
	return open_direct(o, o->final);
}

int output_open(struct output *o, const char *path, char *err, size_t errlen)
{
	int fd, rc;

	memset(o, 0, sizeof(*o));
	if (!path) {
		o->fp = stdout;
		return 0;
	}
	o->path = path;
	fd = named_fd(path);
	rc = fd >= 0 ? open_fd(o, fd) : open_path(o, path);
	if (!rc)
		return 0;
	hb_error_fill(err, errlen, "--output %s: %s", path,
		      rc == -ENOLINK ? "a symbolic link to nothing"
				     : strerror(-rc));
	free(o->final);
	memset(o, 0, sizeof(*o));
	return rc;
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
	if (!rc && o->tmp && rename(o->tmp, o->final))
		rc = -errno;
	if (rc) {
		if (o->tmp)
			unlink(o->tmp);
		hb_error_fill(err, errlen, "--output %s: %s", o->path,
			      strerror(-rc));
	}
	free(o->tmp);
	free(o->final);
	memset(o, 0, sizeof(*o));
	return rc;
}

void output_abort(struct output *o)
{
	if (!o->path)
		return;
	if (o->fp)
		fclose(o->fp);
	if (o->tmp)
		unlink(o->tmp);
	free(o->tmp);
	free(o->final);
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
