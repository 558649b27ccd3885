/* SPDX-License-Identifier: Apache-2.0 */
/* The host API: plugins read parameters and report notes through it. */
#include "run/hostapi.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "base/sanitize.h"
#include "plugin/core_key.h"

/* The text of option name for case c, or NULL when the case has none. */
static const char *host_text(const struct hb_case *c, const char *name)
{
	const struct host_ctx *ctx = c->core;
	const char *v = kvlist_get(&ctx->bc->params, name);

	/* targets taking extra keys look names up to see if they exist */
	if (!v && !(c->target->flags & HB_TARGET_EXTRA_KEYS))
		fprintf(stderr,
			"hostbench: %s: plugin asked for undeclared "
			"option \"%s\"\n",
			ctx->bc->title, name);
	return v;
}

static uint64_t host_get_size(const struct hb_case *c, const char *name)
{
	const char *v = host_text(c, name);
	uint64_t out = 0;

	if (v)
		parse_size(v, &out, NULL, 0);
	return out;
}

static int64_t host_get_int(const struct hb_case *c, const char *name)
{
	const struct host_ctx *ctx = c->core;
	const char *v;
	int64_t out = 0;

	if (core_key_readable(name, c->target))
		return ctx->bc->queue_depth ? ctx->bc->queue_depth : 1;
	v = host_text(c, name);
	if (v)
		parse_int(v, &out, NULL, 0);
	return out;
}

static int host_get_bool(const struct hb_case *c, const char *name)
{
	const char *v = host_text(c, name);
	int out = 0;

	if (v)
		parse_bool(v, &out, NULL, 0);
	return out;
}

static const char *host_get_str(const struct hb_case *c, const char *name)
{
	return host_text(c, name);
}

static double host_get_duration(const struct hb_case *c, const char *name)
{
	const char *v = host_text(c, name);
	double out = 0;

	if (v)
		parse_duration(v, &out, NULL, 0);
	return out;
}

static size_t host_get_size_list(const struct hb_case *c, const char *name,
				 uint64_t *out, size_t max)
{
	const char *v = host_text(c, name);
	struct strlist items = { 0 };
	size_t n = 0;

	if (v && parse_list(v, &items, NULL, 0) == 0) {
		n = items.n;
		for (size_t i = 0; i < n && i < max; i++)
			parse_size(items.items[i], &out[i], NULL, 0);
	}
	strlist_free(&items);
	return n;
}

static void host_note(const struct hb_case *c, const char *key,
		      const char *value)
{
	const struct host_ctx *ctx = c->core;

	if (ctx->r) /* validate() has no result to note into */
		kvlist_set(&ctx->r->info, key, value);
}

static void host_warn(const struct hb_case *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void host_warn(const struct hb_case *c, const char *fmt, ...)
{
	const struct host_ctx *ctx = c->core;
	char line[512];
	va_list ap;

	if (!ctx->r) /* validate() has no result to warn into */
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < ctx->r->warnings.n; i++)
		if (strcmp(ctx->r->warnings.items[i], line) == 0)
			return; /* every worker may say the same thing */
	strlist_push(&ctx->r->warnings, line);
}

static void host_log(const struct hb_case *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void host_log(const struct hb_case *c, const char *fmt, ...)
{
	const struct host_ctx *ctx = c->core;
	char line[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	/* one line that cannot drive the terminal */
	sanitize_text(line);
	fprintf(stderr, "hostbench: %s: %s\n", ctx->bc->title, line);
}

/* Added to the worker's tool time of the sample under way (plugin.h). */
static void host_tool_time(const struct hb_case *c, double seconds)
{
	const struct host_ctx *ctx = c->core;

	if (ctx->tool_seconds && (c->target->flags & HB_TARGET_TOOL_TIMED) &&
	    isfinite(seconds) && seconds > 0 && c->worker < c->workers)
		ctx->tool_seconds[c->worker] += seconds;
}

const struct hb_host host_api = {
	.size = sizeof(struct hb_host),
	.get_size = host_get_size,
	.get_int = host_get_int,
	.get_bool = host_get_bool,
	.get_str = host_get_str,
	.get_duration = host_get_duration,
	.get_size_list = host_get_size_list,
	.note = host_note,
	.warn = host_warn,
	.log = host_log,
	.tool_time = host_tool_time,
};
