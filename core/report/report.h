/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reports: one file per format, all reading the same struct report.
 * Everything goes to the given stream; diagnostics go to stderr only.
 */
#ifndef HB_CORE_REPORT_REPORT_H
#define HB_CORE_REPORT_REPORT_H

#include <stdio.h>

#include "plugin/registry.h"
#include "report/table.h"
#include "result/result.h"
#include "suite/suite.h"
#include "result/sysinfo.h"

enum report_format {
	REPORT_TEXT,
	REPORT_JSON,
	REPORT_CSV,
	REPORT_MD,
	REPORT_HTML,
};

struct report {
	const struct sysinfo *sys;
	const struct registry *reg;
	const struct suite *suite;
	const struct result *results; /* suite->ncases of them, same order */
	size_t nresults;
};

/*
 * "text", "json", "csv", "md", "html" -> format, by the table of writers
 * in report.c. Returns 0 or -EINVAL.
 */
int report_format_parse(const char *name, enum report_format *out);

/*
 * Write r in format f to out through that format's writer. Returns 0 or a
 * negative code with err filled.
 */
int report_write(enum report_format f, const struct report *r, FILE *out,
		 char *err, size_t errlen);

/*
 * One writer per format, one file each (report_text.c ...), listed in the
 * table of writers of report.c; report_write() picks one. Same contract.
 */
int report_text(const struct report *r, FILE *out, char *err, size_t errlen);
int report_json(const struct report *r, FILE *out, char *err, size_t errlen);
int report_csv(const struct report *r, FILE *out, char *err, size_t errlen);
int report_md(const struct report *r, FILE *out, char *err, size_t errlen);
/* One self-contained HTML page: context, every table, inline SVG charts. */
int report_html(const struct report *r, FILE *out, char *err, size_t errlen);
/*
 * The charts of report_html() alone, a <section> per report section: the
 * charts of merge's page, whose hosts are a parameter of their cases.
 * Returns 0 or -ENOMEM.
 */
int report_html_charts(const struct report *r, FILE *out);

/*
 * What the writers share (report.c), so every format says the same thing
 * the same way. docs/reports.md describes the layout they build.
 */

/* A line of text no writer lets grow longer (labels, annotations). */
#define REPORT_LINE 1024

/*
 * A run of results shown together in a report section: one result as a
 * line, the results of one or more consecutive jobs that vary in a single
 * parameter, as a table with a column per value of that parameter, or the
 * results of one job that varies in two, as a grid: a row per value of
 * rows_key, a column per value of key.
 */
struct report_item {
	size_t first, last;   /* results[first..last) */
	const char *key;      /* the table's column parameter; NULL = a line */
	const char *rows_key; /* a grid's row parameter; NULL = not a grid */
};

/* A report section in order of first appearance, and what it shows. */
struct report_section {
	const char *title;
	struct report_item *items;
	size_t nitems;
};

struct report_layout {
	struct report_section *sections;
	size_t nsections;
};

/*
 * Group r->results into sections (a job's `section`, else by group: crypto
 * and mac "Secure Communication Performance", hash "File Integrity
 * Validation Performance", mem and io "Base Performance", transfer "Network
 * Transfer Performance", pk "Public Key Performance", other groups their
 * name) and items. A job becomes
 * a table when its cases differ in exactly one parameter other than
 * backend (a differing backend gives the table's rows) and that parameter
 * is not parallel, which keeps the reference's "memcpy [4 parallels]"
 * lines. A job of one backend whose cases differ in exactly two parameters
 * (parallel counts here) becomes a grid: the parameter written first in
 * the suite down the rows, the other across the columns. Returns 0 or
 * -ENOMEM.
 */
int report_layout_build(const struct report *r, struct report_layout *lay);
void report_layout_free(struct report_layout *lay);

