/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The importers, one file each, each one table entry (import_doc.h):
 * import.c's dispatch table names them, and nothing else does.
 */
#ifndef HB_CORE_IMPORT_IMPORT_FORMATS_H
#define HB_CORE_IMPORT_IMPORT_FORMATS_H

#include "import/import_doc.h"
#include "store/store.h"

extern const struct import_format import_fio;
extern const struct import_format import_iperf3;
extern const struct import_format import_openssl_speed;
extern const struct import_format import_gbench;
extern const struct import_format import_hyperfine;
extern const struct import_format import_pyperf;

/*
 * Import a saved hostbench JSON report or journal file
 * (compare/report_read.h reads it: a regular file only, every string
 * sanitized and bounded); a report without "run" gets the uuid of the
 * SHA-256 of the file's bytes and the file's time. t (zeroed by the
 * caller) counts the runs added and names those stored already. Returns
 * 0, -EINVAL for a file that is not a report or is refused as store_put()
 * refuses (err names the file, and nothing of it is stored), or another
 * negative code.
 */
int import_hostbench(struct store *st, const char *path, struct store_tally *t,
		     char *err, size_t errlen);

#endif
