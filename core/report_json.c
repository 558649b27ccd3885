/*
 * The JSON report: the contract scripts and `compare` read, documented in
 * docs/json-schema.md. Figures are bytes per second and operations per
 * second, never display units. Built with jansson, written in one go; each
 * result's measurement through result_json.c, the codec every reader uses.
 */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "parse.h"
#include "result_json.h"

/* Bumped only when a field is renamed or removed or changes meaning. */
#define SCHEMA_VERSION 1

/*
 * The number of continuation bytes after UTF-8 lead byte c (-1 when c
 * cannot start a sequence), with the lead's bits in *cp and the smallest
 * code point that sequence length may encode in *min.
 */
static int utf8_lead(unsigned char c, unsigned long *cp, unsigned long *min)
{
	static const struct {
		unsigned char mask, value, bits;
		unsigned long min;
	} leads[] = {
	    {0xe0, 0xc0, 0x1f, 0x80},
	    {0xf0, 0xe0, 0x0f, 0x800},
	    {0xf8, 0xf0, 0x07, 0x10000},
	};

	for (int i = 0; i < 3; i++) {
		if ((c & leads[i].mask) == leads[i].value) {
			*cp = c & leads[i].bits;
			*min = leads[i].min;
			return i + 1;
		}
	}
	return -1;
}

/* Nonzero when s is well-formed UTF-8 (no overlongs, no surrogates). */
static int utf8_valid(const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		unsigned long cp, min;
		int n;

		if (*p < 0x80) {
			p++;
			continue;
		}
		n = utf8_lead(*p, &cp, &min);
		if (n < 0)
			return 0;
		for (int i = 1; i <= n; i++) {
			if ((p[i] & 0xc0) != 0x80)
				return 0;
			cp = cp << 6 | (p[i] & 0x3fu);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return 0;
		p += n + 1;
	}
	return 1;
}

/*
 * s as JSON text, or null for NULL. JSON needs UTF-8: a string that is not
 * (a path or a message in another encoding) keeps its ASCII and shows each
 * other byte as '?', rather than failing the report.
 */
