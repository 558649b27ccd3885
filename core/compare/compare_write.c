/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A comparison as text, md, csv, json or html. Every format shows the same
 * rows: each figure with its CV (and "noisy" when the result was flagged),
 * the difference, the p-value of the test and the verdict.
 */
#include "compare/compare.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "base/jsonw.h"
#include "base/units.h"
#include "render/html.h"
#include "report/report.h"
#include "render/svg.h"
#include "render/table.h"
#include "result/result_json.h"

/* The columns of the case table. */
static const char *const case_columns[] = { "Case", "Base", "New",
					    "Diff", "p",    "Verdict" };
#define NCOLS (sizeof(case_columns) / sizeof(case_columns[0]))

/* "TITLE (backend)" of a row; "(base -> new)" when they differ. */
static void row_label(const struct cmp_row *row, char *buf, size_t len)
{
	const struct doc_result *d = row->base ? row->base : row->new;

	if (row->base &&
	    row->new &&strcmp(row->base->backend, row->new->backend) != 0)
		snprintf(buf, len, "%s (%s -> %s)", d->title,
			 row->base->backend, row->new->backend);
	else
		snprintf(buf, len, "%s (%s)", d->title, d->backend);
}

/* The unit a row is shown in: base's, else new's. */
static const char *row_unit(const struct cmp_row *row)
{
	const char *u = row->base ? row->base->unit : row->new->unit;

	return u && u[0] ? u : "Gbps";
}

/* Nonzero when the row has figures on both sides. */
static int judged(const struct cmp_row *row)
{
	return row->verdict == CMP_SAME || row->verdict == CMP_IMPROVED ||
	       row->verdict == CMP_REGRESSED ||
	       row->verdict == CMP_INCONCLUSIVE;
}

/* The figure a row's verdict read: "wall" or "cpu". */
static const char *judged_name(const struct cmp_row *row)
{
	return row->judged == RESULT_FIGURE_CPU ? "cpu" : "wall";
}

/* "regressed (per CPU-s)", "within noise (few samples)", ... */
static void verdict_text(const struct cmp_row *row, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s%s", compare_verdict_name(row),
		 judged(row) && row->judged == RESULT_FIGURE_CPU
			 ? " (per CPU-s)"
			 : "",
		 judged(row) && !row->tested ? " (few samples)" : "",
		 row->by_history ? " (history)" : "");
}

/* The cells of the case table. */
static int case_table(const struct comparison *cmp, struct table *t)
{
	char text[REPORT_LINE];
	int err = table_init(t, 1 + cmp->nrows, NCOLS);

	for (size_t c = 0; c < NCOLS && !err; c++)
		err = table_set(t, 0, c, case_columns[c]);
	for (size_t i = 0; i < cmp->nrows && !err; i++) {
		const struct cmp_row *row = &cmp->rows[i];

		row_label(row, text, sizeof(text));
		err = table_set(t, 1 + i, 0, text);
		report_read_figure(row->base, row_unit(row), text,
				   sizeof(text));
		err = err ? err : table_set(t, 1 + i, 1, text);
		report_read_figure(row->new, row_unit(row), text, sizeof(text));
		err = err ? err : table_set(t, 1 + i, 2, text);
		snprintf(text, sizeof(text), "%+.2f%%", row->diff * 100);
		err = err ? err
			  : table_set(t, 1 + i, 3, judged(row) ? text : "-");
		snprintf(text, sizeof(text), "%.3f", row->p);
		err = err ? err
			  : table_set(t, 1 + i, 4,
				      judged(row) && row->tested ? text : "-");
		verdict_text(row, text, sizeof(text));
		err = err ? err : table_set(t, 1 + i, 5, text);
	}
	if (err)
		table_free(t);
	return err;
}

/* The names of the facts that differ, joined with ", ". */
static void differing(const struct comparison *cmp, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < cmp->nfacts && used < len; i++)
		if (cmp->facts[i].differs)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? ", " : "",
						 cmp->facts[i].name);
}

