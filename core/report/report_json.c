/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The JSON report: the contract scripts and `compare` read, documented in
 * docs/json-schema.md. Figures are bytes per second and operations per
 * second, never display units. Built with jansson, written in one go; each
 * result's measurement through result_json.c, the codec every reader uses.
 */
#include "report/report_json.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/jsonw.h"
#include "base/parse.h"
#include "base/units.h"
#include "report/layout.h"
#include "result/case_json.h"
#include "result/result_json.h"
#include "suite/suite_value.h"

/* Bumped only when a field is renamed or removed or changes meaning. */
#define SCHEMA_VERSION 1

/* A strlist as an array of strings. */
static json_t *strings_json(const struct strlist *l, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < l->n; i++)
		jsonw_push(a, jsonw_text(l->items[i]), bad);
	return a;
}

/* A kvlist as an object of strings. */
static json_t *kv_json(const struct kvlist *l, int *bad)
{
	json_t *o = json_object();

	for (size_t i = 0; i < l->n; i++)
		jsonw_set(o, l->items[i].key, jsonw_text(l->items[i].value),
			  bad);
	return o;
}

/* One result: what was run, then what was measured. */
static json_t *entry_json(const struct report *r, const struct result *res,
			  int *bad)
{
	const struct bench_case *c = res->c;
	const struct job *job = r->suite && c && c->job < r->suite->njobs
					? &r->suite->jobs[c->job]
					: NULL;
	json_t *o = json_object();
	/* what `hostbench report` needs to lay the case out again */
	json_t *cj = c ? case_json_report_put(r->suite, c) : NULL;

	if (c && !cj)
		*bad = 1;
	jsonw_set(o, "job", jsonw_text(job ? job->label : NULL), bad);
	jsonw_set(o, "title", jsonw_text(c ? c->title : NULL), bad);
	jsonw_set(o, "section", jsonw_text(report_section_of(r, res)), bad);
	jsonw_set(o, "target", jsonw_text(c ? c->target : NULL), bad);
	jsonw_set(o, "backend", jsonw_text(c ? c->backend : NULL), bad);
	jsonw_set(o, "backend_chosen", json_boolean(c && c->backend_chosen),
		  bad);
	/* typed from the case, as a journal's reader types them */
	jsonw_set(o, "params", cj ? case_json_params(cj) : json_object(), bad);
	jsonw_set(o, "unit", jsonw_text(c ? c->unit : NULL), bad);
	jsonw_set(o, "duration", c ? jsonw_number(c->duration) : json_null(),
		  bad);
	/* sampling to a precision: the samples it took, not the key's */
	jsonw_set(o, "repetitions",
		  json_integer(!c		  ? 0
			       : c->precision > 0 ? (json_int_t)res->nsamples
						  : c->repetitions),
		  bad);
	jsonw_set(o, "warmup",
		  json_integer(!c		? 0
			       : c->warmup_auto ? res->warmup_samples
						: c->warmup),
		  bad);
	if (cj)
		jsonw_set(o, "case", cj, bad);
	/* the codec the isolated child, resume and compare read back */
	if (!o || result_json_put(o, res))
		*bad = 1;
	return o;
}

/* A network interface. */
static json_t *netif_json(const struct netif *n, int *bad)
{
	json_t *o = json_object();

	jsonw_set(o, "name", jsonw_text(n->name), bad);
	jsonw_set(o, "driver", jsonw_text(n->driver), bad);
	jsonw_set(o, "speed_mbps",
		  n->speed_mbps >= 0 ? json_integer(n->speed_mbps)
				     : json_null(),
		  bad);
	jsonw_set(o, "mac", jsonw_text(n->mac), bad);
	jsonw_set(o, "state", jsonw_text(n->state), bad);
	return o;
}

