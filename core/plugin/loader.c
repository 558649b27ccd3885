/*
 * The plugin loader: which directories to search, and for each plugin file
 * found there, whether it may run in this process. File permissions are
 * checked before dlopen; the descriptor is checked before any plugin code
 * but its constructors and entry function, and describe() runs last. A
 * plugin that fails a check is refused with a one-line reason and the
 * others still load.
 */
#include "plugin/registry.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/parse.h"
#include "plugin/core_key.h"

/* Longest reason text kept for one refusal. */
#define REASON_LEN 512

/* "dir/name" in a new string, or NULL. */
static char *path_join(const char *dir, const char *name)
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

/* Each non-empty entry of the colon-separated list text. */
static int push_path_list(struct strlist *out, const char *text)
{
	char *copy = strdup(text), *entry, *rest;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (entry = copy; entry && !err; entry = rest) {
		rest = strchr(entry, ':');
		if (rest)
			*rest++ = '\0';
		if (*entry)
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
		char *dir = path_join(exe, subdirs[i]);

		err = dir ? push_dir(out, dir) : -ENOMEM;
		free(dir);
	}
	return err;
}

int plugin_dirs(struct strlist *out, const struct strlist *cli_dirs)
{
	/* a setuid or setgid hostbench takes no plugin path from the caller */
	const char *env =
		getauxval(AT_SECURE) ? NULL : getenv("HOSTBENCH_PLUGIN_PATH");
	int err = 0;

	for (size_t i = 0; cli_dirs && i < cli_dirs->n && !err; i++)
		err = push_dir(out, cli_dirs->items[i]);
	if (!err && env)
		err = push_path_list(out, env);
	if (!err)
		err = push_binary_dirs(out);
	if (!err)
		err = push_dir(out, HB_INSTALL_PLUGIN_DIR);
	return err;
}

/*
 * Record a refusal of path and write it as one line to diag. Newlines in
 * the reason (a plugin's or dlerror's text) become spaces so the line stays
 * one line. Returns 0 or -ENOMEM.
 */
static int refuse(struct registry *reg, FILE *diag, const char *path,
		  const char *reason)
{
	struct refusal *grown;
	char *p = strdup(path), *r = strdup(reason);

	if (!p || !r)
		goto fail_copy;
	for (char *c = r; *c; c++)
		if (*c == '\n' || *c == '\r')
			*c = ' ';
	grown = realloc(reg->refused, (reg->nrefused + 1) * sizeof(*grown));
	if (!grown)
		goto fail_copy;
	reg->refused = grown;
	reg->refused[reg->nrefused++] =
		(struct refusal){ .path = p, .reason = r };
	if (diag)
		fprintf(diag, "loader: %s: refused: %s\n", p, r);
	return 0;

fail_copy:
	free(p);
	free(r);
	return -ENOMEM;
}

/*
 * Whether what (a "file" or "directory") at path may be changed by another
 * user: writable by group or others, or owned by someone who is neither
 * this user nor root. If so, why names it, its mode or owner, and the fix. A
 * path that cannot be stat'ed is left to the next step to report.
 */
static int writable_by_others(const char *path, const char *what, char *why,
			      size_t len)
{
	struct stat st;
	const char *who;

	if (stat(path, &st) != 0)
		return 0;
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		hb_error_fill(
			why, len,
			"%s %s belongs to user %u, neither you nor root (fix: "
			"chown root %s)",
			what, path, (unsigned)st.st_uid, path);
		return 1;
	}
	if (st.st_mode & S_IWOTH)
		who = "others";
	else if (st.st_mode & S_IWGRP)
		who = "group";
	else
		return 0;
	hb_error_fill(why, len,
		   "%s %s is writable by %s (mode %04o; fix: chmod go-w %s)",
		   what, path, who, (unsigned)(st.st_mode & 07777), path);
	return 1;
}

/* Whether the text from start to end is exactly path. */
static int is_prefix_path(const char *start, const char *end, const char *path)
{
	size_t n = (size_t)(end - start);

	return strlen(path) == n && strncmp(start, path, n) == 0;
}

/*
 * Turn dlopen's complaint into a reason. A dependency that is not
 * installed is the common case on a host without some library, so it is
 * named first; anything else is passed on as dlerror wrote it.
 */
static void explain_dlopen(const char *path, const char *msg, char *why,
			   size_t len)
{
	const char *colon = msg ? strstr(msg, ": ") : NULL;

	if (!msg)
		hb_error_fill(why, len, "cannot be loaded");
	else if (colon && strstr(msg, "cannot open shared object file") &&
		 !is_prefix_path(msg, colon, path))
		hb_error_fill(why, len, "needs %.*s, which is not installed (%s)",
			   (int)(colon - msg), msg, msg);
	else
		hb_error_fill(why, len, "cannot be loaded (%s)", msg);
}

