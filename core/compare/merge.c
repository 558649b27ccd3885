/* SPDX-License-Identifier: Apache-2.0 */
/* Merging reports into one table of hosts by cases, and writing it. */
#include "compare/merge.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/jsonw.h"
#include "base/units.h"
#include "compare/match.h"
#include "compare/report_doc.h"
#include "report/charts.h"
#include "render/html.h"
#include "report/report.h"
#include "render/table.h"
#include "result/result_json.h"

/*
 * Set *row to the row of the case of r, or NULL; rows holds the row
 * numbers under the key of the result that made each row (the first a row
 * gets: docs are taken in order). Returns 0 or -ENOMEM.
 */
static int row_of(struct merge *m, const struct match_index *rows,
		  const struct doc_result *r, struct merge_row **row)
{
	const json_t *candidates, *i;
	size_t k;

	*row = NULL;
	if (match_index_get(rows, r, &candidates))
		return -ENOMEM;
	json_array_foreach(candidates, k, i) {
		struct merge_row *c = &m->rows[json_integer_value(i)];
		const struct doc_result *any = NULL;

		for (size_t d = 0; d < m->ndocs && !any; d++)
			any = c->cells[d].res;
		if (any && match_case(any, r, NULL)) {
			*row = c;
			break;
		}
	}
	return 0;
}

/* A new empty row. */
static struct merge_row *row_add(struct merge *m)
{
	struct merge_row *row;

	if (array_grow((void **)&m->rows, m->nrows, &m->rows_cap,
		       sizeof(*m->rows)))
		return NULL;
	row = &m->rows[m->nrows];
	row->cells = calloc(m->ndocs + 1, sizeof(*row->cells));
	if (!row->cells)
		return NULL;
	m->nrows++;
	return row;
}

/* The column labels: host names, or file names when a host repeats. */
static int labels_make(struct merge *m)
{
	int repeat = 0;

	for (size_t i = 0; i < m->ndocs; i++)
		for (size_t j = i + 1; j < m->ndocs; j++)
			repeat |= strcmp(m->docs[i].sys.hostname,
					 m->docs[j].sys.hostname) == 0;
	m->labels = calloc(m->ndocs + 1, sizeof(*m->labels));
	if (!m->labels)
		return -ENOMEM;
	for (size_t i = 0; i < m->ndocs; i++) {
		const char *slash = strrchr(m->docs[i].path, '/');
		const char *host = m->docs[i].sys.hostname;

		m->labels[i] =
			strdup(repeat || !host[0]
				       ? (slash ? slash + 1 : m->docs[i].path)
				       : host);
		if (!m->labels[i])
			return -ENOMEM;
	}
	return 0;
}

int merge_build(struct merge *m, const struct doc_report *docs, size_t n,
		char *err, size_t errlen)
{
	struct match_index rows = { 0 };

	memset(m, 0, sizeof(*m));
	m->docs = docs;
	m->ndocs = n;
	if (labels_make(m) || match_index_init(&rows, NULL))
		goto fail;
	for (size_t d = 0; d < n; d++)
		for (size_t i = 0; i < docs[d].nresults; i++) {
			const struct doc_result *r = &docs[d].results[i];
			struct merge_row *row;

			if (row_of(m, &rows, r, &row))
				goto fail;
			if (!row && (match_index_add(&rows, r, m->nrows) ||
				     !(row = row_add(m))))
				goto fail;
			/* a case twice in one file: the first one counts */
			if (!row->cells[d].res)
				row->cells[d].res = r;
		}
	match_index_free(&rows);
	return 0;

fail:
	match_index_free(&rows);
	merge_free(m);
	return hb_errorf(err, errlen, -ENOMEM, "merge: out of memory");
}

void merge_free(struct merge *m)
{
	for (size_t i = 0; m->labels && i < m->ndocs; i++)
		free(m->labels[i]);
	free(m->labels);
	for (size_t i = 0; i < m->nrows; i++)
		free(m->rows[i].cells);
	free(m->rows);
	memset(m, 0, sizeof(*m));
}