/*
 * The table of item it (it->key set): row 0 is the header; then one row
 * per job and backend, labelled with the job and, when the rows differ in
 * backend, the backend. A "dir" table has a "% Difference" column against
 * the first directory (one per further directory when there are more than
 * two). A grid's corner names the job and its rows and columns name their
 * parameter ("size 64K", "4 parallels"). Its notes hold "ROW, COLUMN:
 * annotations" for every cell that has annotations; each figure's spread
 * is the CV of its samples, which md and html show beside it and text, to
 * keep the classic layout, leaves to the notes of noisy cells. Returns 0
 * or -ENOMEM; free t with table_free().
 */
int report_table_build(const struct report *r, const struct report_item *it,
		       struct table *t);

/*
 * The text of parameter key of case c, "backend" and "parallel" included
 * (buf holds the parallel count); "" when c has no such parameter.
 */
const char *report_case_value(const struct bench_case *c, const char *key,
			      char *buf, size_t len);

/*
 * Whether reports name c's queue depth: one the suite set, a device
 * target, or a depth above 1 (then also "queue_depth" in the JSON
 * parameters).
 */
int report_shows_depth(const struct bench_case *c);

/*
 * Whether every result of section s is a public-key target (group pk):
 * the text report then pairs them as `openssl speed` does
 * (report_pk_text), a sign and the verify of the same key on one line.
 */
int report_pk_section(const struct report *r, const struct report_section *s);

/*
 * Section s's pk results as `openssl speed` lines, "rsa 2048 bits openssl
 * 0.000580s 0.000017s 1724.1 58823.5" under "sign verify sign/s
 * verify/s", derivations under "op op/s". Returns 0 or -ENOMEM.
 */
int report_pk_text(const struct report *r, const struct report_section *s,
		   FILE *out);

/* The report section a result belongs to (see report_layout_build). */
const char *report_section_of(const struct report *r, const struct result *res);

/*
 * The headline figure of res in unit (the case's unit for a result; pass
 * the parent's unit for a part): median bytes/s scaled, or median ops/s.
 */
double report_value(const struct result *res, const char *unit);

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
 * The label of a result's line: its title, with " (backend)" when its job
 * uses more than one backend.
 */
void report_label(const struct report *r, const struct result *res, char *buf,
		  size_t len);

/*
 * What to say after a figure, joined with "; " ("" when nothing): the
 * reason of a failed or skipped case, the plugin note "text", the slower
 * half of a composite ("crypto/aes-256-cbc slower than
 * mac/hmac-md5[5.99Gbps]"), "imprecise: asked ±1%", "noisy: CV 7.1%",
 * "starved: CPU 61%", then the plugin's own warnings.
 */
void report_annotations(const struct result *res, char *buf, size_t len);

/* Why this build's figures are not representative (Debug, sanitizer), or NULL.
 */
const char *report_build_warning(const struct sysinfo *si);

/* "hostbench 0.1.0 (Release build) / Linux". */
void report_app_line(const struct report *r, char *buf, size_t len);

/*
 * Each distinct library of every loaded plugin as "name version" (the
 * version alone when it starts with the name), in load order. Returns 0 or
 * -ENOMEM.
 */
int report_libraries(const struct report *r, struct strlist *out);

/*
 * The one-line facts of System Information as label -> value, in report
 * order: CPU, AES, RAM, Kernel, OS, Host. Returns 0 or -ENOMEM.
 */
int report_system_facts(const struct report *r, struct kvlist *out);

/* "eth0 (virtio_net) 52:54:00:12:34:56 up, speed 10000Mb/s". */
void report_netif_line(const struct netif *nif, char *buf, size_t len);

/* "/tmp : ext4 on /dev/vda1, free 80.12GiB of 251.00GiB". */
void report_fs_line(const struct fsinfo *fs, char *buf, size_t len);

/* hb_errorf() for a failed write to a report stream. */
int report_io_error(FILE *out, char *err, size_t errlen);

#endif