/* The filesystem under a directory a target used. */
static json_t *fs_json(const struct fsinfo *fs, int *bad)
{
	json_t *o = json_object();

	jsonw_set(o, "dir", jsonw_text(fs->dir), bad);
	jsonw_set(o, "fstype", jsonw_text(fs->fstype), bad);
	jsonw_set(o, "device", jsonw_text(fs->device), bad);
	jsonw_set(o, "free_bytes", json_integer((json_int_t)fs->free_bytes),
		  bad);
	jsonw_set(o, "total_bytes", json_integer((json_int_t)fs->total_bytes),
		  bad);
	return o;
}

/* The NUMA nodes: id, CPU list and memory. */
static json_t *nodes_json(const struct topology *t, int *bad)
{
	json_t *a = json_array();
	char cpus[512];

	for (size_t i = 0; i < t->nnodes; i++) {
		json_t *o = json_object();

		cpulist_format(&t->nodes[i].cpus, cpus, sizeof(cpus));
		jsonw_set(o, "node", json_integer(t->nodes[i].id), bad);
		jsonw_set(o, "cpus", jsonw_text(cpus), bad);
		jsonw_set(o, "memory_kb",
			  json_integer((json_int_t)t->nodes[i].mem_kb), bad);
		jsonw_push(a, o, bad);
	}
	return a;
}

/* CPU 0's caches: level, type, size in bytes and the CPUs sharing it. */
static json_t *caches_json(const struct topology *t, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < t->ncaches; i++) {
		const struct topology_cache *c = &t->caches[i];
		json_t *o = json_object();

		jsonw_set(o, "level", json_integer(c->level), bad);
		jsonw_set(o, "type", jsonw_text(c->type), bad);
		jsonw_set(o, "size", json_integer((json_int_t)c->size), bad);
		jsonw_set(o, "shared_cpus", jsonw_text(c->shared), bad);
		jsonw_push(a, o, bad);
	}
	return a;
}

/* The size of the last-level cache in bytes, 0 when unknown. */
static unsigned long long last_level_size(const struct topology *t)
{
	unsigned long long size = 0;
	unsigned level = topology_last_level(t);

	for (size_t i = 0; i < t->ncaches; i++)
		if (t->caches[i].level == level &&
		    strcmp(t->caches[i].type, "Instruction") != 0)
			size = t->caches[i].size;
	return size;
}

/* Everything sysinfo knows about the host. */
static json_t *system_json(const struct sysinfo *si, int *bad)
{
	json_t *o = json_object(), *nets = json_array(), *fss = json_array();

	if (!si)
		return o;
	jsonw_set(o, "arch", jsonw_text(si->arch), bad);
	jsonw_set(o, "cpu_model", jsonw_text(si->cpu_model), bad);
	jsonw_set(o, "physical_cores", json_integer(si->physical_cores), bad);
	jsonw_set(o, "logical_cpus", json_integer(si->logical_cpus), bad);
	jsonw_set(o, "cpu_flags", strings_json(&si->cpu_flags, bad), bad);
	jsonw_set(o, "ram_kb", json_integer((json_int_t)si->ram_kb), bad);
	jsonw_set(o, "numa_nodes", nodes_json(&si->topo, bad), bad);
	jsonw_set(o, "caches", caches_json(&si->topo, bad), bad);
	jsonw_set(o, "last_level_cache",
		  json_integer((json_int_t)last_level_size(&si->topo)), bad);
	jsonw_set(o, "kernel", jsonw_text(si->kernel), bad);
	jsonw_set(o, "os", jsonw_text(si->os), bad);
	jsonw_set(o, "hostname", jsonw_text(si->hostname), bad);
	for (size_t i = 0; i < si->nnetifs; i++)
		jsonw_push(nets, netif_json(&si->netifs[i], bad), bad);
	jsonw_set(o, "network", nets, bad);
	for (size_t i = 0; i < si->nfs; i++)
		jsonw_push(fss, fs_json(&si->fs[i], bad), bad);
	jsonw_set(o, "filesystems", fss, bad);
	return o;
}

