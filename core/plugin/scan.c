/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Loading the registry without loading a plugin: find the plugin files,
 * open and check each once, and take its catalog from the cache or from a
 * probe; then check the catalog as input from elsewhere.
 */
#include "plugin/scan.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/sanitize.h"
#include "plugin/cache.h"
#include "plugin/check.h"
#include "plugin/descriptor.h"
#include "plugin/loader.h"
#include "plugin/probe.h"
#include "plugin/trust.h"

/* Longest reason text kept for one refusal. */
#define REASON_LEN 512

/* One scan_load() under way. */
struct loading {
	struct registry *reg;
	FILE *diag;
	struct strlist seen; /* file names met, for shadowing */
	struct cache cache;
	double timeout; /* of one probe */
};

/*
 * Record a refusal of path and write it as one line to diag. Both are
 * sanitized (a file name and a plugin's or dlerror's text come from
 * elsewhere): a newline cannot forge a line, nor an escape sequence reach
 * the terminal. Returns 0 or -ENOMEM.
 */
static int refuse(struct loading *ld, const char *path, const char *reason)
{
	struct refusal *grown;
	char *p = strdup(path), *r = strdup(reason);

	if (!p || !r)
		goto fail_copy;
	sanitize_text(p);
	sanitize_text(r);
	grown = realloc(ld->reg->refused,
			(ld->reg->nrefused + 1) * sizeof(*grown));
	if (!grown)
		goto fail_copy;
	ld->reg->refused = grown;
	ld->reg->refused[ld->reg->nrefused++] =
		(struct refusal){ .path = p, .reason = r };
	if (ld->diag)
		fprintf(ld->diag, "loader: %s: refused: %s\n", p, r);
	return 0;

fail_copy:
	free(p);
	free(r);
	return -ENOMEM;
}

/* Append p to the registry, which then owns it. */
static int keep(struct registry *reg, const struct plugin *p)
{
	struct plugin *grown =
		realloc(reg->plugins, (reg->n + 1) * sizeof(*grown));

	if (!grown)
		return -ENOMEM;
	reg->plugins = grown;
	reg->plugins[reg->n++] = *p;
	return 0;
}

/*
 * The probe's answer for p, from the cache when the file is unchanged;
 * a settled answer is cached. Returns a new reference to {"catalog": ...}
 * or {"refused": "..."}, or NULL (with why) for an unsettled refusal.
 */
static json_t *answer_for(struct loading *ld, const struct plugin *p, char *why,
			  size_t len)
{
	struct stat st;
	json_t *cached, *catalog = NULL, *ans = NULL;
	int verdict;

	if (fstat(p->fd, &st) != 0)
		return NULL;
	cached = cache_find(&ld->cache, p->path, &st);
	if (cached)
		return json_incref(cached);
	verdict = probe_plugin(p, ld->timeout, &catalog, why, len);
	if (verdict == PROBE_CATALOG)
		ans = json_pack("{s:o}", "catalog", catalog);
	else if (verdict == PROBE_REFUSED)
		ans = json_pack("{s:s}", "refused", why);
	if (ans)
		cache_put(&ld->cache, p->path, &st, ans);
	return ans;
}

/* Fill p from its answer and check it against what is loaded already. */
static int take_answer(struct loading *ld, struct plugin *p, json_t *ans,
		       char *why, size_t len)
{
	const char *refused =
		json_string_value(json_object_get(ans, "refused"));
	char bad[REASON_LEN];
	int err;

	if (refused)
		return hb_errorf(why, len, -EINVAL, "%s", refused);
	err = descriptor_get(json_object_get(ans, "catalog"), p, bad,
			     sizeof(bad));
	if (err == -EINVAL)
		return hb_errorf(why, len, err,
				 "its probe answered garbage: %s", bad);
	if (!err)
		err = check_abi(p->desc, why, len);
	if (!err)
		err = check_targets(ld->reg, p->desc, why, len);
	return err;
}

