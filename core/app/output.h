/*
 * Report output that is never left half written: --output FILE is written
 * to a temporary file beside it and renamed over FILE only when complete.
 */
#ifndef HB_CORE_APP_OUTPUT_H
#define HB_CORE_APP_OUTPUT_H

#include <stddef.h>
#include <stdio.h>

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

#endif
