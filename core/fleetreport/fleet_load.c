/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A fleet report read back from its JSON (`hostbench report fleet.json`):
 * each host's report and results as rank 0 had them, so every format is
 * written again without another run. No MPI here.
 */
#include "fleetreport/fleetreport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "compare/report_read.h"

/* Rank k's report of the fleet report into fs->docs[k]. */
static int read_host(struct fleet_saved *fs, const char *path, size_t k,
		     char *err, size_t errlen)
{
	const json_t *h = json_array_get(
		json_object_get(json_object_get(fs->root, "fleet"), "hosts"),
		k);
	json_t *one;
	char *text;
	int rc;

	if (json_integer_value(json_object_get(h, "rank")) != (json_int_t)k)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s: fleet.hosts[%zu] is not rank %zu", path,
				 k, k);
	one = report_read_fleet_host(fs->root, h);
	text = one ? json_dumps(one, JSON_COMPACT) : NULL;
	json_decref(one);
	if (!text)
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	rc = report_read_text(&fs->docs[k], path, text, strlen(text), err,
			      errlen);
	free(text);
	return rc;
}

/* When rank r ran each case (its own clock, as rank 0 received it). */
static void read_spans(const json_t *root, int r, struct fleet_rank *fr,
		       size_t n)
{
	const json_t *all = json_object_get(root, "results");
	size_t k = 0;

	for (size_t i = 0; i < json_array_size(all) && k < n; i++) {
		const json_t *res = json_array_get(all, i);

		if (json_integer_value(json_object_get(res, "rank")) != r)
			continue;
		if (json_is_number(json_object_get(res, "start"))) {
			fr->at[k].start =
				fr->offset + json_number_value(json_object_get(
						     res, "start"));
			fr->at[k].end =
				fr->offset +
				json_number_value(json_object_get(res, "end"));
		}
		k++;
	}
}

/* What rank 0 knew of rank r, from fleet.hosts[r] and its report. */
static int take_rank(struct fleet_saved *fs, int r, const char *path, char *err,
		     size_t errlen)
{
	const json_t *h = json_array_get(
		json_object_get(json_object_get(fs->root, "fleet"), "hosts"),
		(size_t)r);
	const char *host = json_string_value(json_object_get(h, "host"));
	const char *why = json_string_value(json_object_get(h, "reason"));
	const struct doc_report *d = &fs->docs[r];
	struct fleet_rank *fr = &fs->fleet.st->ranks[r];
	size_t n = fs->own.suite.ncases;

	if (d->nresults != n)
		return hb_errorf(err, errlen, -EINVAL,
				 "%s: rank %d has %zu results, rank 0 %zu",
				 path, r, d->nresults, n);
	snprintf(fr->host, sizeof(fr->host), "%s", host ? host : "unknown");
	fr->lost = json_is_string(json_object_get(h, "status")) &&
		   strcmp(json_string_value(json_object_get(h, "status")),
			  "lost") == 0;
	fr->lost_why = why ? strdup(why) : NULL;
	fr->context = json_incref(d->root);
	fr->offset = json_number_value(json_object_get(h, "clock_offset"));
	fr->rtt = json_is_number(json_object_get(h, "clock_rtt"))
			  ? json_number_value(json_object_get(h, "clock_rtt"))
			  : -1;
	fr->res = calloc(n + 1, sizeof(*fr->res));
	fr->at = calloc(n + 1, sizeof(*fr->at));
	if (!fr->res || !fr->at || (why && !fr->lost_why))
		return hb_errorf(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < n; i++) {
		fr->res[i] = d->results[i].res; /* d owns what it points to */
		fr->res[i].c = &fs->own.suite.cases[i];
		fr->failed |= fr->res[i].status == RESULT_FAILED;
	}
	read_spans(fs->root, r, fr, n);
	return 0;
}

/*
 * The parsed fleet report at path, sanitized and bounded as every report
 * read, or NULL when it is none (report_read() then says why, of a file
 * that cannot be read or is no regular file: a FIFO never blocks here).
 */
static json_t *fleet_root(const char *path)
{
	char *text = NULL, why[256];
	size_t len = 0;
	json_t *root = NULL;

	if (report_read_file(path, &text, &len, NULL, why, sizeof(why)) == 0)
		root = json_loadb(text, len, 0, NULL);
	free(text);
	if (json_is_array(
		    json_object_get(json_object_get(root, "fleet"), "hosts")) &&
	    json_array_size(
		    json_object_get(json_object_get(root, "fleet"), "hosts")) &&
	    report_read_clean(root, NULL) == 0)
		return root;
	json_decref(root);
	return NULL;
}

int fleet_saved_read(struct fleet_saved *fs, const char *path, char *err,
		     size_t errlen)
{
	size_t n;
	int rc = 0;

	memset(fs, 0, sizeof(*fs));
	fs->root = fleet_root(path);
	if (!fs->root)
		return -ENOTSUP;
	n = json_array_size(
		json_object_get(json_object_get(fs->root, "fleet"), "hosts"));
	fs->fleet = (struct fleet){ .size = (int)n };
	fs->docs = calloc(n, sizeof(*fs->docs));
	fs->fleet.st = calloc(1, sizeof(*fs->fleet.st));
	if (fs->fleet.st)
		fs->fleet.st->ranks = calloc(n, sizeof(*fs->fleet.st->ranks));
	if (!fs->docs || !fs->fleet.st || !fs->fleet.st->ranks)
		rc = hb_errorf(err, errlen, -ENOMEM, "out of memory");
	for (size_t k = 0; !rc && k < n; k++)
		rc = read_host(fs, path, k, err, errlen);
	if (!rc)
		rc = report_doc_build(&fs->own, fs->docs, 1, err, errlen);
	if (!rc)
		fs->fleet.st->suite = &fs->own.suite;
	for (size_t k = 0; !rc && k < n; k++)
		rc = take_rank(fs, (int)k, path, err, errlen);
	if (rc)
		fleet_saved_free(fs);
	return rc;
}

void fleet_saved_free(struct fleet_saved *fs)
{
	size_t n = (size_t)fs->fleet.size;

	for (size_t k = 0; fs->fleet.st && fs->fleet.st->ranks && k < n; k++) {
		struct fleet_rank *fr = &fs->fleet.st->ranks[k];

		free(fr->res); /* shallow: the documents own the results */
		free(fr->at);
		free(fr->lost_why);
		json_decref(fr->context);
	}
	if (fs->fleet.st)
		free(fs->fleet.st->ranks);
	free(fs->fleet.st);
	report_doc_free(&fs->own);
	for (size_t k = 0; fs->docs && k < n; k++)
		report_read_free(&fs->docs[k]);
	free(fs->docs);
	json_decref(fs->root);
	memset(fs, 0, sizeof(*fs));
}
