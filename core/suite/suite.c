/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Suites: files read into draft jobs, --set applied, every key validated
 * against the target's option table; suite_expand.c makes the cases.
 */
#include "suite/suite.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/parse.h"
#include "plugin/core_key.h"
#include "suite/suite_draft.h"
#include "suite/suite_file.h"
#include "suite/suite_value.h"

/* Largest suite file read; suites are a few hundred lines. */
#define SUITE_MAX_FILE (1024 * 1024)
/* Room for "FILE:LINE" with the longest path. */
#define ORIGIN_MAX (4096 + 32)

/* A [global] key; the jobs after it in its file inherit it. */
struct gsetting {
	char *key;
	char *value;
	char *origin; /* "FILE:LINE" */
	int used;     /* some job accepted the key */
};

/* One parsed --set. */
struct override {
	const char *text;
	char *section; /* NULL: every job that takes key */
	char *key;
	char *value;
};

/* Everything read so far, until the suite is complete. */
struct loader {
	const struct registry *reg;
	struct gsetting *globals;
	size_t nglobals;
	size_t gcap;
	struct draft *drafts;
	size_t ndrafts;
	size_t dcap;
	char *err;
	size_t errlen;
};

/*
 * Fill err with "ORIGIN: [LABEL] KEY: message" (label and key optional)
 * and return -ENOMEM when code is, else -EINVAL: a parser's -ERANGE is
 * still a bad suite.
 */
__attribute__((format(printf, 6, 7))) static int
fail(struct loader *ld, int code, const char *origin, const char *label,
     const char *key, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return hb_errorf(ld->err, ld->errlen, code == -ENOMEM ? code : -EINVAL,
			 "%s: %s%s%s%s%s%s", origin, label ? "[" : "",
			 label ? label : "", label ? "] " : "", key ? key : "",
			 key ? ": " : "", msg);
}

static int nomem(struct loader *ld)
{
	return hb_errorf(ld->err, ld->errlen, -ENOMEM, "out of memory");
}

/* "FILE:LINE" as a new string. */
static char *origin_at(const char *file, unsigned line)
{
	char buf[ORIGIN_MAX];

	snprintf(buf, sizeof(buf), "%s:%u", file, line);
	return strdup(buf);
}

/* The nearest candidate to a mistyped word, for "did you mean". */
struct hint {
	const char *typed;
	char best[128];
	size_t dist; /* of best; meaningless while best is "" */
};

/* Consider candidate c, at edit distance d from the typed word. */
static void hint_at(struct hint *h, const char *c, size_t d)
{
	if ((!h->best[0] || d < h->dist) && strlen(c) < sizeof(h->best)) {
		strcpy(h->best, c);
		h->dist = d;
	}
}

static void hint_try(struct hint *h, const char *c)
{
	hint_at(h, c, parse_edit_distance(h->typed, c));
}

/*
 * " (did you mean "X"?)" into buf when the best candidate is close enough
 * to be what was meant (at most 2 edits, or a third of the word), else "".
 */
static const char *hint_text(const struct hint *h, char *buf, size_t len)
{
	size_t n = strlen(h->typed);

	if (!h->best[0] || h->dist >= n || (h->dist > 2 && h->dist * 3 > n))
		return "";
	snprintf(buf, len, " (did you mean \"%s\"?)", h->best);
	return buf;
}

/* Offer every key job d takes to h. */
static void hint_keys(struct hint *h, const struct draft *d)
{
	for (const char *const *k = core_key_names; *k; k++)
		hint_try(h, *k);
	for (size_t b = 0; b < d->backends.n; b++)
		for (const struct hb_option *o = d->tdescs && d->tdescs[b]
							 ? d->tdescs[b]->options
							 : NULL;
		     o && o->name; o++)
			hint_try(h, o->name);
}

/*
 * Offer every loaded target to h; a bare name ("aes-256-gcm") matches its
 * "group/name" exactly.
 */
static void hint_targets(struct hint *h, const struct registry *reg)
{
	char full[256];

	for (size_t i = 0; i < reg->n; i++)
		for (const struct hb_target *t = reg->plugins[i].desc->targets;
		     t && t->name; t++) {
			plugin_target_name(t, full, sizeof(full));
			hint_at(h, full,
				strcmp(h->typed, t->name) == 0
					? 0
					: parse_edit_distance(h->typed, full));
		}
}