/* "3 cases compared: 1 regressed, ..." */
static void summary(const struct comparison *cmp, char *buf, size_t len)
{
	snprintf(buf, len,
		 "%zu cases compared: %zu regressed, %zu improved, %zu within "
		 "noise, %zu inconclusive, %zu failed or skipped; %zu only in "
		 "base, %zu only in new. Threshold %.4g%%, Mann-Whitney U at "
		 "p < %.2f, %s figures.",
		 cmp->nmatched, cmp->nregressed, cmp->nimproved,
		 cmp->nmatched - cmp->nregressed - cmp->nimproved -
			 cmp->ninconclusive - cmp->nnot_ok,
		 cmp->ninconclusive, cmp->nnot_ok, cmp->nonly_base,
		 cmp->nonly_new, cmp->threshold * 100, COMPARE_ALPHA,
		 cmp->figure == RESULT_FIGURE_CPU ? "per CPU-second" : "wall");
	if (cmp->history && strlen(buf) < len)
		snprintf(buf + strlen(buf), len - strlen(buf),
			 " %zu cases also against the moves between earlier "
			 "runs of this host (history: %s).",
			 cmp->nhistory, cmp->history);
}

/* The comparison as text: paths, context, the case table, the summary. */
static int write_text(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct comparison *cmp = doc;
	struct table t;
	char line[REPORT_LINE];
	size_t width = 0;
	int rc;

	table_rule(out, "Compare");
	fprintf(out, "base : %s\nnew  : %s\nunits: %s\n", cmp->base_label,
		cmp->new_label, UNITS_LEGEND);
	table_rule(out, "Context");
	for (size_t i = 0; i < cmp->nfacts; i++)
		width = strlen(cmp->facts[i].name) > width
				? strlen(cmp->facts[i].name)
				: width;
	for (size_t i = 0; i < cmp->nfacts; i++) {
		const struct cmp_fact *f = &cmp->facts[i];

		fprintf(out, "%c %-*s : %s", f->differs ? '*' : ' ', (int)width,
			f->name, f->base);
		if (f->differs)
			fprintf(out, " -> %s", f->new);
		fputc('\n', out);
	}
	differing(cmp, line, sizeof(line));
	fprintf(out, "Differs: %s\n", line[0] ? line : "nothing");
	table_rule(out, "Cases");
	rc = case_table(cmp, &t);
	if (!rc)
		rc = table_text(&t, out);
	table_free(&t);
	summary(cmp, line, sizeof(line));
	fprintf(out, "%s\n", line);
	return report_write_end("compare", rc, out, err, errlen);
}

/* The comparison as Markdown, laid out as the text. */
static int write_md(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct comparison *cmp = doc;
	struct table t;
	char line[REPORT_LINE];
	int rc;

	fputs("# hostbench compare\n\n- **Base**: ", out);
	table_md_code(out, cmp->base_label);
	fputs("\n- **New**: ", out);
	table_md_code(out, cmp->new_label);
	fputs("\n- **Units**: " UNITS_LEGEND, out);
	fputs("\n\n## Context\n\n| | Base | New | |\n|---|---|---|---|\n", out);
	for (size_t i = 0; i < cmp->nfacts; i++) {
		const struct cmp_fact *f = &cmp->facts[i];

		table_md_cell(out, f->name);
		table_md_cell(out, f->base);
		table_md_cell(out, f->new);
		table_md_cell(out, f->differs ? "**differs**" : "");
		fputs("|\n", out);
	}
	differing(cmp, line, sizeof(line));
	fputs("\nDiffers: ", out);
	table_md_text(out, line[0] ? line : "nothing");
	fputs("\n\n## Cases\n\n", out);
	rc = case_table(cmp, &t);
	if (!rc)
		table_md(&t, out);
	table_free(&t);
	summary(cmp, line, sizeof(line));
	fprintf(out, "%s\n", line);
	return report_write_end("compare", rc, out, err, errlen);
}

/* A number field, empty when the row has no such figure. */
static void csv_number(FILE *out, int have, double v)
{
	if (have)
		fprintf(out, ",%.15g", v);
	else
		fputc(',', out);
}

