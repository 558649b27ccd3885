/* SPDX-License-Identifier: Apache-2.0 */
/* `list` and `describe`: the loaded plugins' offer, as text or JSON. */
#include "ui/catalog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/parse.h"
#include "plugin/core_key.h"
#include "render/table.h"
#include "suite/suite_value.h"

/* "usable", or the reason the target cannot run with p here. */
static const char *usability(const struct plugin *p, const char *target)
{
	const char *why = registry_unusable(p, target);

	return why ? why : "usable";
}

/* JSON for one option. */
static json_t *option_json(const struct hb_option *o)
{
	json_t *j = json_pack("{s:s, s:s, s:s?, s:s?}", "name", o->name, "type",
			      plugin_type_name(o->type), "default", o->def,
			      "help", o->help);
	json_t *choices;

	if (o->choices) {
		choices = json_array();
		for (size_t i = 0; o->choices[i]; i++)
			json_array_append_new(choices,
					      json_string(o->choices[i]));
		json_object_set_new(j, "choices", choices);
	}
	if (o->max > o->min) {
		json_object_set_new(j, "min", json_integer(o->min));
		json_object_set_new(j, "max", json_integer(o->max));
	}
	return j;
}

/* JSON for one target of plugin p. */
static json_t *target_json(const struct plugin *p, const struct hb_target *t,
			   int with_options)
{
	char full[256];
	json_t *j, *opts;

	plugin_target_name(t, full, sizeof(full));
	j = json_pack("{s:s, s:s, s:s?, s:s, s:s, s:b}", "target", full,
		      "backend", p->desc->name, "summary", t->summary, "work",
		      plugin_work_name(t->work), "status", usability(p, full),
		      "usable", registry_unusable(p, full) == NULL);
	if (!with_options)
		return j;
	opts = json_array();
	for (const struct hb_option *o = t->options; o && o->name; o++)
		json_array_append_new(opts, option_json(o));
	json_object_set_new(j, "options", opts);
	json_object_set_new(j, "extra_keys",
			    json_boolean(t->flags & HB_TARGET_EXTRA_KEYS));
	return j;
}

/*
 * What `hostbench check` can do with p: "verifiable" (its timed path
 * writes the core's buffers, ABI 1.4), "not verifiable" (a transform, but
 * a timed path the core cannot read), "not checkable" (no transform).
 */
static const char *check_word(const struct plugin *p)
{
	if (!p->has_transform)
		return "not checkable";
	for (const struct hb_target *t = p->desc->targets;
	     p->desc->abi_minor >= 4 && t->name; t++)
		if (t->flags & HB_TARGET_VERIFIED)
			return "verifiable";
	return "not verifiable";
}

/* Why check_word(p) is what it is, and what to add, for list's text. */
static const char *check_hint(const struct plugin *p)
{
	const char *w = check_word(p);

	if (strcmp(w, "verifiable") == 0)
		return "its timed path is verified by check and by every run";
	if (strcmp(w, "not checkable") == 0)
		return "no transform slot: check cannot compare it";
	if (p->desc->abi_minor < 4)
		return "check cannot verify its timed path and runs are not "
		       "verified: rebuild it for ABI 1.4 (core buffers, "
		       "HB_TARGET_VERIFIED; docs/plugins.md)";
	return "no target sets HB_TARGET_VERIFIED: check cannot verify its "
	       "timed path";
}

/* JSON for one plugin: file, version, ABI, what check can do, libraries. */
static json_t *plugin_json(const struct plugin *p)
{
	json_t *libs = json_object();
	char abi[16];

	snprintf(abi, sizeof(abi), "%u.%u", p->desc->abi_major,
		 p->desc->abi_minor);
	for (size_t i = 0; i < p->libraries.n; i++)
		json_object_set_new(libs, p->libraries.items[i].key,
				    json_string(p->libraries.items[i].value));
	return json_pack("{s:s, s:s?, s:s?, s:s, s:s, s:s, s:o}", "name",
			 p->desc->name, "version", p->desc->version, "summary",
			 p->desc->summary, "path", p->path, "abi", abi, "check",
			 check_word(p), "libraries", libs);
}

/* Write j as the whole document and free it. */
static int json_out(json_t *j, FILE *out, char *err, size_t errlen)
{
	int rc = json_dumpf(j, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);

	json_decref(j);
	fputc('\n', out);
	return rc ? hb_errorf(err, errlen, -EIO, "cannot write JSON") : 0;
}

