/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Plugins check each case's parameters before the suite runs, in a helper
 * process per plugin: validate() is plugin code, and never runs here.
 */
#include "run/precheck.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "proc/helper.h"
#include "plugin/probe.h"
#include "plugin/registry.h"
#include "result/case_json.h"

/* Whether case c is for plugin p to validate. */
static int wants_validate(const struct bench_case *c, const struct plugin *p)
{
	return c->plugin == p && p->has_validate &&
	       !registry_unusable(p, c->target);
}

/* {"path": ..., "cases": [...]} of the cases of s that p validates. */
static char *request_for(const struct suite *s, const struct plugin *p)
{
	json_t *cases = json_array(), *req;
	char *text;

	for (size_t i = 0; cases && i < s->ncases; i++)
		if (wants_validate(&s->cases[i], p))
			json_array_append_new(cases,
					      case_json_put(&s->cases[i]));
	req = json_pack("{s:s, s:o}", "path", p->path, "cases", cases);
	text = req ? json_dumps(req, JSON_COMPACT) : NULL;
	json_decref(req);
	return text;
}

/*
 * Where a refusal points: the line of the key its reason starts with
 * ("dir /x: No such file or directory" is about dir), else the job's.
 */
static const char *refusal_origin(const struct job *job, const char *why,
				  char *buf, size_t len)
{
	for (size_t i = 0; why && i < job->origins.n; i++) {
		const struct kv *kv = &job->origins.items[i];
		size_t n = strlen(kv->key);

		if (strncmp(why, kv->key, n) == 0 &&
		    (why[n] == ' ' || why[n] == ':'))
			return kv->value;
	}
	snprintf(buf, len, "%s:%u", job->file, job->line);
	return buf;
}

/* The first case p refused, named by its job and key, into err. */
static int first_refusal(const struct suite *s, const struct plugin *p,
			 const json_t *checks, char *err, size_t errlen)
{
	size_t k = 0;
	char at[PATH_MAX + 16];

	for (size_t i = 0; i < s->ncases; i++) {
		const struct job *job = &s->jobs[s->cases[i].job];
		const json_t *one;
		const char *why;

		if (!wants_validate(&s->cases[i], p))
			continue;
		one = json_array_get(checks, k++);
		if (!json_is_object(one))
			return hb_errorf(err, errlen, -EINVAL,
					 "backend %s: validate() gave no "
					 "answer for [%s]",
					 p->desc->name, job->label);
		if (json_integer_value(json_object_get(one, "rc")) >= 0)
			continue;
		why = json_string_value(json_object_get(one, "reason"));
		return hb_errorf(err, errlen, -EINVAL, "%s: [%s] %s",
				 refusal_origin(job, why, at, sizeof(at)),
				 job->label,
				 why && *why ? why : "refused by plugin");
	}
	return 0;
}

/* Validate the cases of s that plugin p takes, in one helper. */
static int precheck_plugin(const struct suite *s, const struct plugin *p,
			   char *err, size_t errlen)
{
	char *text = request_for(s, p), end[256];
	struct helper_req hr = { .mode = "validate",
				 .plugin_fd = p->fd,
				 .request = text,
				 .timeout = probe_timeout() };
	struct helper_out out;
	json_t *ans;
	int rc;

	if (!text)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	rc = helper_run(&hr, &out, err, errlen);
	free(text);
	if (rc)
		return rc;
	ans = out.answer ? json_loads(out.answer, 0, NULL) : NULL;
	if (json_is_array(json_object_get(ans, "checks"))) {
		rc = first_refusal(s, p, json_object_get(ans, "checks"), err,
				   errlen);
	} else {
		const char *refused =
			json_string_value(json_object_get(ans, "refused"));

		helper_describe_end(&out, hr.timeout, "in validate()", end,
				    sizeof(end));
		rc = hb_errorf(err, errlen, -EINVAL, "backend %s (%s): %s",
			       p->desc->name, p->path,
			       refused	    ? refused
			       : out.answer ? "its helper answered garbage"
					    : end);
	}
	json_decref(ans);
	helper_out_free(&out);
	return rc;
}

int precheck_suite(const struct suite *s, const struct registry *reg, char *err,
		   size_t errlen)
{
	for (size_t i = 0; i < reg->n; i++) {
		const struct plugin *p = &reg->plugins[i];
		int rc = 0;

		for (size_t k = 0; k < s->ncases && !rc; k++)
			if (wants_validate(&s->cases[k], p))
				rc = precheck_plugin(s, p, err, errlen) < 0
					     ? -EINVAL
					     : 1;
		if (rc < 0)
			return rc;
	}
	return 0;
}
