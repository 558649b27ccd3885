/* SPDX-License-Identifier: Apache-2.0 */
/* Where plugins are searched for: --plugin-dir, the environment, the binary. */
#include "plugin/registry.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

char *plugin_path_join(const char *dir, const char *name)
{
	size_t len = strlen(dir) + 1 + strlen(name) + 1;
	char *path = malloc(len);

	if (path)
		snprintf(path, len, "%s/%s", dir, name);
	return path;
}

/*
 * Append dir unless it is there already. A directory that exists is kept
 * as its realpath, so two spellings of one directory (a symlink, "x/..")
 * compare equal and messages show one clean absolute path; one that does
 * not exist is kept as written, for `hostbench list` to show the search.
 */
static int push_dir(struct strlist *out, const char *dir)
{
	char real[PATH_MAX];
	const char *key = realpath(dir, real) ? real : dir;

	if (strlist_has(out, key))
		return 0;
	return strlist_push(out, key);
}

/*
 * Each non-empty entry of the colon-separated list text. A relative entry
 * would make the plugins depend on the current directory: it is refused
 * with a line on diag.
 */
static int push_path_list(struct strlist *out, const char *text, FILE *diag)
{
	char *copy = strdup(text), *entry, *rest;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (entry = copy; entry && !err; entry = rest) {
		rest = strchr(entry, ':');
		if (rest)
			*rest++ = '\0';
		if (*entry && *entry != '/' && diag)
			fprintf(diag,
				"loader: HOSTBENCH_PLUGIN_PATH entry \"%s\" "
				"refused: not an absolute path\n",
				entry);
		else if (*entry)
			err = push_dir(out, entry);
	}
	free(copy);
	return err;
}

/*
 * The build-tree and install-tree directories next to the running binary,
 * so neither needs an environment variable. Without /proc there are none.
 */
static int push_binary_dirs(struct strlist *out)
{
	static const char *const subdirs[] = { ".", "plugins",
					       HB_REL_PLUGIN_DIR };
	char exe[PATH_MAX];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	int err = 0;

	if (len <= 0)
		return 0;
	exe[len] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return 0;
	*slash = '\0';
	for (size_t i = 0; i < sizeof(subdirs) / sizeof(subdirs[0]) && !err;
	     i++) {
		char *dir = plugin_path_join(exe, subdirs[i]);

		err = dir ? push_dir(out, dir) : -ENOMEM;
		free(dir);
	}
	return err;
}

int plugin_dirs(struct strlist *out, const struct strlist *cli_dirs, FILE *diag)
{
	/* a setuid or setgid hostbench takes no plugin path from the caller */
	const char *env =
		getauxval(AT_SECURE) ? NULL : getenv("HOSTBENCH_PLUGIN_PATH");
	int err = 0;

	for (size_t i = 0; cli_dirs && i < cli_dirs->n && !err; i++)
		err = push_dir(out, cli_dirs->items[i]);
	if (!err && env)
		err = push_path_list(out, env, diag);
	if (!err)
		err = push_binary_dirs(out);
	if (!err)
		err = push_dir(out, HB_INSTALL_PLUGIN_DIR);
	return err;
}