static json_t *text(const char *s)
{
	json_t *j;
	char *copy;

	if (!s)
		return json_null();
	if (utf8_valid(s))
		return json_string(s);
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (char *p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

/*
 * Objects are built with set(): a NULL value (jansson out of memory) or a
 * failed insertion marks the whole document bad, checked once at the end.
 * A key that is not UTF-8 is cleaned as text() cleans values.
 */
static void set(json_t *obj, const char *key, json_t *value, int *bad)
{
	json_t *clean = utf8_valid(key) ? NULL : text(key);
	const char *k = clean ? json_string_value(clean) : key;

	if (!obj || !value || !k || json_object_set_new(obj, k, value))
		*bad = 1;
	json_decref(clean);
}

/* Append value to array (see set()). */
static void push(json_t *arr, json_t *value, int *bad)
{
	if (!arr || !value || json_array_append_new(arr, value))
		*bad = 1;
}

/* A number, or null when it is not finite (JSON has no NaN). */
static json_t *number(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* A strlist as an array of strings. */
static json_t *strings_json(const struct strlist *l, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < l->n; i++)
		push(a, text(l->items[i]), bad);
	return a;
}

/* A kvlist as an object of strings. */
static json_t *kv_json(const struct kvlist *l, int *bad)
{
	json_t *o = json_object();

	for (size_t i = 0; i < l->n; i++)
		set(o, l->items[i].key, text(l->items[i].value), bad);
	return o;
}

/* The option of c's target called name, or NULL (extra keys). */
static const struct hb_option *option_of(const struct bench_case *c,
					 const char *name)
{
	const struct hb_option *o = c->tdesc ? c->tdesc->options : NULL;

	for (; o && o->name; o++)
		if (strcmp(o->name, name) == 0)
			return o;
	return NULL;
}

/*
 * One parameter, typed by the target's option table: sizes in bytes and
 * integers as numbers, booleans as true/false, durations in seconds, the
 * rest (and anything that does not parse) as the text of the suite.
 */
static json_t *param_json(const struct bench_case *c, const struct kv *p)
{
	const struct hb_option *o = option_of(c, p->key);
	char why[128];
	uint64_t size;
	int64_t i;
	double d;
	int b;

	switch (o ? o->type : HB_OPT_STRING) {
	case HB_OPT_SIZE:
		if (!parse_size(p->value, &size, why, sizeof(why)) &&
		    size <= INT64_MAX)
			return json_integer((json_int_t)size);
		break;
	case HB_OPT_INT:
		if (!parse_int(p->value, &i, why, sizeof(why)))
			return json_integer(i);
		break;
	case HB_OPT_BOOL:
		if (!parse_bool(p->value, &b, why, sizeof(why)))
			return json_boolean(b);
		break;
	case HB_OPT_DURATION:
		if (!parse_duration(p->value, &d, why, sizeof(why)))
			return number(d);
		break;
	default:
		break;
	}
	return text(p->value);
}

/* The case's parameters, plus "parallel". */
static json_t *params_json(const struct bench_case *c, int *bad)
{
	json_t *o = json_object();

	for (size_t i = 0; i < c->params.n; i++)
		set(o, c->params.items[i].key,
		    param_json(c, &c->params.items[i]), bad);
	set(o, "parallel", json_integer(c->parallel), bad);
	return o;
}

/* One result: what was run, then what was measured. */
static json_t *result_json(const struct report *r, const struct result *res,
			   int *bad)
{
	const struct bench_case *c = res->c;
	const struct job *job = r->suite && c && c->job < r->suite->njobs
				    ? &r->suite->jobs[c->job]
				    : NULL;
	json_t *o = json_object();

	set(o, "job", text(job ? job->label : NULL), bad);
	set(o, "title", text(c ? c->title : NULL), bad);
	set(o, "section", text(report_section_of(r, res)), bad);
	set(o, "target", text(c ? c->target : NULL), bad);
	set(o, "backend", text(c ? c->backend : NULL), bad);
	set(o, "params", c ? params_json(c, bad) : json_object(), bad);
	set(o, "unit", text(c ? c->unit : NULL), bad);
	set(o, "duration", c ? number(c->duration) : json_null(), bad);
	set(o, "repetitions", json_integer(c ? c->repetitions : 0), bad);
	set(o, "warmup", json_integer(c ? c->warmup : 0), bad);
	/* the codec the isolated child, resume and compare read back */
	if (!o || result_json_put(o, res))
		*bad = 1;
	return o;
}

/* A network interface. */
static json_t *netif_json(const struct netif *n, int *bad)
{
	json_t *o = json_object();

	set(o, "name", text(n->name), bad);
	set(o, "driver", text(n->driver), bad);
	set(o, "speed_mbps",
	    n->speed_mbps >= 0 ? json_integer(n->speed_mbps) : json_null(),
	    bad);
	set(o, "mac", text(n->mac), bad);
	set(o, "state", text(n->state), bad);
	return o;
}

/* The filesystem under a directory a target used. */
static json_t *fs_json(const struct fsinfo *fs, int *bad)
{
	json_t *o = json_object();

	set(o, "dir", text(fs->dir), bad);
	set(o, "fstype", text(fs->fstype), bad);
	set(o, "device", text(fs->device), bad);
	set(o, "free_bytes", json_integer((json_int_t)fs->free_bytes), bad);
	set(o, "total_bytes", json_integer((json_int_t)fs->total_bytes), bad);
	return o;
}

/* Everything sysinfo knows about the host. */
static json_t *system_json(const struct sysinfo *si, int *bad)
{
	json_t *o = json_object(), *nets = json_array(), *fss = json_array();

	if (!si)
		return o;
	set(o, "arch", text(si->arch), bad);
	set(o, "cpu_model", text(si->cpu_model), bad);
	set(o, "physical_cores", json_integer(si->physical_cores), bad);
	set(o, "logical_cpus", json_integer(si->logical_cpus), bad);
	set(o, "cpu_flags", strings_json(&si->cpu_flags, bad), bad);
	set(o, "ram_kb", json_integer((json_int_t)si->ram_kb), bad);
	set(o, "kernel", text(si->kernel), bad);
	set(o, "os", text(si->os), bad);
	set(o, "hostname", text(si->hostname), bad);
	for (size_t i = 0; i < si->nnetifs; i++)
		push(nets, netif_json(&si->netifs[i], bad), bad);
	set(o, "network", nets, bad);
	for (size_t i = 0; i < si->nfs; i++)
		push(fss, fs_json(&si->fs[i], bad), bad);
	set(o, "filesystems", fss, bad);
	return o;
}

/* hostbench's own build. */
static json_t *hostbench_json(const struct sysinfo *si, int *bad)
{
	json_t *o = json_object();

	set(o, "version", text(si && si->version ? si->version : HB_VERSION),
	    bad);
	set(o, "build_type",
	    text(si && si->build_type ? si->build_type : HB_BUILD_TYPE), bad);
	set(o, "sanitized", json_boolean(si && si->sanitized), bad);
	return o;
}

/* Each loaded plugin's libraries: {plugin: {library: version}}. */
static json_t *libraries_json(const struct registry *reg, int *bad)
{
	json_t *o = json_object();

	for (size_t i = 0; reg && i < reg->n; i++)
		set(o, reg->plugins[i].desc->name,
		    kv_json(&reg->plugins[i].libraries, bad), bad);
	return o;
}

/* The whole document. */
static json_t *report_doc(const struct report *r, int *bad)
{
	json_t *doc = json_object(), *results = json_array();

	set(doc, "schema_version", json_integer(SCHEMA_VERSION), bad);
	set(doc, "hostbench", hostbench_json(r->sys, bad), bad);
	set(doc, "system", system_json(r->sys, bad), bad);
	set(doc, "libraries", libraries_json(r->reg, bad), bad);
	for (size_t i = 0; i < r->nresults; i++)
		push(results, result_json(r, &r->results[i], bad), bad);
	set(doc, "results", results, bad);
	return doc;
}

int report_json(const struct report *r, FILE *out, char *err, size_t errlen)
{
	int bad = 0;
	json_t *doc = report_doc(r, &bad);
	int rc;

	if (bad) {
		json_decref(doc);
		return errorf(err, errlen, -ENOMEM,
			      "json report: out of memory");
	}
	rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(doc);
	if (rc || fputc('\n', out) == EOF)
		return errorf(err, errlen, -EIO, "writing the json report: %s",
			      strerror(errno ? errno : EIO));
	return report_io_error(out, err, errlen);
}
