/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Each case in a helper process started by exec (proc/helper.h), which
 * loads the plugin, runs the case and answers its result; the core reads
 * it. With isolate = no the user trusts the plugin and the case runs here.
 */
#define _GNU_SOURCE /* strsignal */
#include "run/isolate.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "proc/helper.h"
#include "base/parse.h"
#include "plugin/loader.h"
#include "result/case_json.h"
#include "run/leftovers.h"
#include "result/result_json.h"
#include "run/runner.h"
#include "suite/suite_time.h"

/* Set r failed or skipped with a formatted reason. */
static int child_verdict(struct result *r, enum result_status st,
			 const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int child_verdict(struct result *r, enum result_status st,
			 const char *fmt, ...)
{
	char line[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	r->status = st;
	free(r->reason);
	r->reason = strdup(line);
	return r->reason ? 0 : -ENOMEM;
}

/* How the helper ended, before any bound it reached, into buf. */
static void helper_ending(const struct helper_out *out,
			  const struct bench_case *c, char *buf, size_t len)
{
	switch (out->end) {
	case HELPER_TIMED_OUT:
		snprintf(buf, len, "timed out after %.0fs",
			 suite_case_timeout(c));
		return;
	case HELPER_SIGNALLED:
		snprintf(buf, len, "crashed: signal %d (%s)", out->code,
			 strsignal(out->code));
		return;
	case HELPER_EXITED:
		snprintf(buf, len, "the case's process exited with status %d",
			 out->code);
		return;
	case HELPER_BOUND:
		snprintf(buf, len, "killed at once");
		return;
	default:
		snprintf(buf, len,
			 "the case's helper process ended without a result");
	}
}

/*
 * The reason of a case stopped at a bound of bytes: "<before><size>
 * <after> (raise <key> to allow more)".
 */
static int size_verdict(struct result *r, const char *before, uint64_t bytes,
			const char *after, const char *key)
{
	char size[32];

	parse_format_size(bytes, size, sizeof(size));
	return child_verdict(r, RESULT_FAILED,
			     "%s%s%s (raise %s to allow more)", before, size,
			     after, key);
}

/*
 * The reason of a case killed for the shared memory the host gained while
 * it ran, where no group bounds its memory (proc/watch.h).
 */
static int shared_verdict(const struct helper_out *out,
			  const struct container_bounds *b, struct result *r)
{
	char took[160];

	snprintf(took, sizeof(took),
		 "out of memory: the case's processes took %lluM of shared "
		 "memory, more than their bound of ",
		 (unsigned long long)(out->shared >> 20));
	return size_verdict(r, took, b->memory, ", and were killed",
			    "memory_limit");
}

/*
 * The reason of a case that reached one of its bounds b: 0 when set, 1
 * when it reached none that explains how it ended, or -ENOMEM.
 */
static int bound_failure(const struct helper_out *out,
			 const struct bench_case *c,
			 const struct container_bounds *b, struct result *r)
{
	char how[160];

	helper_ending(out, c, how, sizeof(how));
	if (out->hits & CONTAINER_HIT_MEMORY)
		return size_verdict(r,
				    "out of memory: the case's processes "
				    "reached their bound of ",
				    b->memory, " and were killed",
				    "memory_limit");
	if (out->hits & CONTAINER_HIT_SHARED)
		return shared_verdict(out, b, r);
	if (out->hits & CONTAINER_HIT_TEMP_SPACE)
		return size_verdict(r,
				    "out of temporary space: the case's "
				    "files took more than its bound of ",
				    b->temp_space,
				    " of the space free in $TMPDIR and it "
				    "was killed",
				    "temp_space_limit");
	if (out->end == HELPER_SIGNALLED && out->code == SIGXFSZ)
		return size_verdict(r,
				    "file too large: the case wrote a file "
				    "past its bound of ",
				    b->file_size, " per file",
				    "file_size_limit");
	if (out->hits & CONTAINER_HIT_PROCESSES)
		return child_verdict(r, RESULT_FAILED,
				     "%s: the case's processes reached their "
				     "bound of %llu processes and threads "
				     "(raise process_limit to allow more)",
				     how, (unsigned long long)b->processes);
	return 1;
}

/* Why the helper ended without a result, as the case's reason. */
static int helper_failure(const struct helper_out *out,
			  const struct bench_case *c,
			  const struct container_bounds *b, struct result *r)
{
	int rc;

	if (out->end == HELPER_INTERRUPTED)
		return child_verdict(r, RESULT_SKIPPED, "interrupted");
	rc = bound_failure(out, c, b, r);

	if (rc <= 0)
		return rc;
	switch (out->end) {
	case HELPER_INTERRUPTED:
	case HELPER_BOUND:
		break;
	case HELPER_TIMED_OUT:
		return child_verdict(r, RESULT_FAILED,
				     "timed out after %.0fs (set timeout = "
				     "%.0fs to allow more)",
				     suite_case_timeout(c),
				     2 * suite_case_timeout(c));
	case HELPER_SIGNALLED:
		return child_verdict(
			r, RESULT_FAILED, "crashed: signal %d (%s)%s",
			out->code, strsignal(out->code),
			c->memory_limit || c->cpu_limit > 0
				? " (the case's memory_limit or cpu_limit may "
				  "have been reached)"
				: "");
	case HELPER_EXITED:
		if (out->code == 0)
			return child_verdict(r, RESULT_FAILED,
					     "the plugin called exit(0) before "
					     "the case ended (plugins must not "
					     "exit)");
		return child_verdict(r, RESULT_FAILED,
				     "the case's process exited with status "
				     "%d",
				     out->code);
	case HELPER_LOST:
		break;
	}
	return child_verdict(r, RESULT_FAILED,
			     "the case's helper process ended without a "
			     "result");
}

/* Turn what the helper sent and how it ended into r. */
static int helper_result(struct helper_out *out, const struct bench_case *c,
			 const struct container_bounds *b, struct result *r)
{
	char err[256];
	json_t *o = NULL;
	int rc = -EINVAL;

	/* a whole result counts however the task then ended, unless it took
	   more temporary space or shared memory than its bound */
	if (out->answer && out->end != HELPER_INTERRUPTED &&
	    !(out->hits & (CONTAINER_HIT_TEMP_SPACE | CONTAINER_HIT_SHARED)))
		o = json_loads(out->answer, 0, NULL);
	if (o)
		rc = result_json_get(o, c->tdesc ? c->tdesc->parts : NULL, r,
				     err, sizeof(err));
	json_decref(o);
	if (rc == -ENOMEM)
		return rc;
	if (rc) {
		result_free(r);
		memset(r, 0, sizeof(*r));
		rc = helper_failure(out, c, b, r);
		if (out->task)
			leftovers_remove(c, out->task);
	} else if (out->outlen) {
		out->out[strcspn(out->out, "\n")] = '\0';
		rc = child_verdict(r, RESULT_FAILED,
				   "the plugin wrote to stdout (plugins must "
				   "not): \"%.60s\"",
				   out->out);
	}
	r->c = c;
	return rc;
}

/*
 * {"path": ..., "case": ...} for the helper, with "turns": {"go": ...,
 * "done": ...} when t is not NULL; or NULL.
 */
static char *case_request(const struct bench_case *c,
			  const struct isolate_turns *t)
{
	json_t *req = json_pack("{s:s, s:o}", "path", c->plugin->path, "case",
				case_json_put(c));
	char *text;

	if (req && c->reference &&
	    json_object_set_new(req, "reference",
				json_string(c->reference->path))) {
		json_decref(req);
		return NULL;
	}
	if (req && t &&
	    json_object_set_new(
		    req, "turns",
		    json_pack("{s:s, s:s}", "go", t->go, "done", t->done))) {
		json_decref(req);
		return NULL;
	}
	text = req ? json_dumps(req, JSON_COMPACT) : NULL;

	json_decref(req);
	return text;
}

/* c in a helper process, taking turns t (or none: NULL). */
static int run_in_helper(const struct bench_case *c,
			 const struct isolate_turns *t,
			 const volatile sig_atomic_t *stop, struct result *r)
{
	unsigned lanes = t && t->lanes ? t->lanes : 1;
	struct container_bounds b = { .memory = c->memory_limit,
				      .processes = c->process_limit,
				      .open_files = c->open_files_limit,
				      .file_size = c->file_size_limit,
				      .temp_space = c->temp_space_limit };
	char *text = case_request(c, t), err[256];
	struct helper_req hr = { .mode = "case",
				 .plugin_fd = c->plugin->fd,
				 .plugin_fd2 =
					 c->reference ? c->reference->fd : 0,
				 .request = text,
				 .timeout = suite_case_timeout(c) * lanes,
				 .stop = stop,
				 .bounds = &b };
	struct helper_out out;
	int rc;

	if (!text)
		return -ENOMEM;
	/* the lanes of an interleaved job run at once: they share the room */
	container_default(&b, lanes, c->parallel);
	fflush(stdout);
	fflush(stderr);
	rc = helper_run(&hr, &out, err, sizeof(err));
	free(text);
	if (rc)
		return rc;
	rc = helper_result(&out, c, &b, r);
	helper_out_free(&out);
	return rc;
}

/* c in this process, with its plugin loaded here (isolate = no). */
static int run_here(const struct bench_case *c,
		    const volatile sig_atomic_t *stop, struct result *r)
{
	char why[512];
	const struct plugin *live = loader_live(c->plugin, why, sizeof(why));
	struct bench_case here = *c;
	int rc;

	if (!live) {
		r->c = c;
		return child_verdict(r, RESULT_FAILED, "%s", why);
	}
	here.plugin = live;
	here.reference = c->reference
				 ? loader_live(c->reference, why, sizeof(why))
				 : NULL;
	here.tdesc = NULL;
	for (const struct hb_target *t = live->desc->targets; t->name; t++)
		if (strcmp(t->group, c->tdesc->group) == 0 &&
		    strcmp(t->name, c->tdesc->name) == 0)
			here.tdesc = t;
	if (!here.tdesc) {
		r->c = c;
		return child_verdict(r, RESULT_FAILED,
				     "the plugin no longer offers %s",
				     c->target);
	}
	rc = runner_run_case(&here, stop, r);
	r->c = c;
	return rc;
}

int isolate_run_case(const struct bench_case *c,
		     const volatile sig_atomic_t *stop, struct result *r)
{
	int rc;

	if (!c->plugin || registry_unusable(c->plugin, c->target))
		rc = runner_run_case(c, stop, r);
	else if (c->isolate)
		rc = run_in_helper(c, NULL, stop, r);
	else
		rc = run_here(c, stop, r);
	/* what the plugin said reaches reports and terminals */
	result_sanitize(r);
	return rc;
}

int isolate_takes_turns(const struct bench_case *c)
{
	return c->plugin && !registry_unusable(c->plugin, c->target) &&
	       c->isolate;
}

int isolate_run_turns(const struct bench_case *c, const struct isolate_turns *t,
		      const volatile sig_atomic_t *stop, struct result *r)
{
	int rc = run_in_helper(c, t, stop, r);

	result_sanitize(r);
	return rc;
}