/* A new empty draft for section sec of file name, or NULL. */
static struct draft *draft_new(struct loader *ld, const char *name,
			       const struct sf_section *sec)
{
	struct draft *d;

	if (array_grow((void **)&ld->drafts, ld->ndrafts, &ld->dcap,
		       sizeof(*d)))
		return NULL;
	d = &ld->drafts[ld->ndrafts];
	memset(d, 0, sizeof(*d));
	d->label = strdup(sec->name);
	d->file = strdup(name);
	d->line = sec->line;
	ld->ndrafts++;
	return d->label && d->file ? d : NULL;
}

/* Record a [global] key; cur lists the file's global keys in force. */
static int global_add(struct loader *ld, const char *name,
		      const struct sf_entry *e, size_t *cur, size_t *ncur)
{
	struct gsetting *g;
	size_t i;

	if (array_grow((void **)&ld->globals, ld->nglobals, &ld->gcap,
		       sizeof(*g)))
		return -ENOMEM;
	g = &ld->globals[ld->nglobals];
	memset(g, 0, sizeof(*g));
	g->key = strdup(e->key);
	g->value = strdup(e->value);
	g->origin = origin_at(name, e->line);
	if (!g->key || !g->value || !g->origin) {
		free(g->key);
		free(g->value);
		free(g->origin);
		return -ENOMEM;
	}
	for (i = 0; i < *ncur; i++)
		if (strcmp(ld->globals[cur[i]].key, e->key) == 0)
			break;
	/* A value replaced by a later [global] is not a typo: the new one
	 * is checked in its place. */
	if (i < *ncur)
		ld->globals[cur[i]].used = 1;
	cur[i] = ld->nglobals++;
	if (i == *ncur)
		(*ncur)++;
	return 0;
}

/* A job section: inherit the globals in force, then its own keys. */
static int job_add(struct loader *ld, const char *name,
		   const struct sf_section *sec, const size_t *cur, size_t ncur)
{
	struct draft *d = draft_new(ld, name, sec);

	if (!d)
		return -ENOMEM;
	for (size_t i = 0; i < ncur; i++) {
		const struct gsetting *g = &ld->globals[cur[i]];

		if (suite_draft_set(d, g->key, g->value, g->origin,
				    (long)cur[i]))
			return -ENOMEM;
	}
	for (size_t i = 0; i < sec->n; i++) {
		char *origin = origin_at(name, sec->entries[i].line);
		int rc = origin ? suite_draft_set(d, sec->entries[i].key,
						  sec->entries[i].value, origin,
						  -1)
				: -ENOMEM;

		free(origin);
		if (rc)
			return rc;
	}
	return 0;
}

/* Total number of entries in f's [global] sections: room for cur. */
static size_t count_globals(const struct suite_file *f)
{
	size_t n = 0;

	for (size_t i = 0; i < f->n; i++)
		if (strcmp(f->sections[i].name, "global") == 0)
			n += f->sections[i].n;
	return n;
}

/* Read one suite text into drafts. */
static int loader_add_text(struct loader *ld, const char *name,
			   const char *text, size_t len)
{
	struct suite_file f = { 0 };
	size_t *cur, ncur = 0, jobs = 0;
	int rc = suite_file_read(&f, name, text, len, ld->err, ld->errlen);

	if (rc)
		return rc;
	rc = -ENOMEM;
	cur = calloc(count_globals(&f) + 1, sizeof(*cur));
	if (!cur)
		goto free_file;
	for (size_t i = 0; i < f.n; i++) {
		const struct sf_section *sec = &f.sections[i];
		int is_global = strcmp(sec->name, "global") == 0;

		for (size_t j = 0; is_global && j < sec->n; j++)
			if (global_add(ld, name, &sec->entries[j], cur, &ncur))
				goto free_cur;
		if (!is_global && job_add(ld, name, sec, cur, ncur))
			goto free_cur;
		jobs += !is_global;
	}
	rc = 0;
	if (!jobs)
		rc = hb_errorf(
			ld->err, ld->errlen, -EINVAL,
			"%s: no jobs (a job is a [section] with a target)",
			name);
free_cur:
	free(cur);
free_file:
	suite_file_free(&f);
	if (rc == -ENOMEM)
		nomem(ld);
	return rc;
}