/* The first result of a row, for its job, title and unit. */
static const struct doc_result *row_any(const struct merge *m,
					const struct merge_row *row)
{
	for (size_t d = 0; d < m->ndocs; d++)
		if (row->cells[d].res)
			return row->cells[d].res;
	return NULL;
}

/* The unit a row is shown in: its first report's. */
static const char *row_unit(const struct merge *m, const struct merge_row *row)
{
	const char *u = row_any(m, row)->unit;

	return u[0] ? u : "Gbps";
}

/* The median of d in unit. */
static double value_in(const struct doc_result *d, const char *unit)
{
	return unit_scale(unit, d->res.rate.median, d->res.ops_rate.median);
}

/* The table of cases: a row per case, a column per report. */
static int cases_table(const struct merge *m, struct table *t)
{
	char text[REPORT_LINE];
	int err = table_init(t, 1 + m->nrows, 1 + m->ndocs);

	if (!err)
		err = table_set(t, 0, 0, "Case");
	for (size_t d = 0; d < m->ndocs && !err; d++)
		err = table_set(t, 0, 1 + d, m->labels[d]);
	for (size_t i = 0; i < m->nrows && !err; i++) {
		const struct merge_row *row = &m->rows[i];
		const struct doc_result *any = row_any(m, row);

		snprintf(text, sizeof(text), "%s (%s)", any->title,
			 any->backend);
		err = table_set(t, 1 + i, 0, text);
		for (size_t d = 0; d < m->ndocs && !err; d++) {
			report_read_figure(row->cells[d].res, row_unit(m, row),
					   text, sizeof(text));
			err = table_set(t, 1 + i, 1 + d, text);
		}
	}
	if (err)
		table_free(t);
	return err;
}

/* Libraries of doc, "OpenSSL 3.0.19, libgcrypt 1.10.1", into buf. */
static void libraries_text(const struct doc_report *doc, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t p = 0; p < doc->nplugins; p++)
		for (size_t i = 0; i < doc->plugins[p].libraries.n; i++) {
			const struct kv *kv =
				&doc->plugins[p].libraries.items[i];

			if (used >= len || strstr(buf, kv->value))
				continue;
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%s %s", used ? ", " : "",
						 kv->key, kv->value);
		}
}

/* Nonzero when a report of m has a "run" (older reports have none). */
static int any_run(const struct merge *m)
{
	for (size_t d = 0; d < m->ndocs; d++)
		if (m->docs[d].run.known)
			return 1;
	return 0;
}

/* The Run and Started rows (row, row + 1) of every report, "-" if none. */
static int run_rows(const struct merge *m, struct table *t, size_t row)
{
	int err = table_set(t, row, 0, "Run");

	err = err ? err : table_set(t, row + 1, 0, "Started");
	for (size_t d = 0; d < m->ndocs && !err; d++) {
		const struct runinfo *ri = &m->docs[d].run;

		err = table_set(t, row, 1 + d, ri->known ? ri->uuid : "-");
		err = err ? err
			  : table_set(t, row + 1, 1 + d,
				      ri->known ? ri->started : "-");
	}
	return err;
}

