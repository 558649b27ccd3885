/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fio job files as suites (docs/suites.md, "fio job files"): the
 * sections and keys hostbench's io plugin can honour become io jobs, in
 * the suite text suite.c then loads as any other; every other key is
 * refused at its line before anything runs. Pure: text in, text out.
 */
#ifndef HB_CORE_SUITE_SUITE_FIO_H
#define HB_CORE_SUITE_SUITE_FIO_H

#include <stddef.h>

/*
 * Nonzero when the suite file name (path) with text (len bytes) is a fio
 * job file: its name ends in ".fio", or no line sets hostbench's
 * "target" and some line sets a key only fio has (rw, bs, ioengine,
 * numjobs, nrfiles, filesize, time_based, runtime, iodepth, filename).
 */
int suite_fio_is(const char *name, const char *text, size_t len);

/*
 * The hostbench suite text of fio job file text (len bytes) named name
 * into *out (malloc'd, NUL-terminated, *outlen bytes; the caller frees
 * it). Returns 0, or -EINVAL with "NAME:LINE: [JOB] KEY: why" in err
 * (a key hostbench cannot honour, a value that does not read), or
 * -ENOMEM.
 */
int suite_fio_translate(const char *name, const char *text, size_t len,
			char **out, size_t *outlen, char *err, size_t errlen);

#endif
