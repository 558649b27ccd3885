/* Plugins check each case's parameters before the suite runs. */
#include "run/precheck.h"

#include <errno.h>

#include "run/hostapi.h"
#include "plugin/registry.h"

/* Validate one case with its plugin's validate slot, if it has one. */
static int precheck_case(const struct suite *s, const struct bench_case *c,
			 char *err, size_t errlen)
{
	validate_fn validate = c->plugin ? plugin_validate_fn(c->plugin) : NULL;
	struct host_ctx ctx = { .bc = c, .r = NULL };
	struct hb_case hc = { .host = &host_api,
			      .target = c->tdesc,
			      .worker = 0,
			      .workers = c->parallel,
			      .core = &ctx };
	const struct job *job = &s->jobs[c->job];
	char why[512] = "";

	if (!validate || registry_unusable(c->plugin, c->target))
		return 0;
	if (validate(&hc, why, sizeof(why)) >= 0)
		return 0;
	return hb_errorf(err, errlen, -EINVAL, "%s:%u: [%s] %s", job->file,
		      job->line, job->label,
		      why[0] ? why : "refused by plugin");
}

int precheck_suite(const struct suite *s, char *err, size_t errlen)
{
	for (size_t i = 0; i < s->ncases; i++) {
		int rc = precheck_case(s, &s->cases[i], err, errlen);

		if (rc)
			return rc;
	}
	return 0;
}
