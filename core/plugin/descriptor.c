/* SPDX-License-Identifier: Apache-2.0 */
/* A plugin's catalog to JSON (in a probe) and back (in the core). */
#include "plugin/descriptor.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "plugin/check.h"

/*
 * The slots of a copy whose plugin is asynchronous: never called (the core
 * runs no plugin code), there so the copy says what the plugin fills.
 */
static int submit_elsewhere(void *state, uint64_t tag, char *err, size_t errlen)
{
	(void)state;
	(void)tag;
	return hb_errorf(err, errlen, HB_ENOTSUP, "not loaded here");
}

static int poll_elsewhere(void *state, unsigned min, unsigned max,
			  uint64_t timeout_ns, struct hb_completion *out,
			  char *err, size_t errlen)
{
	(void)state;
	(void)min;
	(void)max;
	(void)timeout_ns;
	(void)out;
	return hb_errorf(err, errlen, HB_ENOTSUP, "not loaded here");
}

/* The core's own copy of a probed descriptor; the strings live in json. */
struct plugin_copy {
	json_t *json;
	struct hb_plugin desc;
	struct hb_target *targets;
	struct hb_option *options;
	const char **lists; /* choices and parts, each NULL-terminated */
};

/* Where a failed conversion was, for the reason. */
struct place {
	char *why;
	size_t len;
	int failed; /* the reason is set: later failures keep it */
};

/* Record the first failure at p. */
__attribute__((format(printf, 2, 3))) static void fail_at(struct place *p,
							  const char *fmt, ...)
{
	va_list ap;

	if (p->failed++)
		return;
	va_start(ap, fmt);
	if (p->why && p->len)
		vsnprintf(p->why, p->len, fmt, ap);
	va_end(ap);
}

/* s as JSON text (null for NULL); what names it when it is not UTF-8. */
static json_t *text(const char *s, struct place *p, const char *what,
		    size_t index)
{
	json_t *j;

	if (!s)
		return json_null();
	j = json_string(s);
	if (!j)
		fail_at(p, "target %zu %s is not UTF-8 text", index, what);
	return j;
}

/* A NULL-terminated list of strings as a JSON array, or null. */
static json_t *list_put(const char *const *items, struct place *p,
			const char *what, size_t index)
{
	json_t *a;

	if (!items)
		return json_null();
	a = json_array();
	for (; a && *items; items++)
		json_array_append_new(a, text(*items, p, what, index));
	return a;
}

static json_t *option_put(const struct hb_option *o, struct place *p,
			  size_t index)
{
	return json_pack("{s:o, s:i, s:o, s:o, s:o, s:I, s:I}", "name",
			 text(o->name, p, "option name", index), "type",
			 (int)o->type, "def", text(o->def, p, "default", index),
			 "help", text(o->help, p, "option help", index),
			 "choices", list_put(o->choices, p, "choice", index),
			 "min", (json_int_t)o->min, "max", (json_int_t)o->max);
}

static json_t *target_put(const struct hb_target *t, struct place *p,
			  size_t index)
{
	json_t *opts = json_array();

	for (const struct hb_option *o = t->options; opts && o && o->name; o++)
		json_array_append_new(opts, option_put(o, p, index));
	return json_pack("{s:o, s:o, s:o, s:i, s:I, s:o, s:o}", "group",
			 text(t->group, p, "group", index), "name",
			 text(t->name, p, "name", index), "summary",
			 text(t->summary, p, "summary", index), "work",
			 (int)t->work, "flags", (json_int_t)t->flags, "parts",
			 list_put(t->parts, p, "part", index), "options", opts);
}

/* A kvlist as [[key, value], ...]. */
static json_t *pairs_put(const struct kvlist *kv, struct place *p,
			 const char *what)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < kv->n; i++) {
		json_t *k = json_string(kv->items[i].key),
		       *v = json_string(kv->items[i].value);

		if (!k || !v)
			fail_at(p, "%s \"%.40s\" is not UTF-8 text", what,
				kv->items[i].key);
		json_array_append_new(a, json_pack("[o?, o?]", k, v));
	}
	return a;
}

