/* SPDX-License-Identifier: Apache-2.0 */
/*
 * hyperfine --export-json (docs/interop.md): each command (and its
 * --parameter-scan values) a case, its wall time per run (the samples,
 * "times"; else its median, else its mean), user and system time. A
 * command that exited non-zero in a run (hyperfine -i) is a failed case:
 * its times are a failure's.
 */
#include "import/import_formats.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"

static int hyperfine_sniff(const char *text, size_t len)
{
	return import_has(text, len, "\"results\"") &&
	       import_has(text, len, "\"command\"") &&
	       (import_has(text, len, "\"times\"") ||
		import_has(text, len, "\"mean\""));
}

static const struct import_figure wall = { "time", "s", 1 };
static const struct import_figure user = { "user", "s", 1 };
static const struct import_figure sys = { "system", "s", 1 };

/* The runs of r that exited non-zero, and the first such status. */
static size_t failures(const json_t *r, json_int_t *status)
{
	const json_t *c;
	size_t i, n = 0;

	json_array_foreach(json_object_get(r, "exit_codes"), i, c) {
		if (!json_is_integer(c) || json_integer_value(c) == 0)
			continue;
		if (!n)
			*status = json_integer_value(c);
		n++;
	}
	return n;
}

/* The wall times of r: its "times", NULL (*n 0) without them. */
static double *times_of(const json_t *r, size_t *n, char *err, size_t errlen,
			size_t k, int *rc)
{
	const json_t *a = json_object_get(r, "times"), *t;
	double *v = malloc((json_array_size(a) + 1) * sizeof(*v));
	size_t i;

	*n = 0;
	*rc = v ? 0 : hb_errorf(err, errlen, -ENOMEM, "out of memory");
	json_array_foreach(a, i, t) {
		if (!v)
			break;
		if (!json_is_number(t)) {
			*rc = hb_errorf(err, errlen, -EINVAL,
					"results[%zu].times[%zu]: not a number",
					k, i);
			break;
		}
		v[(*n)++] = json_number_value(t);
	}
	return v;
}

/* results[k]: one command. */
static int command_read(struct import_run *run, const json_t *r, size_t k,
			char *err, size_t errlen)
{
	const char *cmd = json_string_value(json_object_get(r, "command"));
	const json_t *scan = json_object_get(r, "parameters");
	json_t *params =
		json_is_object(scan) ? json_deep_copy(scan) : json_object();
	struct import_case c = { .job = cmd,
				 .title = cmd,
				 .target = "hyperfine/command",
				 .backend = "hyperfine",
				 .params = params };
	json_int_t status = 0;
	size_t n = 0, bad = failures(r, &status);
	char reason[128];
	double *t = NULL, v;
	int rc = 0;

	if (!cmd || !json_is_object(r))
		rc = hb_errorf(err, errlen, -EINVAL,
			       "results[%zu]: no \"command\"", k);
	else if (!params)
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	else
		t = times_of(r, &n, err, errlen, k, &rc);
	v = isfinite(import_num(r, "median")) ? import_num(r, "median")
					      : import_num(r, "mean");
	if (!rc && !n && !isfinite(v))
		rc = hb_errorf(err, errlen, -EINVAL,
			       "results[%zu]: no \"times\", \"median\" nor "
			       "\"mean\"",
			       k);
	if (!rc && bad) {
		snprintf(reason, sizeof(reason),
			 "exited %lld in %zu of %zu runs", (long long)status,
			 bad,
			 json_array_size(json_object_get(r, "exit_codes")));
		import_failed(run, &c, &wall, reason);
	} else if (!rc) {
		import_figure(run, &c, &wall, n ? NAN : v, t, n);
		import_figure(run, &c, &user, import_num(r, "user"), NULL, 0);
		import_figure(run, &c, &sys, import_num(r, "system"), NULL, 0);
	}
	free(t);
	json_decref(params);
	return rc;
}

static int hyperfine_read(const struct import_in *in, struct import_out *out,
			  char *err, size_t errlen)
{
	struct import_run run;
	const json_t *all;
	json_t *root;
	size_t after;
	int rc = import_json(in->text, in->len, NULL, &root, &after, err,
			     errlen);

	if (rc)
		return rc;
	all = json_object_get(root, "results");
	if (!json_is_array(all) || !json_array_size(all))
		rc = hb_errorf(err, errlen, -EINVAL,
			       "no command in a \"results\" array");
	if (!rc)
		rc = import_run_new(&run, in, out, "hyperfine", NULL, NULL);
	for (size_t k = 0; !rc && k < json_array_size(all); k++)
		rc = command_read(&run, json_array_get(all, k), k, err, errlen);
	if (!rc && run.bad)
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	json_decref(root);
	return rc;
}

const struct import_format import_hyperfine = {
	.name = "hyperfine",
	.summary = "hyperfine --export-json",
	.sniff = hyperfine_sniff,
	.read = hyperfine_read,
};
