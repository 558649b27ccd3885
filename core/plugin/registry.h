/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The plugins loaded into this process and what they offer. scan_load()
 * (plugin/scan.h) fills a registry; everything else only reads it.
 */
#ifndef HB_CORE_PLUGIN_REGISTRY_H
#define HB_CORE_PLUGIN_REGISTRY_H

#include <stddef.h>
#include <stdio.h>

#include <hostbench/plugin.h>

#include "base/util.h"

struct plugin_copy;
struct plugin_index;

/*
 * One plugin that passed every check. In the core its descriptor is a copy
 * of the catalog a probe sent (no function slots, no plugin code in this
 * process); in a helper, or for isolate = no, it is the plugin's own.
 */
struct plugin {
	char *path;		      /* the .so file it came from */
	int fd;			      /* the file, opened and checked once */
	void *handle;		      /* dlopen handle, where it is loaded */
	const struct hb_plugin *desc; /* its descriptor, or the copy */
	struct plugin_copy *copy;     /* owns desc when it is a copy */
	int has_validate;	      /* it fills validate() (ABI 1.1) */
	int has_transform;	      /* it fills transform() (ABI 1.2) */
	struct kvlist libraries;      /* from describe(): name -> version */
	struct kvlist unusable; /* from describe(): "group/name" -> reason */
	struct plugin *live;	/* isolate = no: loaded in this process */
	struct plugin_index *index; /* its targets by name (registry_index) */
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
	/*
	 * Set by a rank of a fleet: a suite's target no plugin here offers
	 * is no error; its job has no case here (other ranks may offer it).
	 */
	int open_targets;
};

/*
 * Index p's targets by "group/name", so every lookup in the registry takes
 * O(log n) (a plugin may offer 10,000 targets). Returns 0 or -ENOMEM.
 */
int registry_index(struct plugin *p);

/* Free p's index. */
void registry_index_free(struct plugin *p);

/*
 * The plugin called backend that offers target "group/name", and its target
 * entry. Returns NULL when no loaded plugin matches.
 */
const struct plugin *registry_find(const struct registry *reg,
				   const char *target, const char *backend,
				   const struct hb_target **out);

/*
 * Every backend offering target, in the order of preference for a default
 * (docs/suites.md), which depends on backend names only, never on file
 * names, directories or load order: the reference backend of the target's
 * group first (openssl for crypto, hash and mac), then the backends shipped
 * with hostbench, then the others, each tier by name. Appended to out;
 * returns 0 or -ENOMEM.
 */
int registry_backends(const struct registry *reg, const char *target,
		      struct strlist *out);

/*
 * The default backend for target: the first of registry_backends() that
 * did not describe it unusable, else the first. NULL when nothing offers
 * it. A plugin added later changes it only when it is preferred.
 */
const struct plugin *registry_default(const struct registry *reg,
				      const char *target);

/* Why target is unusable with plugin p on this host, or NULL. */
const char *registry_unusable(const struct plugin *p, const char *target);

/* "group/name" of t into buf. */
void plugin_target_name(const struct hb_target *t, char *buf, size_t len);

/*
 * Append the directories to search to out, in order: each --plugin-dir
 * (cli_dirs, may be NULL), each non-empty entry of HOSTBENCH_PLUGIN_PATH
 * (colon-separated), the directory of the running binary and its "plugins"
 * subdirectory (build tree), HB_REL_PLUGIN_DIR relative to the binary
 * (install tree), and the compiled-in HB_INSTALL_PLUGIN_DIR. A directory
 * that exists is given as its realpath and appears once, at its first
 * place; one that does not exist is kept as written. Returns 0 or -ENOMEM.
 */
int plugin_dirs(struct strlist *out, const struct strlist *cli_dirs,
		FILE *diag);

/* "dir/name" in a new string (search.c), or NULL when out of memory. */
char *plugin_path_join(const char *dir, const char *name);

/* The option called key in t's table (t may be NULL), or NULL. */
const struct hb_option *plugin_option_find(const struct hb_target *t,
					   const char *key);

/* An option type's name ("size", "size list", ...); "?" when unknown. */
const char *plugin_type_name(enum hb_opt_type type);

/* plugin_type_name() back: 0, or -EINVAL for an unknown name. */
int plugin_type_parse(const char *name, enum hb_opt_type *out);

/* A kind of work's name ("bytes", "operations", ...); "?" when unknown. */
const char *plugin_work_name(enum hb_work work);

/* plugin_work_name() back: 0, or -EINVAL for an unknown name. */
int plugin_work_parse(const char *name, enum hb_work *out);

#endif
