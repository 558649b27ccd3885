/* SPDX-License-Identifier: Apache-2.0 */
/*
 * check BACKEND [--reference BACKEND]: a crypto backend against a
 * reference, target by target, through the public ABI only (the checks
 * themselves are conform/conform.c's, in a helper), as a table with a closing
 * count, or one JSON document (--format json, docs/json-schema.md).
 */
#include "app/cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "app/cli.h"
#include "base/exit.h"
#include "proc/helper.h"
#include "base/sanitize.h"
#include "plugin/registry.h"
#include "report/writer.h"
#include "ui/output.h"

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

// clang-format off
const char cmd_check_about[] =
	"Check a crypto backend against a reference backend (default openssl),\n"
	"target by target, through the plugin ABI only: every target both offer\n"
	"gets the rows below (docs/plugins.md, \"What check proves\").\n"
	"\n"
	"  options  the option tables agree (names, types, defaults)\n"
	"  sizes    1 byte to 1 MiB + 17 through transform: outputs and tags equal\n"
	"  decrypt  each decrypts the other's ciphertext\n"
	"  counter  CTR: a counter carried across a 2^32-block boundary\n"
	"  tag      a corrupted tag or MAC is refused\n"
	"  repeat   the same message twice gives the same bytes\n"
	"  run      the timed path run(): 2 workers x 8 messages, encrypted\n"
	"           and decrypted, each read by the core from the buffers it\n"
	"           gave the plugin (ABI 1.4) and equal to the reference's\n"
	"  submit   the timed path submit/poll at depth 1 and 16, the same\n"
	"  stream   run() in stream mode: 3 buffers, byte for byte\n"
	"  async    submit/poll at depth 1 and 16 in decrypt: each unit back\n"
	"           once, its tag verified by the backend\n"
	"\n"
	"A row is ok, FAIL (what differed and where to look), skip (the check\n"
	"does not apply, said why) or n/v (not verifiable: the backend's timed\n"
	"path does not write the core's buffers; the row says what to add);\n"
	"ok (...) says what an ok row left out. The last line counts them.\n"
	"Exit status: 0 every row ok or skipped, 1 a row failed, 2 bad use, a\n"
	"backend that is not checkable or a row not verifiable (never\n"
	"conformant).\n";
// clang-format on

/* The verdicts of a row, as JSON names them, and as the table shows them. */
static const char *const status_names[] = { "ok", "failed", "skipped",
					    "not verifiable" };
static const char *const status_cells[] = { "ok", "FAIL", "skip", "n/v" };

/* Append one row to rows; note (or NULL) qualifies its verdict. */
static void add_row(json_t *rows, const char *target, const char *check,
		    int status, const char *detail, const char *note)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:s}", "target",
			      target ? target : "", "check", check ? check : "",
			      "status", status_names[status], "detail",
			      detail ? detail : "");

	if (o && note && *note)
		json_object_set_new(o, "note", json_string(note));
	json_array_append_new(rows, o);
}

/* The index of a row's status in status_names. */
static int row_status(const json_t *row)
{
	const char *st = json_string_value(json_object_get(row, "status"));

	for (int i = 0; st && i < 4; i++)
		if (strcmp(st, status_names[i]) == 0)
			return i;
	return 1;
}

/* The targets both offer into list; their options rows into rows. */
static int common_targets(const struct plugin *ref, const struct plugin *sub,
			  json_t *list, json_t *rows)
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
		/* only messages can be compared: not operations (pk) */
		if (!r || t->work == HB_WORK_OPS ||
		    registry_unusable(sub, full) ||
		    registry_unusable(ref, full))
			continue;
		ok = same_options(r, t, why, sizeof(why)) &&
		     same_options(t, r, why, sizeof(why));
		add_row(rows, full, "options", ok ? 0 : 1, why, NULL);
		json_array_append_new(list, json_string(full));
	}
	return (int)json_array_size(list);
}

