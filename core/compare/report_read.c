/* SPDX-License-Identifier: Apache-2.0 */
/* Reading a hostbench JSON report back (jansson). */
#define _GNU_SOURCE /* asprintf */
#include "compare/report_read.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/jsonarena.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "report/figure.h"
#include "result/result_check.h"
#include "result/result_json.h"
#include "base/units.h"
#include "compare/journal_doc.h"

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

/* "numa_nodes" and "caches" of sys back into t (report_json.c). */
static int topology_get(const json_t *sys, struct topology *t)
{
	const json_t *nodes = json_object_get(sys, "numa_nodes");
	const json_t *caches = json_object_get(sys, "caches");
	size_t i;
	json_t *v;

	if (json_array_size(nodes) &&
	    !(t->nodes = calloc(json_array_size(nodes), sizeof(*t->nodes))))
		return -ENOMEM;
	json_array_foreach(nodes, i, v) {
		struct topology_node *n = &t->nodes[t->nnodes++];
		const char *cpus =
			json_string_value(json_object_get(v, "cpus"));

		n->id = (int)uint_of(v, "node");
		n->mem_kb = uint_of(v, "memory_kb");
		if (cpus && *cpus &&
		    cpulist_parse(cpus, &n->cpus, NULL, 0) == -ENOMEM)
			return -ENOMEM;
	}
	if (json_array_size(caches) &&
	    !(t->caches = calloc(json_array_size(caches), sizeof(*t->caches))))
		return -ENOMEM;
	json_array_foreach(caches, i, v) {
		struct topology_cache *c = &t->caches[t->ncaches++];
		const char *type =
			json_string_value(json_object_get(v, "type"));
		const char *shared =
			json_string_value(json_object_get(v, "shared_cpus"));

		c->level = (unsigned)uint_of(v, "level");
		c->size = uint_of(v, "size");
		snprintf(c->type, sizeof(c->type), "%s", type ? type : "");
		snprintf(c->shared, sizeof(c->shared), "%s",
			 shared ? shared : "");
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
	si->commit = dup_text(hb, "commit");
	si->sanitized = json_is_true(json_object_get(hb, "sanitized"));
	si->arch = dup_text(sys, "arch");
	si->cpu_model = dup_text(sys, "cpu_model");
	si->kernel = dup_text(sys, "kernel");
	si->os = dup_text(sys, "os");
	si->hostname = dup_text(sys, "hostname");
	if (!si->version || !si->build_type || !si->commit || !si->arch ||
	    !si->cpu_model || !si->kernel || !si->os || !si->hostname)
		return -ENOMEM;
	si->physical_cores = (unsigned)uint_of(sys, "physical_cores");
	si->logical_cpus = (unsigned)uint_of(sys, "logical_cpus");
	si->ram_kb = uint_of(sys, "ram_kb");
	json_array_foreach(json_object_get(sys, "cpu_flags"), i, v) {
		if (json_is_string(v) &&
		    strlist_push(&si->cpu_flags, json_string_value(v)))
			return -ENOMEM;
	}
	if (netifs_get(sys, si) || filesystems_get(sys, si) ||
	    topology_get(sys, &si->topo))
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

/* The file and version of each plugin the "plugins" array names. */
static void plugin_files_get(const json_t *root, struct doc_report *doc)
{
	const json_t *a = json_object_get(root, "plugins");
	size_t i;
	json_t *p;

	json_array_foreach(a, i, p) {
		const char *name =
			json_string_value(json_object_get(p, "name"));

		for (size_t k = 0; name && k < doc->nplugins; k++) {
			if (strcmp(doc->plugins[k].name, name) != 0)
				continue;
			doc->plugins[k].file =
				json_string_value(json_object_get(p, "file"));
			doc->plugins[k].version = json_string_value(
				json_object_get(p, "version"));
		}
	}
}

char *report_read_params_text(const json_t *params)
{
	/* sorted keys, so the order a report wrote them in does not matter */
	char *text, *copy;

	if (!params)
		return strdup("{}");
	text = json_dumps(params,
			  JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	/* the caller's to free(), whoever allocates for jansson now */
	copy = text ? strdup(text) : NULL;
	jsonarena_free_text(text);
	return copy;
}

/*
 * The "target" of each of o's parts as a NULL-terminated list into *out
 * (strings of the document), so each part keeps its name. 0 or -ENOMEM.
 */
static int part_names(const json_t *o, const char ***out)
{
	const json_t *parts = json_object_get(o, "parts");
	size_t i, n = 0;
	json_t *p;

	*out = calloc(json_array_size(parts) + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	json_array_foreach(parts, i, p) {
		const char *name =
			json_string_value(json_object_get(p, "target"));

		if (name)
			(*out)[n++] = name;
	}
	return 0;
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
	const char **parts;
	char why[256];
	json_int_t par;
	int rc;

	if (!json_is_object(o))
		return hb_errorf(err, errlen, -EINVAL,
				 "results[%zu] is not an object", i);
	d->json = o;
	d->job = text_of(o, "job");
	d->title = text_of(o, "title");
	d->section = text_of(o, "section");
	d->target = text_of(o, "target");
	d->backend = text_of(o, "backend");
	d->unit = text_of(o, "unit");
	d->params = json_object_get(o, "params");
	par = json_integer_value(json_object_get(d->params, "parallel"));
	d->parallel = par > 0 ? (unsigned)par : 1;
	rc = part_names(o, &parts);
	if (!rc)
		rc = result_json_get(o, (const char *const *)parts, &d->res,
				     why, sizeof(why));
	free(parts);
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

json_t *report_read_fleet_host(const json_t *root, const json_t *host)
{
	const json_t *rep = json_object_get(host, "report");
	const json_t *all = json_object_get(root, "results");
	json_int_t rank = json_integer_value(json_object_get(host, "rank"));
	json_t *own, *results, *r;
	size_t i;

	if (!json_is_object(rep))
		return NULL;
	if (json_is_array(json_object_get(rep, "results")))
		return json_incref(
			(json_t *)rep); /* before results were once */
	own = json_copy((json_t *)rep);
	results = json_array();
	json_array_foreach(all, i, r) {
		if (json_integer_value(json_object_get(r, "rank")) == rank &&
		    json_array_append(results, r))
			break;
	}
	if (!own || !results || json_object_set_new(own, "results", results)) {
		json_decref(own);
		return NULL;
	}
	return own;
}

/*
 * A fleet report holds one report per host: without a rank it is refused
 * (comparing every host's copy of a case against one is no comparison),
 * with one, doc->root becomes that host's report (its results taken from
 * the fleet's). Returns 0, -EINVAL or -ENOMEM.
 */
static int pick_host(struct doc_report *doc, int rank, char *err, size_t errlen)
{
	const json_t *hosts =
		json_object_get(json_object_get(doc->root, "fleet"), "hosts");
	const json_t *host;
	size_t i;

	if (!hosts)
		return 0; /* one host's report: --rank picks from fleets only */
	if (rank < 0)
		return hb_errorf(err, errlen, -EINVAL,
				 "a fleet report of %zu hosts: give --rank N "
				 "for the report of rank N's host (0 to %zu)",
				 json_array_size(hosts),
				 json_array_size(hosts) - 1);
	json_array_foreach(hosts, i, host) {
		json_t *one;

		if (json_integer_value(json_object_get(host, "rank")) != rank ||
		    !json_is_object(json_object_get(host, "report")))
			continue;
		one = report_read_fleet_host(doc->root, host);
		if (!one)
			return -ENOMEM;
		json_decref(doc->root);
		doc->root = one;
		return 0;
	}
	return hb_errorf(err, errlen, -EINVAL,
			 "--rank %d: the fleet report has no such rank (0 to "
			 "%zu)",
			 rank, json_array_size(hosts) - 1);
}

/* Everything of a parsed document; err says what is wrong with it. */
static int doc_get(struct doc_report *doc, int rank, char *err, size_t errlen)
{
	const json_t *root, *version, *results;
	size_t i;
	json_t *o;
	int rc = pick_host(doc, rank, err, errlen);

	if (rc)
		return rc;
	root = doc->root;
	version = json_object_get(root, "schema_version");
	results = json_object_get(root, "results");

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
	if (system_get(root, &doc->sys) || libraries_get(root, doc) ||
	    runinfo_from_json(&doc->run, json_object_get(root, "run")))
		return -ENOMEM;
	plugin_files_get(root, doc);
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

int report_read_clean(json_t *root, size_t *changed)
{
	static const struct sanitize_bound keys[] = {
		{ "hostname", SYSINFO_HOSTNAME_MAX },
		{ "label", RUNINFO_LABEL_MAX },
		{ NULL, 0 },
	};
	static const struct sanitize_limits lim = { keys, REPORT_TEXT_MAX };

	return sanitize_json_bounded(root, &lim, changed);
}

/* Everything of the parsed document doc->root, or one line on what is wrong. */
static int doc_load(struct doc_report *doc, int rank, const json_error_t *jerr,
		    char *err, size_t errlen)
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
	rc = report_read_clean(doc->root, &doc->changed);
	if (!rc)
		rc = doc_get(doc, rank, why, sizeof(why));
	if (!rc)
		return 0;
	path = doc->path;
	report_read_free(doc);
	return hb_errorf(err, errlen, rc, "%s: %s", path,
			 rc == -ENOMEM ? "out of memory" : why);
}

/*
 * Everything the regular file f holds into *text (len bytes, then a NUL),
 * in one buffer of its size and a byte more (a report can be tens of MB:
 * no copy each time a buffer doubles), doubled only for a file that grew.
 * Returns 0 or -errno.
 */
static int read_all(FILE *f, off_t size, char **text, size_t *len)
{
	/* one byte past the size, so fread meets the end at once */
	size_t cap = (size_t)size + 2, n = 0, got;
	char *buf = malloc(cap), *grown;

	while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n > 1)
			continue;
		grown = realloc(buf, cap *= 2);
		if (!grown)
			free(buf);
		buf = grown;
	}
	if (!buf || ferror(f)) {
		int rc = buf ? -(errno ? errno : EIO) : -ENOMEM;

		free(buf);
		return rc;
	}
	buf[n] = '\0';
	*text = buf;
	*len = n;
	return 0;
}

/*
 * path opened for reading as a stream into *f, when it is a regular file;
 * its status into st. Opened without blocking, so a FIFO cannot hold the
 * command before it is refused; blocking again once it is known to be a
 * file. Returns 0, or a negative errno (-EINVAL: not a regular file)
 * with why filled.
 */
static int open_regular(const char *path, FILE **f, struct stat *st, char *why,
			size_t len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	int rc = 0;

	memset(st, 0, sizeof(*st));
	if (fd < 0)
		return hb_errorf(why, len, -errno, "%s", strerror(errno));
	if (fstat(fd, st) != 0 ||
	    (S_ISREG(st->st_mode) &&
	     (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
	      !(*f = fdopen(fd, "r")))))
		rc = errno ? -errno : -EIO;
	else if (!S_ISREG(st->st_mode))
		rc = -EINVAL;
	if (!rc)
		return 0;
	close(fd);
	return hb_errorf(why, len, rc, "%s",
			 rc == -EINVAL ? "not a regular file" : strerror(-rc));
}

int report_read_file(const char *path, char **text, size_t *len, time_t *mtime,
		     char *err, size_t errlen)
{
	struct stat st;
	char why[256];
	FILE *f = NULL;
	int rc = open_regular(path, &f, &st, why, sizeof(why));

	if (rc)
		return hb_errorf(err, errlen, rc, "%s: %s", path, why);
	rc = read_all(f, st.st_size, text, len);
	fclose(f);
	if (rc)
		return hb_errorf(err, errlen, rc, "%s: %s", path,
				 strerror(-rc));
	if (mtime)
		*mtime = st.st_mtime;
	return 0;
}

/* A report (or journal) in memory, of rank's host in a fleet report. */
static int read_text(struct doc_report *doc, const char *name, const char *text,
		     size_t len, int rank, char *err, size_t errlen)
{
	json_error_t jerr;

	memset(doc, 0, sizeof(*doc));
	doc->path = name;
	doc->root = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
	/* a journal of one line parses as that line */
	if (!doc->root || journal_doc_is_line(doc->root)) {
		jsonarena_decref(doc->root);
		doc->root = journal_doc_root(text, len, &doc->torn);
	}
	return doc_load(doc, rank, &jerr, err, errlen);
}

int report_read_root(struct doc_report *doc, const char *name, json_t *root,
		     char *err, size_t errlen)
{
	const json_error_t jerr = { .line = 0, .text = "no document" };

	memset(doc, 0, sizeof(*doc));
	doc->path = name;
	doc->root = root;
	return doc_load(doc, -1, &jerr, err, errlen);
}

int report_read_text(struct doc_report *doc, const char *name, const char *text,
		     size_t len, char *err, size_t errlen)
{
	return read_text(doc, name, text, len, -1, err, errlen);
}

int report_read(struct doc_report *doc, const char *path, char *err,
		size_t errlen)
{
	return report_read_rank(doc, path, -1, err, errlen);
}

int report_read_rank(struct doc_report *doc, const char *path, int rank,
		     char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc = report_read_file(path, &text, &len, NULL, err, errlen);

	if (rc)
		return rc;
	rc = read_text(doc, path, text, len, rank, err, errlen);
	free(text);
	return rc;
}

void report_read_free(struct doc_report *doc)
{
	for (size_t i = 0; i < doc->nresults; i++) {
		result_free(&doc->results[i].res);
	}
	free(doc->results);
	for (size_t i = 0; i < doc->nplugins; i++)
		kvlist_free(&doc->plugins[i].libraries);
	free(doc->plugins);
	sysinfo_free(&doc->sys);
	runinfo_free(&doc->run);
	jsonarena_decref(doc->root);
	memset(doc, 0, sizeof(*doc));
}

void report_read_sample_rates(const struct doc_result *d,
			      enum result_figure figure, double *out)
{
	for (size_t i = 0; i < d->res.nsamples; i++) {
		const struct sample *s = &d->res.samples[i];
		double work = counts_ops(d) ? s->ops : s->bytes;
		double t = figure == RESULT_FIGURE_CPU
				   ? s->cpu_seconds
				   : result_sample_seconds(s);

		out[i] = t > 0 ? work / t : 0;
	}
}

const struct stats *report_read_stats(const struct doc_result *d,
				      enum result_figure figure)
{
	if (figure == RESULT_FIGURE_CPU)
		return counts_ops(d) ? &d->res.cpu_ops_rate : &d->res.cpu_rate;
	return counts_ops(d) ? &d->res.ops_rate : &d->res.rate;
}

const struct stats *report_read_headline(const struct doc_result *d)
{
	return report_read_stats(d, RESULT_FIGURE_WALL);
}

void report_read_figure(const struct doc_result *d, const char *unit, char *buf,
			size_t len)
{
	char v[64], cpu[80];

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
	report_cpu_figure(&d->res, unit, cpu, sizeof(cpu));
	snprintf(buf, len, "%s ±%.1f%%%s%s%s%s%s", v,
		 report_read_headline(d)->cv * 100, cpu[0] ? " " : "", cpu,
		 d->res.noisy ? " noisy" : "",
		 d->res.imprecise ? " imprecise" : "",
		 d->res.starved ? " starved" : "");
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
		jsonw_set(o, "starved", json_boolean(d->res.starved), bad);
		jsonw_set(o, "imprecise", json_boolean(d->res.imprecise), bad);
		jsonw_set(o, "per_cpu_second",
			  report_read_stats(d, RESULT_FIGURE_CPU)->median > 0
				  ? jsonw_number(report_read_stats(
							 d, RESULT_FIGURE_CPU)
							 ->median)
				  : json_null(),
			  bad);
	}
	return o;
}