/* The side d of a CSV row: median (display unit), cv, samples. */
static void csv_side(FILE *out, const struct doc_result *d, const char *unit)
{
	int ok = d && d->res.status == RESULT_OK;

	csv_number(out, ok,
		   ok ? unit_scale(unit, d->res.rate.median,
				   d->res.ops_rate.median)
		      : 0);
	csv_number(out, ok, ok ? report_read_headline(d)->cv : 0);
	csv_number(out, ok, ok ? (double)d->res.nsamples : 0);
	fputs(ok && d->res.noisy ? ",true" : ",false", out);
}

/* The comparison as CSV: a row per case. */
static int write_csv(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct comparison *cmp = doc;
	fputs("job,title,target,backend,params,unit,base_median,base_cv,"
	      "base_samples,base_noisy,new_median,new_cv,new_samples,new_noisy,"
	      "diff_pct,p,verdict,base_per_cpu_s,new_per_cpu_s,judged,"
	      "history_runs,history_floor_pct\r\n",
	      out);
	for (size_t i = 0; i < cmp->nrows; i++) {
		const struct cmp_row *row = &cmp->rows[i];
		const struct doc_result *d = row->base ? row->base : row->new;
		char *params = report_read_params_text(d->params);

		if (!params)
			return report_write_end("compare", -ENOMEM, out, err,
						errlen);
		table_csv_field(out, "", d->job);
		table_csv_field(out, ",", d->title);
		table_csv_field(out, ",", d->target);
		table_csv_field(out, ",", d->backend);
		table_csv_field(out, ",", params);
		table_csv_field(out, ",", row_unit(row));
		free(params);
		csv_side(out, row->base, row_unit(row));
		csv_side(out, row->new, row_unit(row));
		csv_number(out, judged(row), row->diff * 100);
		csv_number(out, judged(row) && row->tested, row->p);
		table_csv_field(out, ",", compare_verdict_name(row));
		csv_number(out, judged(row) && row->base_cpu > 0,
			   row->base_cpu);
		csv_number(out, judged(row) && row->new_cpu > 0, row->new_cpu);
		table_csv_field(out, ",", judged(row) ? judged_name(row) : "");
		csv_number(out, row->history_runs > 0,
			   (double)row->history_runs);
		csv_number(out, row->history_runs > 0,
			   row->history_floor * 100);
		fputs("\r\n", out);
	}
	return report_write_end("compare", 0, out, err, errlen);
}

/* {"runs", "floor", "decided"} of a row judged by the history, or null. */
static json_t *history_json(const struct cmp_row *row, int *bad)
{
	json_t *h;

	if (!row->history_runs)
		return json_null();
	h = json_object();
	jsonw_set(h, "runs", json_integer((json_int_t)row->history_runs), bad);
	jsonw_set(h, "floor", jsonw_number(row->history_floor), bad);
	jsonw_set(h, "decided", json_boolean(row->by_history), bad);
	return h;
}

/* One case of the JSON document. */
static json_t *case_json(const struct cmp_row *row, int *bad)
{
	const struct doc_result *d = row->base ? row->base : row->new;
	json_t *o = json_object();

	jsonw_set(o, "job", jsonw_text(d->job), bad);
	jsonw_set(o, "title", jsonw_text(d->title), bad);
	jsonw_set(o, "target", jsonw_text(d->target), bad);
	jsonw_set(o, "backend", jsonw_text(d->backend), bad);
	jsonw_set(o, "params",
		  d->params ? json_deep_copy(d->params) : json_object(), bad);
	jsonw_set(o, "unit", jsonw_text(row_unit(row)), bad);
	jsonw_set(o, "base", report_read_summary(row->base, bad), bad);
	jsonw_set(o, "new", report_read_summary(row->new, bad), bad);
	jsonw_set(o, "diff",
		  judged(row) ? jsonw_number(row->diff) : json_null(), bad);
	jsonw_set(o, "p",
		  judged(row) && row->tested ? jsonw_number(row->p)
					     : json_null(),
		  bad);
	jsonw_set(o, "verdict", jsonw_text(compare_verdict_name(row)), bad);
	jsonw_set(o, "judged",
		  judged(row) ? json_string(judged_name(row)) : json_null(),
		  bad);
	jsonw_set(o, "diff_wall",
		  judged(row) ? jsonw_number(row->diff_wall) : json_null(),
		  bad);
	jsonw_set(o, "diff_cpu",
		  judged(row) && row->base_cpu > 0 && row->new_cpu > 0
			  ? jsonw_number(row->diff_cpu)
			  : json_null(),
		  bad);
	jsonw_set(o, "history", history_json(row, bad), bad);
	return o;
}

