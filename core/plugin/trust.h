/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whether a plugin file may be loaded: opened once, and judged by what was
 * opened, so nobody can swap the file between the check and the load (the
 * helpers load /proc/self/fd/N of the same descriptor). As OpenSSH's
 * StrictModes: the file and every directory of its real path up to / must
 * belong to root or this user and be writable by nobody else; a directory
 * writable by others passes only when it is sticky (as /tmp) and the entry
 * below it belongs to root or this user.
 */
#ifndef HB_CORE_PLUGIN_TRUST_H
#define HB_CORE_PLUGIN_TRUST_H

#include <stddef.h>

/*
 * Open path read-only (close-on-exec) and check it and its real path.
 * Returns 0 with *fd set, or a negative errno with the reason in why
 * ("file /x/y.so is writable by others (mode 0666; fix: chmod go-w
 * /x/y.so)").
 */
int trust_open(const char *path, int *fd, char *why, size_t len);

/*
 * Check directory dir the same way (itself and every parent). Returns 0,
 * or -EACCES with the reason in why; a directory that does not exist is
 * left to the caller.
 */
int trust_dir(const char *dir, char *why, size_t len);

#endif