/* The context of every report: a row per fact, a column per report. */
static int context_table(const struct merge *m, struct table *t)
{
	static const char *const facts[] = { "File",  "hostbench", "CPU",
					     "Cores", "RAM",	   "Kernel",
					     "OS",    "Libraries" };
	const size_t nfacts = sizeof(facts) / sizeof(facts[0]);
	char text[REPORT_LINE];
	int runs = any_run(m);
	int err = table_init(t, 1 + nfacts + (runs ? 2 : 0), 1 + m->ndocs);

	for (size_t f = 0; f < nfacts && !err; f++)
		err = table_set(t, 1 + f, 0, facts[f]);
	err = err ? err : table_set(t, 0, 0, "Context");
	for (size_t d = 0; d < m->ndocs && !err; d++) {
		const struct sysinfo *si = &m->docs[d].sys;

		err = table_set(t, 0, 1 + d, m->labels[d]);
		err = err ? err : table_set(t, 1, 1 + d, m->docs[d].path);
		err = err ? err : table_set(t, 2, 1 + d, si->version);
		err = err ? err : table_set(t, 3, 1 + d, si->cpu_model);
		snprintf(text, sizeof(text), "%u / %u", si->physical_cores,
			 si->logical_cpus);
		err = err ? err : table_set(t, 4, 1 + d, text);
		snprintf(text, sizeof(text), "%llu kB", si->ram_kb);
		err = err ? err : table_set(t, 5, 1 + d, text);
		err = err ? err : table_set(t, 6, 1 + d, si->kernel);
		err = err ? err : table_set(t, 7, 1 + d, si->os);
		libraries_text(&m->docs[d], text, sizeof(text));
		err = err ? err : table_set(t, 8, 1 + d, text);
	}
	if (!err && runs)
		err = run_rows(m, t, 1 + nfacts);
	if (err)
		table_free(t);
	return err;
}

/* The two tables the text, md and html formats show. */
struct merge_tables {
	struct table ctx, cases;
};

/* Build the context and the cases tables of m. Returns 0 or -ENOMEM. */
static int tables_build(const struct merge *m, struct merge_tables *mt)
{
	int err = context_table(m, &mt->ctx);

	if (err)
		return err;
	err = cases_table(m, &mt->cases);
	if (err)
		table_free(&mt->ctx);
	return err;
}

/* Free what tables_build() made. */
static void tables_free(struct merge_tables *mt)
{
	table_free(&mt->ctx);
	table_free(&mt->cases);
}

/* The merge as text: a context block per report, then the cases. */
static int write_text(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct merge *m = doc;
	struct merge_tables mt;
	const struct table *ctx = &mt.ctx;
	int rc = tables_build(m, &mt);

	if (rc)
		return report_write_end("merge", rc, out, err, errlen);
	/* context columns are wide: one block per report */
	for (size_t d = 0; d < m->ndocs; d++) {
		fprintf(out, "-- [%s]\n", m->labels[d]);
		for (size_t r = 1; r < ctx->rows; r++)
			fprintf(out, "%-9s : %s\n", ctx->cells[r * ctx->cols],
				ctx->cells[r * ctx->cols + 1 + d]);
	}
	fputs("-- [Cases]\nunits: " UNITS_LEGEND "\n", out);
	rc = table_text(&mt.cases, out);
	tables_free(&mt);
	return report_write_end("merge", rc, out, err, errlen);
}

/* The merge as Markdown: the context table, then the cases table. */
static int write_md(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct merge *m = doc;
	struct merge_tables mt;
	int rc = tables_build(m, &mt);

	if (rc)
		return report_write_end("merge", rc, out, err, errlen);
	fputs("# hostbench merge\n\n## Context\n\n", out);
	table_md(&mt.ctx, out);
	fputs("## Cases\n\nUnits: " UNITS_LEGEND "\n\n", out);
	table_md(&mt.cases, out);
	tables_free(&mt);
	return report_write_end("merge", 0, out, err, errlen);
}

/*
 * Every report's results as one report, each case's host (its column's
 * label) a parameter "host", so the run's charts draw a line per host.
 */
static int merged_report(const struct merge *m, struct report_doc *rd)
{
	char err[256];
	size_t k = 0;
	int rc = report_doc_build(rd, m->docs, m->ndocs, err, sizeof(err));

	for (size_t d = 0; d < m->ndocs && !rc; d++)
		for (size_t i = 0; i < m->docs[d].nresults && !rc; i++, k++)
			rc = kvlist_set(&rd->suite.cases[k].params, "host",
					m->labels[d]);
	return rc;
}

/* The charts of a run's html page, with the hosts as series. */
static int write_charts(const struct merge *m, FILE *out)
{
	struct report_doc rd;
	int err = merged_report(m, &rd);

	if (!err)
		err = charts_report(&rd.r, out);
	report_doc_free(&rd);
	return err;
}