/* A copy of text without surrounding blanks, as values read in a file. */
static char *trimmed(const char *text)
{
	size_t n;

	text += strspn(text, " \t");
	for (n = strlen(text); n && (text[n - 1] == ' ' || text[n - 1] == '\t');
	     n--)
		;
	return strndup(text, n);
}

/* Split "[SECTION.]KEY=VALUE" (the last '.' before '=' ends SECTION). */
static int override_parse(struct loader *ld, const char *text,
			  struct override *ov)
{
	const char *eq = strchr(text, '=');
	char lhs[256], *dot;

	memset(ov, 0, sizeof(*ov));
	ov->text = text;
	if (!eq || (size_t)(eq - text) >= sizeof(lhs))
		goto bad;
	memcpy(lhs, text, (size_t)(eq - text));
	lhs[eq - text] = '\0';
	dot = strrchr(lhs, '.');
	if (dot) {
		*dot = '\0';
		ov->section = strdup(lhs);
	}
	ov->key = trimmed(dot ? dot + 1 : lhs);
	ov->value = trimmed(eq + 1);
	if (!ov->key || !ov->value || (dot && !ov->section))
		return nomem(ld);
	if (!suite_file_key_name(ov->key) || (ov->section && !*ov->section))
		goto bad;
	return 0;
bad:
	return hb_errorf(ld->err, ld->errlen, -EINVAL,
			 "--set %s: expected KEY=VALUE or SECTION.KEY=VALUE",
			 text);
}

static void override_free(struct override *ov)
{
	free(ov->section);
	free(ov->key);
	free(ov->value);
}

/* The option table entry for key in the first of d's tables declaring it. */
static const struct hb_option *draft_option(const struct draft *d,
					    const char *key)
{
	for (size_t b = 0; b < d->backends.n; b++) {
		const struct hb_option *o =
			plugin_option_find(d->tdescs[b], key);

		if (o)
			return o;
	}
	return NULL;
}

/*
 * The origin of ov's setting in job d: origin itself ("--set TEXT"), or,
 * for a secret option of d, "--set [SECTION.]KEY=(secret)" in buf, since
 * every message about the setting names its origin.
 */
static const char *override_origin(const struct override *ov,
				   const struct draft *d, const char *origin,
				   char *buf, size_t len)
{
	const struct hb_option *o = draft_option(d, ov->key);

	if (!o || o->type != HB_OPT_SECRET)
		return origin;
	snprintf(buf, len, "--set %s%s%s=%s", ov->section ? ov->section : "",
		 ov->section ? "." : "", ov->key, SUITE_VALUE_SECRET);
	return buf;
}

/* Nonzero when job d takes key: a core key, or one its targets declare. */
static int draft_accepts(const struct draft *d, const char *key)
{
	if (core_key(key) || d->open)
		return 1;
	for (size_t b = 0; b < d->backends.n; b++)
		if (plugin_option_find(d->tdescs[b], key) ||
		    (d->tdescs[b]->flags & HB_TARGET_EXTRA_KEYS))
			return 1;
	return 0;
}

/*
 * Apply ov to the jobs it names. Only keys in phase (1: target and
 * backend, which decide the option tables; 2: every other key) are
 * applied, so that "KEY=VALUE" finds the jobs whose target takes KEY.
 */
static int override_apply(struct loader *ld, const struct override *ov,
			  int phase)
{
	int table_key = strcmp(ov->key, "target") == 0 ||
			strcmp(ov->key, "backend") == 0;
	char origin[300], shown[300], hint[128];
	struct hint h = { .typed = ov->key };
	size_t hits = 0;

	if ((phase == 1) != table_key)
		return 0;
	snprintf(origin, sizeof(origin), "--set %s", ov->text);
	for (size_t i = 0; i < ld->ndrafts; i++) {
		struct draft *d = &ld->drafts[i];

		if (ov->section && strcmp(ov->section, d->label) != 0)
			continue;
		if (phase == 2 && !draft_accepts(d, ov->key)) {
			hint_keys(&h, d);
			if (ov->section)
				return fail(ld, -EINVAL, origin, d->label,
					    ov->key, "unknown key%s",
					    hint_text(&h, hint, sizeof(hint)));
			continue;
		}
		if (suite_draft_set(d, ov->key, ov->value,
				    override_origin(ov, d, origin, shown,
						    sizeof(shown)),
				    -1))
			return nomem(ld);
		hits++;
	}
	if (hits)
		return 0;
	if (ov->section) {
		h.typed = ov->section;
		for (size_t i = 0; i < ld->ndrafts; i++)
			hint_try(&h, ld->drafts[i].label);
		return fail(ld, -EINVAL, origin, NULL, NULL,
			    "no job [%s] in the suite%s", ov->section,
			    hint_text(&h, hint, sizeof(hint)));
	}
	return fail(ld, -EINVAL, origin, NULL, NULL,
		    "no job takes the key \"%s\"%s", ov->key,
		    hint_text(&h, hint, sizeof(hint)));
}

