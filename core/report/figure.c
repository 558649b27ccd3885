/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A result's figure as every format words it: the unit, the value, the
 * spread, and the annotations after it.
 */
#include "report/figure.h"

#include <string.h>

#include "base/units.h"
#include "report/writer.h"

/* The display unit when a case names none: the suites' default. */
#define DEFAULT_UNIT "Gbps"

/* Append one annotation, with "; " between annotations. */
static void add_note(char *buf, size_t len, const char *note)
{
	report_appendf(buf, len, "%s%s", buf[0] ? "; " : "", note);
}

const char *report_unit(const struct result *res)
{
	return res->c && res->c->unit ? res->c->unit : DEFAULT_UNIT;
}

double report_value(const struct result *res, const char *unit)
{
	return unit_scale(unit, res->rate.median, res->ops_rate.median);
}

double report_cpu_value(const struct result *res, const char *unit)
{
	if (res->status != RESULT_OK)
		return 0;
	return unit_scale(unit, res->cpu_rate.median, res->cpu_ops_rate.median);
}

const char *report_beside_name(const struct result *res)
{
	return res->shown_per_cpu > 0 ? "wall" : "per CPU-s";
}

void report_cpu_figure(const struct result *res, const char *unit, char *buf,
		       size_t len)
{
	double v = report_cpu_value(res, unit);
	char fig[64];

	buf[0] = '\0';
	if (!(v > 0))
		return;
	report_format_value(v, unit, fig, sizeof(fig));
	snprintf(buf, len, "(%s %s)", fig, report_beside_name(res));
}

double report_noisy_cv(const struct result *res)
{
	return (res->shown_per_cpu > 0 ? result_cpu_headline(res)
				       : result_headline(res))
		->cv;
}

/* "timed by ssh's session (...); whole command 88.10MB/s" (plugin.h). */
static void tool_note(const struct result *res, char *buf, size_t len)
{
	const char *unit = report_unit(res);
	const char *by = kvlist_get(&res->info, "timed_by");
	char fig[64], note[REPORT_LINE];

	report_format_value(unit_scale(unit, result_command_rate(res, 0),
				       result_command_rate(res, 1)),
			    unit, fig, sizeof(fig));
	snprintf(note, sizeof(note), "timed by %s; whole command %s",
		 by ? by : "the tool", fig);
	add_note(buf, len, note);
}

/* Swap two figures' statistics. */
static void swap_stats(struct stats *a, struct stats *b)
{
	struct stats t = *a;

	*a = *b;
	*b = t;
}

void report_show_per_cpu(struct result *res)
{
	if (res->status == RESULT_OK &&
	    !(res->cpu_rate.median > 0 || res->cpu_ops_rate.median > 0)) {
		res->shown_per_cpu = -1;
	} else if (res->status == RESULT_OK) {
		swap_stats(&res->rate, &res->cpu_rate);
		swap_stats(&res->ops_rate, &res->cpu_ops_rate);
		res->shown_per_cpu = 1;
	}
	for (size_t i = 0; i < res->nparts; i++)
		report_show_per_cpu(&res->parts[i]);
}

void report_format_value(double v, const char *unit, char *buf, size_t len)
{
	if (strcmp(unit, "kB/s") == 0)
		snprintf(buf, len, "%.2fk", v);
	else if (strcmp(unit, "ops/s") == 0)
		snprintf(buf, len, "%.1f ops/s", v);
	else
		snprintf(buf, len, "%.2f%s", v, unit);
}

void report_figure(const struct result *res, char *buf, size_t len)
{
	const char *unit = report_unit(res);

	if (res->status == RESULT_FAILED)
		snprintf(buf, len, "failed");
	else if (res->status == RESULT_SKIPPED)
		snprintf(buf, len, "skipped");
	else
		report_format_value(report_value(res, unit), unit, buf, len);
}

void report_spread(const struct result *res, char *buf, size_t len)
{
	if (res->status != RESULT_OK)
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "±%.1f%%",
			 stats_ci_relative(result_headline(res)) * 100);
}

/* The name of a composite's part: its target's name, without its group. */
static const char *part_name(const struct result *p)
{
	const char *id = p->part		? p->part
			 : p->c && p->c->target ? p->c->target
						: "part";
	const char *slash = strchr(id, '/');

	return slash && slash[1] ? slash + 1 : id;
}

