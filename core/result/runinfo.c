/* SPDX-License-Identifier: Apache-2.0 */
/* The identity and times of one run, and its "run" object. */
#include "result/runinfo.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hostbench/plugin.h>

#include "base/jsonw.h"
#include "host/placement.h"
#include "base/sanitize.h"

/* The wall clock now as RFC 3339 text into buf. */
static void now_text(char *buf, size_t len)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	timetext_rfc3339(&ts, buf, len);
}

int runinfo_begin(struct runinfo *ri, const struct strlist *command_line,
		  char *err, size_t errlen)
{
	int rc = uuid_v4(ri->uuid);

	if (rc)
		return hb_errorf(err, errlen, rc, "run uuid: getrandom: %s",
				 strerror(-rc));
	clock_gettime(CLOCK_MONOTONIC, &ri->mono);
	now_text(ri->started, sizeof(ri->started));
	ri->known = 1;
	for (size_t i = 0; command_line && i < command_line->n; i++)
		if (strlist_push(&ri->command_line, command_line->items[i]))
			return hb_errorf(err, errlen, -ENOMEM,
					 "run: out of memory");
	return 0;
}

int runinfo_suites(struct runinfo *ri, const char *const *paths, size_t n)
{
	char why[256];

	ri->suites = calloc(n ? n : 1, sizeof(*ri->suites));
	if (!ri->suites)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct runinfo_suite *s = &ri->suites[ri->nsuites++];

		s->path = strdup(paths[i]);
		if (!s->path)
			return -ENOMEM;
		/* an unreadable file fails the suite's load, said there */
		digest_file_sha256(paths[i], s->sha256, why, sizeof(why));
	}
	return 0;
}

/* The batch system's id of the job, or NULL. */
static const char *job_id(void)
{
	static const char *const vars[] = { "SLURM_JOB_ID",
					    "OMPI_MCA_ess_base_jobid",
					    "OMPI_MCA_orte_ess_jobid",
					    "PMIX_NAMESPACE" };

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		const char *v = getenv(vars[i]);

		if (v && *v)
			return v;
	}
	return NULL;
}

int runinfo_fleet(struct runinfo *ri, int rank, int size)
{
	const char *job = job_id();
	char place[PLACEMENT_LEN];

	if (size <= 1)
		return 0;

	ri->fleet_rank = rank;
	ri->fleet_size = size;
	ri->fleet_job = job ? strdup(job) : NULL;
	if (placement_read(place, sizeof(place)) == 0 &&
	    !(ri->fleet_place = strdup(place)))
		return -ENOMEM;
	return job && !ri->fleet_job ? -ENOMEM : 0;
}

void runinfo_end(struct runinfo *ri)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	now_text(ri->ended, sizeof(ri->ended));
	ri->duration = (double)(now.tv_sec - ri->mono.tv_sec) +
		       (double)(now.tv_nsec - ri->mono.tv_nsec) / 1e9;
}

/* text, or null when it is empty. */
static json_t *text_or_null(const char *text)
{
	return text && text[0] ? jsonw_text(text) : json_null();
}

/* The suites as [{"path", "sha256"}]. */
static json_t *suites_json(const struct runinfo *ri, int *bad)
{
	json_t *a = json_array();

	for (size_t i = 0; i < ri->nsuites; i++) {
		json_t *o = json_object();

		jsonw_set(o, "path", jsonw_text(ri->suites[i].path), bad);
		jsonw_set(o, "sha256", text_or_null(ri->suites[i].sha256), bad);
		jsonw_push(a, o, bad);
	}
	return a;
}

/* {"job", "rank", "size"}, or null outside a fleet. */
static json_t *fleet_json(const struct runinfo *ri, int *bad)
{
	json_t *o;

	if (ri->fleet_size <= 0)
		return json_null();
	o = json_object();
	jsonw_set(o, "job", text_or_null(ri->fleet_job), bad);
	jsonw_set(o, "rank", json_integer(ri->fleet_rank), bad);
	jsonw_set(o, "size", json_integer(ri->fleet_size), bad);
	jsonw_set(o, "placement", text_or_null(ri->fleet_place), bad);
	return o;
}

