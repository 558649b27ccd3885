/* SPDX-License-Identifier: Apache-2.0 */
/*
 * transfer/command: time an external command that moves a known amount of
 * data, such as scp of a file to 127.0.0.1:/dev/null. One iteration is one
 * whole run of the command, reported as file_size bytes and one operation.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "argv.h"
#include "protocol/err.h"
#include "session.h"
#include "spawn.h"
#include "transfer.h"

/* Random data is written in pieces of this size. */
#define FILL_CHUNK (1024 * 1024)

/* The end of stderr read for ssh's report (spawn keeps a kilobyte). */
#define SESSION_TAIL 1100

struct command {
	struct transfer_state base;
	const struct hb_case *c;
	struct words argv; /* expanded, ready to run */
	char *path;	   /* {file}, or NULL when the command has none */
	uint64_t file_size;
	double timeout;
	int by_ssh; /* timed_by = ssh: the figure is over ssh's session */
};

/* Placeholder values: {file}, {worker}, else any parameter of the case. */
struct lookup_ctx {
	const struct hb_case *c;
	const char *file;
	char worker[16];
	int uses_file;
};

static const char *lookup(void *ctx, const char *name)
{
	struct lookup_ctx *l = ctx;

	if (strcmp(name, "file") == 0) {
		l->uses_file = 1;
		return l->file;
	}
	if (strcmp(name, "worker") == 0)
		return l->worker;
	return l->c->host->get_str(l->c, name);
}

/* Expand every word of tmpl into out. */
static int expand_all(const struct words *tmpl, struct lookup_ctx *l,
		      struct words *out, char *err, size_t errlen)
{
	int rc = 0;

	out->w = calloc(tmpl->n + 1, sizeof(char *));
	if (!out->w)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	for (out->n = 0; out->n < tmpl->n && rc == 0; out->n++) {
		rc = argv_expand(tmpl->w[out->n], lookup, l, &out->w[out->n],
				 err, errlen);
		if (rc)
			break;
	}
	if (rc)
		words_free(out);
	return rc;
}

/* 64 random bits per call: xoshiro-style state, seeded from the kernel. */
static uint64_t next_random(uint64_t s[2])
{
	uint64_t a = s[0], b = s[1], r = a + b;

	b ^= a;
	s[0] = ((a << 24) | (a >> 40)) ^ b ^ (b << 16);
	s[1] = (b << 37) | (b >> 27);
	return r;
}

/*
 * Create a file of size random bytes in dir (incompressible, so no link or
 * cipher gets an easy ride). Sets *path; removes the file on failure.
 */
static int make_file(const char *dir, uint64_t size, char **path, char *err,
		     size_t errlen)
{
	uint64_t seed[2], *chunk;
	size_t len = strlen(dir) + 64;
	int fd, rc = 0;

	*path = malloc(len);
	chunk = malloc(FILL_CHUNK);
	if (!*path || !chunk) {
		rc = hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
		goto out_free;
	}
	/* the core removes .hostbench-PID-* files of a case that crashed */
	snprintf(*path, len, "%s/.hostbench-%ld-transfer-XXXXXX", dir,
		 (long)getpid());
	fd = mkstemp(*path);
	if (fd < 0) {
		rc = hb_errorf(err, errlen, HB_EIO, "create file in %s: %s",
			       dir, strerror(errno));
		goto out_free;
	}
	if (getrandom(seed, sizeof(seed), 0) != sizeof(seed))
		seed[0] = (uint64_t)getpid(), seed[1] = 0x9e3779b97f4a7c15u;
	for (uint64_t left = size; left && rc == 0;) {
		size_t n = left < FILL_CHUNK ? (size_t)left : FILL_CHUNK;

		for (size_t i = 0; i < FILL_CHUNK / 8; i++)
			chunk[i] = next_random(seed);
		if (write(fd, chunk, n) != (ssize_t)n)
			rc = hb_errorf(err, errlen, HB_EIO, "write %s: %s",
				       *path,
				       errno ? strerror(errno) : "short write");
		left -= n;
	}
	if (close(fd) && rc == 0)
		rc = hb_errorf(err, errlen, HB_EIO, "close %s: %s", *path,
			       strerror(errno));
	if (rc)
		unlink(*path);
out_free:
	free(chunk);
	if (rc) {
		free(*path);
		*path = NULL;
	}
	return rc;
}

