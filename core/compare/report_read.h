/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A hostbench JSON report read back into memory, for the commands that
 * read reports instead of measuring (compare, merge). One reader: the
 * schema_version check, the context (hostbench, system, libraries) and
 * every result, each measurement through result_json_get().
 */
#ifndef HB_CORE_COMPARE_REPORT_READ_H
#define HB_CORE_COMPARE_REPORT_READ_H

#include <stddef.h>
#include <time.h>

#include <jansson.h>

#include "result/result.h"
#include "result/runinfo.h"
#include "result/sysinfo.h"
#include "base/util.h"

/* The newest schema_version this build reads. */
#define REPORT_SCHEMA_VERSION 1

/*
 * The longest text of a report read back, in bytes, unless a tighter bound
 * holds for it (a host name, SYSINFO_HOSTNAME_MAX; a run's label,
 * RUNINFO_LABEL_MAX): a failure's reason, a title, a path, a key. Longer
 * text from elsewhere is cut to it, so one huge string costs no more than
 * a short one in every command that reads it again.
 */
#define REPORT_TEXT_MAX 4096

/*
 * One result of a report file. Strings point into the document (owned by
 * the struct doc_report); res owns its measurement.
 */
struct doc_result {
	const json_t *json; /* the result as written */
	const char *job, *title, *section, *target, *backend, *unit;
	const json_t *params; /* as written: typed values, "parallel" too */
	unsigned parallel;
	struct result res; /* res.c is NULL: no suite behind it */
};

/*
 * One plugin of the report: its name and library -> version, and its file
 * and version where the report names them ("plugins"), else NULL.
 */
struct doc_plugin {
	const char *name;
	struct kvlist libraries;
	const char *file, *version;
};

/* A whole report file. */
struct doc_report {
	const char *path;   /* as given to report_read() */
	json_t *root;	    /* keeps every string above alive */
	struct sysinfo sys; /* the host; version and build_type too */
	struct runinfo run; /* "run": not known in an older report */
	struct doc_plugin *plugins;
	size_t nplugins;
	struct doc_result *results;
	size_t nresults;
	size_t changed; /* strings sanitized or cut: 0, read as written */
	int torn;	/* a journal: lines cut off (the run died), skipped */
};

/*
 * Make root, a document from elsewhere, safe to show and to keep:
 * sanitize_json_bounded() with a report's bounds (REPORT_TEXT_MAX, and
 * the tighter ones of a host name and a label). *changed (may be NULL)
 * counts what it replaced or cut. Returns 0 or -ENOMEM.
 */
int report_read_clean(json_t *root, size_t *changed);

/*
 * The bytes of the report or journal file at path into *text (*len bytes
 * and a NUL; the caller frees it), its modification time into *mtime (may
 * be NULL). Only a regular file is read: it is opened without blocking
 * (a FIFO would wait for a writer forever) and anything else is refused
 * with -EINVAL. Returns 0 or a negative errno, with "PATH: why" in err.
 */
int report_read_file(const char *path, char **text, size_t *len, time_t *mtime,
		     char *err, size_t errlen);

/*
 * Read the hostbench JSON report at path into a zeroed doc; a journal
 * (--journal FILE) of any length reads as a report of its results,
 * without system information (compare/journal_doc.h; doc->torn counts its
 * lines cut off, skipped). Refuses, with
 * -EINVAL and a one-line message naming the file: a file that is not JSON,
 * a document that is not a hostbench report (no schema_version, results or
 * hostbench object), a schema_version newer than this build reads, a
 * result the codec rejects, and figures no measurement can have
 * (result_check(); an ok result whose headline median or a sample's
 * headline work is not above 0), naming the result; a file that is not a
 * regular file (report_read_file()). Every string is sanitized and bounded
 * (report_read_clean()) and each result's statistics are recomputed
 * from its samples. Returns 0, -EINVAL, -ENOENT (and other errno
 * codes) when the file cannot be read, or -ENOMEM; on error doc is freed.
 */
int report_read(struct doc_report *doc, const char *path, char *err,
		size_t errlen);

/*
 * report_read() of rank's host in a fleet report (fleet.hosts[], the
 * report that host would have written alone); a report of one host is
 * read as it is, and rank -1 is report_read(), which refuses a fleet
 * report naming --rank N. A rank the fleet report does not hold is
 * -EINVAL.
 */
int report_read_rank(struct doc_report *doc, const char *path, int rank,
		     char *err, size_t errlen);

/*
 * The report of one host of a fleet report root (host: an entry of
 * fleet.hosts[]): its "report" with its results, which the fleet report
 * holds once, in root's "results" tagged with their rank (a fleet report
 * of an older hostbench kept them in the host's report too). A new
 * reference, or NULL when host has no report or out of memory.
 */
json_t *report_read_fleet_host(const json_t *root, const json_t *host);

/*
 * report_read() of a report already in memory: text (len bytes) named
 * name in messages (name must outlive doc). The same checks and results;
 * for tests and fuzzing.
 */
int report_read_text(struct doc_report *doc, const char *name, const char *text,
		     size_t len, char *err, size_t errlen);

/*
 * report_read() of a document already parsed: root (its reference taken
 * by doc, freed with it or on error) named name in messages. The same
 * checks, sanitizing and results, without parsing the text again.
 */
int report_read_root(struct doc_report *doc, const char *name, json_t *root,
		     char *err, size_t errlen);

/* Free what doc owns and zero it. */
void report_read_free(struct doc_report *doc);

/*
 * params as compact JSON text with sorted keys, "{}" for NULL. NULL only
 * when out of memory.
 */
char *report_read_params_text(const json_t *params);

/*
 * The headline rate of each kept sample of d, in d's unit's base: ops/s for
 * an "ops/s" job, bytes/s otherwise, per second of wall time or of CPU time
 * as figure says (0 for a sample without that time). out holds
 * d->res.nsamples values.
 */
void report_read_sample_rates(const struct doc_result *d,
			      enum result_figure figure, double *out);

/*
 * The statistics of d's figure: per second of wall time (ops_rate for
 * "ops/s" jobs, else rate) or per CPU-second (cpu_ops_rate, cpu_rate; a
 * median of 0 when the report has no CPU time for a sample).
 */
const struct stats *report_read_stats(const struct doc_result *d,
				      enum result_figure figure);

/* report_read_stats() of the wall figure: the headline. */
const struct stats *report_read_headline(const struct doc_result *d);

/*
 * d's headline figure in unit as a table cell: "29.03Gbps ±0.8% (35.10Gbps
 * per CPU-s)", with " noisy", " imprecise", " starved" when flagged; its
 * status when not ok; "-" for no result.
 */
void report_read_figure(const struct doc_result *d, const char *unit, char *buf,
			size_t len);

/*
 * d as a short JSON object (status, and when ok median, cv, samples,
 * noisy, starved, imprecise, per_cpu_second: the median per CPU-second or
 * null); null for no result. A failed allocation sets *bad.
 */
json_t *report_read_summary(const struct doc_result *d, int *bad);

#endif