/* Undo what loading p did so far, keeping nothing. */
static void plugin_free(struct plugin *p)
{
	if (p->live) {
		loader_close(p->live);
		free(p->live);
	}
	registry_index_free(p);
	descriptor_free(p);
	loader_close(p);
}

/*
 * Load one plugin file, or refuse it. dir_why is why its directory is
 * unsafe (empty when it is safe). Returns 0 or -ENOMEM.
 */
static int load_file(struct loading *ld, const char *path, const char *dir_why)
{
	struct plugin p = { .fd = -1 };
	char why[REASON_LEN] = "";
	json_t *ans;
	int err;

	if (*dir_why)
		return refuse(ld, path, dir_why);
	p.path = strdup(path);
	if (!p.path)
		return -ENOMEM;
	err = trust_open(path, &p.fd, why, sizeof(why));
	if (!err) {
		ans = answer_for(ld, &p, why, sizeof(why));
		err = ans ? take_answer(ld, &p, ans, why, sizeof(why))
			  : -EINVAL;
		json_decref(ans);
	}
	if (!err)
		err = registry_index(&p);
	if (!err)
		err = keep(ld->reg, &p);
	if (!err)
		return 0;
	plugin_free(&p);
	return err == -ENOMEM ? err : refuse(ld, path, why);
}

/* scandir filter: names ending in ".so". */
static int is_so_name(const struct dirent *e)
{
	size_t len = strlen(e->d_name);

	return len > 3 && strcmp(e->d_name + len - 3, ".so") == 0;
}

/* scandir order: byte order, so the load order does not follow locale. */
static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Whether path is a regular file (following symlinks, as dlopen does). */
static int is_regular(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/*
 * Load dir/name unless an earlier directory had a file of that name (seen
 * collects them). Returns 0 or -ENOMEM.
 */
static int load_entry(struct loading *ld, const char *dir, const char *name,
		      const char *dir_why)
{
	char *path = plugin_path_join(dir, name);
	int err = 0;

	if (!path)
		return -ENOMEM;
	if (!sanitize_is_clean(name))
		err = refuse(ld, path,
			     "the file name holds control characters or bytes "
			     "that are not UTF-8");
	else if (!strlist_has(&ld->seen, name) && is_regular(path)) {
		err = strlist_push(&ld->seen, name);
		if (!err)
			err = load_file(ld, path, dir_why);
	}
	free(path);
	return err;
}

/*
 * Load every plugin file of dir, in byte order of their names. A directory
 * that does not exist is no error. Returns 0 or -ENOMEM.
 */
static int load_dir(struct loading *ld, const char *dir)
{
	struct dirent **names;
	char dir_why[REASON_LEN] = "";
	int n, err = 0;

	n = scandir(dir, &names, is_so_name, by_name);
	if (n < 0) {
		if (errno == ENOENT || errno == ENOTDIR)
			return 0;
		if (errno == ENOMEM)
			return -ENOMEM;
		hb_error_fill(dir_why, sizeof(dir_why),
			      "cannot read the directory: %s", strerror(errno));
		return refuse(ld, dir, dir_why);
	}
	trust_dir(dir, dir_why, sizeof(dir_why));
	for (int i = 0; i < n && !err; i++)
		err = load_entry(ld, dir, names[i]->d_name, dir_why);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

int scan_load(struct registry *reg, const char *const *dirs, size_t ndirs,
	      FILE *diag)
{
	struct loading ld = { .reg = reg,
			      .diag = diag,
			      .timeout = probe_timeout() };
	int err = 0;

	cache_open(&ld.cache);
	for (size_t i = 0; i < ndirs && !err; i++)
		err = load_dir(&ld, dirs[i]);
	cache_close(&ld.cache);
	strlist_free(&ld.seen);
	return err;
}

void scan_free(struct registry *reg)
{
	for (size_t i = 0; i < reg->n; i++)
		plugin_free(&reg->plugins[i]);
	for (size_t i = 0; i < reg->nrefused; i++) {
		free(reg->refused[i].path);
		free(reg->refused[i].reason);
	}
	free(reg->plugins);
	free(reg->refused);
	memset(reg, 0, sizeof(*reg));
}