json_t *runinfo_json(const struct runinfo *ri, int *bad)
{
	json_t *o, *cmd;

	if (!ri || !ri->known)
		return NULL;
	o = json_object();
	cmd = json_array();
	for (size_t i = 0; i < ri->command_line.n; i++)
		jsonw_push(cmd, jsonw_text(ri->command_line.items[i]), bad);
	jsonw_set(o, "uuid", jsonw_text(ri->uuid), bad);
	jsonw_set(o, "started", text_or_null(ri->started), bad);
	jsonw_set(o, "ended", text_or_null(ri->ended), bad);
	jsonw_set(o, "duration", jsonw_number(ri->duration), bad);
	jsonw_set(o, "command_line", cmd, bad);
	jsonw_set(o, "suites", suites_json(ri, bad), bad);
	jsonw_set(o, "label", text_or_null(ri->label), bad);
	jsonw_set(o, "fleet", fleet_json(ri, bad), bad);
	return o;
}

/* o[key] as text into buf (len bytes), "" when absent. */
static void text_into(const json_t *o, const char *key, char *buf, size_t len)
{
	const char *s = json_string_value(json_object_get(o, key));

	snprintf(buf, len, "%s", s ? s : "");
}

/* A copy of o[key] as text of at most max bytes, NULL when absent, cut
   before a UTF-8 sequence the cut would split (a report from elsewhere
   bounds no text); *bad on a failed copy. */
static char *text_bounded(const json_t *o, const char *key, size_t max,
			  int *bad)
{
	const char *s = json_string_value(json_object_get(o, key));
	char *copy;

	if (!s)
		return NULL;
	copy = strndup(s, sanitize_cut_len(s, max));
	if (!copy)
		*bad = 1;
	return copy;
}

/* A copy of o[key] as text, NULL when absent; *bad on a failed copy. */
static char *text_copy(const json_t *o, const char *key, int *bad)
{
	return text_bounded(o, key, PTRDIFF_MAX - 1, bad);
}

/* The "suites" array of o. */
static int suites_from_json(struct runinfo *ri, const json_t *o, int *bad)
{
	const json_t *a = json_object_get(o, "suites");
	size_t i;
	json_t *s;

	ri->suites = calloc(json_array_size(a) + 1, sizeof(*ri->suites));
	if (!ri->suites)
		return -ENOMEM;
	json_array_foreach(a, i, s) {
		struct runinfo_suite *rs = &ri->suites[ri->nsuites++];

		rs->path = text_copy(s, "path", bad);
		text_into(s, "sha256", rs->sha256, sizeof(rs->sha256));
	}
	return *bad ? -ENOMEM : 0;
}

int runinfo_from_json(struct runinfo *ri, const json_t *o)
{
	const json_t *fleet = json_object_get(o, "fleet");
	const json_t *cmd = json_object_get(o, "command_line");
	int bad = 0;
	size_t i;
	json_t *w;

	if (!json_is_object(o))
		return 0;
	ri->known = 1;
	text_into(o, "uuid", ri->uuid, sizeof(ri->uuid));
	text_into(o, "started", ri->started, sizeof(ri->started));
	text_into(o, "ended", ri->ended, sizeof(ri->ended));
	ri->duration = json_number_value(json_object_get(o, "duration"));
	json_array_foreach(cmd, i, w) {
		if (json_is_string(w) &&
		    strlist_push(&ri->command_line, json_string_value(w)))
			bad = 1;
	}
	ri->label = text_bounded(o, "label", RUNINFO_LABEL_MAX, &bad);
	if (json_is_object(fleet)) {
		ri->fleet_job = text_copy(fleet, "job", &bad);
		ri->fleet_rank =
			(int)json_integer_value(json_object_get(fleet, "rank"));
		ri->fleet_size =
			(int)json_integer_value(json_object_get(fleet, "size"));
		ri->fleet_place = text_copy(fleet, "placement", &bad);
	}
	return bad ? -ENOMEM : suites_from_json(ri, o, &bad);
}

void runinfo_free(struct runinfo *ri)
{
	strlist_free(&ri->command_line);
	for (size_t i = 0; i < ri->nsuites; i++)
		free(ri->suites[i].path);
	free(ri->suites);
	free(ri->label);
	free(ri->fleet_job);
	free(ri->fleet_place);
	memset(ri, 0, sizeof(*ri));
}
