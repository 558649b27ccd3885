/* SPDX-License-Identifier: Apache-2.0 */
/* The run an importer makes, and the reading they share (import_doc.h). */
#include "import/import_doc.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/jsonw.h"
#include "base/sanitize.h"

void import_note(struct import_out *out, const struct import_in *in,
		 const char *fmt, ...)
{
	char line[1024];
	va_list ap;

	snprintf(line, sizeof(line), "%s: ", in->path);
	va_start(ap, fmt);
	util_vappendf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sanitize_text(line);
	if (!strlist_has(&out->notes, line))
		strlist_push(&out->notes, line);
}

/* The host of a run: the file's, else --host, else this host. */
static const char *host_of(const struct import_in *in, struct import_out *out,
			   const char *tool, const char *host)
{
	if (host && *host) {
		if (in->host && strcmp(in->host, host) != 0)
			import_note(out, in,
				    "%s names its host, %.255s: stored as it "
				    "(--host is for a file that names none)",
				    tool, host);
		return host;
	}
	if (in->host)
		return in->host;
	import_note(out, in,
		    "%s names no host: stored as this host, %.255s (--host "
		    "NAME for another)",
		    tool, in->this_host);
	return in->this_host;
}

/* The tool's version: the file's, else --tool-version, else NULL. */
static const char *version_of(const struct import_in *in,
			      struct import_out *out, const char *tool,
			      const char *version)
{
	if (version && *version) {
		if (in->tool_version && strcmp(in->tool_version, version) != 0)
			import_note(out, in,
				    "%s says it is version %.64s: stored as "
				    "it (--tool-version is for a file that "
				    "says none)",
				    tool, version);
		return version;
	}
	if (in->tool_version)
		return in->tool_version;
	import_note(out, in,
		    "%s says no version of itself: stored as unknown "
		    "(--tool-version V)",
		    tool);
	return NULL;
}

int import_run_new(struct import_run *run, const struct import_in *in,
		   struct import_out *out, const char *tool,
		   const char *version, const char *host)
{
	json_t *o;

	host = host_of(in, out, tool, host);
	version = version_of(in, out, tool, version);
	*run = (struct import_run){ .doc = json_object() };
	if (!run->doc)
		return -ENOMEM;
	jsonw_set(run->doc, "schema_version", json_integer(1), &run->bad);
	o = json_object();
	jsonw_set(o, "name", jsonw_text(tool), &run->bad);
	jsonw_set(o, "version", jsonw_text(version), &run->bad);
	jsonw_set(run->doc, "tool", o, &run->bad);
	o = json_object();
	jsonw_set(o, "file", jsonw_text(in->path), &run->bad);
	jsonw_set(run->doc, "imported", o, &run->bad);
	o = json_object();
	jsonw_set(o, "started", jsonw_text(in->mtime), &run->bad);
	jsonw_set(o, "ended", json_null(), &run->bad);
	jsonw_set(o, "duration", json_null(), &run->bad);
	jsonw_set(o, "label", json_null(), &run->bad);
	jsonw_set(run->doc, "run", o, &run->bad);
	o = json_object();
	jsonw_set(o, "hostname", jsonw_text(host), &run->bad);
	jsonw_set(run->doc, "system", o, &run->bad);
	run->results = json_array();
	jsonw_set(run->doc, "results", json_incref(run->results), &run->bad);
	json_decref(run->results);
	jsonw_push(out->runs, run->doc, &run->bad);
	return run->bad ? -ENOMEM : 0;
}

void import_run_times(struct import_run *run, const char *started,
		      const char *ended, double seconds)
{
	json_t *r = json_object_get(run->doc, "run");

	if (started)
		jsonw_set(r, "started", jsonw_text(started), &run->bad);
	if (ended)
		jsonw_set(r, "ended", jsonw_text(ended), &run->bad);
	if (seconds >= 0)
		jsonw_set(r, "duration", jsonw_number(seconds), &run->bad);
}

int import_time_of(double t, char *buf, size_t len)
{
	struct timespec ts;

	if (!(t >= 0 && t < 253402300800.0)) { /* before year 10000 */
		buf[0] = '\0';
		return -EINVAL;
	}
	ts.tv_sec = (time_t)t;
	ts.tv_nsec = (long)((t - (double)ts.tv_sec) * 1e9);
	return timetext_rfc3339(&ts, buf, len);
}

