/* SPDX-License-Identifier: Apache-2.0 */
/* The shipped suites and hostbench-serve, found from the binary's place. */
#include "app/paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The directory of the running binary into buf. */
static int self_dir(char *buf, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", buf, len - 1);
	char *slash;

	if (n <= 0)
		return -errno;
	buf[n] = '\0';
	slash = strrchr(buf, '/');
	if (slash)
		*slash = '\0';
	return 0;
}

int paths_conf(const char *name, char *path, size_t len)
{
	char dir[PATH_MAX];
	int have_dir = self_dir(dir, sizeof(dir)) == 0;
	const char *built = have_dir && strcmp(dir, HB_BUILD_DIR) == 0
				    ? HB_SOURCE_CONF_DIR
				    : NULL;
	const char *fixed[] = { built, HB_INSTALL_CONF_DIR };

	if (have_dir &&
	    snprintf(path, len, "%s/%s/%s", dir, HB_REL_CONF_DIR, name) <
		    (int)len &&
	    access(path, R_OK) == 0)
		return 0;
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (fixed[i] &&
		    snprintf(path, len, "%s/%s", fixed[i], name) < (int)len &&
		    access(path, R_OK) == 0)
			return 0;
	return -ENOENT;
}

int paths_serve(char *path, size_t len)
{
	const char *rel[] = { "hostbench-serve",
			      HB_REL_LIBEXEC_DIR "/hostbench-serve" };
	char dir[PATH_MAX];

	if (self_dir(dir, sizeof(dir)) == 0)
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++)
			if (snprintf(path, len, "%s/%s", dir, rel[i]) <
				    (int)len &&
			    access(path, X_OK) == 0)
				return 0;
	snprintf(path, len, "hostbench-serve"); /* for messages; never run */
	return -ENOENT;
}
