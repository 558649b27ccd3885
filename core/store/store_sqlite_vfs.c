/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A SQLite VFS that takes file names as they are given: the store opens
 * "/proc/self/fd/N/NAME", N being the directory its checks judged, so the
 * database and its -wal, -shm and -journal files are found through that
 * descriptor whatever is renamed on the way meanwhile. The unix VFS it
 * wraps would resolve the descriptor's link back into a path and walk it
 * again by name; everything else is the unix VFS's own.
 */
#include "store/store_int.h"

#include <pthread.h>
#include <sqlite3.h>
#include <string.h>

/*
 * SQLite keeps a list of registered VFSes for the whole process: the one
 * registration is made once and never changed after.
 */
static sqlite3_vfs dirfd_vfs;
static int dirfd_registered = SQLITE_ERROR;
static pthread_once_t dirfd_once = PTHREAD_ONCE_INIT;

/* The name itself: absolute, never resolved. */
static int dirfd_full_pathname(sqlite3_vfs *vfs, const char *name, int n,
			       char *out)
{
	size_t len = strlen(name);

	(void)vfs;
	if (name[0] != '/' || len >= (size_t)n)
		return SQLITE_CANTOPEN;
	memcpy(out, name, len + 1);
	return SQLITE_OK;
}

/* Register the copy of the unix VFS with the one method replaced. */
static void dirfd_register(void)
{
	sqlite3_vfs *base = sqlite3_vfs_find("unix");

	if (!base)
		return;
	dirfd_vfs = *base;
	dirfd_vfs.pNext = NULL;
	dirfd_vfs.zName = STORE_SQLITE_VFS;
	dirfd_vfs.xFullPathname = dirfd_full_pathname;
	dirfd_registered = sqlite3_vfs_register(&dirfd_vfs, 0);
}

int store_sqlite_vfs(void)
{
	pthread_once(&dirfd_once, dirfd_register);
	return dirfd_registered == SQLITE_OK ? 0 : -1;
}
