/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading the small text files of /proc and /sys: a whole file, or its
 * first line. Both treat an unreadable file as empty, never as an error,
 * because a host may lack any of them.
 */
#ifndef HB_CORE_HOST_SYSFS_H
#define HB_CORE_HOST_SYSFS_H

#include <stddef.h>

/*
 * The whole of a (small, possibly unseekable) file as a new NUL-terminated
 * string, or NULL when it cannot be read or memory runs out.
 */
char *sysfs_read_text(const char *path);

/*
 * The first line of a file without its line end into buf (len bytes);
 * "" when the file cannot be read. Returns 0, or -ENOENT with buf "".
 */
int sysfs_read_line(const char *path, char *buf, size_t len);

#endif
