/*
 * Report output that is never left half written: --output FILE is written
 * to a temporary file beside it and renamed over FILE only when complete.
 */
#ifndef HB_CORE_APP_OUTPUT_H
#define HB_CORE_APP_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

#include "report/report.h"

/* An output stream: stdout, or a temporary file to be renamed. */
struct output {
	FILE *fp;
	const char *path; /* final name, NULL for stdout */
	char *tmp;	  /* temporary name, NULL for stdout */
};

/*
 * Open path for writing (NULL: stdout). The temporary file is created in
 * the same directory, so the rename is atomic. Returns 0 or a negative
 * errno with "--output PATH: reason" in err.
 */
int output_open(struct output *o, const char *path, char *err, size_t errlen);

/* Flush, close and rename into place. Returns 0 or a negative errno. */
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
 * Write one document to path (NULL: stdout) whole or not at all:
 * output_open(), write(doc, f, ...), then output_commit(), or
 * output_abort() when write fails. A failure is printed as one line,
 * "hostbench: <why>", on stderr. Returns 0 or the failing step's negative
 * code; *opened (when not NULL) says whether output_open() succeeded, for
 * the commands whose exit status tells the two apart.
 */
int output_write(const char *path, enum report_format f, output_writer *write,
		 const void *doc, int *opened);

#endif