/* Nonzero when r's run was measured (not an older report read back). */
static int run_known(const struct report *r)
{
	return r->run && r->run->known;
}

/* hostbench's own build; its commit only where the run is known. */
static json_t *hostbench_json(const struct report *r, int *bad)
{
	const struct sysinfo *si = r->sys;
	json_t *o = json_object();

	jsonw_set(o, "version",
		  jsonw_text(si && si->version ? si->version : HB_VERSION),
		  bad);
	jsonw_set(o, "build_type",
		  jsonw_text(si && si->build_type ? si->build_type
						  : HB_BUILD_TYPE),
		  bad);
	jsonw_set(o, "sanitized", json_boolean(si && si->sanitized), bad);
	if (run_known(r))
		jsonw_set(o, "commit",
			  si && si->commit && si->commit[0]
				  ? jsonw_text(si->commit)
				  : json_null(),
			  bad);
	return o;
}

/* Each loaded plugin's name, file and version. */
static json_t *plugins_json(const struct registry *reg, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; reg && i < reg->n; i++) {
		const struct plugin *p = &reg->plugins[i];
		json_t *o = json_object();

		jsonw_set(o, "name", jsonw_text(p->desc->name), bad);
		jsonw_set(o, "file", jsonw_text(p->path), bad);
		jsonw_set(o, "version", jsonw_text(p->desc->version), bad);
		jsonw_push(a, o, bad);
	}
	return a;
}

/* Each loaded plugin's libraries: {plugin: {library: version}}. */
static json_t *libraries_json(const struct registry *reg, int *bad)
{
	json_t *o = json_object();

	for (size_t i = 0; reg && i < reg->n; i++)
		jsonw_set(o, reg->plugins[i].desc->name,
			  kv_json(&reg->plugins[i].libraries, bad), bad);
	return o;
}

/* Which units are binary, which decimal: {"sizes", "rates", "legend"}. */
static json_t *units_json(int *bad)
{
	json_t *o = json_object();

	jsonw_set(o, "sizes", json_string("binary"), bad);
	jsonw_set(o, "rates", json_string("decimal"), bad);
	jsonw_set(o, "legend", json_string(UNITS_LEGEND), bad);
	return o;
}

/* The whole document. */
static json_t *document(const struct report *r, int *bad)
{
	json_t *doc = json_object(), *results = json_array();

	jsonw_set(doc, "schema_version", json_integer(SCHEMA_VERSION), bad);
	jsonw_set(doc, "hostbench", hostbench_json(r, bad), bad);
	/* what an older report never had stays out of its rendering */
	if (run_known(r)) {
		jsonw_set(doc, "run", runinfo_json(r->run, bad), bad);
		jsonw_set(doc, "plugins", plugins_json(r->reg, bad), bad);
		jsonw_set(doc, "units", units_json(bad), bad);
	}
	jsonw_set(doc, "system", system_json(r->sys, bad), bad);
	jsonw_set(doc, "libraries", libraries_json(r->reg, bad), bad);
	for (size_t i = 0; i < r->nresults; i++)
		jsonw_push(results, entry_json(r, &r->results[i], bad), bad);
	jsonw_set(doc, "results", results, bad);
	return doc;
}

int report_json(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct report *r = doc;
	int bad = 0;
	json_t *root = document(r, &bad);
	int rc;

	if (bad) {
		json_decref(root);
		return hb_errorf(err, errlen, -ENOMEM,
				 "json report: out of memory");
	}
	/* 17 digits: every figure reads back as the same double, so
	 * `hostbench report` prints what the run printed, to the last digit */
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(17));
	json_decref(root);
	if (rc || fputc('\n', out) == EOF)
		return hb_errorf(err, errlen, -EIO,
				 "writing the json report: %s",
				 strerror(errno ? errno : EIO));
	return report_io_error(out, err, errlen);
}