/* "FILE:LINE" of d's section header into buf. */
static const char *draft_origin(const struct draft *d, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%u", d->file, d->line);
	return buf;
}

/* Every backend that offers target, comma-separated, into buf. */
static void offering_backends(const struct registry *reg, const char *target,
			      char *buf, size_t len, struct hint *h)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < reg->n; i++) {
		const char *name = reg->plugins[i].desc->name;

		/* The first plugin of that name offering it, listed once. */
		if (registry_find(reg, target, name, NULL) != &reg->plugins[i])
			continue;
		if (h)
			hint_try(h, name);
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 used ? ", " : "", name);
		if (used >= len)
			break;
	}
}

/* Read the target: one "group/name" that a loaded plugin offers. */
static int resolve_target(struct loader *ld, struct draft *d)
{
	struct setting *t = suite_draft_get(d, "target");
	struct strlist items = { 0 };
	char origin[ORIGIN_MAX], msg[256], hint[200];
	struct hint h = { 0 };
	int rc;

	if (!t)
		return fail(ld, -EINVAL,
			    draft_origin(d, origin, sizeof(origin)), d->label,
			    "target",
			    "missing (every job needs target = GROUP/NAME)");
	rc = parse_list(t->value, &items, msg, sizeof(msg));
	if (rc)
		return fail(ld, rc, t->origin, d->label, "target", "%s", msg);
	if (items.n != 1) {
		strlist_free(&items);
		return fail(ld, -EINVAL, t->origin, d->label, "target",
			    "\"%s\": one target per job (write one [section] "
			    "for each)",
			    t->value);
	}
	d->target = items.items[0];
	items.items[0] = NULL;
	strlist_free(&items);
	if (registry_default(ld->reg, d->target))
		return 0;
	/* a fleet's other ranks may offer it (fleet/fleet_unlike.c) */
	d->unoffered = ld->reg->open_targets;
	if (ld->reg->nrefused || d->unoffered) {
		d->open = 1; /* maybe a refused plugin's: report, not fail */
		return 0;
	}
	h.typed = d->target;
	hint_targets(&h, ld->reg);
	return fail(ld, -EINVAL, t->origin, d->label, "target",
		    "no loaded plugin offers \"%s\"%s", d->target,
		    *hint_text(&h, hint, sizeof(hint))
			    ? hint
			    : " (`hostbench list` shows the targets)");
}

/*
 * The plugins d may use (plugins = a, b), NULL when it does not pin them.
 * Returns 0 or the parse error, reported against the key.
 */
static int pinned_plugins(struct loader *ld, struct draft *d,
			  struct strlist *pin)
{
	struct setting *p = suite_draft_get(d, "plugins");
	char msg[256];
	int rc;

	if (!p)
		return 0;
	rc = parse_list(p->value, pin, msg, sizeof(msg));
	if (rc)
		return fail(ld, rc, p->origin, d->label, "plugins", "%s", msg);
	return 0;
}

/*
 * The default backend of d: the most preferred backend offering d's target
 * that pin allows (registry_backends()), else registry_default(). NULL
 * when out of memory or nothing offers it.
 */
static const struct plugin *pinned_default(const struct loader *ld,
					   const struct draft *d,
					   const struct strlist *pin)
{
	const struct plugin *p = NULL;
	struct strlist order = { 0 };

	if (pin->n && !registry_backends(ld->reg, d->target, &order))
		for (size_t i = 0; i < order.n && !p; i++)
			if (strlist_has(pin, order.items[i]))
				p = registry_find(ld->reg, d->target,
						  order.items[i], NULL);
	strlist_free(&order);
	return p ? p : registry_default(ld->reg, d->target);
}

