/* SPDX-License-Identifier: Apache-2.0 */
/* The registry cache file: read it, match entries, write it back. */
#define _GNU_SOURCE /* asprintf */
#include "plugin/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

#include <hostbench/plugin.h>

#include "proc/childenv.h"

/* Largest cache file read; a larger one is ignored. */
#define CACHE_MAX_BYTES ((off_t)64 << 20)
/* The cache file's format; another one is ignored. */
#define CACHE_FORMAT 1

extern char **environ;

/* The directory of the cache into buf, or -1 for no cache. */
static int cache_dir(char *buf, size_t len)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	const char *no = getenv("HOSTBENCH_NO_CACHE");

	if ((no && *no && strcmp(no, "0") != 0) || getauxval(AT_SECURE))
		return -1;
	if (xdg && *xdg == '/')
		return snprintf(buf, len, "%s/hostbench", xdg) < (int)len ? 0
									  : -1;
	if (home && *home == '/')
		return snprintf(buf, len, "%s/.cache/hostbench", home) <
				       (int)len
			       ? 0
			       : -1;
	return -1;
}

/* Variables that change from one shell command to the next. */
static int volatile_var(const char *entry)
{
	static const char *const names[] = { "PWD=",   "OLDPWD=",  "_=",
					     "SHLVL=", "COLUMNS=", "LINES=" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strncmp(entry, names[i], strlen(names[i])) == 0)
			return 1;
	return 0;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * A hash (FNV-1a) of the environment, sorted, without the variables a
 * shell changes on its own and the secrets no helper is given: describe()
 * may read the environment (a device list, a library path), so another
 * environment probes again.
 */
static unsigned long long environment_hash(void)
{
	unsigned long long h = 1469598103934665603ULL;
	size_t n = 0;
	char **sorted;

	while (environ[n])
		n++;
	sorted = malloc((n ? n : 1) * sizeof(*sorted));
	if (!sorted)
		return 0;
	memcpy(sorted, environ, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), by_text);
	for (size_t i = 0; i < n; i++) {
		/* no probe sees a secret (proc/childenv.h): nor does the key */
		if (volatile_var(sorted[i]) || childenv_secret(sorted[i]))
			continue;
		for (const char *c = sorted[i]; *c; c++)
			h = (h ^ (unsigned char)*c) * 1099511628211ULL;
	}
	free(sorted);
	return h;
}

/*
 * What the answers depend on besides the plugin file: this binary (a
 * rebuilt hostbench probes again) and the environment.
 */
static json_t *core_identity(void)
{
	char self[PATH_MAX] = "", env[32];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct stat st = { 0 };

	if (n > 0) {
		self[n] = '\0';
		stat(self, &st);
	}
	snprintf(env, sizeof(env), "%016llx", environment_hash());
	return json_pack("{s:i, s:s, s:[i, i], s:s, s:I, s:I, s:I, s:s}",
			 "format", CACHE_FORMAT, "version", HB_VERSION, "abi",
			 HB_ABI_MAJOR, HB_ABI_MINOR, "binary", self, "ino",
			 (json_int_t)st.st_ino, "size", (json_int_t)st.st_size,
			 "mtime_ns",
			 (json_int_t)(st.st_mtim.tv_sec * 1000000000LL +
				      st.st_mtim.tv_nsec),
			 "environment", env);
}

/* The cache file's text, when it is ours: a regular file of this user. */
static json_t *read_file(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	struct stat st;
	json_t *o = NULL;
	FILE *f;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_uid != geteuid() || (st.st_mode & 022) ||
	    st.st_size > CACHE_MAX_BYTES) {
		close(fd);
		return NULL;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return NULL;
	}
	o = json_loadf(f, 0, NULL);
	fclose(f);
	return o;
}

void cache_open(struct cache *c)
{
	char dir[PATH_MAX];
	json_t *doc;

	memset(c, 0, sizeof(*c));
	c->core = core_identity();
	c->plugins = json_object();
	if (cache_dir(dir, sizeof(dir)) || !c->core || !c->plugins)
		return;
	if (asprintf(&c->path, "%s/registry.json", dir) < 0) {
		c->path = NULL;
		return;
	}
	doc = read_file(c->path);
	if (doc && json_equal(json_object_get(doc, "core"), c->core) &&
	    json_is_object(json_object_get(doc, "plugins")))
		json_object_update(c->plugins, json_object_get(doc, "plugins"));
	json_decref(doc);
}

/* The identity of a plugin file, as entries store it. */
static json_t *file_identity(const struct stat *st)
{
	return json_pack("{s:I, s:I, s:I, s:I}", "dev", (json_int_t)st->st_dev,
			 "ino", (json_int_t)st->st_ino, "size",
			 (json_int_t)st->st_size, "mtime_ns",
			 (json_int_t)(st->st_mtim.tv_sec * 1000000000LL +
				      st->st_mtim.tv_nsec));
}

json_t *cache_find(const struct cache *c, const char *path,
		   const struct stat *st)
{
	json_t *e = json_object_get(c->plugins, path);
	json_t *id = file_identity(st);
	int same = id && json_equal(json_object_get(e, "file"), id);

	json_decref(id);
	return same ? json_object_get(e, "answer") : NULL;
}

void cache_put(struct cache *c, const char *path, const struct stat *st,
	       json_t *entry)
{
	json_t *e;

	if (!c->path)
		return;
	e = json_pack("{s:o, s:O}", "file", file_identity(st), "answer", entry);
	if (e && json_object_set_new(c->plugins, path, e) == 0)
		c->dirty = 1;
}

/* mkdir -p of the cache's directory, private to this user. */
static int make_dirs(const char *file)
{
	char dir[PATH_MAX];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", file);
	for (slash = strchr(dir + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			return -1;
		*slash = '/';
	}
	return 0;
}

/* Write doc to a new file beside path and rename it over path. */
static void write_file(const char *path, const json_t *doc)
{
	char tmp[PATH_MAX];
	int fd, bad;
	FILE *f;

	if (make_dirs(path) ||
	    snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return;
	fd = mkstemp(tmp);
	if (fd < 0)
		return;
	f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
		return;
	}
	bad = json_dumpf(doc, f, JSON_COMPACT) != 0;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) != 0)
		unlink(tmp);
}

void cache_close(struct cache *c)
{
	if (c->dirty && c->path) {
		json_t *doc = json_pack("{s:O, s:O}", "core", c->core,
					"plugins", c->plugins);

		if (doc)
			write_file(c->path, doc);
		json_decref(doc);
	}
	json_decref(c->core);
	json_decref(c->plugins);
	free(c->path);
	memset(c, 0, sizeof(*c));
}