/* The helper's rows into rows; 0, or -1 with why the helper failed. */
static int run_checks(const struct plugin *ref, const struct plugin *sub,
		      json_t *targets, json_t *rows, char *why, size_t len)
{
	json_t *req = json_pack("{s:s, s:s, s:O}", "reference", ref->path,
				"subject", sub->path, "targets", targets);
	char *text = req ? json_dumps(req, JSON_COMPACT) : NULL, err[256] = "";
	struct helper_req hr = { .mode = "check",
				 .plugin_fd = ref->fd,
				 .plugin_fd2 = sub->fd,
				 .request = text,
				 .timeout = CHECK_TIMEOUT };
	struct helper_out out = { 0 };
	json_t *ans = NULL, *row;
	size_t i;
	int rc = -1;

	if (text && helper_run(&hr, &out, err, sizeof(err)) == 0 && out.answer)
		ans = json_loads(out.answer, 0, NULL);
	if (json_is_array(json_object_get(ans, "rows"))) {
		json_array_foreach(json_object_get(ans, "rows"), i, row) {
			int status =
				json_is_true(
					json_object_get(row, "unverifiable"))
					? 3
				: json_is_true(json_object_get(row, "skipped"))
					? 2
				: json_is_true(json_object_get(row, "ok")) ? 0
									   : 1;

			add_row(rows,
				json_string_value(
					json_object_get(row, "target")),
				json_string_value(
					json_object_get(row, "check")),
				status,
				json_string_value(
					json_object_get(row, "detail")),
				json_string_value(
					json_object_get(row, "note")));
		}
		rc = 0;
	} else {
		helper_describe_end(&out, CHECK_TIMEOUT, "while checking", err,
				    sizeof(err));
		snprintf(why, len, "%s",
			 json_string_value(json_object_get(ans, "refused"))
				 ? json_string_value(
					   json_object_get(ans, "refused"))
				 : err);
	}
	json_decref(ans);
	helper_out_free(&out);
	json_decref(req);
	free(text);
	return rc;
}

/* A backend as the JSON document names it. */
static json_t *backend_json(const struct plugin *p)
{
	char abi[32];

	snprintf(abi, sizeof(abi), "%u.%u", p->desc->abi_major,
		 p->desc->abi_minor);
	return json_pack("{s:s, s:s, s:s, s:s}", "backend", p->desc->name,
			 "version", p->desc->version ? p->desc->version : "",
			 "abi", abi, "path", p->path ? p->path : "");
}

/* The closing counts, the verdict and the exit status of doc's rows. */
static int summarize(json_t *doc)
{
	json_t *row;
	size_t i;
	int n[4] = { 0 }, status;

	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		n[row_status(row)]++;
	}
	if (json_object_get(doc, "error"))
		n[1]++;
	status = n[1] ? EXIT_CASE_FAILED : n[3] ? EXIT_BAD_INPUT : EXIT_ALL_OK;
	json_object_set_new(doc, "summary",
			    json_pack("{s:i, s:i, s:i, s:i}", "ok", n[0],
				      "failed", n[1], "skipped", n[2],
				      "not_verifiable", n[3]));
	json_object_set_new(doc, "verdict",
			    json_string(n[1]   ? "failed"
					: n[3] ? "not verifiable"
					       : "conformant"));
	json_object_set_new(doc, "exit", json_integer(status));
	return status;
}

/* A row's verdict: its cell, and its note after it ("ok (...)"). */
static void verdict_text(const json_t *row, char *out, size_t len)
{
	const char *note = json_string_value(json_object_get(row, "note"));

	snprintf(out, len, note ? "%s (%s)" : "%s",
		 status_cells[row_status(row)], note);
}