/* The comparison as one JSON document. */
static int write_json(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct comparison *cmp = doc;
	json_t *root = json_object(), *facts = json_array(),
	       *cases = json_array(), *sum = json_object();
	int bad = 0, rc;

	jsonw_set(root, "compare_version", json_integer(1), &bad);
	jsonw_set(root, "base", jsonw_text(cmp->base_label), &bad);
	jsonw_set(root, "new", jsonw_text(cmp->new_label), &bad);
	jsonw_set(root, "threshold", jsonw_number(cmp->threshold), &bad);
	jsonw_set(root, "alpha", jsonw_number(COMPARE_ALPHA), &bad);
	jsonw_set(root, "test", json_string("mann-whitney-u"), &bad);
	jsonw_set(
		root, "figure",
		json_string(cmp->figure == RESULT_FIGURE_CPU ? "cpu" : "wall"),
		&bad);
	jsonw_set(root, "units", json_string(UNITS_LEGEND), &bad);
	for (size_t i = 0; i < cmp->nfacts; i++) {
		json_t *f = json_object();

		jsonw_set(f, "name", jsonw_text(cmp->facts[i].name), &bad);
		jsonw_set(f, "base", jsonw_text(cmp->facts[i].base), &bad);
		jsonw_set(f, "new", jsonw_text(cmp->facts[i].new), &bad);
		jsonw_set(f, "differs", json_boolean(cmp->facts[i].differs),
			  &bad);
		jsonw_push(facts, f, &bad);
	}
	jsonw_set(root, "context", facts, &bad);
	for (size_t i = 0; i < cmp->nrows; i++)
		jsonw_push(cases, case_json(&cmp->rows[i], &bad), &bad);
	jsonw_set(root, "cases", cases, &bad);
	jsonw_set(sum, "matched", json_integer((json_int_t)cmp->nmatched),
		  &bad);
	jsonw_set(sum, "regressed", json_integer((json_int_t)cmp->nregressed),
		  &bad);
	jsonw_set(sum, "improved", json_integer((json_int_t)cmp->nimproved),
		  &bad);
	jsonw_set(sum, "inconclusive",
		  json_integer((json_int_t)cmp->ninconclusive), &bad);
	jsonw_set(sum, "failed_or_skipped",
		  json_integer((json_int_t)cmp->nnot_ok), &bad);
	jsonw_set(sum, "only_base", json_integer((json_int_t)cmp->nonly_base),
		  &bad);
	jsonw_set(sum, "only_new", json_integer((json_int_t)cmp->nonly_new),
		  &bad);
	jsonw_set(root, "summary", sum, &bad);
	if (bad) {
		json_decref(root);
		return report_write_end("compare", -ENOMEM, out, err, errlen);
	}
	rc = json_dumpf(root, out, JSON_INDENT(2) | JSON_REAL_PRECISION(15));
	json_decref(root);
	fputc('\n', out);
	return report_write_end("compare", rc ? -EIO : 0, out, err, errlen);
}

