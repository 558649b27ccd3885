/*
 * The plugins loaded into this process and what they offer. The loader
 * fills a registry; everything else only reads it.
 */
#ifndef HB_CORE_REGISTRY_H
#define HB_CORE_REGISTRY_H

#include <stddef.h>
#include <stdio.h>

#include <hostbench/plugin.h>

#include "util.h"

/* One plugin that loaded and passed every check. */
struct plugin {
	char *path;                   /* the .so file it came from */
	void *handle;                 /* dlopen handle */
	const struct hb_plugin *desc; /* the plugin's constant descriptor */
	struct kvlist libraries;      /* from describe(): name -> version */
	struct kvlist unusable;       /* from describe(): "group/name" -> reason */
};

/* A plugin file that was refused, and why (one line). */
struct refusal {
	char *path;
	char *reason;
};

/* Every plugin found, in load order, and every refusal. */
struct registry {
	struct plugin *plugins;
	size_t n;
	struct refusal *refused;
	size_t nrefused;
};

/*
 * Load every "*.so" in dirs, in order (files sorted by name within a
 * directory; a file name seen twice loads only the first). A refused plugin
 * is recorded with its reason and written as one line to diag (if not
 * NULL): "loader: PATH: REASON"; the others still load. A directory that
 * does not exist is skipped silently. Returns 0 (even with refusals) or
 * -ENOMEM.
 */
int registry_load(struct registry *reg, const char *const *dirs, size_t ndirs,
		  FILE *diag);

/* Unload everything and free the registry. */
void registry_free(struct registry *reg);

/*
 * The plugin called backend that offers target "group/name", and its target
 * entry. Returns NULL when no loaded plugin matches.
 */
const struct plugin *registry_find(const struct registry *reg,
				   const char *target, const char *backend,
				   const struct hb_target **out);

/*
 * The default backend for target: the first plugin in load order that
 * offers it and did not describe it unusable, else the first that offers
 * it. NULL when nothing offers it.
 */
const struct plugin *registry_default(const struct registry *reg,
				      const char *target);

/* Why target is unusable with plugin p on this host, or NULL. */
const char *registry_unusable(const struct plugin *p, const char *target);

/* "group/name" of t into buf. */
void target_fullname(const struct hb_target *t, char *buf, size_t len);

/*
 * The directories to search, in order: each --plugin-dir, each entry of
 * HOSTBENCH_PLUGIN_PATH (colon-separated), the directory of the running
 * binary and its "plugins" subdirectory (build tree), ../lib/hostbench/plugins
 * relative to the binary (install tree), and the compiled-in install dir.
 */
int plugin_dirs(struct strlist *out, const struct strlist *cli_dirs);

#endif
