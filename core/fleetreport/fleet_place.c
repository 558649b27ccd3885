/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Where a fleet ran: the batch job's id (Slurm's, or the MPI launcher's)
 * and the nodes with the ranks each held, for every report. No MPI here.
 */
#define _GNU_SOURCE /* qsort_r */
#include "fleetreport/fleetreport.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "render/table.h"
#include "result/runinfo.h"

json_t *fleet_job_json(const struct report *own)
{
	return own->run && own->run->fleet_job ? jsonw_text(own->run->fleet_job)
					       : json_null();
}

/* Rank a before rank b: by host, then by rank. */
static int by_host(const void *a, const void *b, void *arg)
{
	const struct fleet *f = arg;
	int ra = *(const int *)a, rb = *(const int *)b;
	int c = strcmp(f->st->ranks[ra].host, f->st->ranks[rb].host);

	return c ? c : (ra > rb) - (ra < rb);
}

int fleet_nodes(const struct fleet *f, int **order)
{
	int n = 0;

	*order = malloc((size_t)f->size * sizeof(**order));
	if (!*order)
		return -ENOMEM;
	for (int r = 0; r < f->size; r++)
		(*order)[r] = r;
	qsort_r(*order, (size_t)f->size, sizeof(**order), by_host, (void *)f);
	for (int k = 0; k < f->size; k++)
		n += !k || strcmp(f->st->ranks[(*order)[k]].host,
				  f->st->ranks[(*order)[k - 1]].host) != 0;
	return n;
}

/* Nonzero when order[k] starts another node than order[k - 1]. */
static int node_starts(const struct fleet *f, const int *order, int k)
{
	return !k || strcmp(f->st->ranks[order[k]].host,
			    f->st->ranks[order[k - 1]].host) != 0;
}

json_t *fleet_nodes_json(const struct fleet *f, int *bad)
{
	json_t *nodes = json_array(), *node = NULL, *ranks = NULL;
	int *order = NULL;

	if (fleet_nodes(f, &order) < 0) {
		*bad = 1;
		return nodes;
	}
	for (int k = 0; k < f->size; k++) {
		if (node_starts(f, order, k)) {
			node = json_object();
			ranks = json_array();
			jsonw_set(node, "host",
				  jsonw_text(f->st->ranks[order[k]].host), bad);
			jsonw_set(node, "ranks", ranks, bad);
			jsonw_push(nodes, node, bad);
		}
		jsonw_push(ranks, json_integer(order[k]), bad);
	}
	free(order);
	return nodes;
}

/* The ranks of the node starting at order[k], as "0-3, 8", to out. */
static int put_ranks(const struct fleet *f, const int *order, int k, FILE *out)
{
	int first = k;

	while (k < f->size && (k == first || !node_starts(f, order, k))) {
		int run = k;

		while (run + 1 < f->size && !node_starts(f, order, run + 1) &&
		       order[run + 1] == order[run] + 1)
			run++;
		fprintf(out, "%s%d", k == first ? "" : ", ", order[k]);
		if (run > k)
			fprintf(out, "-%d", order[run]);
		k = run + 1;
	}
	return k;
}

int fleet_place_write(const struct fleet *f, const struct report *own, int md,
		      FILE *out)
{
	const char *job = own->run ? own->run->fleet_job : NULL;
	int *order = NULL, n = fleet_nodes(f, &order);

	if (n < 0)
		return n;
	fputs(md ? "- Job: " : "  Job   : ", out);
	fputs(job ? job : "unknown (no SLURM_JOB_ID, no MPI job id)", out);
	fprintf(out, "\n%s%d node%s", md ? "- Nodes: " : "  Nodes : ", n,
		n == 1 ? "" : "s");
	for (int k = 0; k < f->size && n <= FLEET_WIDE;) {
		fputs(k ? "; " : ": ", out);
		if (md)
			table_md_text(out, f->st->ranks[order[k]].host);
		else
			fputs(f->st->ranks[order[k]].host, out);
		fputs(" (ranks ", out);
		k = put_ranks(f, order, k, out);
		fputc(')', out);
	}
	if (n > FLEET_WIDE)
		fputs(" (each rank's node: the table of hosts below)", out);
	fputs("\n\n", out);
	free(order);
	return 0;
}
