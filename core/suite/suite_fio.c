/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fio job file read into io jobs (suite_fio.h): [global] inherited by
 * the jobs after it, each job's keys checked against what the io plugin
 * can do, then written out as a hostbench suite.
 */
#include "suite/suite_fio.h"

#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/util.h"

/* The longest line, section name or value read (inih's bound). */
#define FIO_LINE 200

/* One fio job as its keys left it ([global]'s first). */
struct fio_job {
	char section[FIO_LINE + 1]; /* the section, or its name= */
	char rw[16];		    /* "read" (fio's default) or "write" */
	char dir[FIO_LINE + 1];
	uint64_t bs, size, filesize, nrfiles, numjobs;
	int direct, fsync, end_fsync, invalidate; /* -1: not given */
	double runtime;				  /* seconds, 0: not given */
};

/* Where a key was read, for messages. */
struct fio_at {
	const char *file;
	size_t line;
	const char *section;
	const char *key;
};

/* "FILE:LINE: [SECTION] KEY: " then fmt's text, as -EINVAL. */
static int refuse(const struct fio_at *at, char *err, size_t errlen,
		  const char *why, const char *value)
{
	return hb_errorf(err, errlen, -EINVAL, "%s:%zu: [%s] %s: %s%s%s%s",
			 at->file, at->line, at->section, at->key, why,
			 value ? " (\"" : "", value ? value : "",
			 value ? "\")" : "");
}

/* A size ("1m", "64k", fio's and ours alike: powers of 1024) into *out. */
static int fio_size(const char *v, uint64_t *out)
{
	return parse_size(v, out, NULL, 0) || !*out ? -EINVAL : 0;
}

/* A whole number of at least 1 into *out. */
static int fio_count(const char *v, uint64_t *out)
{
	int64_t n;

	if (parse_int(v, &n, NULL, 0) || n < 1 || n > 1000000)
		return -EINVAL;
	*out = (uint64_t)n;
	return 0;
}

/* A flag: no value is 1, else 0 or 1. */
static int fio_flag(const char *v, int *out)
{
	int64_t n = 1;

	if (*v && (parse_int(v, &n, NULL, 0) || n < 0 || n > 1))
		return -EINVAL;
	*out = (int)n;
	return 0;
}

/* Set key k of job j to v; -EINVAL with the reason in *why. */
static int fio_set(struct fio_job *j, const char *k, const char *v,
		   const char **why)
{
	*why = "one size (4k, 1m, 8g) for reads and writes alike";
	if (strcmp(k, "bs") == 0 || strcmp(k, "blocksize") == 0)
		return fio_size(v, &j->bs);
	if (strcmp(k, "size") == 0)
		return fio_size(v, &j->size);
	if (strcmp(k, "filesize") == 0)
		return fio_size(v, &j->filesize);
	*why = "not a whole number from 1";
	if (strcmp(k, "nrfiles") == 0)
		return fio_count(v, &j->nrfiles);
	if (strcmp(k, "numjobs") == 0)
		return fio_count(v, &j->numjobs);
	*why = "expected 0 or 1";
	if (strcmp(k, "direct") == 0)
		return fio_flag(v, &j->direct);
	if (strcmp(k, "end_fsync") == 0)
		return fio_flag(v, &j->end_fsync);
	if (strcmp(k, "invalidate") == 0)
		return fio_flag(v, &j->invalidate);
	if (strcmp(k, "time_based") == 0)
		return fio_flag(v, &(int){ 0 });
	if (strcmp(k, "fsync") == 0) {
		*why = "0 or 1 only: hostbench syncs after every block or "
		       "never";
		return fio_flag(v, &j->fsync);
	}
	*why = "a sequential read or write only (read, write)";
	if (strcmp(k, "rw") == 0 || strcmp(k, "readwrite") == 0) {
		if (strcmp(v, "read") != 0 && strcmp(v, "write") != 0)
			return -EINVAL;
		snprintf(j->rw, sizeof(j->rw), "%s", v);
		return 0;
	}
	*why = "sync or psync only (one blocking call at a time)";
	if (strcmp(k, "ioengine") == 0)
		return strcmp(v, "sync") != 0 && strcmp(v, "psync") != 0
			       ? -EINVAL
			       : 0;
	*why = "not a duration (60, 60s, 2m)";
	if (strcmp(k, "runtime") ==
	    0) /* fio's bare number is seconds, ours too */
		return parse_duration(v, &j->runtime, NULL, 0) ? -EINVAL : 0;
	*why = "one directory (no ':' list)";
	if (strcmp(k, "directory") == 0) {
		if (!*v || strchr(v, ':'))
			return -EINVAL;
		snprintf(j->dir, sizeof(j->dir), "%s", v);
		return 0;
	}
	*why = "a name";
	if (strcmp(k, "name") == 0) {
		if (!*v || strpbrk(v, "[]"))
			return -EINVAL;
		snprintf(j->section, sizeof(j->section), "%s", v);
		return 0;
	}
	*why = "not something hostbench's io plugin can do";
	return -ENOENT;
}

