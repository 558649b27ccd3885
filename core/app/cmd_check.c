/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check BACKEND [--reference BACKEND]: a crypto backend against a
 * reference, target by target, through the public ABI only (the checks
 * themselves are run/conform.c's, in a helper).
 */
#include "app/cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/cli.h"
#include "base/exit.h"
#include "base/helper.h"
#include "plugin/registry.h"

/* Seconds the helper may take for all targets. */
#define CHECK_TIMEOUT 300.0

/* The loaded plugin called name, or NULL. */
static const struct plugin *backend(const struct registry *reg,
				    const char *name)
{
	for (size_t i = 0; i < reg->n; i++)
		if (strcmp(reg->plugins[i].desc->name, name) == 0)
			return &reg->plugins[i];
	return NULL;
}

/* A usable plugin with a transform slot, or why not (exit 2). */
static const struct plugin *checkable(const struct registry *reg,
				      const char *name)
{
	const struct plugin *p = backend(reg, name);

	if (!p)
		fprintf(stderr,
			"hostbench: check: no backend \"%s\" is loaded (see "
			"hostbench list)\n",
			name);
	else if (!p->has_transform)
		fprintf(stderr,
			"hostbench: check: backend \"%s\" is not checkable: "
			"it has no transform slot (ABI 1.2, docs/plugins.md)\n",
			name);
	return p && p->has_transform ? p : NULL;
}

/* Whether the options of a and b have the same names, types, defaults. */
static int same_options(const struct hb_target *a, const struct hb_target *b,
			char *why, size_t len)
{
	const struct hb_option *o = a->options;

	for (; o && o->name; o++) {
		const struct hb_option *q = plugin_option_find(b, o->name);

		if (!q)
			continue; /* a backend's own option (provider) */
		if (q->type != o->type ||
		    strcmp(q->def ? q->def : "", o->def ? o->def : "") != 0)
			return hb_errorf(why, len, 0,
					 "option \"%s\" differs in type or "
					 "default",
					 o->name);
	}
	snprintf(why, len, "names, types and defaults agree");
	return 1;
}

/* One row of the table: status "ok", "FAIL" or "skip". */
static void print_row(const char *target, const char *check, const char *status,
		      const char *detail)
{
	printf("%-28s %-8s %-4s %s\n", target, check, status, detail);
}

/* The targets both offer into list; the options rows printed. */
static int common_targets(const struct plugin *ref, const struct plugin *sub,
			  json_t *list, int *failed)
{
	char full[256], why[256];

	for (const struct hb_target *t = sub->desc->targets; t->name; t++) {
		const struct hb_target *r = NULL;
		int ok;

		plugin_target_name(t, full, sizeof(full));
		for (const struct hb_target *x = ref->desc->targets; x->name;
		     x++)
			if (strcmp(x->group, t->group) == 0 &&
			    strcmp(x->name, t->name) == 0)
				r = x;
		if (!r || registry_unusable(sub, full) ||
		    registry_unusable(ref, full))
			continue;
		ok = same_options(r, t, why, sizeof(why)) &&
		     same_options(t, r, why, sizeof(why));
		print_row(full, "options", ok ? "ok" : "FAIL", why);
		*failed |= !ok;
		json_array_append_new(list, json_string(full));
	}
	return (int)json_array_size(list);
}

/* Ask the helper for the rows; print them. Returns an exit status. */
static int run_checks(const struct plugin *ref, const struct plugin *sub,
		      json_t *targets, int failed)
{
	json_t *req = json_pack("{s:s, s:s, s:O}", "reference", ref->path,
				"subject", sub->path, "targets", targets);
	char *text = req ? json_dumps(req, JSON_COMPACT) : NULL, err[256];
	struct helper_req hr = { .mode = "check",
				 .plugin_fd = ref->fd,
				 .plugin_fd2 = sub->fd,
				 .request = text,
				 .timeout = CHECK_TIMEOUT };
	struct helper_out out = { 0 };
	json_t *ans = NULL, *row;
	size_t i;
	int status = EXIT_INTERNAL;

	if (text && helper_run(&hr, &out, err, sizeof(err)) == 0 && out.answer)
		ans = json_loads(out.answer, 0, NULL);
	if (json_is_array(json_object_get(ans, "rows"))) {
		json_array_foreach(json_object_get(ans, "rows"), i, row) {
			int ok = json_is_true(json_object_get(row, "ok"));
			int skip =
				json_is_true(json_object_get(row, "skipped"));

			print_row(json_string_value(
					  json_object_get(row, "target")),
				  json_string_value(
					  json_object_get(row, "check")),
				  skip ? "skip"
				  : ok ? "ok"
				       : "FAIL",
				  json_string_value(
					  json_object_get(row, "detail")));
			failed |= !ok;
		}
		status = failed ? EXIT_CASE_FAILED : EXIT_ALL_OK;
	} else {
		helper_describe_end(&out, CHECK_TIMEOUT, "while checking", err,
				    sizeof(err));
		fprintf(stderr, "hostbench: check: %s\n",
			json_string_value(json_object_get(ans, "refused"))
				? json_string_value(
					  json_object_get(ans, "refused"))
				: err);
		status = EXIT_CASE_FAILED;
	}
	json_decref(ans);
	helper_out_free(&out);
	json_decref(req);
	free(text);
	return status;
}

int cmd_check(const struct command_env *env)
{
	const char *ref_name =
		env->cli->reference ? env->cli->reference : "openssl";
	const struct plugin *sub = checkable(env->reg, env->cli->args.items[0]);
	const struct plugin *ref = sub ? checkable(env->reg, ref_name) : NULL;
	json_t *targets = json_array();
	int failed = 0, status = EXIT_BAD_INPUT;

	if (ref && targets) {
		printf("%s against %s\n", sub->desc->name, ref->desc->name);
		printf("%-28s %-8s %-4s %s\n", "TARGET", "CHECK", "", "DETAIL");
		if (common_targets(ref, sub, targets, &failed) == 0)
			fprintf(stderr,
				"hostbench: check: %s and %s offer no target "
				"in common\n",
				sub->desc->name, ref->desc->name);
		else
			status = run_checks(ref, sub, targets, failed);
	}
	json_decref(targets);
	fflush(stdout);
	return status;
}
