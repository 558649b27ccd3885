/* SPDX-License-Identifier: Apache-2.0 */
/* A journal read as a report: its lines as results, its run. */
#include "compare/journal_doc.h"

#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/timetext.h"
#include "result/case_json.h"

int journal_doc_is_line(const json_t *o)
{
	return json_is_object(o) && json_is_string(json_object_get(o, "key")) &&
	       !json_object_get(o, "schema_version");
}

/* o[key] as the case c says it, unless o says it itself. */
static void from_case(json_t *o, const json_t *c, const char *key, int *bad)
{
	json_t *v = json_object_get(c, key);

	if (!json_object_get(o, key) && v)
		jsonw_set(o, key, json_copy(v), bad);
}

/*
 * The repetitions and warm-up samples of result o of case c, as the
 * report says them: sampling to a precision, the samples it took; an
 * automatic warm-up, the samples it dropped.
 */
static void counts_from_case(json_t *o, const json_t *c, int *bad)
{
	json_int_t reps = json_integer_value(json_object_get(c, "repetitions"));
	json_int_t warmup = json_integer_value(json_object_get(c, "warmup"));

	if (json_number_value(json_object_get(c, "precision")) > 0)
		reps = (json_int_t)json_array_size(
			json_object_get(o, "samples"));
	if (json_is_true(json_object_get(c, "warmup_auto")))
		warmup = json_integer_value(
			json_object_get(o, "warmup_samples"));
	if (!json_object_get(o, "repetitions"))
		jsonw_set(o, "repetitions", json_integer(reps), bad);
	if (!json_object_get(o, "warmup"))
		jsonw_set(o, "warmup", json_integer(warmup), bad);
}

/* Journal line o as a report's result (new reference), NULL if no memory. */
static json_t *result_of(const json_t *line)
{
	const json_t *c = json_object_get(line, "case");
	json_t *o = json_copy((json_t *)line);
	int bad = !o;

	if (bad)
		return NULL;
	json_object_del(o, "key");
	json_object_del(o, "journaled");
	json_object_del(o, "run");
	if (!json_object_get(o, "params"))
		jsonw_set(o, "params", c ? case_json_params(c) : json_object(),
			  &bad);
	from_case(o, c, "section", &bad);
	from_case(o, c, "backend_chosen", &bad);
	from_case(o, c, "unit", &bad);
	from_case(o, c, "duration", &bad);
	if (c)
		counts_from_case(o, c, &bad);
	if (bad) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The run a line names into *run (the last one wins). */
static void run_of(const json_t *line, json_t **run)
{
	json_t *r = json_object_get(line, "run");

	if (!json_is_object(r))
		return;
	json_decref(*run);
	*run = json_copy(r);
}

/* The run as it ended: when its last line was written (ended). */
static void run_ended(json_t *run, const char *ended, int *bad)
{
	if (run && ended[0] &&
	    !json_string_value(json_object_get(run, "ended")))
		jsonw_set(run, "ended", json_string(ended), bad);
}

/* Nonzero when the n bytes at line are blanks only. */
static int blank(const char *line, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr(" \t\r", line[i]) || !line[i])
			return 0;
	return 1;
}

/*
 * One line of a journal: a result into results, a run into *run, its time
 * into ended (TIMETEXT_LEN bytes). Returns 0, or 1 when out of memory.
 */
static int line_of(const char *line, size_t n, json_t *results, json_t **run,
		   char *ended, int *torn)
{
	json_t *o = json_loadb(line, n, 0, NULL);
	const char *when = json_string_value(json_object_get(o, "journaled"));
	int rc = 0;

	if (!o && !blank(line, n))
		++*torn; /* cut off: the run died writing it */
	if (journal_doc_is_line(o)) {
		json_t *r = result_of(o);

		rc = !r || json_array_append_new(results, r);
		run_of(o, run);
		if (when)
			snprintf(ended, TIMETEXT_LEN, "%s", when);
	}
	json_decref(o);
	return rc;
}

json_t *journal_doc_root(const char *text, size_t len, int *torn)
{
	json_t *results = json_array(), *run = NULL, *root = NULL;
	const char *end = text + len;
	char ended[TIMETEXT_LEN] = "";
	int bad = !results;

	*torn = 0;
	for (const char *line = text; !bad && line < end;) {
		const char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);

		bad = line_of(line, n, results, &run, ended, torn);
		line += n + 1;
	}
	run_ended(run, ended, &bad);
	if (!bad && json_array_size(results))
		root = json_pack("{s:i, s:{}, s:O, s:o*}", "schema_version", 1,
				 "hostbench", "results", results, "run", run);
	else
		json_decref(run);
	json_decref(results);
	return root;
}