/* Every backend of d is one the suite accepts (plugins = ...). */
static int check_pin(struct loader *ld, struct draft *d,
		     const struct strlist *pin)
{
	struct setting *p = suite_draft_get(d, "plugins");

	for (size_t i = 0; pin->n && i < d->backends.n; i++)
		if (!strlist_has(pin, d->backends.items[i]))
			return fail(ld, -EINVAL, p->origin, d->label, "plugins",
				    "backend \"%s\" is not one this suite "
				    "accepts (plugins = %s)",
				    d->backends.items[i], p->value);
	return 0;
}

/*
 * backend = *: every backend offering d's target that pin allows, in the
 * order of preference, written back into b's value so the cases expand
 * over them. Returns 0 or -ENOMEM.
 */
static int every_backend(const struct loader *ld, const struct draft *d,
			 const struct strlist *pin, struct setting *b)
{
	struct strlist order = { 0 };
	size_t len = 1;
	char *value;
	int rc = registry_backends(ld->reg, d->target, &order);

	for (size_t i = 0; i < order.n; i++)
		len += strlen(order.items[i]) + 2;
	value = rc ? NULL : calloc(1, len);
	for (size_t i = 0; value && i < order.n; i++) {
		if (pin->n && !strlist_has(pin, order.items[i]))
			continue;
		if (value[0])
			strcat(value, ", ");
		strcat(value, order.items[i]);
	}
	strlist_free(&order);
	if (!value)
		return -ENOMEM;
	free(b->value);
	b->value = value;
	return 0;
}

/* Resolve each backend of d to its plugin and target table. */
static int resolve_backends(struct loader *ld, struct draft *d)
{
	struct setting *b = suite_draft_get(d, "backend");
	struct strlist pin = { 0 };
	const struct plugin *def;
	char msg[256], names[512], origin[ORIGIN_MAX], hint[200];
	struct hint h;
	int rc = pinned_plugins(ld, d, &pin);

	def = rc ? NULL : pinned_default(ld, d, &pin);
	if (!rc && b && strcmp(b->value, "*") == 0 &&
	    every_backend(ld, d, &pin, b))
		rc = nomem(ld);
	if (!rc && b) {
		rc = parse_list(b->value, &d->backends, msg, sizeof(msg));
		if (rc)
			rc = fail(ld, rc, b->origin, d->label, "backend", "%s",
				  msg);
	} else if (!rc) {
		rc = strlist_push(&d->backends, def ? def->desc->name : "none")
			     ? nomem(ld)
			     : 0;
	}
	if (!rc)
		rc = check_pin(ld, d, &pin);
	strlist_free(&pin);
	if (rc)
		return rc;
	d->plugins = calloc(d->backends.n, sizeof(const struct plugin *));
	d->tdescs = calloc(d->backends.n, sizeof(const struct hb_target *));
	if (!d->plugins || !d->tdescs)
		return nomem(ld);
	for (size_t i = 0; i < d->backends.n; i++) {
		const char *name = d->backends.items[i];

		d->plugins[i] =
			registry_find(ld->reg, d->target, name, &d->tdescs[i]);
		if (d->plugins[i])
			continue;
		if (ld->reg->nrefused || d->unoffered) {
			d->open = 1;
			continue;
		}
		h = (struct hint){ .typed = name };
		offering_backends(ld->reg, d->target, names, sizeof(names), &h);
		return fail(ld, -EINVAL,
			    b ? b->origin
			      : draft_origin(d, origin, sizeof(origin)),
			    d->label, "backend",
			    "\"%s\" does not offer %s%s (backends that do: "
			    "%s)",
			    name, d->target, hint_text(&h, hint, sizeof(hint)),
			    names);
	}
	return 0;
}

/* Check one item of st against every table of d that declares st->key. */
/*
 * A queue depth above 1 needs a target that keeps units in flight (ABI
 * 1.2 submit and poll): refused here, before anything runs, for every
 * backend of the job that cannot.
 */
