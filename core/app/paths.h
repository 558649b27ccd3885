/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where hostbench finds its own files at run time: the shipped suites and
 * the transfer plugin's server program. The binary's own directory comes
 * first, so a relocated install and the build tree each find their own.
 */
#ifndef HB_CORE_APP_PATHS_H
#define HB_CORE_APP_PATHS_H

#include <stddef.h>

/*
 * The shipped suite name ("default.ini") into path: beside the binary as
 * installed (a relocated prefix too), the source tree when the binary is
 * the build tree's, then the compiled-in install prefix. Returns 0, or
 * -ENOENT when none is readable.
 */
int paths_conf(const char *name, char *path, size_t len);

/*
 * The transfer plugin's server program into path: beside the binary
 * (build tree), then in libexec (installed): always an absolute path.
 * Returns 0, or -ENOENT with the bare name "hostbench-serve" in path, for
 * messages only: nothing is ever run by a relative name.
 */
int paths_serve(char *path, size_t len);

#endif