/* Tell the core the session time ssh reported in tail (timed_by = ssh). */
static int session_told(struct command *s, const char *tail, char *err,
			size_t errlen)
{
	double seconds;

	if (session_seconds(tail, strlen(tail), &seconds))
		return hb_errorf(err, errlen, HB_EFAIL,
				 "timed_by = ssh: no \"Bytes per second: "
				 "sent\" report of ssh -v at the end of the "
				 "command's stderr");
	s->c->host->tool_time(s->c, seconds);
	return 0;
}

static int command_run(void *state, uint64_t iterations, struct hb_done *done,
		       char *err, size_t errlen)
{
	struct command *s = state;
	char tail[SESSION_TAIL];

	for (uint64_t i = 0; i < iterations; i++) {
		int rc = spawn_run(s->argv.w, s->timeout, tail, sizeof(tail),
				   err, errlen);

		if (!rc && s->by_ssh)
			rc = session_told(s, tail, err, errlen);
		if (rc)
			return rc;
		done->bytes += s->file_size;
		done->ops++;
	}
	return 0;
}

static void command_teardown(void *state)
{
	struct command *s = state;

	if (s->path)
		unlink(s->path);
	free(s->path);
	words_free(&s->argv);
	free(s);
}

static const struct transfer_ops command_ops = {
	.run = command_run,
	.teardown = command_teardown,
};

/*
 * Check that argv[0] names an executable (in PATH when it has no slash),
 * so a misspelt command fails before any file is made or anything runs.
 */
static int find_program(const char *name, char *err, size_t errlen)
{
	const char *path = getenv("PATH");
	char full[4096];

	if (strchr(name, '/'))
		return access(name, X_OK) == 0
			       ? 0
			       : hb_errorf(err, errlen, HB_EINVAL,
					   "command %s: cannot run: %s", name,
					   strerror(errno));
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t len = strcspn(p, ":");

		snprintf(full, sizeof(full), "%.*s/%s", (int)len, len ? p : ".",
			 name);
		if (access(full, X_OK) == 0)
			return 0;
		p += len + (p[len] == ':');
	}
	return hb_errorf(err, errlen, HB_EINVAL,
			 "command %s: not found in PATH (is it installed?)",
			 name);
}

/* The directory for {file}: file_dir, else $TMPDIR, else /tmp. */
static const char *file_dir(const struct hb_case *c)
{
	const char *d = c->host->get_str(c, "file_dir");

	if (d && d[0])
		return d;
	d = getenv("TMPDIR");
	return d && d[0] ? d : "/tmp";
}

/* The command line as a note: words joined by blanks. */
static void note_command(const struct hb_case *c, const struct words *w)
{
	char line[512];
	size_t o = 0;

	line[0] = '\0';
	for (size_t i = 0; i < w->n && o < sizeof(line); i++)
		o += (size_t)snprintf(line + o, sizeof(line) - o, "%s%s",
				      i ? " " : "", w->w[i]);
	c->host->note(c, "command", line);
}

/*
 * Split the command template and fill every {name} but {file}: unknown
 * names and a program not on PATH are errors. tmpl and out are the
 * caller's to free, also on error.
 */
static int command_prepare(const struct hb_case *c, struct lookup_ctx *l,
			   struct words *tmpl, struct words *out, char *err,
			   size_t errlen)
{
	int rc = argv_split(c->host->get_str(c, "command"), tmpl, err, errlen);

	if (rc == 0)
		rc = expand_all(tmpl, l, out, err, errlen);
	if (rc == 0 && out->n) /* argv_split never gives an empty command */
		rc = find_program(out->w[0], err, errlen);
	return rc;
}

/*
 * Check, creating nothing, that dir can hold {file}: it exists, is a
 * directory, and this user may create files in it.
 */