void import_run_fact(struct import_run *run, const char *key, const char *value)
{
	jsonw_set(json_object_get(run->doc, "system"), key, jsonw_text(value),
		  &run->bad);
}

/* obj[key] = v, key one of this file's own (no check); failures in bad. */
static void put(json_t *obj, const char *key, json_t *v, int *bad)
{
	if (!v || json_object_set_new_nocheck(obj, key, v))
		*bad = 1;
}

/* Whether text a (NULL: none) is b. */
static int same_text(const json_t *a, const char *b)
{
	const char *s = json_string_value(a);

	return s && b ? strcmp(s, b) == 0 : !s && !b;
}

/*
 * The result of case c in run: the last one when it is c's (a case's
 * figures come together), else a new one, its "figures" empty; NULL when
 * out of memory. Its params are c's, shared.
 */
static json_t *case_result(struct import_run *run, const struct import_case *c)
{
	json_t *r = run->last;

	if (r && same_text(json_object_get(r, "job"), c->job) &&
	    same_text(json_object_get(r, "title"), c->title) &&
	    same_text(json_object_get(r, "target"), c->target) &&
	    same_text(json_object_get(r, "backend"), c->backend) &&
	    (c->params ? json_object_get(r, "params") == c->params
		       : !json_object_size(json_object_get(r, "params"))))
		return r;
	r = json_object();
	if (!r) {
		run->bad = 1;
		return NULL;
	}
	put(r, "job", jsonw_text(c->job), &run->bad);
	put(r, "title", jsonw_text(c->title), &run->bad);
	put(r, "target", jsonw_text(c->target), &run->bad);
	put(r, "backend", jsonw_text(c->backend), &run->bad);
	put(r, "params",
	    c->params ? json_incref((json_t *)c->params) : json_object(),
	    &run->bad);
	put(r, "figures", json_array(), &run->bad);
	jsonw_push(run->results, r, &run->bad);
	run->last = r;
	return r;
}

/*
 * A new figure f of case c, with status; NULL when out of memory. What
 * the store takes by default is left out, a run may hold 100,000 of
 * them: "better" when higher, "status" when ok.
 */
static json_t *figure_new(struct import_run *run, const struct import_case *c,
			  const struct import_figure *f, const char *status)
{
	json_t *r = case_result(run, c), *fg = r ? json_object() : NULL;

	if (!fg || json_array_append_new(json_object_get(r, "figures"), fg)) {
		run->bad = 1;
		return NULL;
	}
	put(fg, "figure", json_string_nocheck(f->name), &run->bad);
	put(fg, "unit", json_string_nocheck(f->unit), &run->bad);
	if (f->lower)
		put(fg, "better", json_string_nocheck("lower"), &run->bad);
	if (strcmp(status, "ok") != 0)
		put(fg, "status", json_string_nocheck(status), &run->bad);
	return fg;
}

void import_figure(struct import_run *run, const struct import_case *c,
		   const struct import_figure *f, double value,
		   const double *samples, size_t n)
{
	json_t *fg, *a, *stats;

	if (n == 1 && !isfinite(value))
		value = samples[0];
	if (n <= 1 && !isfinite(value))
		return;
	fg = figure_new(run, c, f, "ok");
	if (!fg)
		return;
	if (n > 1) {
		a = json_array();
		for (size_t i = 0; a && i < n; i++)
			jsonw_push(a, jsonw_number(samples[i]), &run->bad);
		put(fg, "samples", a, &run->bad);
		if (isfinite(value))
			put(fg, "value", json_real(value), &run->bad);
	} else {
		stats = json_object();
		if (stats)
			put(stats, "median", json_real(value), &run->bad);
		put(fg, "stats", stats, &run->bad);
	}
}

void import_failed(struct import_run *run, const struct import_case *c,
		   const struct import_figure *f, const char *reason)
{
	json_t *fg = figure_new(run, c, f, "failed");

	if (fg)
		put(fg, "reason", jsonw_text(reason), &run->bad);
}
