/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How a result's figure is worded, alike in every format: its unit, its
 * value, its spread and what to say after it.
 */
#ifndef HB_CORE_REPORT_FIGURE_H
#define HB_CORE_REPORT_FIGURE_H

#include <stddef.h>

#include "result/result.h"

/*
 * The headline figure of res in unit (the case's unit for a result; pass
 * the parent's unit for a part): median bytes/s scaled, or median ops/s.
 */
double report_value(const struct result *res, const char *unit);

/*
 * The figure of res per CPU-second in unit: the median over its samples
 * of the work over the CPU time (user and system) the case's process used;
 * for an offload target, what a second of host CPU drives through the
 * device. 0 when unknown (no CPU time recorded, not ok).
 */
double report_cpu_value(const struct result *res, const char *unit);

/*
 * "(41.30Gbps per CPU-s)" for res in unit, "" when report_cpu_value() is
 * 0; "(9.80Gbps wall)" for a result shown per CPU-second.
 */
void report_cpu_figure(const struct result *res, const char *unit, char *buf,
		       size_t len);

/*
 * Show res, and its parts, per CPU-second (report --figure cpu, as openssl
 * speed counts): the figure per CPU-second takes the headline's place and
 * the wall figure the one beside it. A result without CPU time keeps its
 * wall figure and says so among its notes. Sets res->shown_per_cpu.
 */
void report_show_per_cpu(struct result *res);

/* The CV the noisy flag judges: the wall figure's, wherever it is shown. */
double report_noisy_cv(const struct result *res);

/* The words under a row of figures per CPU-second: "wall" when the
 * figures are shown per CPU-second, else "per CPU-s". */
const char *report_beside_name(const struct result *res);

/* What a report shown per CPU-second says before its figures (80 columns). */
#define REPORT_PER_CPU_TEXT                                                    \
	"Figures per CPU-second: the work over the CPU time (user and "        \
	"system)\n"                                                            \
	"of each case's process, as openssl speed counts it; the wall "        \
	"figure\n"                                                             \
	"beside each (report --figure wall, the default, leads with it).\n"

/* The display unit of a result: its case's, else the suites' "Gbps". */
const char *report_unit(const struct result *res);

/* v as shown in unit: "8.00Gbps", "1234.56k" (kB/s), "12345.6 ops/s". */
void report_format_value(double v, const char *unit, char *buf, size_t len);

/* ns as "812ns", "12.3us", "2.08ms", "1.5s". */
void report_nanoseconds(double ns, char *buf, size_t len);

/* "8.00Gbps", or "failed" / "skipped". */
void report_figure(const struct result *res, char *buf, size_t len);

/*
 * The 95% confidence interval of the figure's median, as its wider half
 * over the median: "±0.4%"; "" for a case that failed or was skipped.
 */
void report_spread(const struct result *res, char *buf, size_t len);

/*
 * What to say after a figure, joined with "; " ("" when nothing): the
 * reason of a failed or skipped case, the plugin note "text", the slower
 * half of a composite ("bound by aes-256-cbc; hmac-md5 alone 5.99Gbps"),
 * "imprecise: asked ±1%", "noisy: CV 7.1%", "starved: CPU 61%", then the
 * plugin's own warnings.
 */
void report_annotations(const struct result *res, char *buf, size_t len);

/*
 * report_annotations() but the reason of a failed or skipped case,
 * appended to what buf already holds.
 */
void report_notes(const struct result *res, char *buf, size_t len);

/* The flags report_notes_but() can leave to a note of the whole section. */
#define REPORT_NOTE_IMPRECISE 1u
#define REPORT_NOTE_NOISY     2u
#define REPORT_NOTE_STARVED   4u

/* report_notes() without the flags in omit (REPORT_NOTE_*). */
void report_notes_but(const struct result *res, unsigned omit, char *buf,
		      size_t len);

#endif