static int dir_check(const char *dir, char *err, size_t errlen)
{
	struct stat st;

	if (stat(dir, &st) != 0)
		return hb_errorf(err, errlen, HB_EINVAL, "file_dir %s: %s", dir,
				 strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return hb_errorf(err, errlen, HB_EINVAL,
				 "file_dir %s: not a directory", dir);
	if (access(dir, W_OK | X_OK) != 0)
		return hb_errorf(err, errlen, HB_EINVAL, "file_dir %s: %s", dir,
				 strerror(errno));
	return 0;
}

/*
 * Skip, as the io plugin does, when dir has less free space than the files
 * of this worker and of those set up after it (bytes each) need.
 */
static int dir_room(const struct hb_case *c, const char *dir, uint64_t bytes,
		    char *err, size_t errlen)
{
	uint64_t need, avail;
	struct statvfs vfs;

	if (statvfs(dir, &vfs) != 0)
		return hb_errorf(err, errlen, HB_EIO, "file_dir %s: %s", dir,
				 strerror(errno));
	avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	if (__builtin_mul_overflow(bytes, c->workers - c->worker, &need))
		need = UINT64_MAX;
	if (avail >= need)
		return 0;
	return hb_errorf(err, errlen, HB_SKIP,
			 "free space %llu bytes at %s, the case writes %llu",
			 (unsigned long long)avail, dir,
			 (unsigned long long)need);
}

/* Nonzero when timed_by is ssh. */
static int timed_by_ssh(const struct hb_case *c)
{
	const char *by = c->host->get_str(c, "timed_by");

	return by && strcmp(by, "ssh") == 0;
}

/*
 * timed_by = ssh reads what ssh -v prints: some word of argv asks for it
 * ("-v", "-vv", "-Bv"), or the run would fail on its first copy.
 */
static int verbose_check(const struct words *argv, char *err, size_t errlen)
{
	for (size_t i = 1; i < argv->n; i++) {
		const char *w = argv->w[i];

		if (w[0] == '-' && w[1] != '-' && strchr(w, 'v') &&
		    strspn(w + 1,
			   "abcdefghijklmnopqrstuvwxyz"
			   "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == strlen(w + 1))
			return 0;
	}
	return hb_errorf(err, errlen, HB_EINVAL,
			 "timed_by = ssh reads ssh's own report of the "
			 "session: add -v to the command (scp -v ...)");
}

int command_validate(const struct hb_case *c, char *err, size_t errlen)
{
	struct lookup_ctx l = { .c = c, .file = "" };
	struct words tmpl = { 0 }, argv = { 0 };
	int rc = command_prepare(c, &l, &tmpl, &argv, err, errlen);

	if (rc == 0 && timed_by_ssh(c))
		rc = verbose_check(&argv, err, errlen);
	if (rc == 0 && l.uses_file)
		rc = dir_check(file_dir(c), err, errlen);
	words_free(&argv);
	words_free(&tmpl);
	return rc;
}

int command_setup(const struct hb_case *c, void **state, char *err,
		  size_t errlen)
{
	struct command *s = calloc(1, sizeof(*s));
	struct lookup_ctx l = { .c = c, .file = "" };
	struct words tmpl = { 0 };
	int rc;

	if (!s)
		return hb_errorf(err, errlen, HB_ENOMEM, "out of memory");
	s->base.ops = &command_ops;
	s->c = c;
	s->by_ssh = timed_by_ssh(c);
	s->file_size = c->host->get_size(c, "file_size");
	s->timeout = c->host->get_duration(c, "command_timeout");
	snprintf(l.worker, sizeof(l.worker), "%u", c->worker);
	/* A first pass finds unknown {names} before any file is made. */
	rc = command_prepare(c, &l, &tmpl, &s->argv, err, errlen);
	if (rc)
		goto out_tmpl;
	if (l.uses_file) {
		words_free(&s->argv);
		rc = dir_room(c, file_dir(c), s->file_size, err, errlen);
		if (rc)
			goto out_tmpl;
		rc = make_file(file_dir(c), s->file_size, &s->path, err,
			       errlen);
		if (rc)
			goto out_tmpl;
		l.file = s->path;
		rc = expand_all(&tmpl, &l, &s->argv, err, errlen);
		if (rc)
			goto out_tmpl;
	}
	words_free(&tmpl);
	if (c->worker == 0)
		note_command(c, &s->argv);
	if (c->worker == 0 && s->by_ssh)
		c->host->note(c, "timed_by", "ssh's session (ssh -v)");
	*state = s;
	return 0;
out_tmpl:
	words_free(&tmpl);
	command_teardown(s);
	return rc;
}
