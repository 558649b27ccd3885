/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A run kept in the results store read back as `hostbench report` reads
 * a saved file: `hostbench report UUID` renders a stored run in any
 * format (docs/history.md).
 */
#ifndef HB_CORE_APP_STORED_H
#define HB_CORE_APP_STORED_H

#include <stddef.h>

#include "compare/report_read.h"

/*
 * Nonzero when arg names a stored run rather than a file: a run uuid
 * (8-4-4-4-12 hex digits) that is no file's name.
 */
int stored_is_run(const char *arg);

/*
 * report_read_text() of run uuid's report in the store at url (NULL:
 * HOSTBENCH_STORE or the default); uuid names it in messages and must
 * outlive doc. Returns 0, -ENOENT when no such run is stored, -EINVAL
 * for a report that does not read, or another negative code, with err
 * filled.
 */
int stored_read(struct doc_report *doc, const char *url, const char *uuid,
		char *err, size_t errlen);

#endif