/* doc as the table: a title, a row per line, the closing counts. */
static void print_text(const json_t *doc, FILE *out)
{
	const json_t *sum = json_object_get(doc, "summary"), *row;
	char verdict[128];
	size_t i;

	fprintf(out, "%s against %s\n",
		json_string_value(json_object_get(
			json_object_get(doc, "subject"), "backend")),
		json_string_value(json_object_get(
			json_object_get(doc, "reference"), "backend")));
	fprintf(out, "%-28s %-8s %-4s %s\n", "TARGET", "CHECK", "", "DETAIL");
	json_array_foreach(json_object_get(doc, "rows"), i, row) {
		verdict_text(row, verdict, sizeof(verdict));
		fprintf(out, "%-28s %-8s %-4s %s\n",
			json_string_value(json_object_get(row, "target")),
			json_string_value(json_object_get(row, "check")),
			verdict,
			json_string_value(json_object_get(row, "detail")));
	}
	fprintf(out, "%lld ok, %lld failed, %lld skipped",
		json_integer_value(json_object_get(sum, "ok")),
		json_integer_value(json_object_get(sum, "failed")),
		json_integer_value(json_object_get(sum, "skipped")));
	if (json_integer_value(json_object_get(sum, "not_verifiable")))
		fprintf(out, ", %lld not verifiable",
			json_integer_value(
				json_object_get(sum, "not_verifiable")));
	fprintf(out, "\n");
}

/* output_writer for check: doc is its JSON document, as text or JSON. */
static int write_check(const void *doc, enum report_format f, FILE *out,
		       char *err, size_t errlen)
{
	if (f == REPORT_JSON) {
		if (json_dumpf(doc, out, JSON_INDENT(2)))
			return hb_errorf(err, errlen, -EIO,
					 "cannot write the check");
		fputc('\n', out);
	} else {
		print_text(doc, out);
	}
	return ferror(out)
		       ? hb_errorf(err, errlen, -EIO, "cannot write the check")
		       : 0;
}

/* The rows of sub against ref into doc; an exit status. */
static int check_pair(const struct plugin *ref, const struct plugin *sub,
		      json_t *doc)
{
	json_t *targets = json_array(), *rows = json_object_get(doc, "rows");
	char why[512] = "";

	if (!targets)
		return EXIT_INTERNAL;
	if (common_targets(ref, sub, targets, rows) == 0) {
		fprintf(stderr,
			"hostbench: check: %s and %s offer no target in "
			"common\n",
			sub->desc->name, ref->desc->name);
		json_decref(targets);
		return EXIT_BAD_INPUT;
	}
	if (run_checks(ref, sub, targets, rows, why, sizeof(why))) {
		sanitize_text(why);
		fprintf(stderr, "hostbench: check: %s\n", why);
		json_object_set_new(doc, "error", json_string(why));
	}
	json_decref(targets);
	return EXIT_ALL_OK;
}

int cmd_check(const struct command_env *env)
{
	const char *ref_name =
		env->cli->reference ? env->cli->reference : "openssl";
	const struct plugin *sub, *ref;
	json_t *doc;
	int status;

	if (env->cli->format != REPORT_TEXT &&
	    env->cli->format != REPORT_JSON) {
		fprintf(stderr, "hostbench: check: --format: check writes "
				"text or json\n");
		return EXIT_BAD_INPUT;
	}
	sub = checkable(env->reg, env->cli->args.items[0]);
	ref = sub ? checkable(env->reg, ref_name) : NULL;
	if (!ref)
		return EXIT_BAD_INPUT;
	doc = json_pack("{s:i, s:{s:s}, s:o, s:o, s:[]}", "check_version", 1,
			"hostbench", "version", HB_VERSION, "subject",
			backend_json(sub), "reference", backend_json(ref),
			"rows");
	if (!doc)
		return EXIT_INTERNAL;
	status = check_pair(ref, sub, doc);
	if (status == EXIT_ALL_OK) {
		status = summarize(doc);
		sanitize_json(doc);
		if (output_write(env->cli->output, env->cli->format,
				 write_check, doc, NULL))
			status = EXIT_INTERNAL;
	}
	json_decref(doc);
	fflush(stdout);
	return status;
}