/* t turned: a row per report, named in a first column "Host". */
static int turn(struct table *t)
{
	int rc = table_transpose(t);

	return rc ? rc : table_set(t, 0, 0, "Host");
}

int merge_html_sections(const struct merge *m, int reports_as_rows, FILE *out)
{
	struct merge_tables mt;
	int err = tables_build(m, &mt);

	if (err)
		return err;
	if (reports_as_rows && (turn(&mt.ctx) || turn(&mt.cases))) {
		tables_free(&mt);
		return -ENOMEM;
	}
	html_section(out, "Context");
	html_table(out, &mt.ctx, "context", NULL);
	html_section_end(out);
	html_section(out, "Cases");
	fputs("<p>Units: " UNITS_LEGEND "</p>\n", out);
	html_table(out, &mt.cases, "cases", NULL);
	html_section_end(out);
	err = write_charts(m, out);
	tables_free(&mt);
	return err;
}

/* The merge as one HTML page: a section per table. */
static int write_html(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct merge *m = doc;
	int rc;

	html_begin(out, "hostbench merge");
	rc = merge_html_sections(m, 0, out);
	html_end(out);
	return report_write_end("merge", rc, out, err, errlen);
}

/* Row i's case as CSV fields: job, title, target, backend, params, unit. */
static int case_fields(const struct merge *m, size_t i, const char *sep,
		       FILE *out)
{
	const struct doc_result *any = row_any(m, &m->rows[i]);
	char *params = report_read_params_text(any->params);

	if (!params)
		return -ENOMEM;
	table_csv_field(out, sep, any->job);
	table_csv_field(out, ",", any->title);
	table_csv_field(out, ",", any->target);
	table_csv_field(out, ",", any->backend);
	table_csv_field(out, ",", params);
	table_csv_field(out, ",", row_unit(m, &m->rows[i]));
	free(params);
	return 0;
}

/* Cell c of row i as CSV: ",median,cv,status" (median and cv if ok). */
static void cell_fields(const struct merge *m, size_t i,
			const struct doc_result *c, FILE *out)
{
	if (c && c->res.status == RESULT_OK)
		fprintf(out, ",%.15g,%.15g",
			value_in(c, row_unit(m, &m->rows[i])),
			report_read_headline(c)->cv);
	else
		fputs(",,", out);
	fprintf(out, ",%s", c ? result_status_name(c->res.status) : "absent");
}

/* The merge as CSV: a row per case, median, cv and status per report. */
static int write_csv(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct merge *m = doc;
	char name[REPORT_LINE];

	fputs("job,title,target,backend,params,unit", out);
	for (size_t d = 0; d < m->ndocs; d++)
		for (int k = 0; k < 3; k++) {
			snprintf(name, sizeof(name), "%s %s", m->labels[d],
				 k == 0	  ? "median"
				 : k == 1 ? "cv"
					  : "status");
			table_csv_field(out, ",", name);
		}
	fputs("\r\n", out);
	for (size_t i = 0; i < m->nrows; i++) {
		if (case_fields(m, i, "", out))
			return report_write_end("merge", -ENOMEM, out, err,
						errlen);
		for (size_t d = 0; d < m->ndocs; d++)
			cell_fields(m, i, m->rows[i].cells[d].res, out);
		fputs("\r\n", out);
	}
	return report_write_end("merge", 0, out, err, errlen);
}

int merge_csv_rows(const struct merge *m, const char *head, char *const *lead,
		   FILE *out, char *err, size_t errlen)
{
	fprintf(out,
		"%s,job,title,target,backend,params,unit,median,cv,"
		"status,reason\r\n",
		head);
	for (size_t d = 0; d < m->ndocs; d++)
		for (size_t i = 0; i < m->nrows; i++) {
			const struct doc_result *c = m->rows[i].cells[d].res;

			fputs(lead[d], out);
			if (case_fields(m, i, ",", out))
				return report_write_end("merge", -ENOMEM, out,
							err, errlen);
			cell_fields(m, i, c, out);
			table_csv_field(out, ",", c ? c->res.reason : NULL);
			fputs("\r\n", out);
		}
	return report_write_end("merge", 0, out, err, errlen);
}