/* The io target of job j: small files, or one large file per worker. */
static const char *fio_target(const struct fio_job *j)
{
	if (j->nrfiles > 1)
		return "io/small-files";
	return strcmp(j->rw, "write") != 0 ? "io/seq-read" : "io/seq-write";
}

/* The keys of j that only some io targets take, as those targets do. */
static void fio_emit_sync(const struct fio_job *j, FILE *out)
{
	if (strcmp(j->rw, "write") == 0)
		fprintf(out, "fsync = %s\n",
			j->fsync == 1	    ? "each"
			: j->end_fsync == 1 ? "end"
					    : "none");
	else if (j->invalidate == 0)
		fprintf(out, "cache = true\n");
	if (j->runtime > 0)
		fprintf(out, "duration = %.17gs\nrepetitions = 5\nwarmup = 0\n",
			j->runtime / 5);
}

/* Job j as a hostbench job; -EINVAL when it says no size. */
static int fio_emit(const struct fio_job *j, const struct fio_at *at, FILE *out,
		    char *err, size_t errlen)
{
	int small = j->nrfiles > 1;
	uint64_t file = j->filesize ? j->filesize
			: small	    ? j->size / j->nrfiles
				    : j->size;

	if (!file)
		return refuse(&(struct fio_at){ at->file, at->line, j->section,
						"size" },
			      err, errlen,
			      "fio needs the job's size (size= or filesize=)",
			      NULL);
	fprintf(out, "\n[%s]\ntarget = %s\nsize = %llu\nfile_size = %llu\n",
		j->section, fio_target(j),
		(unsigned long long)(j->bs ? j->bs : 4096),
		(unsigned long long)file);
	if (small)
		fprintf(out, "files = %llu\nmode = %s\n",
			(unsigned long long)j->nrfiles, j->rw);
	fprintf(out, "parallel = %llu\ndirect = %s\n",
		(unsigned long long)(j->numjobs ? j->numjobs : 1),
		j->direct == 1 ? "true" : "false");
	if (j->dir[0])
		fprintf(out, "dir = %s\n", j->dir);
	fio_emit_sync(j, out);
	return 0;
}

/* What the reader keeps from line to line. */
struct fio_read {
	const char *file;
	struct fio_job global, job;
	int in_job;	 /* the lines go to job (else to global) */
	int any;	 /* a section was opened */
	size_t job_line; /* where the job began */
	size_t jobs;	 /* jobs written */
	FILE *out;
};

/* The line's text between its blanks, cut at a comment's start. */
static char *fio_trim(char *s)
{
	char *end;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '#' || *s == ';')
		*s = '\0';
	end = s + strlen(s);
	while (end > s && isspace((unsigned char)end[-1]))
		*--end = '\0';
	return s;
}

/* Close the job being read (if any) by writing it out. */
static int fio_close(struct fio_read *r, char *err, size_t errlen)
{
	int rc = 0;

	if (r->in_job) {
		rc = fio_emit(&r->job,
			      &(struct fio_at){ .file = r->file,
						.line = r->job_line },
			      r->out, err, errlen);
		r->jobs++;
	}
	r->in_job = 0;
	return rc;
}

/* A "[name]" line: [global] or a new job with [global]'s keys. */
static int fio_section(struct fio_read *r, char *s, size_t line, char *err,
		       size_t errlen)
{
	char *end = strchr(s, ']');

	if (!end || end[1] || end == s + 1 || strpbrk(s + 1, "[") ||
	    strchr(s + 1, '"'))
		return hb_errorf(err, errlen, -EINVAL,
				 "%s:%zu: not a section name: %.64s", r->file,
				 line, s);
	*end = '\0';
	if (fio_close(r, err, errlen))
		return -EINVAL;
	r->any = 1;
	if (strcmp(s + 1, "global") == 0)
		return 0;
	r->job = r->global;
	snprintf(r->job.section, sizeof(r->job.section), "%s", s + 1);
	r->in_job = 1;
	r->job_line = line;
	return 0;
}