static int check_depth(const struct draft *d, const char *item, char *msg,
		       size_t len)
{
	int64_t depth = 1;

	parse_int(item, &depth, NULL, 0);
	for (size_t b = 0; b < d->backends.n && depth > 1; b++) {
		const struct hb_target *t = d->tdescs[b];

		if (!t || !core_key_for("queue_depth", t) ||
		    (t->flags & HB_TARGET_ASYNC))
			continue;
		return hb_errorf(msg, len, -EINVAL,
				 "%s on backend %s keeps one unit in flight "
				 "(it has no asynchronous submit and poll): "
				 "queue_depth %s needs an asynchronous target, "
				 "use 1",
				 d->target, d->backends.items[b], item);
	}
	return 0;
}

static int check_item(const struct draft *d, const struct setting *st,
		      const char *item, char *msg, size_t len)
{
	int rc = 0;

	if (core_key(st->key) && (d->open || !d->backends.n))
		return suite_value_core(st->key, item, msg, len);
	for (size_t b = 0; b < d->backends.n && !rc; b++) {
		const struct hb_option *o =
			plugin_option_find(d->tdescs[b], st->key);

		if (o)
			rc = suite_value_option(o, item, msg, len);
		else if (core_key(st->key))
			rc = suite_value_core(st->key, item, msg, len);
	}
	if (!rc && strcmp(st->key, "queue_depth") == 0)
		rc = check_depth(d, item, msg, len);
	return rc;
}

/*
 * Validate st's value and split it into the items cases take: one item
 * for single-valued keys and size lists, else the comma list.
 */
static int check_setting(struct loader *ld, struct draft *d, struct setting *st)
{
	const struct hb_option *o = draft_option(d, st->key);
	char msg[512];
	int rc;

	if (strcmp(st->key, "target") == 0)
		return strlist_push(&st->items, d->target) ? nomem(ld) : 0;
	if (core_key_single(st->key) && !*st->value)
		return fail(ld, -EINVAL, st->origin, d->label, st->key,
			    "empty value");
	if (core_key_single(st->key))
		rc = strlist_push(&st->items, st->value);
	else if (o && o->type == HB_OPT_SECRET)
		rc = suite_value_secret_list(st->value, &st->items, msg,
					     sizeof(msg));
	else
		rc = parse_list(st->value, &st->items, msg, sizeof(msg));
	if (rc == -ENOMEM)
		return nomem(ld);
	if (rc)
		return fail(ld, rc, st->origin, d->label, st->key, "%s", msg);
	for (size_t i = 0; i < st->items.n; i++) {
		rc = check_item(d, st, st->items.items[i], msg, sizeof(msg));
		if (rc)
			return fail(ld, rc, st->origin, d->label, st->key, "%s",
				    msg);
	}
	/* a size list, or the plugins a suite accepts, is one value whole */
	if ((o && o->type == HB_OPT_SIZE_LIST && !core_key(st->key)) ||
	    strcmp(st->key, "plugins") == 0) {
		strlist_free(&st->items);
		if (strlist_push(&st->items, st->value))
			return nomem(ld);
	}
	return 0;
}

/* Every required option (no default) of d's tables is set. */
static int check_required(struct loader *ld, struct draft *d)
{
	char origin[ORIGIN_MAX];

	for (size_t b = 0; b < d->backends.n; b++)
		for (const struct hb_option *o =
			     d->tdescs[b] ? d->tdescs[b]->options : NULL;
		     o && o->name; o++)
			if (!o->def && !suite_draft_get(d, o->name))
				return fail(
					ld, -EINVAL,
					draft_origin(d, origin, sizeof(origin)),
					d->label, o->name,
					"missing (%s from %s needs it: %s)",
					d->target, d->backends.items[b],
					o->help ? o->help : o->name);
	return 0;
}

/*
 * "; backends that take it: a, b (backend = a)" into buf: the backends
 * offering d's target whose table has key, in the order of preference; ""
 * when none has it.
 */
