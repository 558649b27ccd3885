/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compare against the history of the store: two runs, one a side, cannot
 * tell a host that moves between runs from a change of build; the earlier
 * runs of the same host and context in the store can (history/spread.h).
 */
#include "app/compare_history.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "compare/match.h"
#include "history/spread.h"
#include "history/view.h"
#include "store/store.h"

/* The row of cmp series s is the case of, NULL when none. */
static struct cmp_row *row_of(struct comparison *cmp, const json_t *s)
{
	const json_t *c = json_object_get(s, "case");
	const char *figure = view_str(s, "figure");
	struct doc_result d = {
		.job = view_str(c, "job"),
		.target = view_str(c, "target"),
		.backend = view_str(c, "backend"),
		.params = json_object_get(c, "params"),
	};
	int ops = figure && strcmp(figure, "ops_rate") == 0;

	if (!d.job || !d.target || !d.backend)
		return NULL;
	for (size_t i = 0; i < cmp->nrows; i++) {
		struct cmp_row *row = &cmp->rows[i];

		if (row->base && row->new &&
		    !row->history_runs &&ops ==
			    (strcmp(row->base->unit, "ops/s") == 0) &&
		    match_case(&d, row->base, NULL))
			return row;
	}
	return NULL;
}

/* Judge the rows of cmp by the series of doc, read from where. */
static void judge_rows(struct comparison *cmp, const json_t *doc,
		       const char *where)
{
	const char *b = cmp->base->run.uuid, *n = cmp->new->run.uuid;
	struct history_spread sp;
	struct cmp_row *row;
	size_t i;
	json_t *s;

	json_array_foreach(json_object_get(doc, "series"), i, s) {
		row = row_of(cmp, s);
		if (row && row->verdict != CMP_NOT_OK &&
		    history_spread(s, b, n, row->judged == RESULT_FIGURE_CPU,
				   &sp))
			compare_history(cmp, row, where, sp.runs, sp.floor);
	}
}

void compare_history_apply(const struct cli *cli, struct comparison *cmp)
{
	struct store_query q = { .host = cmp->base->sys.hostname };
	const char *b = cmp->base->run.uuid, *n = cmp->new->run.uuid;
	struct store *st = NULL;
	json_t *doc = NULL;
	char err[1024];

	/* a fleet's ranks on one node are one host in the store */
	if (cli->no_store || store_off(cli->store) || !*b || !*n ||
	    strcmp(b, n) == 0 || !q.host || cmp->base->run.fleet_size ||
	    cmp->new->run.fleet_size || !store_exists(cli->store))
		return;
	if (store_open(&st, cli->store, NULL, err, sizeof(err)) ||
	    store_history(st, &q, &doc, err, sizeof(err)))
		fprintf(stderr, "hostbench: compare: no history: %s\n", err);
	else
		judge_rows(cmp, doc, store_where(st));
	json_decref(doc);
	store_close(st);
}