/* The context as a table for the page, differing rows marked. */
static int page_context(const struct comparison *cmp, FILE *out)
{
	const char **classes = calloc(cmp->nfacts + 1, sizeof(*classes));
	struct table t;
	int err = classes ? table_init(&t, 1 + cmp->nfacts, 3) : -ENOMEM;

	if (err) {
		free(classes);
		return err;
	}
	err = table_set(&t, 0, 0, "Context");
	err = err ? err : table_set(&t, 0, 1, "Base");
	err = err ? err : table_set(&t, 0, 2, "New");
	for (size_t i = 0; i < cmp->nfacts && !err; i++) {
		err = table_set(&t, 1 + i, 0, cmp->facts[i].name);
		err = err ? err : table_set(&t, 1 + i, 1, cmp->facts[i].base);
		err = err ? err : table_set(&t, 1 + i, 2, cmp->facts[i].new);
		classes[1 + i] = cmp->facts[i].differs ? "differs" : NULL;
	}
	if (!err)
		html_table(out, &t, "context", classes);
	table_free(&t);
	free(classes);
	return err;
}

/* The case table and the bar chart of the judged cases. */
static int page_cases(const struct comparison *cmp, FILE *out)
{
	const char **classes = calloc(cmp->nrows + 1, sizeof(*classes));
	struct svg_bar *bars = calloc(cmp->nrows + 1, sizeof(*bars));
	char(*labels)[128] = calloc(cmp->nrows + 1, sizeof(*labels));
	struct table t;
	size_t nbars = 0;
	int err = classes && bars && labels ? case_table(cmp, &t) : -ENOMEM;

	for (size_t i = 0; i < cmp->nrows && !err; i++) {
		const struct cmp_row *row = &cmp->rows[i];

		classes[1 + i] =
			row->verdict == CMP_REGRESSED  ? "verdict-regressed"
			: row->verdict == CMP_IMPROVED ? "verdict-improved"
			: row->verdict == CMP_INCONCLUSIVE
				? "verdict-inconclusive"
				: NULL;
		if (!judged(row))
			continue;
		row_label(row, labels[nbars], sizeof(labels[nbars]));
		bars[nbars].label = labels[nbars];
		bars[nbars].value = row->diff * 100;
		bars[nbars].verdict = row->verdict == CMP_SAME
					      ? "same"
					      : compare_verdict_name(row);
		nbars++;
	}
	if (!err) {
		html_section(out, "Cases");
		html_table(out, &t, "cases", classes);
		svg_bar_chart(out, &(struct svg_bar_chart){
					   .title = "New against base",
					   .band = cmp->threshold * 100,
					   .bars = bars,
					   .nbars = nbars });
		html_section_end(out);
		table_free(&t);
	}
	free(classes);
	free(bars);
	free(labels);
	return err;
}

/* The comparison as one HTML page, with a bar chart of the cases. */
static int write_html(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct comparison *cmp = doc;
	char line[REPORT_LINE];
	int rc;

	html_begin(out, "hostbench compare");
	fputs("<p>Base: <code>", out);
	html_text(out, cmp->base_label);
	fputs("</code><br>New: <code>", out);
	html_text(out, cmp->new_label);
	fputs("</code><br>Units: " UNITS_LEGEND "</p>\n<p class=\"summary\">",
	      out);
	summary(cmp, line, sizeof(line));
	html_text(out, line);
	fputs("</p>\n", out);
	html_section(out, "Context");
	rc = page_context(cmp, out);
	differing(cmp, line, sizeof(line));
	fputs("<p class=\"differs\">Differs: ", out);
	html_text(out, line[0] ? line : "nothing");
	fputs("</p>\n", out);
	html_section_end(out);
	if (!rc)
		rc = page_cases(cmp, out);
	html_end(out);
	return report_write_end("compare", rc, out, err, errlen);
}

/* The writer of each format, indexed by enum report_format. */
static const struct report_writer writers[REPORT_NFORMATS] = {
	[REPORT_TEXT] = { .write = write_text },
	[REPORT_JSON] = { .write = write_json },
	[REPORT_CSV] = { .write = write_csv },
	[REPORT_MD] = { .write = write_md },
	[REPORT_HTML] = { .write = write_html },
};

int compare_write(const struct comparison *cmp, enum report_format f, FILE *out,
		  char *err, size_t errlen)
{
	return report_dispatch(writers, f, cmp, out, err, errlen);
}
