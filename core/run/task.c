/* SPDX-License-Identifier: Apache-2.0 */
/* A helper's tasks with plugin code: run one case, or validate cases. */
#define _GNU_SOURCE /* asprintf */
#include "run/task.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <jansson.h>

#include "proc/helper.h"
#include "plugin/loader.h"
#include "result/case_json.h"
#include "run/hostapi.h"
#include "result/result_json.h"
#include "run/runner.h"

/* Never set: the guardian ends the task by killing it. */
static const volatile sig_atomic_t never;

/* The case's CPU limit; the core bounds its memory (proc/container.h). */
static void apply_limits(const struct bench_case *c)
{
	struct rlimit rl;

	if (c->cpu_limit > 0) {
		rl.rlim_cur = (rlim_t)c->cpu_limit + 1;
		rl.rlim_max = rl.rlim_cur + 1;
		setrlimit(RLIMIT_CPU, &rl);
	}
}

/* Load the plugin on fd as p, named req's key in messages. */
static int load_live(const json_t *req, const char *key, int fd,
		     struct plugin *p, char *why, size_t len)
{
	const char *path = json_string_value(json_object_get(req, key));

	memset(p, 0, sizeof(*p));
	p->fd = fd;
	p->path = strdup(path ? path : "plugin");
	if (!p->path)
		return -ENOMEM;
	return loader_open(p, why, len);
}

/* The entry of p's table called target ("group/name"), or NULL. */
static const struct hb_target *live_target(const struct plugin *p,
					   const char *target)
{
	char full[256];

	for (const struct hb_target *t = p->desc->targets; t->name; t++) {
		plugin_target_name(t, full, sizeof(full));
		if (strcmp(full, target) == 0)
			return t;
	}
	return NULL;
}

/* Send JSON o to fd; 0 when it all went. */
static int send_json(int fd, const json_t *o)
{
	char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
	int rc = text ? helper_write(fd, text, strlen(text)) : -1;

	free(text);
	return rc ? 1 : 0;
}

/*
 * The turns of an interleaved job, when req has them ({"turns": {"go":
 * PATH, "done": PATH}}): 1 with t open, 0 without turns, or a negative code
 * with why filled.
 */
static int turns_get(const json_t *req, struct turns *t, char *why, size_t len)
{
	const json_t *o = json_object_get(req, "turns");
	const char *go = json_string_value(json_object_get(o, "go"));
	const char *done = json_string_value(json_object_get(o, "done"));
	int rc;

	t->go = t->done = -1;
	if (!o)
		return 0;
	if (!go || !done)
		return hb_errorf(why, len, -EINVAL,
				 "the turns sent to the helper are malformed");
	rc = turns_open(t, go, done, why, len);
	return rc ? rc : 1;
}

/* Run c with live plugin p (or fail it with why) into r. */
static int run_live(struct bench_case *c, struct plugin *p, int loaded,
		    struct turns *t, const char *why, struct result *r)
{
	if (loaded) {
		c->plugin = p;
		c->tdesc = live_target(p, c->target);
		if (c->tdesc)
			return runner_run_turns(c, t, &never, r);
		why = "the plugin no longer offers this target";
	}
	r->c = c;
	r->status = RESULT_FAILED;
	r->reason = strdup(why);
	return r->reason ? 0 : -ENOMEM;
}

/*
 * A failed case whose process holds every descriptor its bound allows
 * (RLIMIT_NOFILE, the core's open_files_limit or less) failed at that
 * bound, whatever the plugin called it: the reason names the bound, as
 * those of the other bounds do. Left as it is otherwise, or without
 * memory.
 */
