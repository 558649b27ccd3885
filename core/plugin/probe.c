/* SPDX-License-Identifier: Apache-2.0 */
/* Probe a plugin in a helper process: its side, and the core's. */
#include "plugin/probe.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "proc/helper.h"
#include "base/parse.h"
#include "plugin/loader.h"
#include "plugin/descriptor.h"

double probe_timeout(void)
{
	const char *env = getenv("HOSTBENCH_PROBE_TIMEOUT");
	double secs;

	if (env && parse_duration(env, &secs, NULL, 0) == 0 && secs > 0)
		return secs;
	return PROBE_TIMEOUT;
}

/* {"refused": why} or {"catalog": ...} for live plugin p. */
static json_t *probe_answer(struct plugin *p, int loaded, const char *why)
{
	char put_why[512] = "";
	json_t *catalog =
		loaded ? descriptor_put(p, put_why, sizeof(put_why)) : NULL;

	if (catalog)
		return json_pack("{s:o}", "catalog", catalog);
	return json_pack("{s:s}", "refused",
			 loaded	  ? put_why
			 : why[0] ? why
				  : "refused");
}

int probe_task(const char *request, int answer_fd)
{
	json_t *req = json_loads(request, 0, NULL), *ans;
	const char *path = json_string_value(json_object_get(req, "path"));
	struct plugin p = { .fd = HELPER_FD_PLUGIN };
	char why[512] = "", *text;
	int rc = 1;

	p.path = strdup(path ? path : "plugin");
	if (!p.path)
		goto out;
	ans = probe_answer(&p, loader_open(&p, why, sizeof(why)) == 0, why);
	text = ans ? json_dumps(ans, JSON_COMPACT) : NULL;
	if (text && helper_write(answer_fd, text, strlen(text)) == 0)
		rc = 0;
	free(text);
	json_decref(ans);
out:
	json_decref(req);
	/* the plugin stays loaded: its destructors are not worth a crash */
	return rc;
}

/* The probe's answer as a verdict: the catalog or its own refusal. */
static int read_verdict(const struct helper_out *out, json_t **catalog,
			char *why, size_t len)
{
	json_t *ans = json_loads(out->answer, 0, NULL);
	json_t *cat = json_object_get(ans, "catalog");
	const char *refused =
		json_string_value(json_object_get(ans, "refused"));
	int verdict = PROBE_REFUSED;

	if (json_is_object(cat)) {
		*catalog = json_incref(cat);
		verdict = PROBE_CATALOG;
	} else if (refused) {
		hb_error_fill(why, len, "%s", refused);
	} else {
		hb_error_fill(why, len, "its probe answered garbage");
	}
	json_decref(ans);
	return verdict;
}

int probe_plugin(const struct plugin *p, double timeout, json_t **catalog,
		 char *why, size_t len)
{
	json_t *req = json_pack("{s:s}", "path", p->path);
	char *text = req ? json_dumps(req, JSON_COMPACT) : NULL;
	struct helper_req hr = { .mode = "probe",
				 .plugin_fd = p->fd,
				 .request = text,
				 .timeout = timeout };
	struct helper_out out;
	int rc;

	json_decref(req);
	*catalog = NULL;
	if (!text)
		return -ENOMEM;
	rc = helper_run(&hr, &out, why, len);
	free(text);
	if (rc)
		return rc;
	if (out.answer)
		rc = read_verdict(&out, catalog, why, len);
	else {
		helper_describe_end(&out, timeout, "while loading", why, len);
		rc = out.end == HELPER_TIMED_OUT ||
				     out.end == HELPER_INTERRUPTED
			     ? PROBE_UNSURE
			     : PROBE_REFUSED;
	}
	helper_out_free(&out);
	return rc;
}
