/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What every importer of another tool's results shares (docs/interop.md):
 * the file as read, the table entry an importer is, and the run it makes,
 * a report of hostbench's shape (docs/json-schema.md) that the store
 * takes as it takes hostbench's own: one result per case and figure, each
 * figure with its unit and direction, the tool's name and version as the
 * run's "tool" (a context fact: an upgrade of the tool is a new context,
 * never a regression).
 */
#ifndef HB_CORE_IMPORT_IMPORT_DOC_H
#define HB_CORE_IMPORT_IMPORT_DOC_H

#include <stddef.h>

#include <jansson.h>

#include "base/timetext.h"
#include "base/util.h"
#include "import/import_json.h"

/* A file to import, as read, and what the command line says of it. */
struct import_in {
	const char *path;	  /* as given, for messages */
	const char *text;	  /* its bytes, NUL-terminated */
	size_t len;		  /* without the NUL */
	const char *host;	  /* --host: for a file that names none */
	const char *tool_version; /* --tool-version: for one that says none */
	const char *this_host;	  /* the host hostbench runs on */
	char mtime[TIMETEXT_LEN]; /* the file's time: when it says none */
};

/* What an importer read: runs, and what it assumed or left out. */
struct import_out {
	json_t *runs;	      /* reports, one per host the file names */
	struct strlist notes; /* one line each, for stderr */
};

/*
 * One format: its name (--from NAME), a one-line summary, a sniff that
 * says whether text is of it (cheap, on the raw text: --from auto), and
 * the reader that turns text into runs (NULL: hostbench's own reports,
 * which the store reads itself). read() refuses, with -EINVAL and the
 * reason (a line, a key) in err, a file it cannot read whole: nothing of
 * it goes into out->runs then.
 */
struct import_format {
	const char *name;
	const char *summary;
	int (*sniff)(const char *text, size_t len);
	int (*read)(const struct import_in *in, struct import_out *out,
		    char *err, size_t errlen);
};

/*
 * One run being made: a report, where its results go (one per case, its
 * figures in the case's "figures": docs/interop.md), and the last case.
 */
struct import_run {
	json_t *doc;	 /* the report (out->runs holds it) */
	json_t *results; /* doc's "results" */
	json_t *last;	 /* the last case's result, NULL before one */
	int bad;	 /* an allocation failed */
};

/*
 * A new run of in's file in out->runs, for host (the file's word; NULL:
 * --host, else this host, each said in out->notes) measured by tool at
 * version (the file's word; NULL: --tool-version, else unknown). Its
 * times are the file's time until import_run_times() says otherwise.
 * Returns 0 or -ENOMEM.
 */
int import_run_new(struct import_run *run, const struct import_in *in,
		   struct import_out *out, const char *tool,
		   const char *version, const char *host);

/*
 * The run's start and end ("YYYY-MM-DDTHH:MM:SS.mmmZ"; either may be
 * NULL: a start not given stays the file's time) and its seconds (NAN
 * when the file does not say).
 */
void import_run_times(struct import_run *run, const char *started,
		      const char *ended, double seconds);

/* A time of t seconds since the epoch (UTC) in buf. 0 or -EINVAL. */
int import_time_of(double t, char *buf, size_t len);

/* The system fact key (e.g. "kernel") of the run, as text. */
void import_run_fact(struct import_run *run, const char *key,
		     const char *value);

/* A case of a run: the identity every figure of it shares. */
struct import_case {
	const char *job;      /* the tool's name for it: a job, a command */
	const char *title;    /* as shown: "seqread read" */
	const char *target;   /* "fio/read" */
	const char *backend;  /* the tool: "fio" */
	const json_t *params; /* its parameters (its results share them) */
};

/* A figure of a case: its name, unit and direction. */
struct import_figure {
	const char *name; /* "bw", "clat_p99" */
	const char *unit; /* "MiB/s", "ops/s", "ns", "s", "%", "count" */
	int lower;	  /* lower is better (latency, time) */
};

/*
 * Figure f of case c: value, or the n samples (n > 1: the store takes
 * their median and its CI; value is then the tool's own summary, kept
 * too). A value that is not finite with no samples adds nothing.
 */
void import_figure(struct import_run *run, const struct import_case *c,
		   const struct import_figure *f, double value,
		   const double *samples, size_t n);

/* Figure f of case c failed: reason, never a figure. */
void import_failed(struct import_run *run, const struct import_case *c,
		   const struct import_figure *f, const char *reason);

/* Add a line to out->notes: "PATH: what". */
void import_note(struct import_out *out, const struct import_in *in,
		 const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