/* dlopen path, find its entry function and ask it for the descriptor. */
static int open_plugin(struct plugin *p, char *why, size_t len)
{
	hb_entry_fn entry;
	void *sym;

	dlerror();
	/*
	 * NODELETE: crypto libraries set up process-wide state once; unloading
	 * them at exit would gain nothing and strand that state.
	 */
	p->handle = dlopen(p->path, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
	if (!p->handle) {
		explain_dlopen(p->path, dlerror(), why, len);
		return -EINVAL;
	}
	sym = dlsym(p->handle, HB_ENTRY_SYMBOL);
	if (!sym)
		return hb_errorf(why, len, -EINVAL,
			      "exports no %s() (not a hostbench plugin?)",
			      HB_ENTRY_SYMBOL);
	entry = (hb_entry_fn)sym;
	p->desc = entry();
	if (!p->desc)
		return hb_errorf(why, len, -EINVAL, "%s() returned NULL",
			      HB_ENTRY_SYMBOL);
	return 0;
}

/*
 * The version fields come first in every ABI, so they are safe to read
 * whatever the plugin was built for. Only one minor exists so far: when a
 * minor appends fields, an older plugin's smaller size is fine and only
 * the fields its minor had may be read.
 */
/* The size of struct hb_plugin as ABI minor (of this major) defined it. */
static size_t abi_size(unsigned minor)
{
	if (minor == 0)
		return offsetof(struct hb_plugin, validate);
	return sizeof(struct hb_plugin);
}

static int check_abi(const struct hb_plugin *d, char *why, size_t len)
{
	if (d->abi_major != HB_ABI_MAJOR)
		return hb_errorf(
			why, len, -EINVAL,
			"built for ABI %u.%u, this hostbench speaks %d.%d",
			d->abi_major, d->abi_minor, HB_ABI_MAJOR, HB_ABI_MINOR);
	if (d->abi_minor > HB_ABI_MINOR)
		return hb_errorf(why, len, -EINVAL,
			      "built for ABI %u.%u, this hostbench speaks "
			      "%d.%d: update hostbench",
			      d->abi_major, d->abi_minor, HB_ABI_MAJOR,
			      HB_ABI_MINOR);
	if (d->size < abi_size(d->abi_minor))
		return hb_errorf(why, len, -EINVAL,
			      "descriptor is %u bytes, ABI %u.%u needs %zu",
			      d->size, d->abi_major, d->abi_minor,
			      abi_size(d->abi_minor));
	return 0;
}

/* The slots the runner calls unconditionally, and the backend name. */
static int check_slots(const struct hb_plugin *d, char *why, size_t len)
{
	if (!d->name || !*d->name)
		return hb_errorf(why, len, -EINVAL, "has no backend name");
	if (!d->setup)
		return hb_errorf(why, len, -EINVAL, "has no setup function");
	if (!d->run)
		return hb_errorf(why, len, -EINVAL, "has no run function");
	if (!d->teardown)
		return hb_errorf(why, len, -EINVAL, "has no teardown function");
	if (!d->targets || !d->targets[0].name)
		return hb_errorf(why, len, -EINVAL, "offers no targets");
	return 0;
}

/* Whether text is one of the NULL-terminated choices. */
static int is_choice(const char *const *choices, const char *text)
{
	for (; *choices; choices++)
		if (strcmp(*choices, text) == 0)
			return 1;
	return 0;
}

/* Every item of a comma list must be a size. */
static int parse_size_items(const char *text, char *err, size_t len)
{
	struct strlist items = { 0 };
	uint64_t size;
	int rc = parse_list(text, &items, err, len);

	for (size_t i = 0; i < items.n && rc == 0; i++)
		rc = parse_size(items.items[i], &size, err, len);
	strlist_free(&items);
	return rc;
}

/*
 * Whether o's default reads as its type and lies within its bounds, so a
 * suite that leaves the option out always gets a valid value. *value is
 * the number the bounds apply to (bytes, integer, milliseconds).
 */
static int default_value(const struct hb_option *o, int64_t *value,
			 int *bounded, char *err, size_t len)
{
	uint64_t size = 0;
	double seconds = 0;
	int rc, flag;

	*bounded = 0;
	switch (o->type) {
	case HB_OPT_SIZE:
		rc = parse_size(o->def, &size, err, len);
		*value = size > INT64_MAX ? INT64_MAX : (int64_t)size;
		*bounded = rc == 0;
		return rc;
	case HB_OPT_SIZE_LIST:
		return parse_size_items(o->def, err, len);
	case HB_OPT_INT:
		rc = parse_int(o->def, value, err, len);
		*bounded = rc == 0;
		return rc;
	case HB_OPT_BOOL:
		return parse_bool(o->def, &flag, err, len);
	case HB_OPT_DURATION:
		rc = parse_duration(o->def, &seconds, err, len);
		*value = (int64_t)(seconds * 1000.0);
		*bounded = rc == 0;
		return rc;
	case HB_OPT_ENUM:
		if (is_choice(o->choices, o->def))
			return 0;
		return hb_errorf(err, len, -EINVAL,
			      "\"%s\" is not one of its choices", o->def);
	case HB_OPT_STRING:
		return 0;
	}
	return hb_errorf(err, len, -EINVAL, "unknown type");
}

/* One option entry of target full. */
static int check_option(const char *full, const struct hb_option *o, char *why,
			size_t len)
{
	char perr[256] = "";
	int64_t value = 0;
	int bounded;

	if (!*o->name)
		return hb_errorf(why, len, -EINVAL,
			      "%s has an option with no name", full);
	if (core_key(o->name))
		return hb_errorf(why, len, -EINVAL,
			      "%s option \"%s\" is a key the core reads itself",
			      full, o->name);
	if ((unsigned)o->type > HB_OPT_DURATION)
		return hb_errorf(why, len, -EINVAL,
			      "%s option \"%s\" has unknown type %d", full,
			      o->name, (int)o->type);
	if (o->type == HB_OPT_ENUM && (!o->choices || !o->choices[0]))
		return hb_errorf(why, len, -EINVAL,
			      "%s option \"%s\" is an enum without choices",
			      full, o->name);
	if (!o->def)
		return 0;
	if (default_value(o, &value, &bounded, perr, sizeof(perr)))
		return hb_errorf(why, len, -EINVAL, "%s option \"%s\": default %s",
			      full, o->name, perr);
	if (bounded && o->max > o->min && (value < o->min || value > o->max))
		return hb_errorf(why, len, -EINVAL,
			      "%s option \"%s\": default \"%s\" is outside "
			      "its bounds %lld..%lld",
			      full, o->name, o->def, (long long)o->min,
			      (long long)o->max);
	return 0;
}

/* Every option of target full, and that no name is declared twice. */
static int check_options(const char *full, const struct hb_option *opts,
			 char *why, size_t len)
{
	for (const struct hb_option *o = opts; o && o->name; o++) {
		int err = check_option(full, o, why, len);

		if (err)
			return err;
		for (const struct hb_option *q = opts; q < o; q++)
			if (strcmp(q->name, o->name) == 0)
				return hb_errorf(why, len, -EINVAL,
					      "%s option \"%s\" declared twice",
					      full, o->name);
	}
	return 0;
}

/* The entry of d's table named full ("group/name") before stop, or NULL. */
static const struct hb_target *find_target(const struct hb_plugin *d,
					   const char *full,
					   const struct hb_target *stop)
{
	char name[256];

	for (const struct hb_target *t = d->targets; t->name && t != stop;
	     t++) {
		plugin_target_name(t, name, sizeof(name));
		if (strcmp(name, full) == 0)
			return t;
	}
	return NULL;
}

/* A composite's parts must be targets of the same plugin. */
static int check_parts(const struct hb_plugin *d, const struct hb_target *t,
		       const char *full, char *why, size_t len)
{
	for (const char *const *part = t->parts; part && *part; part++)
		if (!find_target(d, *part, NULL))
			return hb_errorf(why, len, -EINVAL,
				      "target %s names part %s, which this "
				      "plugin does not offer",
				      full, *part);
	return 0;
}

/*
 * One target of d: named, not offered twice by d, not offered under the
 * same backend name by a plugin already loaded, and with a valid table.
 */
static int check_target(const struct registry *reg, const struct hb_plugin *d,
			const struct hb_target *t, char *why, size_t len)
{
	const struct plugin *other;
	char full[256];

	if (!*t->name)
		return hb_errorf(why, len, -EINVAL, "target %td has an empty name",
			      t - d->targets + 1);
	if (!t->group || !*t->group)
		return hb_errorf(why, len, -EINVAL,
			      "target %td (\"%s\") has no group",
			      t - d->targets + 1, t->name);
	plugin_target_name(t, full, sizeof(full));
	if (find_target(d, full, t))
		return hb_errorf(why, len, -EINVAL, "target %s offered twice",
			      full);
	other = registry_find(reg, full, d->name, NULL);
	if (other)
		return hb_errorf(why, len, -EINVAL,
			      "backend \"%s\" already offers %s (from %s)",
			      d->name, full, other->path);
	if (check_parts(d, t, full, why, len))
		return -EINVAL;
	return check_options(full, t->options, why, len);
}

/* Every target of d. */
static int check_targets(const struct registry *reg, const struct hb_plugin *d,
			 char *why, size_t len)
{
	const struct hb_target *t;

	for (t = d->targets; t->name; t++) {
		int err = check_target(reg, d, t, why, len);

		if (err)
			return err;
	}
	/* A group without a name ends the table early: a typo, not an end. */
	if (t->group)
		return hb_errorf(why, len, -EINVAL,
			      "target %td has a group but no name",
			      t - d->targets + 1);
	return 0;
}

/* What describe() reports lands in the plugin being loaded. */
struct about_ctx {
	struct hb_about about;
	struct plugin *plugin;
	int err; /* -ENOMEM once a callback could not record */
};

/* hb_about.library: one linked library and its version. */
static void about_library(struct hb_about *a, const char *name,
			  const char *version)
{
	struct about_ctx *ctx = a->core;

	if (name && version &&
	    kvlist_set(&ctx->plugin->libraries, name, version))
		ctx->err = -ENOMEM;
}

/* hb_about.unusable: a target that cannot run on this host. */
static void about_unusable(struct hb_about *a, const char *target,
			   const char *reason)
{
	struct about_ctx *ctx = a->core;

	if (target &&
	    kvlist_set(&ctx->plugin->unusable, target, reason ? reason : ""))
		ctx->err = -ENOMEM;
}

/* Call the optional describe() and keep what it reports. */
static int describe_plugin(struct plugin *p, char *why, size_t len)
{
	struct about_ctx ctx = {
		.about = { .library = about_library,
			   .unusable = about_unusable },
		.plugin = p,
	};
	char perr[256] = "";
	int rc;

	if (!p->desc->describe)
		return 0;
	ctx.about.core = &ctx;
	rc = p->desc->describe(&ctx.about, perr, sizeof(perr));
	perr[sizeof(perr) - 1] = '\0';
	if (ctx.err)
		return ctx.err;
	if (rc < 0)
		return hb_errorf(why, len, -EINVAL, "describe() failed: %s",
			      *perr ? perr : "no reason given");
	return 0;
}

/* Undo what loading p did so far, keeping nothing. */
static void plugin_free(struct plugin *p)
{
	kvlist_free(&p->libraries);
	kvlist_free(&p->unusable);
	if (p->handle)
		dlclose(p->handle);
	free(p->path);
	memset(p, 0, sizeof(*p));
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
 * Load one plugin file, or refuse it. dir_why is why its directory is
 * unsafe (empty when it is safe). Returns 0 or -ENOMEM.
 */
static int load_file(struct registry *reg, const char *path,
		     const char *dir_why, FILE *diag)
{
	struct plugin p = { 0 };
	char why[REASON_LEN] = "";
	int err;

	if (*dir_why)
		return refuse(reg, diag, path, dir_why);
	if (writable_by_others(path, "file", why, sizeof(why)))
		return refuse(reg, diag, path, why);
	p.path = strdup(path);
	if (!p.path)
		return -ENOMEM;
	err = open_plugin(&p, why, sizeof(why));
	if (!err)
		err = check_abi(p.desc, why, sizeof(why));
	if (!err)
		err = check_slots(p.desc, why, sizeof(why));
	if (!err)
		err = check_targets(reg, p.desc, why, sizeof(why));
	if (!err)
		err = describe_plugin(&p, why, sizeof(why));
	if (!err)
		err = keep(reg, &p);
	if (!err)
		return 0;
	plugin_free(&p);
	return err == -ENOMEM ? err : refuse(reg, diag, path, why);
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
static int load_entry(struct registry *reg, const char *dir, const char *name,
		      const char *dir_why, struct strlist *seen, FILE *diag)
{
	char *path = path_join(dir, name);
	int err = 0;

	if (!path)
		return -ENOMEM;
	if (!strlist_has(seen, name) && is_regular(path)) {
		err = strlist_push(seen, name);
		if (!err)
			err = load_file(reg, path, dir_why, diag);
	}
	free(path);
	return err;
}

/*
 * Load every plugin file of dir, in byte order of their names. A directory
 * that does not exist is no error. Returns 0 or -ENOMEM.
 */
static int load_dir(struct registry *reg, const char *dir, struct strlist *seen,
		    FILE *diag)
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
		return refuse(reg, diag, dir, dir_why);
	}
	writable_by_others(dir, "directory", dir_why, sizeof(dir_why));
	for (int i = 0; i < n && !err; i++)
		err = load_entry(reg, dir, names[i]->d_name, dir_why, seen,
				 diag);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return err;
}

int registry_load(struct registry *reg, const char *const *dirs, size_t ndirs,
		  FILE *diag)
{
	struct strlist seen = { 0 };
	int err = 0;

	for (size_t i = 0; i < ndirs && !err; i++)
		err = load_dir(reg, dirs[i], &seen, diag);
	strlist_free(&seen);
	return err;
}

void registry_free(struct registry *reg)
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
