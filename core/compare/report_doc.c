/* SPDX-License-Identifier: Apache-2.0 */
/* Saved reports laid out again: jobs, cases and targets from "case". */
#include "compare/report_doc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result/case_json.h"

/* o[key] as a string, or NULL. */
static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The job at index of rd's suite, made (from d and c) when first seen. */
static int job_at(struct report_doc *rd, size_t index, size_t *jobs_cap,
		  const struct doc_result *d, const json_t *c)
{
	struct suite *s = &rd->suite;
	struct job *j;
	size_t i;
	json_t *v;

	while (s->njobs <= index) {
		if (array_grow((void **)&s->jobs, s->njobs, jobs_cap,
			       sizeof(*s->jobs)))
			return -ENOMEM;
		memset(&s->jobs[s->njobs++], 0, sizeof(*s->jobs));
	}
	j = &s->jobs[index];
	if (j->label)
		return 0;
	j->label = strdup(d->job);
	j->group = xstrdup(c ? str(c, "group") : NULL);
	/* without "case", the section said is the job's own */
	j->section = xstrdup(c ? str(c, "section") : d->section);
	j->note = xstrdup(c ? str(c, "note") : NULL);
	json_array_foreach(json_object_get(c, "varying"), i, v) {
		if (json_is_string(v) &&
		    strlist_push(&j->varying, json_string_value(v)))
			return -ENOMEM;
	}
	return j->label ? 0 : -ENOMEM;
}

/* A parameter as the suite text it was, for a report without "case". */
static char *param_text(const json_t *v)
{
	char buf[64];

	if (json_is_string(v))
		return strdup(json_string_value(v));
	if (json_is_integer(v))
		snprintf(buf, sizeof(buf), "%lld",
			 (long long)json_integer_value(v));
	else if (json_is_real(v))
		snprintf(buf, sizeof(buf), "%.15g", json_real_value(v));
	else
		snprintf(buf, sizeof(buf), "%s",
			 json_is_true(v) ? "true" : "false");
	return strdup(buf);
}

/* The case of d from its other fields (a report without "case"). */
static int case_from_fields(const struct doc_result *d, struct bench_case *c)
{
	const char *key;
	json_t *v;

	c->title = strdup(d->title);
	c->target = strdup(d->target);
	c->backend = strdup(d->backend);
	c->unit = strdup(d->unit[0] ? d->unit : "Gbps");
	c->parallel = d->parallel;
	c->duration = json_number_value(json_object_get(d->json, "duration"));
	c->repetitions = (unsigned)json_integer_value(
		json_object_get(d->json, "repetitions"));
	c->warmup = (unsigned)json_integer_value(
		json_object_get(d->json, "warmup"));
	if (!c->title || !c->target || !c->backend || !c->unit)
		return -ENOMEM;
	json_object_foreach((json_t *)d->params, key, v) {
		char *text = strcmp(key, "parallel") ? param_text(v) : NULL;
		int rc = text ? kvlist_set(&c->params, key, text) : 0;

		free(text);
		if (rc)
			return -ENOMEM;
	}
	return 0;
}

/* The target of case c as "case" o described it: group, work, types. */
static int target_from(const json_t *o, const struct job *job,
		       const struct bench_case *c, struct report_doc_target *t)
{
	const json_t *types = json_object_get(o, "types");
	const char *key, *slash = strchr(c->target, '/');
	size_t n = 0;
	json_t *v;

	t->options = calloc(json_object_size(types) + 1, sizeof(*t->options));
	if (!t->options)
		return -ENOMEM;
	json_object_foreach((json_t *)types, key, v) {
		if (plugin_type_parse(json_string_value(v),
				      &t->options[n].type) == 0)
			t->options[n++].name = key;
	}
	t->target.group = job->group;
	t->target.name = slash ? slash + 1 : c->target;
	t->target.options = t->options;
	if (plugin_work_parse(str(o, "work"), &t->target.work))
		t->target.work = strcmp(c->unit, "ops/s") == 0 ? HB_WORK_OPS
							       : HB_WORK_BYTES;
	return 0;
}

/*
 * Result k of rd: d with its case, job (index base + its job_index, or the
 * next one when its job's label changes) and target.
 */
