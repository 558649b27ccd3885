/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Presets by name: the shipped suites of conf/presets/ (found as
 * paths_conf() finds conf/default.ini), run as `hostbench run NAME` and
 * listed by `hostbench presets`, each with the one line its own comment
 * opens with.
 */
#ifndef HB_CORE_APP_PRESETS_H
#define HB_CORE_APP_PRESETS_H

#include <stddef.h>

#include "base/util.h"

/* The longest description presets_list() keeps, in bytes. */
#define PRESETS_ABOUT_MAX 120

/*
 * Nonzero when a suite argument is a preset's name rather than a file:
 * no file of that name exists, and it is a bare name (letters, digits,
 * '-', '_', '.', no '/').
 */
int presets_is_name(const char *arg);

/*
 * The file of preset name into path. Returns 0, or -ENOENT with "no
 * preset NAME (did you mean ...?); hostbench presets lists them" in err.
 */
int presets_find(const char *name, char *path, size_t len, char *err,
		 size_t errlen);

/*
 * Every preset into names and, at the same index, its description into
 * abouts (the first sentence of the comment it opens with, sanitized and
 * at most PRESETS_ABOUT_MAX bytes), sorted by name. Returns 0, -ENOENT
 * when no presets directory is found, or -ENOMEM.
 */
int presets_list(struct strlist *names, struct strlist *abouts);

#endif
