/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The dashboard: the history document as a static site in a directory.
 * index.html lists the hosts and their latest runs and links each host's
 * page, host-ID.html, which shows one trend chart per case with its change
 * points. Every page stands alone (inline style and SVG, no script, no
 * external resource), so the site works from file:// and from any static
 * web server.
 */
#ifndef HB_CORE_HISTORY_DASHBOARD_H
#define HB_CORE_HISTORY_DASHBOARD_H

#include <stddef.h>

#include <jansson.h>

#include "history/dashboard_pages.h"

/*
 * Write the site for doc into dir, created (0755 less the umask) when it
 * does not exist. Each page is written whole: to a temporary name beside
 * it, then renamed over it, so a reader never sees half a page. Returns 0,
 * or a negative code with err filled: -ENOTDIR when dir exists and is no
 * directory, -EINVAL for a host id longer than DASHBOARD_ID_MAX, -ENOMEM,
 * or the errno of a failed creation or write.
 */
int dashboard_write(const json_t *doc, const char *dir, char *err,
		    size_t errlen);

/*
 * Judge dir as dashboard_write() would, and create nothing: a directory
 * of the user's own, or a name where one may be made (links followed
 * under the protected_symlinks rule, base/fspath.h). Returns 0, or a
 * negative errno with err filled ("dashboard DIR: why").
 */
int dashboard_check(const char *dir, char *err, size_t errlen);

#endif