/* "bound by SLOW; FAST alone FIG" for a composite, and its failed parts. */
static void composite_note(const struct result *res, char *buf, size_t len)
{
	const char *unit = report_unit(res);
	const struct result *slow = NULL;
	char note[REPORT_LINE] = "", fig[64];
	size_t nok = 0;

	for (size_t i = 0; i < res->nparts; i++) {
		const struct result *p = &res->parts[i];

		if (p->status != RESULT_OK) {
			snprintf(note, sizeof(note), "part %s %s: %s",
				 part_name(p),
				 p->status == RESULT_FAILED ? "failed"
							    : "skipped",
				 p->reason ? p->reason : "no reason given");
			add_note(buf, len, note);
			continue;
		}
		nok++;
		if (!slow || report_value(p, unit) < report_value(slow, unit))
			slow = p;
	}
	if (nok < 2)
		return;
	snprintf(note, sizeof(note), "bound by %s;", part_name(slow));
	for (size_t i = 0, n = 0; i < res->nparts; i++) {
		const struct result *p = &res->parts[i];

		if (p == slow || p->status != RESULT_OK)
			continue;
		report_format_value(report_value(p, unit), unit, fig,
				    sizeof(fig));
		report_appendf(note, sizeof(note), "%s %s alone %s",
			       n++ ? "," : "", part_name(p), fig);
	}
	add_note(buf, len, note);
}

void report_nanoseconds(double ns, char *buf, size_t len)
{
	if (ns >= 1e9)
		snprintf(buf, len, "%.3gs", ns / 1e9);
	else if (ns >= 1e6)
		snprintf(buf, len, "%.3gms", ns / 1e6);
	else if (ns >= 1e3)
		snprintf(buf, len, "%.3gus", ns / 1e3);
	else
		snprintf(buf, len, "%.0fns", ns);
}

/*
 * For a device's work or units in flight: the host CPU it cost ("offload:
 * host CPU 3%, 0.012 CPU-s/GB") and the latency of a unit ("latency p50
 * 2.08ms p90 ... max ..."). Never a per-CPU-second rate as a wall rate.
 */
static void offload_note(const struct result *res, char *buf, size_t len)
{
	const struct latency *l = &res->latency;
	char note[200], p[5][24];

	if (res->offload) {
		snprintf(note, sizeof(note),
			 "offload: host CPU %.0f%%, %.3g CPU-s/GB",
			 res->cpu_ratio * 100, res->cpu_seconds_per_gb);
		add_note(buf, len, note);
	}
	if (!l->count)
		return;
	report_nanoseconds(l->p50, p[0], sizeof(p[0]));
	report_nanoseconds(l->p90, p[1], sizeof(p[1]));
	report_nanoseconds(l->p99, p[2], sizeof(p[2]));
	report_nanoseconds(l->p999, p[3], sizeof(p[3]));
	report_nanoseconds(l->max, p[4], sizeof(p[4]));
	snprintf(note, sizeof(note),
		 "latency p50 %s p90 %s p99 %s p99.9 %s max %s", p[0], p[1],
		 p[2], p[3], p[4]);
	add_note(buf, len, note);
}

/* Pinned workers: "cpus 0,0" (the CPU each worker ran on). */
static void cpus_note(const struct result *res, char *buf, size_t len)
{
	char note[128] = "cpus";

	if (!res->c || !res->c->cpus || !res->ncpus)
		return;
	for (unsigned i = 0; i < res->ncpus; i++)
		report_appendf(note, sizeof(note), "%s%d", i ? "," : " ",
			       res->cpus[i]);
	add_note(buf, len, note);
}

void report_annotations(const struct result *res, char *buf, size_t len)
{
	buf[0] = '\0';
	if (res->status != RESULT_OK)
		add_note(buf, len,
			 res->reason ? res->reason : "no reason given");
	report_notes(res, buf, len);
}

void report_notes(const struct result *res, char *buf, size_t len)
{
	report_notes_but(res, 0, buf, len);
}

void report_notes_but(const struct result *res, unsigned omit, char *buf,
		      size_t len)
{
	const char *text = kvlist_get(&res->info, "text");
	char note[128];

	if (text)
		add_note(buf, len, text);
	if (res->status == RESULT_OK && res->nparts)
		composite_note(res, buf, len);
	if (res->imprecise && !(omit & REPORT_NOTE_IMPRECISE)) {
		snprintf(note, sizeof(note), "imprecise: asked ±%.2g%%",
			 res->precision * 100);
		add_note(buf, len, note);
	}
	if (res->noisy && !(omit & REPORT_NOTE_NOISY)) {
		snprintf(note, sizeof(note), "noisy: CV %.1f%%%s",
			 report_noisy_cv(res) * 100,
			 res->shown_per_cpu > 0 ? " (wall)" : "");
		add_note(buf, len, note);
	}
	if (res->starved && !(omit & REPORT_NOTE_STARVED)) {
		snprintf(note, sizeof(note), "starved: CPU %.0f%%",
			 res->cpu_ratio * 100);
		add_note(buf, len, note);
	}
	if (res->status == RESULT_OK && (res->offload || res->latency.count))
		offload_note(res, buf, len);
	if (res->status == RESULT_OK)
		cpus_note(res, buf, len);
	if (res->status == RESULT_OK && result_tool_timed(res))
		tool_note(res, buf, len);
	if (res->shown_per_cpu < 0)
		add_note(buf, len, "wall figure: no CPU time recorded");
	for (size_t i = 0; i < res->warnings.n; i++)
		if (!result_is_flag_warning(res->warnings.items[i]))
			add_note(buf, len, res->warnings.items[i]);
}
