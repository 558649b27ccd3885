/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CSV report: one header row and one row per result, quoted as RFC 4180
 * says (fields with a comma, quote or line break in double quotes, quotes
 * doubled, CRLF line ends). Rates are bytes per second ("_bps"); median
 * alone is in the case's display unit. A report of a known run ends each
 * row with the run's uuid, start time and label, so rows of many runs pasted
 * into one sheet stay apart; an older report has neither column.
 */
#include "report/report_csv.h"

#include "report/figure.h"
#include "render/table.h"
#include "suite/suite_value.h"

/* clang-format off */
static const char *const columns[] = {
	"job", "title", "target", "backend", "params", "parallel", "status",
	"reason", "unit", "median", "median_bps", "min_bps", "max_bps",
	"mean_bps", "stddev_bps", "cv", "p25_bps", "p75_bps", "samples",
	"noisy", "starved", "warnings", "queue_depth", "bytes_per_cpu_second",
	"cpu_seconds_per_gb", "offload", "latency_p50_ns", "latency_p90_ns",
	"latency_p99_ns", "latency_p999_ns", "latency_max_ns", "ci95_low_bps",
	"ci95_high_bps", "ci95", "imprecise", "warmup_samples", "cpus",
	"cycles_per_byte", "cycles_method",
};
/* clang-format on */

/* A number, or an empty field when it is not known (0). */
static void known(FILE *out, double v)
{
	if (v > 0)
		fprintf(out, ",%.15g", v);
	else
		fputc(',', out);
}

/* Queue depth, host CPU per byte, the offload flag and unit latencies. */
static void async_fields(FILE *out, const struct result *res)
{
	const struct latency *l = &res->latency;

	fprintf(out, ",%u",
		res->c && res->c->queue_depth ? res->c->queue_depth : 1);
	known(out, res->bytes_per_cpu_second);
	known(out, res->cpu_seconds_per_gb);
	fputs(res->offload ? ",true" : ",false", out);
	known(out, l->count ? l->p50 : 0);
	known(out, l->count ? l->p90 : 0);
	known(out, l->count ? l->p99 : 0);
	known(out, l->count ? l->p999 : 0);
	known(out, l->count ? l->max : 0);
}

/* A numeric field with enough digits to read back the same value. */
static void number(FILE *out, double v)
{
	fprintf(out, ",%.15g", v);
}

/* "k=v;k=v" of the case's parameters. */
static void params_field(FILE *out, const struct bench_case *c)
{
	char text[REPORT_LINE] = "";
	size_t used = 0;

	for (size_t i = 0; c && i < c->params.n && used < sizeof(text); i++)
		used += (size_t)snprintf(
			text + used, sizeof(text) - used, "%s%s=%s",
			i ? ";" : "", c->params.items[i].key,
			suite_value_shown(c->tdesc, c->params.items[i].key,
					  c->params.items[i].value));
	table_csv_field(out, ",", text);
}

/* The CPU of each worker ("0;1"), and the cycles per byte with their method. */
static void cpu_fields(FILE *out, const struct result *res)
{
	char text[REPORT_LINE] = "";
	size_t used = 0;
	int known_cycles = res->status == RESULT_OK && res->cycles_per_byte > 0;

	for (unsigned i = 0; i < res->ncpus && used < sizeof(text); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%s%d", i ? ";" : "", res->cpus[i]);
	table_csv_field(out, ",", text);
	known(out, known_cycles ? res->cycles_per_byte : 0);
	table_csv_field(out, ",", known_cycles ? res->cycles_method : NULL);
}

/* The warnings joined with "; ". */
static void warnings_field(FILE *out, const struct strlist *w)
{
	char text[REPORT_LINE] = "";
	size_t used = 0;

	for (size_t i = 0; i < w->n && used < sizeof(text); i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used,
					 "%s%s", i ? "; " : "", w->items[i]);
	table_csv_field(out, ",", text);
}

/*
 * The median's 95% interval (bytes per second, and its relative half-width
 * as ci95), the imprecise flag and the warm-up samples dropped.
 */
static void ci_fields(FILE *out, const struct result *res)
{
	int ok = res->status == RESULT_OK;

	if (ok) {
		number(out, res->rate.ci95_low);
		number(out, res->rate.ci95_high);
		number(out, stats_ci_relative(result_headline(res)));
	} else {
		fputs(",,,", out);
	}
	fprintf(out, ",%s,%u", res->imprecise ? "true" : "false",
		res->warmup_samples);
}

/* Nonzero when r's run is known: the run columns are written. */
static int run_columns(const struct report *r)
{
	return r->run && r->run->known;
}

/* One result's row. */
static void row(FILE *out, const struct report *r, const struct result *res)
{
	static const char *const status[] = { "ok", "failed", "skipped" };
	const struct bench_case *c = res->c;
	const struct job *job = r->suite && c && c->job < r->suite->njobs
					? &r->suite->jobs[c->job]
					: NULL;
	const struct stats *s = &res->rate;
	const char *unit = c && c->unit ? c->unit : "";
	int ok = res->status == RESULT_OK;

	table_csv_field(out, "", job ? job->label : NULL);
	table_csv_field(out, ",", c ? c->title : NULL);
	table_csv_field(out, ",", c ? c->target : NULL);
	table_csv_field(out, ",", c ? c->backend : NULL);
	params_field(out, c);
	fprintf(out, ",%u", c ? c->parallel : 0);
	table_csv_field(out, ",", status[res->status]);
	table_csv_field(out, ",", ok ? NULL : res->reason);
	table_csv_field(out, ",", unit);
	if (ok) {
		number(out, report_value(res, unit));
		number(out, s->median);
		number(out, s->min);
		number(out, s->max);
		number(out, s->mean);
		number(out, s->stddev);
		number(out, result_headline(res)->cv);
		number(out, s->p25);
		number(out, s->p75);
	} else {
		fputs(",,,,,,,,,", out);
	}
	fprintf(out, ",%zu,%s,%s", res->nsamples, res->noisy ? "true" : "false",
		res->starved ? "true" : "false");
	warnings_field(out, &res->warnings);
	async_fields(out, res);
	ci_fields(out, res);
	cpu_fields(out, res);
	if (run_columns(r)) {
		table_csv_field(out, ",", r->run->uuid);
		table_csv_field(out, ",", r->run->started);
		table_csv_field(out, ",", r->run->label);
	}
	fputs("\r\n", out);
}

int report_csv(const void *doc, FILE *out, char *err, size_t errlen)
{
	const struct report *r = doc;

	for (size_t i = 0; i < sizeof(columns) / sizeof(columns[0]); i++)
		table_csv_field(out, i ? "," : "", columns[i]);
	if (run_columns(r))
		fputs(",run_uuid,started,label", out);
	fputs("\r\n", out);
	for (size_t i = 0; i < r->nresults; i++)
		row(out, r, &r->results[i]);
	return report_io_error(out, err, errlen);
}
