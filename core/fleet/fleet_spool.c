/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Each rank's results as rank 0 takes them in: a result message read into
 * a result, kept whole or spooled to a file with only its figures in
 * memory, and a report's context as JSON text. No MPI here.
 */
#define _GNU_SOURCE /* asprintf, open_memstream */
#include "fleet/fleet_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/jsonw.h"
#include "compare/report_read.h"
#include "report/report.h"
#include "result/result_json.h"

/* r's report as JSON text into *text (the caller frees it). */
static int doc_text(const struct report *r, char **text)
{
	char err[256];
	size_t len = 0;
	FILE *m = open_memstream(text, &len);
	int rc;

	if (!m)
		return -ENOMEM;
	rc = report_write(REPORT_JSON, r, m, err, sizeof(err));
	if (fclose(m) && !rc)
		rc = -ENOMEM;
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

int fleet_context_text(const struct report *ctx, char **text)
{
	return doc_text(ctx, text);
}

void fleet_result_take(const struct bench_case *c, size_t i, const char *text,
		       struct result *res, struct fleet_span *at)
{
	const char *const *parts = c->tdesc ? c->tdesc->parts : NULL;
	char why[256] = "not JSON";
	json_error_t jerr;
	json_t *doc = json_loads(text, 0, &jerr);
	json_t *jc = doc ? json_object_get(doc, "case") : NULL;

	result_free(res);
	memset(res, 0, sizeof(*res));
	if (!json_is_integer(jc) || (size_t)json_integer_value(jc) != i)
		snprintf(why, sizeof(why), "a result for another case");
	else if (!result_json_get(json_object_get(doc, "result"), parts, res,
				  why, sizeof(why)))
		why[0] = '\0';
	at->start = json_number_value(json_object_get(doc, "start"));
	at->end = json_number_value(json_object_get(doc, "end"));
	json_decref(doc);
	res->c = c;
	if (why[0]) {
		result_free(res);
		memset(res, 0, sizeof(*res));
		res->c = c;
		res->status = RESULT_FAILED;
		if (asprintf(&res->reason,
			     "rank 0 cannot read what this rank sent: %s",
			     why) < 0)
			res->reason = NULL;
	}
}

void fleet_spool(struct fleet *f, int r, size_t i, const char *text)
{
	struct fleet_state *st = f->st;
	struct fleet_rank *fr = &st->ranks[r];
	struct result *res = &fr->res[i], slim;
	size_t len = strlen(text);
	long at;

	if (!st->spool)
		st->spool = tmpfile();
	if (!fr->spooled)
		fr->spooled =
			calloc(st->suite->ncases + 1, sizeof(*fr->spooled));
	if (!st->spool || !fr->spooled || res->status == RESULT_FAILED ||
	    fseek(st->spool, 0, SEEK_END) || (at = ftell(st->spool)) < 0 ||
	    fwrite(text, 1, len, st->spool) != len)
		return; /* the whole result stays */
	fr->spooled[i] = (struct fleet_spooled){ .at = at, .len = len };
	/* what the spread and the tables read; the rest is in the spool */
	slim = (struct result){ .c = res->c,
				.status = res->status,
				.reason = res->reason,
				.rate = res->rate,
				.ops_rate = res->ops_rate,
				.noisy = res->noisy,
				.starved = res->starved };
	res->reason = NULL;
	/* a failed pair of an ok case: the spread's notes name it */
	for (size_t k = 0; k < res->warnings.n; k++)
		if (fleet_pair_warning(res->warnings.items[k]) &&
		    strlist_push(&slim.warnings, res->warnings.items[k]))
			break;
	result_free(res);
	*res = slim;
}
