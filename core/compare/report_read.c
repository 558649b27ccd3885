/* Reading a hostbench JSON report back (jansson). */
#define _GNU_SOURCE /* asprintf */
#include "compare/report_read.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/sanitize.h"
#include "report/report.h"
#include "run/result_check.h"
#include "run/result_json.h"
#include "base/units.h"

/* Nonzero when d's headline counts operations rather than bytes. */
static int counts_ops(const struct doc_result *d)
{
	return strcmp(d->unit, "ops/s") == 0;
}

/* o[key] as a string, or "" when absent or not a string. */
static const char *text_of(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* A copy of o[key] as text; NULL only when out of memory. */
static char *dup_text(const json_t *o, const char *key)
{
	return strdup(text_of(o, key));
}

/* An unsigned integer field, 0 when absent or negative. */
static unsigned long long uint_of(const json_t *o, const char *key)
{
	json_int_t v = json_integer_value(json_object_get(o, key));

	return v > 0 ? (unsigned long long)v : 0;
}

/* The network interfaces of the system object. */
static int netifs_get(const json_t *sys, struct sysinfo *si)
{
	const json_t *a = json_object_get(sys, "network");
	size_t i;
	json_t *n;

	if (!json_array_size(a))
		return 0;
	si->netifs = calloc(json_array_size(a), sizeof(*si->netifs));
	if (!si->netifs)
		return -ENOMEM;
	json_array_foreach(a, i, n) {
		struct netif *nif = &si->netifs[si->nnetifs++];
		const json_t *speed = json_object_get(n, "speed_mbps");

		nif->name = dup_text(n, "name");
		nif->driver = dup_text(n, "driver");
		nif->mac = dup_text(n, "mac");
		nif->state = dup_text(n, "state");
		nif->speed_mbps = json_is_integer(speed)
					  ? (long)json_integer_value(speed)
					  : -1;
		if (!nif->name || !nif->driver || !nif->mac || !nif->state)
			return -ENOMEM;
	}
	return 0;
}

/* The filesystems of the system object. */
static int filesystems_get(const json_t *sys, struct sysinfo *si)
{
	const json_t *a = json_object_get(sys, "filesystems");
	size_t i;
	json_t *f;

	if (!json_array_size(a))
		return 0;
	si->fs = calloc(json_array_size(a), sizeof(*si->fs));
	if (!si->fs)
		return -ENOMEM;
	json_array_foreach(a, i, f) {
		struct fsinfo *fs = &si->fs[si->nfs++];

		fs->dir = dup_text(f, "dir");
		fs->fstype = dup_text(f, "fstype");
		fs->device = dup_text(f, "device");
		fs->free_bytes = uint_of(f, "free_bytes");
		fs->total_bytes = uint_of(f, "total_bytes");
		if (!fs->dir || !fs->fstype || !fs->device)
			return -ENOMEM;
	}
	return 0;
}

/* The "hostbench" and "system" objects into doc->sys. */
static int system_get(const json_t *root, struct sysinfo *si)
{
	const json_t *hb = json_object_get(root, "hostbench");
	const json_t *sys = json_object_get(root, "system");
	size_t i;
	json_t *v;

	si->version = dup_text(hb, "version");
	si->build_type = dup_text(hb, "build_type");
	si->sanitized = json_is_true(json_object_get(hb, "sanitized"));
	si->arch = dup_text(sys, "arch");
	si->cpu_model = dup_text(sys, "cpu_model");
	si->kernel = dup_text(sys, "kernel");
	si->os = dup_text(sys, "os");
	si->hostname = dup_text(sys, "hostname");
	if (!si->version || !si->build_type || !si->arch || !si->cpu_model ||
	    !si->kernel || !si->os || !si->hostname)
		return -ENOMEM;
	si->physical_cores = (unsigned)uint_of(sys, "physical_cores");
	si->logical_cpus = (unsigned)uint_of(sys, "logical_cpus");
	si->ram_kb = uint_of(sys, "ram_kb");
	json_array_foreach(json_object_get(sys, "cpu_flags"), i, v) {
		if (json_is_string(v) &&
		    strlist_push(&si->cpu_flags, json_string_value(v)))
			return -ENOMEM;
	}
	if (netifs_get(sys, si) || filesystems_get(sys, si))
		return -ENOMEM;
	return 0;
}

/* The "libraries" object: per plugin, library -> version. */
static int libraries_get(const json_t *root, struct doc_report *doc)
{
	const json_t *libs = json_object_get(root, "libraries");
	const char *name, *lib;
	json_t *v, *ver;

	if (!json_object_size(libs))
		return 0;
	doc->plugins = calloc(json_object_size(libs), sizeof(*doc->plugins));
	if (!doc->plugins)
		return -ENOMEM;
	json_object_foreach((json_t *)libs, name, v) {
		struct doc_plugin *p = &doc->plugins[doc->nplugins++];

		p->name = name;
		json_object_foreach(v, lib, ver) {
			if (json_is_string(ver) &&
			    kvlist_set(&p->libraries, lib,
				       json_string_value(ver)))
				return -ENOMEM;
		}
	}
	return 0;
}

char *report_read_params_text(const json_t *params)
{
	/* sorted keys, so the order a report wrote them in does not matter */
	if (!params)
		return strdup("{}");
	return json_dumps(params,
			  JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
}

/*
 * The identity of a case across reports: job, target, backend and every
 * parameter with its JSON type, as one string (parameters sorted by name,
 * so the order a report wrote them in does not matter). NULL when out of
 * memory.
 */
static char *report_read_key(const char *job, const char *target,
			     const char *backend, const json_t *params)
{
	/* jansson writes 5 and 5.0 and "5" apart: parameters stay typed */
	char *p = report_read_params_text(params);
	char *key = NULL;

	if (!p)
		return NULL;
	if (asprintf(&key, "%s\x1f%s\x1f%s\x1f%s", job, target, backend, p) < 0)
		key = NULL;
	free(p);
	return key;
}

/*
 * What compare and merge divide by: an ok result's headline median and
 * each sample's headline work must be above 0.
 */
static int headline_check(const struct doc_result *d, char *err, size_t errlen)
{
	int ops = counts_ops(d);

	if (d->res.status != RESULT_OK)
		return 0;
	for (size_t i = 0; i < d->res.nsamples; i++)
		if ((ops ? d->res.samples[i].ops : d->res.samples[i].bytes) <=
		    0)
			return hb_errorf(err, errlen, -EINVAL,
					 "sample %zu: no %s in a %s result",
					 i + 1, ops ? "operations" : "bytes",
					 d->unit);
	if (!(report_read_headline(d)->median > 0))
		return hb_errorf(err, errlen, -EINVAL,
				 "median is %g (want a positive number)",
				 report_read_headline(d)->median);
	return 0;
}

/* results[i] of the document into d. */
static int read_result(const json_t *o, size_t i, struct doc_result *d,
		       char *err, size_t errlen)
{
	char why[256];
	json_int_t par;
	int rc;

	if (!json_is_object(o))
		return hb_errorf(err, errlen, -EINVAL,
				 "results[%zu] is not an object", i);
	d->job = text_of(o, "job");
	d->title = text_of(o, "title");
	d->section = text_of(o, "section");
	d->target = text_of(o, "target");
	d->backend = text_of(o, "backend");
	d->unit = text_of(o, "unit");
	d->params = json_object_get(o, "params");
	par = json_integer_value(json_object_get(d->params, "parallel"));
	d->parallel = par > 0 ? (unsigned)par : 1;
	d->key = report_read_key(d->job, d->target, d->backend, d->params);
	if (!d->key)
		return -ENOMEM;
	rc = result_json_get(o, NULL, &d->res, why, sizeof(why));
	/* the figures come from the samples, never from the file's word */
	if (!rc)
		rc = result_check(&d->res, why, sizeof(why));
	if (!rc)
		rc = result_rates(&d->res);
	if (!rc)
		rc = headline_check(d, why, sizeof(why));
	if (rc == -EINVAL)
		return hb_errorf(err, errlen, rc, "results[%zu] (%s): %s", i,
				 d->title, why);
	return rc;
}

/* Everything of a parsed document; err says what is wrong with it. */
static int doc_get(struct doc_report *doc, char *err, size_t errlen)
{
	const json_t *root = doc->root;
	const json_t *version = json_object_get(root, "schema_version");
	const json_t *results = json_object_get(root, "results");
	size_t i;
	json_t *o;
	int rc;

	if (!json_is_object(root) || !json_is_integer(version) ||
	    !json_is_array(results) ||
	    !json_is_object(json_object_get(root, "hostbench")))
		return hb_errorf(err, errlen, -EINVAL,
				 "not a hostbench JSON report (write one with "
				 "--format json)");
	if (json_integer_value(version) > REPORT_SCHEMA_VERSION ||
	    json_integer_value(version) < 1)
		return hb_errorf(err, errlen, -EINVAL,
				 "schema_version %lld, this hostbench reads "
				 "version %d (a newer hostbench wrote it?)",
				 (long long)json_integer_value(version),
				 REPORT_SCHEMA_VERSION);
	if (system_get(root, &doc->sys) || libraries_get(root, doc))
		return -ENOMEM;
	doc->results =
		calloc(json_array_size(results) + 1, sizeof(*doc->results));
	if (!doc->results)
		return -ENOMEM;
	json_array_foreach(results, i, o) {
		rc = read_result(o, i, &doc->results[doc->nresults++], err,
				 errlen);
		if (rc)
			return rc;
	}
	return 0;
}

/* Everything of the parsed document doc->root, or one line on what is wrong. */
static int doc_load(struct doc_report *doc, const json_error_t *jerr, char *err,
		    size_t errlen)
{
	const char *path;
	char why[256] = "";
	int rc;

	if (!doc->root)
		return hb_errorf(
			err, errlen, -EINVAL,
			"%s: not a hostbench JSON report (line %d: %s)",
			doc->path, jerr->line, jerr->text);
	/* a report file is text from elsewhere: shown only once sanitized */
	rc = sanitize_json(doc->root);
	if (!rc)
		rc = doc_get(doc, why, sizeof(why));
	if (!rc)
		return 0;
	path = doc->path;
	report_read_free(doc);
	return hb_errorf(err, errlen, rc, "%s: %s", path,
			 rc == -ENOMEM ? "out of memory" : why);
}

int report_read(struct doc_report *doc, const char *path, char *err,
		size_t errlen)
{
	json_error_t jerr;
	FILE *f;

	memset(doc, 0, sizeof(*doc));
	doc->path = path;
	f = fopen(path, "r");
	if (!f)
		return hb_errorf(err, errlen, -errno, "%s: %s", path,
				 strerror(errno));
	doc->root = json_loadf(f, JSON_DECODE_ANY, &jerr);
	fclose(f);
	return doc_load(doc, &jerr, err, errlen);
}

int report_read_text(struct doc_report *doc, const char *name, const char *text,
		     size_t len, char *err, size_t errlen)
{
	json_error_t jerr;

	memset(doc, 0, sizeof(*doc));
	doc->path = name;
	doc->root = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
	return doc_load(doc, &jerr, err, errlen);
}

void report_read_free(struct doc_report *doc)
{
	for (size_t i = 0; i < doc->nresults; i++) {
		free(doc->results[i].key);
		result_free(&doc->results[i].res);
	}
	free(doc->results);
	for (size_t i = 0; i < doc->nplugins; i++)
		kvlist_free(&doc->plugins[i].libraries);
	free(doc->plugins);
	sysinfo_free(&doc->sys);
	json_decref(doc->root);
	memset(doc, 0, sizeof(*doc));
}

void report_read_sample_rates(const struct doc_result *d, double *out)
{
	for (size_t i = 0; i < d->res.nsamples; i++) {
		const struct sample *s = &d->res.samples[i];
		double work = counts_ops(d) ? s->ops : s->bytes;

		out[i] = s->seconds > 0 ? work / s->seconds : 0;
	}
}

const struct stats *report_read_headline(const struct doc_result *d)
{
	return counts_ops(d) ? &d->res.ops_rate : &d->res.rate;
}

void report_read_figure(const struct doc_result *d, const char *unit, char *buf,
			size_t len)
{
	char v[64];

	if (!d) {
		snprintf(buf, len, "-");
		return;
	}
	if (d->res.status != RESULT_OK) {
		snprintf(buf, len, "%s", result_status_name(d->res.status));
		return;
	}
	report_format_value(
		unit_scale(unit, d->res.rate.median, d->res.ops_rate.median),
		unit, v, sizeof(v));
	snprintf(buf, len, "%s ±%.1f%%%s", v, report_read_headline(d)->cv * 100,
		 d->res.noisy ? " noisy" : "");
}

json_t *report_read_summary(const struct doc_result *d, int *bad)
{
	json_t *o;

	if (!d)
		return json_null();
	o = json_object();
	jsonw_set(o, "status", json_string(result_status_name(d->res.status)),
		  bad);
	if (d->res.status == RESULT_OK) {
		jsonw_set(o, "median",
			  jsonw_number(report_read_headline(d)->median), bad);
		jsonw_set(o, "cv", jsonw_number(report_read_headline(d)->cv),
			  bad);
		jsonw_set(o, "samples",
			  json_integer((json_int_t)d->res.nsamples), bad);
		jsonw_set(o, "noisy", json_boolean(d->res.noisy), bad);
	}
	return o;
}