json_t *descriptor_put(const struct plugin *p, char *why, size_t len)
{
	const struct hb_plugin *d = p->desc;
	struct place at = { .why = why, .len = len };
	json_t *targets = json_array(), *o;
	size_t i = 0;

	for (const struct hb_target *t = d->targets; targets && t->name; t++)
		json_array_append_new(targets, target_put(t, &at, ++i));
	o = json_pack(
		"{s:[i, i], s:I, s:o, s:o, s:o, s:b, s:b, s:b, s:o, s:o, s:o}",
		"abi", d->abi_major, d->abi_minor, "size", (json_int_t)d->size,
		"name", text(d->name, &at, "backend name", 0), "version",
		text(d->version, &at, "version", 0), "summary",
		text(d->summary, &at, "summary", 0), "validate",
		p->has_validate, "transform", p->has_transform, "async",
		check_has_async(d) > 0, "libraries",
		pairs_put(&p->libraries, &at, "library"), "unusable",
		pairs_put(&p->unusable, &at, "unusable target"), "targets",
		targets);
	if (o && !at.failed)
		return o;
	json_decref(o);
	if (!at.failed)
		hb_error_fill(why, len, "out of memory");
	return NULL;
}

/* The string at o, or NULL (and a failure unless null is allowed). */
static const char *get_text(const json_t *o, int may_be_null, struct place *p,
			    const char *what)
{
	const char *s = json_string_value(o);

	if (!s && json_is_null(o) && may_be_null)
		return NULL;
	if (!s)
		fail_at(p, "%s is not text", what);
	else if (strlen(s) != json_string_length(o) ||
		 json_string_length(o) > DESCRIPTOR_MAX_TEXT)
		fail_at(p, "%s holds a NUL or is too long", what);
	return s;
}

/* An integer member within [lo, hi]. */
static int64_t get_int(const json_t *o, int64_t lo, int64_t hi, struct place *p,
		       const char *what)
{
	json_int_t v = json_integer_value(o);

	if (!json_is_integer(o) || v < lo || v > hi)
		fail_at(p, "%s is not a number from %lld to %lld", what,
			(long long)lo, (long long)hi);
	return (int64_t)v;
}

/* A JSON list of text (or null) as a NULL-terminated array from *pool. */
static const char *const *get_list(const json_t *a, const char ***pool,
				   struct place *p, const char *what)
{
	const char **first = *pool;
	size_t i;
	json_t *v;

	if (json_is_null(a))
		return NULL;
	if (!json_is_array(a))
		fail_at(p, "%s list is not a list", what);
	json_array_foreach(a, i, v) {
		*(*pool)++ = get_text(v, 0, p, what);
	}
	*(*pool)++ = NULL;
	return first;
}

static void option_get(const json_t *o, struct hb_option *opt,
		       const char ***pool, struct place *p)
{
	opt->name = get_text(json_object_get(o, "name"), 0, p, "option name");
	opt->type = (enum hb_opt_type)get_int(json_object_get(o, "type"), 0,
					      HB_OPT_SECRET, p, "type");
	opt->def = get_text(json_object_get(o, "def"), 1, p, "default");
	opt->help = get_text(json_object_get(o, "help"), 1, p, "help");
	opt->choices =
		get_list(json_object_get(o, "choices"), pool, p, "choice");
	opt->min = get_int(json_object_get(o, "min"), INT64_MIN, INT64_MAX, p,
			   "min");
	opt->max = get_int(json_object_get(o, "max"), INT64_MIN, INT64_MAX, p,
			   "max");
}

static void target_get(const json_t *o, struct hb_target *t,
		       struct hb_option **opts, const char ***pool,
		       struct place *p)
{
	const json_t *list = json_object_get(o, "options");
	struct hb_option *first = *opts;
	size_t i;
	json_t *v;

	t->group = get_text(json_object_get(o, "group"), 0, p, "group");
	t->name = get_text(json_object_get(o, "name"), 0, p, "target name");
	t->summary = get_text(json_object_get(o, "summary"), 1, p, "summary");
	t->work = (enum hb_work)get_int(json_object_get(o, "work"), INT32_MIN,
					INT32_MAX, p, "work");
	t->flags = (unsigned)get_int(json_object_get(o, "flags"), 0, UINT32_MAX,
				     p, "flags");
	t->parts = get_list(json_object_get(o, "parts"), pool, p, "part");
	if (!json_is_array(list))
		fail_at(p, "options list is not a list");
	json_array_foreach(list, i, v) {
		option_get(v, (*opts)++, pool, p);
	}
	(*opts)++->name = NULL;
	t->options = first;
}

/* Room for every option and list item of targets, counted first. */
static int copy_room(struct plugin_copy *c, const json_t *targets,
		     struct place *p)
{
	size_t nopts = 0, nstrs = 0, i, j;
	json_t *t, *o;

