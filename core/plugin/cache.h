/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The registry cache: what probes said of each plugin file, so an
 * unchanged plugin is not probed again (GStreamer's registry does the
 * same). One JSON file, $XDG_CACHE_HOME/hostbench/registry.json (else
 * ~/.cache/hostbench/registry.json), keyed by each plugin file's path,
 * device, inode, size and modification time, and valid only for the
 * hostbench binary, version and ABI that wrote it and the same environment
 * (less PWD, OLDPWD, _, SHLVL, COLUMNS, LINES). A cache that is
 * corrupt, foreign (another owner, writable by others) or for another
 * binary is ignored and rewritten; a home that is read-only or missing
 * means no cache; HOSTBENCH_NO_CACHE=1 bypasses it.
 */
#ifndef HB_CORE_PLUGIN_CACHE_H
#define HB_CORE_PLUGIN_CACHE_H

#include <sys/stat.h>

#include <jansson.h>

/* The cache as read, and what this run adds. */
struct cache {
	char *path;	 /* the file, or NULL: no cache */
	json_t *core;	 /* the binary's identity the entries belong to */
	json_t *plugins; /* path -> entry */
	int dirty;	 /* something to write back */
};

/* Read the cache (an empty one when there is none or it is unusable). */
void cache_open(struct cache *c);

/*
 * The entry for the plugin file at path whose descriptor has status st,
 * when its identity matches: {"catalog": ...} or {"refused": "..."}
 * (borrowed), or NULL.
 */
json_t *cache_find(const struct cache *c, const char *path,
		   const struct stat *st);

/* Remember entry (a new reference is taken) for path and st. */
void cache_put(struct cache *c, const char *path, const struct stat *st,
	       json_t *entry);

/*
 * Write the cache back if this run changed it (a new file renamed over
 * the old, mode 0600), and free it. Failure to write is silent: the
 * cache only saves time.
 */
void cache_close(struct cache *c);

#endif
