/* Atomic report output: temporary file, then rename. */
#define _GNU_SOURCE /* asprintf */
#include "app/output.h"

#include <errno.h>
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

int output_open(struct output *o, const char *path, char *err, size_t errlen)
{
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path) {
		o->fp = stdout;
		return 0;
	}
	o->path = path;
	if (asprintf(&o->tmp, "%s.tmp-XXXXXX", path) < 0) {
		o->tmp = NULL;
		return hb_errorf(err, errlen, -ENOMEM, "--output %s: %s", path,
				 strerror(ENOMEM));
	}
	fd = mkstemp(o->tmp);
	if (fd < 0)
		goto fail_tmp;
	fchmod(fd, 0666 & ~output_umask()); /* as a plain fopen would */
	o->fp = fdopen(fd, "w");
	if (!o->fp) {
		close(fd);
		unlink(o->tmp);
		goto fail_tmp;
	}
	return 0;

fail_tmp:
	fd = -errno;
	hb_error_fill(err, errlen, "--output %s: %s", path, strerror(-fd));
	free(o->tmp);
	o->tmp = NULL;
	return fd;
}

int output_commit(struct output *o, char *err, size_t errlen)
{
	int rc = 0;

	if (!o->path)
		return fflush(stdout) ? -errno : 0;
	if (fflush(o->fp) || fsync(fileno(o->fp)))
		rc = -errno;
	if (fclose(o->fp) && !rc)
		rc = -errno;
	o->fp = NULL;
	if (!rc && rename(o->tmp, o->path))
		rc = -errno;
	if (rc) {
		if (o->tmp)
			unlink(o->tmp);
		hb_error_fill(err, errlen, "--output %s: %s", o->path,
			      strerror(-rc));
	}
	free(o->tmp);
	o->tmp = NULL;
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
	memset(o, 0, sizeof(*o));
}

int output_write(const char *path, enum report_format f, output_writer *write,
		 const void *doc, int *opened)
{
	char err[1024];
	struct output out;
	int rc = output_open(&out, path, err, sizeof(err));

	if (opened)
		*opened = rc == 0;
	if (!rc) {
		rc = write(doc, f, out.fp, err, sizeof(err));
		if (!rc)
			rc = output_commit(&out, err, sizeof(err));
		else
			output_abort(&out);
	}
	if (rc)
		fprintf(stderr, "hostbench: %s\n", err);
	return rc;
}
