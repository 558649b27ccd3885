/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Report output that is never left half written, never replaces what it
 * should not, and never goes where another user's link points. --output
 * FILE, when FILE is a regular file of yours or a new name, is written to
 * a temporary file beside it and renamed over FILE only when complete
 * (keeping FILE's mode and owner); the null device and /dev/stdout are
 * written directly; a symbolic link is followed under the kernel's
 * protected_symlinks rule (base/fspath.h); anything else is refused. The
 * output is opened before anything is measured, so a bad path costs
 * nothing (docs/usage.md).
 */
#ifndef HB_CORE_UI_OUTPUT_H
#define HB_CORE_UI_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "base/fspath.h"
#include "report/report.h"

/* An output stream: stdout, a file written directly, or a temporary one. */
struct output {
	FILE *fp;
	const char *path; /* --output as given, NULL for stdout */
	struct fspath at; /* where tmp is renamed to (links followed) */
	char *tmp;	  /* temporary name in at.dir, NULL when direct */
};

/*
 * Open path for writing (NULL: stdout). A regular file or a new name gets
 * a temporary file in the same directory (so the rename is atomic), with
 * the old file's mode and owner; in a shared directory (sticky, or
 * writable by others, as /tmp) a file there must be yours. The null
 * device is opened as it is; /dev/stdout, /dev/stderr, /dev/fd/N and
 * /proc/self/fd/N write to that descriptor; a symbolic link is followed
 * under fspath_walk()'s rule (one to nothing is refused); a directory,
 * another device, a FIFO or a socket is refused (never opened, so a FIFO
 * cannot block). Returns 0 or a negative errno with "--output PATH:
 * reason" in err.
 */
int output_open(struct output *o, const char *path, char *err, size_t errlen);

/*
 * Judge path as output_open() would, and create nothing: for the
 * commands that work first and write after, so a path output_open()
 * would refuse is refused before any work. Returns 0 or a negative errno
 * with "--output PATH: reason" in err.
 */
int output_check(const char *path, char *err, size_t errlen);

/*
 * Flush and close; rename the temporary file into place. Returns 0 or a
 * negative errno with the reason in err. When the final name cannot be
 * taken (another user's file came there in a sticky directory), the
 * finished report stays under its temporary name and err says where.
 */
int output_commit(struct output *o, char *err, size_t errlen);

/* Close and remove the temporary file; the old FILE, if any, stays. */
void output_abort(struct output *o);

/*
 * Writes doc in format f to out, as compare_write() does. Returns 0, or a
 * negative code with a one-line message in err.
 */
typedef int output_writer(const void *doc, enum report_format f, FILE *out,
			  char *err, size_t errlen);

/*
 * Write one document to the open output o whole or not at all:
 * write(doc, f, ...), then output_commit(), or output_abort() when write
 * fails. A failure is printed as one line, "hostbench: <why>", on stderr.
 * Returns 0 or the failing step's negative code.
 */
int output_finish(struct output *o, enum report_format f, output_writer *write,
		  const void *doc);

/*
 * output_open() path, then output_finish(). A failure to open is printed
 * too. Returns 0 or the failing step's negative code; *opened (when not
 * NULL) says whether output_open() succeeded, for the commands whose exit
 * status tells the two apart.
 */
int output_write(const char *path, enum report_format f, output_writer *write,
		 const void *doc, int *opened);

/*
 * output_write() as a command's exit status: 0 when written, bad input
 * (2) when path cannot be opened, else internal (3).
 */
int output_write_status(const char *path, enum report_format f,
			output_writer *write, const void *doc);

#endif