static void key_backends(const struct loader *ld, const struct draft *d,
			 const char *key, char *buf, size_t len)
{
	struct strlist order = { 0 };
	const char *first = NULL;
	size_t used = 0;

	buf[0] = '\0';
	registry_backends(ld->reg, d->target, &order);
	for (size_t i = 0; i < order.n && used < len; i++) {
		const struct hb_target *t = NULL;

		registry_find(ld->reg, d->target, order.items[i], &t);
		if (!plugin_option_find(t, key))
			continue;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 first ? ", "
					       : "; backends that take "
						 "it: ",
					 order.items[i]);
		first = first ? first : order.items[i];
	}
	if (first && used < len)
		snprintf(buf + used, len - used, " (backend = %s)", first);
	strlist_free(&order);
}

/*
 * "unknown key" for st: the target and the backends the job runs (said to
 * be chosen when the job names none), the backends that take the key, or
 * else the nearest known key.
 */
static int unknown_key(struct loader *ld, const struct draft *d,
		       const struct setting *st)
{
	struct hint h = { .typed = st->key };
	char takers[256], hint[200], names[256] = "";
	size_t used = 0;

	for (size_t b = 0; b < d->backends.n && used < sizeof(names); b++)
		used += (size_t)snprintf(names + used, sizeof(names) - used,
					 "%s%s", b ? ", " : "",
					 d->backends.items[b]);
	key_backends(ld, d, st->key, takers, sizeof(takers));
	hint_keys(&h, d);
	return fail(ld, -EINVAL, st->origin, d->label, st->key,
		    "unknown key for %s with %s %s%s", d->target,
		    suite_draft_get(d, "backend") ? "backend"
						  : "the default backend",
		    names,
		    takers[0] ? takers
		    : *hint_text(&h, hint, sizeof(hint))
			    ? hint
			    : " (`hostbench describe` lists its keys)");
}

/* Validate every key of d; [global] keys its target does not take are
 * left out. */
static int draft_check(struct loader *ld, struct draft *d)
{
	int rc;

	for (size_t i = 0; i < d->n; i++) {
		struct setting *st = &d->set[i];

		if (!draft_accepts(d, st->key)) {
			if (st->inherited) {
				st->ignored = 1;
				continue;
			}
			return unknown_key(ld, d, st);
		}
		if (st->global >= 0)
			ld->globals[st->global].used = 1;
		rc = check_setting(ld, d, st);
		if (rc)
			return rc;
	}
	return check_required(ld, d);
}

/* A [global] key that no job took is a typo. */
static int check_globals(struct loader *ld)
{
	char hint[200];

	for (size_t i = 0; i < ld->nglobals; i++) {
		const struct gsetting *g = &ld->globals[i];
		struct hint h = { .typed = g->key };

		if (g->used)
			continue;
		for (size_t j = 0; j < ld->ndrafts; j++)
			hint_keys(&h, &ld->drafts[j]);
		return fail(ld, -EINVAL, g->origin, "global", g->key,
			    "no job after it takes this key%s",
			    hint_text(&h, hint, sizeof(hint)));
	}
	return 0;
}

static void loader_free(struct loader *ld)
{
	for (size_t i = 0; i < ld->ndrafts; i++)
		suite_draft_free(&ld->drafts[i]);
	free(ld->drafts);
	for (size_t i = 0; i < ld->nglobals; i++) {
		free(ld->globals[i].key);
		free(ld->globals[i].value);
		free(ld->globals[i].origin);
	}
	free(ld->globals);
}

/* Apply every override in phase (see override_apply). */
static int overrides_apply(struct loader *ld, struct override *ovs, size_t n,
			   int phase)
{
	for (size_t i = 0; i < n; i++) {
		int rc = override_apply(ld, &ovs[i], phase);

		if (rc)
			return rc;
	}
	return 0;
}

/* Validate and apply overrides to the drafts, then check every job. */
static int loader_check(struct loader *ld, const struct strlist *overrides)
{
	size_t n = overrides ? overrides->n : 0;
	struct override *ovs = calloc(n + 1, sizeof(*ovs));
	int rc = ovs ? 0 : nomem(ld);

	for (size_t i = 0; i < n && !rc; i++)
		rc = override_parse(ld, overrides->items[i], &ovs[i]);
	if (!rc)
		rc = overrides_apply(ld, ovs, n, 1);
	for (size_t i = 0; i < ld->ndrafts && !rc; i++) {
		rc = resolve_target(ld, &ld->drafts[i]);
		if (!rc)
			rc = resolve_backends(ld, &ld->drafts[i]);
	}
	if (!rc)
		rc = overrides_apply(ld, ovs, n, 2);
	for (size_t i = 0; i < ld->ndrafts && !rc; i++)
		rc = draft_check(ld, &ld->drafts[i]);
	if (!rc)
		rc = check_globals(ld);
	for (size_t i = 0; ovs && i < n; i++)
		override_free(&ovs[i]);
	free(ovs);
	return rc;
}