static int result_from(struct report_doc *rd, size_t k, size_t base,
		       size_t *jobs_cap, const struct doc_result *d,
		       const struct doc_result *prev, char *err, size_t errlen)
{
	const json_t *o = json_object_get(d->json, "case");
	struct bench_case *c = &rd->suite.cases[k];
	size_t job = base;
	int rc;

	if (o) {
		rc = case_json_get(o, c, err, errlen);
		job += (size_t)json_integer_value(
			json_object_get(o, "job_index"));
		c->backend_chosen =
			json_is_true(json_object_get(o, "backend_chosen"));
	} else {
		rc = case_from_fields(d, c);
		if (prev)
			job = rd->suite.cases[k - 1].job +
			      (strcmp(prev->job, d->job) != 0);
	}
	rd->suite.ncases++;
	c->job = job;
	if (!rc)
		rc = job_at(rd, job, jobs_cap, d, o);
	if (!rc)
		rc = target_from(o, &rd->suite.jobs[job], c, &rd->targets[k]);
	c->tdesc = &rd->targets[k].target;
	rd->results[k] = d->res;
	rd->results[k].c = c;
	return rc;
}

/* The plugins of doc as a registry of names and libraries. */
static int registry_from(struct report_doc *rd, const struct doc_report *doc)
{
	rd->descs = calloc(doc->nplugins + 1, sizeof(*rd->descs));
	rd->reg.plugins = calloc(doc->nplugins + 1, sizeof(*rd->reg.plugins));
	if (!rd->descs || !rd->reg.plugins)
		return -ENOMEM;
	for (size_t i = 0; i < doc->nplugins; i++) {
		rd->descs[i].name = doc->plugins[i].name;
		rd->descs[i].version = doc->plugins[i].version;
		/* shared with the document, as every string here is */
		rd->reg.plugins[i].path = (char *)doc->plugins[i].file;
		rd->reg.plugins[i].desc = &rd->descs[i];
		rd->reg.plugins[i].libraries = doc->plugins[i].libraries;
	}
	rd->reg.n = doc->nplugins;
	return 0;
}

/* Room for total results. */
static int room_for(struct report_doc *rd, size_t total)
{
	rd->suite.cases = calloc(total + 1, sizeof(*rd->suite.cases));
	rd->results = calloc(total + 1, sizeof(*rd->results));
	rd->targets = calloc(total + 1, sizeof(*rd->targets));
	return rd->suite.cases && rd->results && rd->targets ? 0 : -ENOMEM;
}

int report_doc_build(struct report_doc *rd, const struct doc_report *docs,
		     size_t n, char *err, size_t errlen)
{
	size_t total = 0, k = 0, jobs_cap = 0;
	int rc;

	memset(rd, 0, sizeof(*rd));
	for (size_t d = 0; d < n; d++)
		total += docs[d].nresults;
	rc = room_for(rd, total);
	if (!rc && n)
		rc = registry_from(rd, &docs[0]);
	for (size_t d = 0; d < n && !rc; d++) {
		size_t base = rd->suite.njobs;

		for (size_t i = 0; i < docs[d].nresults && !rc; i++, k++)
			rc = result_from(rd, k, base, &jobs_cap,
					 &docs[d].results[i],
					 i ? &docs[d].results[i - 1] : NULL,
					 err, errlen);
	}
	if (rc) {
		report_doc_free(rd);
		return rc == -ENOMEM ? hb_errorf(err, errlen, rc,
						 "report: out of memory")
				     : rc;
	}
	rd->r = (struct report){ .sys = n ? &docs[0].sys : NULL,
				 .reg = &rd->reg,
				 .suite = &rd->suite,
				 .results = rd->results,
				 .nresults = total,
				 .run = n ? &docs[0].run : NULL };
	return 0;
}

void report_doc_free(struct report_doc *rd)
{
	for (size_t i = 0; rd->targets && i < rd->suite.ncases; i++)
		free(rd->targets[i].options);
	free(rd->targets);
	suite_free(&rd->suite);
	free(rd->results);
	free(rd->reg.plugins);
	free(rd->descs);
	memset(rd, 0, sizeof(*rd));
}