/* A report's column in JSON: its label and context. */
static json_t *column_json(const struct merge *m, size_t d, int *bad)
{
	const struct doc_report *doc = &m->docs[d];
	const json_t *libs = json_object_get(doc->root, "libraries");
	json_t *o = json_object();

	jsonw_set(o, "label", jsonw_text(m->labels[d]), bad);
	jsonw_set(o, "path", jsonw_text(doc->path), bad);
	jsonw_set(o, "hostbench", jsonw_text(doc->sys.version), bad);
	jsonw_set(o, "hostname", jsonw_text(doc->sys.hostname), bad);
	jsonw_set(o, "cpu_model", jsonw_text(doc->sys.cpu_model), bad);
	jsonw_set(o, "kernel", jsonw_text(doc->sys.kernel), bad);
	jsonw_set(o, "os", jsonw_text(doc->sys.os), bad);
	jsonw_set(o, "libraries", libs ? json_deep_copy(libs) : json_object(),
		  bad);
	if (doc->run.known) {
		jsonw_set(o, "run", jsonw_text(doc->run.uuid), bad);
		jsonw_set(o, "started", jsonw_text(doc->run.started), bad);
	}
	return o;
}

/* The merge as one JSON document: the columns, then the cases. */
static int write_json(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct merge *m = doc;
	json_t *root = json_object(), *cols = json_array(),
	       *cases = json_array();
	int bad = 0, rc;

	jsonw_set(root, "merge_version", json_integer(1), &bad);
	jsonw_set(root, "units", json_string(UNITS_LEGEND), &bad);
	for (size_t d = 0; d < m->ndocs; d++)
		jsonw_push(cols, column_json(m, d, &bad), &bad);
	jsonw_set(root, "columns", cols, &bad);
	for (size_t i = 0; i < m->nrows; i++) {
		const struct doc_result *any = row_any(m, &m->rows[i]);
		json_t *o = json_object(), *vals = json_array();

		jsonw_set(o, "job", jsonw_text(any->job), &bad);
		jsonw_set(o, "title", jsonw_text(any->title), &bad);
		jsonw_set(o, "target", jsonw_text(any->target), &bad);
		jsonw_set(o, "backend", jsonw_text(any->backend), &bad);
		jsonw_set(o, "params",
			  any->params ? json_deep_copy(any->params)
				      : json_object(),
			  &bad);
		jsonw_set(o, "unit", jsonw_text(row_unit(m, &m->rows[i])),
			  &bad);
		for (size_t d = 0; d < m->ndocs; d++)
			jsonw_push(vals,
				   report_read_summary(m->rows[i].cells[d].res,
						       &bad),
				   &bad);
		jsonw_set(o, "values", vals, &bad);
		jsonw_push(cases, o, &bad);
	}
	jsonw_set(root, "cases", cases, &bad);
	if (bad) {
		json_decref(root);
		return report_write_end("merge", -ENOMEM, out, err, errlen);
	}
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(root);
	fputc('\n', out);
	return report_write_end("merge", rc ? -EIO : 0, out, err, errlen);
}

/* The writer of each format, indexed by enum report_format. */
static const struct report_writer writers[REPORT_NFORMATS] = {
	[REPORT_TEXT] = { .write = write_text },
	[REPORT_JSON] = { .write = write_json },
	[REPORT_CSV] = { .write = write_csv },
	[REPORT_MD] = { .write = write_md },
	[REPORT_HTML] = { .write = write_html },
};

int merge_write(const struct merge *m, enum report_format f, FILE *out,
		char *err, size_t errlen)
{
	return report_dispatch(writers, f, m, out, err, errlen);
}