/*
 * The one path every load takes: texts[i] (lens[i] bytes) named names[i]
 * become drafts, then a checked and expanded suite.
 */
static int load_texts(struct suite *s, const char *const *names,
		      const char *const *texts, const size_t *lens, size_t n,
		      const struct strlist *overrides,
		      const struct registry *reg, char *err, size_t errlen)
{
	struct loader ld = { .reg = reg, .err = err, .errlen = errlen };
	struct suite_room room = { 0 };
	int rc = 0;

	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < n && !rc; i++)
		rc = loader_add_text(&ld, names[i], texts[i], lens[i]);
	if (!rc)
		rc = loader_check(&ld, overrides);
	for (size_t i = 0; i < ld.ndrafts && !rc; i++)
		rc = suite_draft_expand(&ld.drafts[i], reg, s, &room, err,
					errlen);
	loader_free(&ld);
	if (rc)
		suite_free(s);
	return rc;
}

/* Read a whole suite file into a new buffer. */
static int read_file(const char *path, char **text, size_t *len, char *err,
		     size_t errlen)
{
	FILE *f = fopen(path, "rb");
	int rc = 0;

	*text = NULL;
	if (!f)
		return hb_errorf(err, errlen, -EINVAL, "%s: cannot open: %s",
				 path, strerror(errno));
	*text = malloc(SUITE_MAX_FILE + 1);
	if (!*text) {
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
		goto close_file;
	}
	*len = fread(*text, 1, SUITE_MAX_FILE + 1, f);
	if (ferror(f))
		rc = hb_errorf(err, errlen, -EINVAL, "%s: cannot read: %s",
			       path, strerror(errno));
	else if (*len > SUITE_MAX_FILE)
		rc = hb_errorf(err, errlen, -EINVAL,
			       "%s: too large for a suite (max %d bytes)", path,
			       SUITE_MAX_FILE);
	if (rc) {
		free(*text);
		*text = NULL;
	}
close_file:
	fclose(f);
	return rc;
}

int suite_load(struct suite *s, const char *const *files, size_t nfiles,
	       const struct strlist *overrides, const struct registry *reg,
	       char *err, size_t errlen)
{
	char **texts = calloc(nfiles + 1, sizeof(*texts));
	size_t *lens = calloc(nfiles + 1, sizeof(*lens));
	int rc = 0;

	memset(s, 0, sizeof(*s));
	if (!texts || !lens)
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	else if (!nfiles)
		rc = hb_errorf(err, errlen, -EINVAL, "no suite file given");
	for (size_t i = 0; i < nfiles && !rc; i++)
		rc = read_file(files[i], &texts[i], &lens[i], err, errlen);
	if (!rc)
		rc = load_texts(s, files, (const char *const *)texts, lens,
				nfiles, overrides, reg, err, errlen);
	for (size_t i = 0; texts && i < nfiles; i++)
		free(texts[i]);
	free(texts);
	free(lens);
	return rc;
}

int suite_load_buffer(struct suite *s, const char *name, const char *text,
		      size_t len, const struct strlist *overrides,
		      const struct registry *reg, char *err, size_t errlen)
{
	return load_texts(s, &name, &text, &len, 1, overrides, reg, err,
			  errlen);
}

void suite_free(struct suite *s)
{
	for (size_t i = 0; i < s->ncases; i++)
		suite_case_free(&s->cases[i]);
	free(s->cases);
	for (size_t i = 0; i < s->njobs; i++) {
		free(s->jobs[i].label);
		free(s->jobs[i].file);
		free(s->jobs[i].group);
		free(s->jobs[i].section);
		free(s->jobs[i].note);
		free(s->jobs[i].unoffered);
		strlist_free(&s->jobs[i].varying);
		kvlist_free(&s->jobs[i].origins);
	}
	free(s->jobs);
	memset(s, 0, sizeof(*s));
}