/* A "key=value" or "key" line of the section being read. */
static int fio_key(struct fio_read *r, char *s, size_t line, char *err,
		   size_t errlen)
{
	struct fio_job *j = r->in_job ? &r->job : &r->global;
	char *eq = strchr(s, '='), *v = eq ? fio_trim(eq + 1) : "";
	struct fio_at at = { .file = r->file,
			     .line = line,
			     .section = r->in_job ? j->section : "global",
			     .key = s };
	const char *why;
	int rc;

	if (eq)
		*eq = '\0';
	fio_trim(s);
	if (!r->any)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s:%zu: %s: a key before any [section]",
				 r->file, line, s);
	rc = fio_set(j, s, v, &why);
	if (rc)
		return refuse(&at, err, errlen, why, rc == -EINVAL ? v : NULL);
	return 0;
}

/* Line n (its text at s, NUL-terminated) of the file. */
static int fio_line(struct fio_read *r, char *s, size_t n, char *err,
		    size_t errlen)
{
	s = fio_trim(s);
	if (!*s)
		return 0;
	if (*s == '[')
		return fio_section(r, s, n, err, errlen);
	return fio_key(r, s, n, err, errlen);
}

/* Every line of text through fio_line(), then the last job closed. */
static int fio_lines(struct fio_read *r, const char *text, size_t len,
		     char *err, size_t errlen)
{
	char line[FIO_LINE + 2];
	size_t n = 0;

	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t k = (nl ? (size_t)(nl - text) : len) - at;

		n++;
		if (k > FIO_LINE || memchr(text + at, '\0', k))
			return hb_errorf(err, errlen, -EINVAL,
					 "%s:%zu: a line longer than %d bytes "
					 "or holding a NUL",
					 r->file, n, FIO_LINE);
		memcpy(line, text + at, k);
		line[k] = '\0';
		if (fio_line(r, line, n, err, errlen))
			return -EINVAL;
		at += k + 1;
	}
	if (fio_close(r, err, errlen))
		return -EINVAL;
	if (!r->jobs)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s: a fio job file without a job section",
				 r->file);
	return 0;
}

int suite_fio_translate(const char *name, const char *text, size_t len,
			char **out, size_t *outlen, char *err, size_t errlen)
{
	struct fio_read r = {
		.file = name,
		.global = { .rw = "read",
			    .direct = -1,
			    .fsync = -1,
			    .end_fsync = -1,
			    .invalidate = -1 },
	};
	int rc;

	*out = NULL;
	r.out = open_memstream(out, outlen);
	if (!r.out)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	fprintf(r.out, "; %s, a fio job file read as io jobs\n", name);
	rc = fio_lines(&r, text, len, err, errlen);
	if (fclose(r.out) && !rc)
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	if (rc) {
		free(*out);
		*out = NULL;
	}
	return rc;
}

/* Whether line s (trimmed) sets key: "key", "key=..." or "key =...". */
static int sets_key(const char *s, size_t k, const char *key)
{
	size_t n = strlen(key);

	if (k < n || strncmp(s, key, n) != 0)
		return 0;
	while (n < k && (s[n] == ' ' || s[n] == '\t'))
		n++;
	return n == k || s[n] == '=';
}

int suite_fio_is(const char *name, const char *text, size_t len)
{
	static const char *const marks[] = {
		"rw",	   "bs",       "ioengine",   "numjobs",
		"nrfiles", "filesize", "time_based", "runtime",
		"iodepth", "filename", NULL
	};
	size_t nl = strlen(name), fio = 0;

	if (nl > 4 && strcmp(name + nl - 4, ".fio") == 0)
		return 1;
	for (size_t at = 0; at < len;) {
		const char *end = memchr(text + at, '\n', len - at);
		size_t k = (end ? (size_t)(end - text) : len) - at;
		const char *s = text + at;

		for (; k && (*s == ' ' || *s == '\t'); s++, k--)
			;
		if (sets_key(s, k, "target"))
			return 0;
		for (size_t m = 0; marks[m]; m++)
			fio += (size_t)sets_key(s, k, marks[m]);
		at = end ? (size_t)(end - text) + 1 : len;
	}
	return fio > 0;
}