	json_array_foreach(targets, i, t) {
		const json_t *opts = json_object_get(t, "options");

		nopts += json_array_size(opts) + 1;
		nstrs += json_array_size(json_object_get(t, "parts")) + 1;
		json_array_foreach(opts, j, o) {
			nstrs += json_array_size(json_object_get(o, "choices"));
			nstrs++;
		}
	}
	if (json_array_size(targets) > DESCRIPTOR_MAX_TARGETS ||
	    nopts > 64 * DESCRIPTOR_MAX_TARGETS ||
	    nstrs > 64 * DESCRIPTOR_MAX_TARGETS) {
		fail_at(p, "offers more than %d targets or options",
			DESCRIPTOR_MAX_TARGETS);
		return -EINVAL;
	}
	c->targets = calloc(json_array_size(targets) + 1, sizeof(*c->targets));
	c->options = calloc(nopts, sizeof(*c->options));
	c->lists = calloc(nstrs, sizeof(*c->lists));
	return c->targets && c->options && c->lists ? 0 : -ENOMEM;
}

/* libraries or unusable: [[key, value], ...] into kv. */
static int pairs_get(const json_t *a, struct kvlist *kv, struct place *p,
		     const char *what)
{
	size_t i;
	json_t *v;

	if (!json_is_array(a)) {
		fail_at(p, "%s is not a list", what);
		return -EINVAL;
	}
	json_array_foreach(a, i, v) {
		const char *key = get_text(json_array_get(v, 0), 0, p, what);
		const char *val = get_text(json_array_get(v, 1), 1, p, what);

		if (key && kvlist_set(kv, key, val ? val : "no reason given"))
			return -ENOMEM;
	}
	return 0;
}

/* The descriptor fields of catalog o into c->desc. */
static void head_get(const json_t *o, struct plugin_copy *c, struct place *p)
{
	const json_t *abi = json_object_get(o, "abi");

	c->desc.abi_major = (uint16_t)get_int(json_array_get(abi, 0), 0,
					      UINT16_MAX, p, "ABI major");
	c->desc.abi_minor = (uint16_t)get_int(json_array_get(abi, 1), 0,
					      UINT16_MAX, p, "ABI minor");
	c->desc.size = (uint32_t)get_int(json_object_get(o, "size"), 0,
					 UINT32_MAX, p, "size");
	c->desc.name = get_text(json_object_get(o, "name"), 0, p, "name");
	c->desc.version =
		get_text(json_object_get(o, "version"), 1, p, "version");
	c->desc.summary =
		get_text(json_object_get(o, "summary"), 1, p, "summary");
	if (c->desc.name && !*c->desc.name)
		fail_at(p, "has no backend name");
}

int descriptor_get(json_t *o, struct plugin *p, char *why, size_t len)
{
	struct place at = { .why = why, .len = len };
	struct plugin_copy *c = calloc(1, sizeof(*c));
	const json_t *targets = json_object_get(o, "targets");
	struct hb_option *opts;
	const char **pool;
	size_t i;
	json_t *t;
	int rc;

	if (!c)
		return -ENOMEM;
	p->copy = c;
	c->json = json_incref(o);
	/* plugin text reaches `list`, `describe` and reports */
	if (sanitize_json(o))
		return -ENOMEM;
	if (!json_is_object(o) || !json_is_array(targets) ||
	    !json_array_size(targets))
		return hb_errorf(why, len, -EINVAL, "offers no targets");
	rc = copy_room(c, targets, &at);
	if (rc)
		return rc == -ENOMEM ? rc : -EINVAL;
	head_get(o, c, &at);
	opts = c->options;
	pool = c->lists;
	json_array_foreach(targets, i, t) {
		target_get(t, &c->targets[i], &opts, &pool, &at);
	}
	c->desc.targets = c->targets;
	p->desc = &c->desc;
	p->has_validate = json_is_true(json_object_get(o, "validate"));
	p->has_transform = json_is_true(json_object_get(o, "transform"));
	if (json_is_true(json_object_get(o, "async"))) {
		c->desc.submit = submit_elsewhere;
		c->desc.poll = poll_elsewhere;
	}
	rc = pairs_get(json_object_get(o, "libraries"), &p->libraries, &at,
		       "library");
	if (!rc)
		rc = pairs_get(json_object_get(o, "unusable"), &p->unusable,
			       &at, "unusable target");
	if (rc == -ENOMEM)
		return rc;
	return at.failed ? -EINVAL : 0;
}

void descriptor_free(struct plugin *p)
{
	struct plugin_copy *c = p->copy;

	if (!c)
		return;
	json_decref(c->json);
	free(c->targets);
	free(c->options);
	free(c->lists);
	free(c);
	p->copy = NULL;
}