static int list_json(const struct registry *reg, FILE *out, char *err,
		     size_t errlen)
{
	json_t *plugins = json_array(), *targets = json_array();
	json_t *refused = json_array();

	for (size_t i = 0; i < reg->n; i++) {
		const struct plugin *p = &reg->plugins[i];

		json_array_append_new(plugins, plugin_json(p));
		for (const struct hb_target *t = p->desc->targets; t->name; t++)
			json_array_append_new(targets, target_json(p, t, 0));
	}
	for (size_t i = 0; i < reg->nrefused; i++)
		json_array_append_new(refused,
				      json_pack("{s:s, s:s}", "path",
						reg->refused[i].path, "reason",
						reg->refused[i].reason));
	return json_out(json_pack("{s:o, s:o, s:o}", "plugins", plugins,
				  "targets", targets, "refused", refused),
			out, err, errlen);
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort l and drop repeated names (O(n log n), whatever the count). */
static void sort_unique(struct strlist *l)
{
	size_t kept = 0;

	if (l->n)
		qsort(l->items, l->n, sizeof(*l->items), by_text);
	for (size_t i = 0; i < l->n; i++) {
		if (kept && strcmp(l->items[kept - 1], l->items[i]) == 0) {
			free(l->items[i]);
			continue;
		}
		l->items[kept++] = l->items[i];
	}
	l->n = kept;
}

/* Every target and every backend name of reg, each sorted, once. */
static int targets_and_backends(const struct registry *reg,
				struct strlist *targets,
				struct strlist *backends)
{
	char full[256];
	int rc = 0;

	for (size_t i = 0; i < reg->n && !rc; i++) {
		const struct plugin *p = &reg->plugins[i];

		rc = strlist_push(backends, p->desc->name);
		for (const struct hb_target *t = p->desc->targets;
		     !rc && t->name; t++) {
			plugin_target_name(t, full, sizeof(full));
			rc = strlist_push(targets, full);
		}
	}
	sort_unique(targets);
	sort_unique(backends);
	return rc;
}

/*
 * The cell of target and backend: "-" not offered, "yes" usable, "no [n]"
 * with the reason as note n; "*" after the default backend's.
 */
static int target_cell(const struct registry *reg, const char *target,
		       const char *backend, struct table *t, size_t row,
		       size_t col)
{
	const struct plugin *p = registry_find(reg, target, backend, NULL);
	const char *why = p ? registry_unusable(p, target) : NULL;
	int chosen = p && registry_default(reg, target) == p;
	char text[64], note[1024];

	if (!p)
		return table_set(t, row, col, "-");
	if (!why) {
		snprintf(text, sizeof(text), "yes%s", chosen ? "*" : "");
		return table_set(t, row, col, text);
	}
	snprintf(text, sizeof(text), "no [%zu]%s", t->notes.n + 1,
		 chosen ? "*" : "");
	snprintf(note, sizeof(note), "[%zu] %s on %s: %s", t->notes.n + 1,
		 target, backend, why);
	if (table_set(t, row, col, text))
		return -ENOMEM;
	return strlist_push(&t->notes, note);
}

/* The table of targets by backends, as text. Returns 0 or -ENOMEM. */
static int targets_text(const struct registry *reg, FILE *out)
{
	struct strlist targets = { 0 }, backends = { 0 };
	struct table t = { 0 };
	int rc = targets_and_backends(reg, &targets, &backends);

	if (!rc)
		rc = table_init(&t, 1 + targets.n, 1 + backends.n);
	if (!rc)
		rc = table_set(&t, 0, 0, "target");
	for (size_t b = 0; b < backends.n && !rc; b++)
		rc = table_set(&t, 0, 1 + b, backends.items[b]);
	for (size_t i = 0; i < targets.n && !rc; i++) {
		rc = table_set(&t, 1 + i, 0, targets.items[i]);
		for (size_t b = 0; b < backends.n && !rc; b++)
			rc = target_cell(reg, targets.items[i],
					 backends.items[b], &t, 1 + i, 1 + b);
	}
	if (!rc)
		rc = table_text(&t, out);
	table_free(&t);
	strlist_free(&targets);
	strlist_free(&backends);
	return rc;
}

static int list_text(const struct registry *reg, FILE *out)
{
	fprintf(out, "Plugins:\n");
	for (size_t i = 0; i < reg->n; i++) {
		const struct plugin *p = &reg->plugins[i];

		fprintf(out, "  %-10s %-8s %s\n", p->desc->name,
			p->desc->version ? p->desc->version : "",
			p->desc->summary ? p->desc->summary : "");
		fprintf(out, "  %-10s %-8s %s\n", "", "", p->path);
		fprintf(out, "  %-10s %-8s ABI %u.%u; check: %s (%s)\n", "", "",
			p->desc->abi_major, p->desc->abi_minor, check_word(p),
			check_hint(p));
		for (size_t l = 0; l < p->libraries.n; l++)
			fprintf(out, "  %-10s %-8s links %s %s\n", "", "",
				p->libraries.items[l].key,
				p->libraries.items[l].value);
	}
	fprintf(out, "\nTargets (yes: usable here, *: the default backend, "
		     "-: not offered, no [n]: see note n):\n");
	if (targets_text(reg, out))
		return -ENOMEM;
	if (reg->nrefused)
		fprintf(out, "\nRefused:\n");
	for (size_t i = 0; i < reg->nrefused; i++)
		fprintf(out, "  %s: %s\n", reg->refused[i].path,
			reg->refused[i].reason);
	return ferror(out) ? -EIO : 0;
}

int catalog_list(const struct registry *reg, enum report_format f, FILE *out,
		 char *err, size_t errlen)
{
	if (f == REPORT_JSON)
		return list_json(reg, out, err, errlen);
	return list_text(reg, out);
}

/* The known target nearest to name, or NULL when none is close. */
static const char *nearest_target(const struct registry *reg, const char *name,
				  char *buf, size_t len)
{
	size_t best = (size_t)-1;

	for (size_t i = 0; i < reg->n; i++)
		for (const struct hb_target *t = reg->plugins[i].desc->targets;
		     t->name; t++) {
			char full[256];
			size_t d;

			plugin_target_name(t, full, sizeof(full));
			d = parse_edit_distance(name, full);
			if (d < best) {
				best = d;
				snprintf(buf, len, "%s", full);
			}
		}
	return best <= 3 ? buf : NULL;
}

/* Text for one option: name, type, default, bounds, choices, help. */
static void option_text(const struct hb_option *o, FILE *out)
{
	fprintf(out, "  %-12s %-9s default %-10s %s\n", o->name,
		plugin_type_name(o->type), o->def ? o->def : "(required)",
		o->help ? o->help : "");
	if (o->choices) {
		/* a size option's choices are words taken in place of a size */
		fprintf(out, "  %-12s %-9s %s:", "", "",
			o->type == HB_OPT_SIZE ? "or a word" : "one of");
		for (size_t i = 0; o->choices[i]; i++)
			fprintf(out, " %s", o->choices[i]);
		fputc('\n', out);
	}
	if (o->max > o->min)
		fprintf(out, "  %-12s %-9s from %" PRId64 " to %" PRId64 "\n",
			"", "", o->min, o->max);
}

static void describe_text(const struct plugin *p, const struct hb_target *t,
			  const char *name, FILE *out)
{
	fprintf(out, "%s (backend %s): %s\n", name, p->desc->name,
		t->summary ? t->summary : "");
	fprintf(out, "  work unit: %s; %s here\n", plugin_work_name(t->work),
		usability(p, name));
	for (size_t i = 0; t->parts && t->parts[i]; i++)
		fprintf(out, "  part: %s (measured alongside)\n", t->parts[i]);
	fprintf(out, "  options:\n");
	for (const struct hb_option *o = t->options; o && o->name; o++)
		option_text(o, out);
	if (t->flags & HB_TARGET_EXTRA_KEYS)
		fprintf(out, "  other keys are passed to the target as text\n");
	fprintf(out, "  core keys (see docs/suites.md):");
	for (const char *const *k = core_key_names; *k; k++)
		fprintf(out, "%s %s", k == core_key_names ? "" : ",", *k);
	fprintf(out, "\n\n");
}

int catalog_describe(const struct registry *reg, const char *target,
		     enum report_format f, FILE *out, char *err, size_t errlen)
{
	json_t *all = json_array();
	char near[256];
	int found = 0;

	for (size_t i = 0; i < reg->n; i++) {
		const struct hb_target *t;
		const struct plugin *p = &reg->plugins[i];

		if (registry_find(reg, target, p->desc->name, &t) != p)
			continue;
		found = 1;
		if (f == REPORT_JSON)
			json_array_append_new(all, target_json(p, t, 1));
		else
			describe_text(p, t, target, out);
	}
	if (!found) {
		json_decref(all);
		if (nearest_target(reg, target, near, sizeof(near)))
			return hb_errorf(err, errlen, -ENOENT,
					 "unknown target \"%s\" (did you mean "
					 "\"%s\"?)",
					 target, near);
		return hb_errorf(err, errlen, -ENOENT,
				 "unknown target \"%s\" (see hostbench list)",
				 target);
	}
	if (f == REPORT_JSON)
		return json_out(all, out, err, errlen);
	json_decref(all);
	return ferror(out) ? -EIO : 0;
}