static void name_open_files_bound(struct result *r)
{
	struct rlimit rl;
	char *reason;
	int fd = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 0);

	if (fd >= 0)
		close(fd);
	if (r->status != RESULT_FAILED || fd >= 0 || errno != EMFILE ||
	    getrlimit(RLIMIT_NOFILE, &rl))
		return;
	if (asprintf(&reason,
		     "%s: the case's process reached its bound of %llu open "
		     "files (raise open_files_limit to allow more)",
		     r->reason ? r->reason : "failed",
		     (unsigned long long)rl.rlim_cur) < 0)
		return;
	free(r->reason);
	r->reason = reason;
}

int task_case(const char *request, int answer_fd)
{
	json_t *req = json_loads(request, 0, NULL), *o = json_object();
	struct bench_case c = { 0 };
	struct result r = { 0 };
	struct plugin p = { .fd = -1 }, ref = { .fd = -1 };
	struct turns t;
	char why[512] = "cannot load the plugin", rwhy[256];
	int rc = 1, turns;

	if (!o ||
	    case_json_get(json_object_get(req, "case"), &c, why, sizeof(why)))
		goto out;
	turns = turns_get(req, &t, why, sizeof(why));
	if (turns < 0)
		goto out;
	apply_limits(&c);
	rc = load_live(req, "path", HELPER_FD_PLUGIN, &p, why, sizeof(why));
	/* the verifier: a case whose reference cannot load runs unverified */
	if (!rc && json_object_get(req, "reference") &&
	    load_live(req, "reference", HELPER_FD_PLUGIN2, &ref, rwhy,
		      sizeof(rwhy)) == 0)
		c.reference = &ref;
	if (rc == -ENOMEM ||
	    run_live(&c, &p, rc == 0, turns ? &t : NULL, why, &r)) {
		rc = 1;
	} else {
		name_open_files_bound(&r);
		rc = result_json_put(o, &r) ? 1 : send_json(answer_fd, o);
	}
out:
	/* no cleanup: the task exits now, and the plugin stays loaded */
	json_decref(req);
	json_decref(o);
	return rc;
}

/* validate() of live plugin p on case c: {"rc": N, "reason": "..."}. */
static json_t *validate_one(const struct plugin *p, struct bench_case *c)
{
	validate_fn validate = loader_validate_fn(p);
	struct host_ctx ctx = { .bc = c, .r = NULL };
	struct hb_case hc = { .host = &host_api,
			      .target = c->tdesc,
			      .worker = 0,
			      .workers = c->parallel,
			      .core = &ctx };
	char why[512] = "";
	int rc = 0;

	if (validate && c->tdesc) {
		rc = validate(&hc, why, sizeof(why));
		why[sizeof(why) - 1] = '\0'; /* the plugin may not have */
	}
	return json_pack("{s:i, s:s}", "rc", rc, "reason", why);
}

/* {"checks": [...]} for every case of req. */
static json_t *validate_all(const json_t *req, const struct plugin *p)
{
	json_t *checks = json_array(), *one;
	size_t i;

	json_array_foreach(json_object_get(req, "cases"), i, one) {
		struct bench_case c = { 0 };
		char why[256];

		if (case_json_get(one, &c, why, sizeof(why)) == 0) {
			c.plugin = p;
			c.tdesc = live_target(p, c.target);
			json_array_append_new(checks, validate_one(p, &c));
		} else {
			json_array_append_new(checks,
					      json_pack("{s:i, s:s}", "rc", -1,
							"reason", why));
		}
		suite_case_free(&c);
	}
	return json_pack("{s:o}", "checks", checks);
}

int task_validate(const char *request, int answer_fd)
{
	json_t *req = json_loads(request, 0, NULL), *ans;
	struct plugin p;
	char why[512] = "cannot load the plugin";
	int rc;

	if (load_live(req, "path", HELPER_FD_PLUGIN, &p, why, sizeof(why)) == 0)
		ans = validate_all(req, &p);
	else
		ans = json_pack("{s:s}", "refused", why);
	rc = send_json(answer_fd, ans);
	json_decref(ans);
	json_decref(req);
	return rc;
}
