/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A plugin loaded into this process: only in a helper (probe, validate, a
 * case's worker) or for a case with isolate = no. The descriptor is
 * checked before any plugin code but its constructors and entry function
 * runs, and describe() runs last.
 */
#include "plugin/loader.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plugin/check.h"

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
		hb_error_fill(why, len,
			      "needs %.*s, which is not installed (%s)",
			      (int)(colon - msg), msg, msg);
	else
		hb_error_fill(why, len, "cannot be loaded (%s)", msg);
}

/*
 * dlopen the file open on p->fd (the one trust_open() checked, never the
 * path again), find its entry function and ask it for the descriptor.
 */
static int open_plugin(struct plugin *p, char *why, size_t len)
{
	char self[64];
	hb_entry_fn entry;
	void *sym;

	snprintf(self, sizeof(self), "/proc/self/fd/%d", p->fd);
	dlerror();
	/*
	 * NODELETE: crypto libraries set up process-wide state once; unloading
	 * them at exit would gain nothing and strand that state.
	 */
	p->handle = dlopen(self, RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
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
	    kvlist_set(&ctx->plugin->unusable, target,
		       reason && *reason ? reason : "no reason given"))
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
	perr[sizeof(perr) - 1] = '\0'; /* the plugin may not have */
	if (ctx.err)
		return ctx.err;
	if (rc < 0)
		return hb_errorf(why, len, -EINVAL, "describe() failed: %s",
				 *perr ? perr : "no reason given");
	return 0;
}

int loader_open(struct plugin *p, char *why, size_t len)
{
	int err = open_plugin(p, why, len);

	if (!err)
		err = check_abi(p->desc, why, len);
	if (!err)
		err = check_slots(p->desc, why, len);
	if (!err)
		err = check_targets(NULL, p->desc, why, len);
	if (!err)
		err = describe_plugin(p, why, len);
	if (!err) {
		p->has_validate = loader_validate_fn(p) != NULL;
		p->has_transform = loader_transform_fn(p) != NULL;
	}
	return err;
}

validate_fn loader_validate_fn(const struct plugin *p)
{
	const struct hb_plugin *d = p->desc;

	if (!p->handle || d->abi_minor < 1 ||
	    d->size <
		    offsetof(struct hb_plugin, validate) + sizeof(d->validate))
		return NULL;
	return d->validate;
}

void loader_close(struct plugin *p)
{
	kvlist_free(&p->libraries);
	kvlist_free(&p->unusable);
	if (p->handle)
		dlclose(p->handle);
	if (p->fd >= 0)
		close(p->fd);
	free(p->path);
	memset(p, 0, sizeof(*p));
	p->fd = -1;
}

transform_fn loader_transform_fn(const struct plugin *p)
{
	const struct hb_plugin *d = p->desc;

	if (!p->handle || d->abi_minor < 2 ||
	    d->size < offsetof(struct hb_plugin, output))
		return NULL;
	return d->transform;
}

const struct plugin *loader_live(const struct plugin *p, char *why, size_t len)
{
	struct plugin *live = p->live;
	char perr[512] = "";

	if (live)
		return live->handle ? live : NULL;
	live = calloc(1, sizeof(*live));
	if (!live)
		return NULL;
	((struct plugin *)p)->live = live; /* loaded once, kept with p */
	live->fd = fcntl(p->fd, F_DUPFD_CLOEXEC, 3);
	live->path = strdup(p->path);
	if (live->fd < 0 || !live->path ||
	    loader_open(live, perr, sizeof(perr)) != 0 ||
	    strcmp(live->desc->name, p->desc->name) != 0) {
		hb_error_fill(why, len, "%s: cannot load it here: %s", p->path,
			      *perr ? perr : "its descriptor changed");
		if (live->handle)
			live->handle = NULL; /* keeps the library, loses use */
		return NULL;
	}
	return live;
}
